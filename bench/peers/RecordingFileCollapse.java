/*
 * The JDK's own reader doing the benchmark's work: read every event, resolve each
 * jdk.ExecutionSample's stack, build collapsed stacks. Prints the sample total.
 *   java bench/peers/RecordingFileCollapse.java FILE
 */
import java.nio.file.Paths;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordedFrame;
import jdk.jfr.consumer.RecordingFile;

public class RecordingFileCollapse {
    public static void main(String[] args) throws Exception {
        Map<String, Long> stacks = new HashMap<>();
        long events = 0;
        long samples = 0;
        try (RecordingFile rf = new RecordingFile(Paths.get(args[0]))) {
            while (rf.hasMoreEvents()) {
                RecordedEvent e = rf.readEvent();
                events++;
                if (!e.getEventType().getName().equals("jdk.ExecutionSample")) continue;
                samples++;
                StringBuilder b = new StringBuilder();
                if (e.getStackTrace() != null) {
                    List<RecordedFrame> fr = e.getStackTrace().getFrames();
                    for (int i = fr.size() - 1; i >= 0; i--) {
                        if (b.length() > 0) b.append(';');
                        b.append(fr.get(i).getMethod().getType().getName()).append('.').append(fr.get(i).getMethod().getName());
                    }
                }
                stacks.merge(b.toString(), 1L, Long::sum);
            }
        }
        System.err.println("RecordingFile: " + events + " events, " + samples + " samples, " + stacks.size() + " stacks");
    }
}
