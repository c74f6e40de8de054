/*
 * The JDK's reading of a recording, per event type, for bench/pick-every.bench.test.ts.
 *
 *   java tools/golden/PerType.java OUT FILE...
 *
 * jdk.jfr.consumer.RecordingFile reads each FILE in turn (the chunk files of a repository
 * folder, in name order, sum as one recording; a file it cannot read, such as the newest chunk
 * of a running JVM, is named on stderr and counts what was read before) and writes:
 *   OUT.counts.tsv    type<TAB>events
 *   OUT.detail.tsv    type<TAB>events<TAB>events of a type with a stackTrace field whose stack is
 *                     absent or empty<TAB>sum of durations in ns
 *   OUT.threads.tsv   type<TAB>thread<TAB>events: the thread is sampledThread, else eventThread,
 *                     named by its Java name, else its OS name; "(none)" without one
 * each sorted by type (then thread).
 */
import java.nio.file.Files;
import java.nio.file.Paths;
import java.util.TreeMap;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordedThread;
import jdk.jfr.consumer.RecordingFile;

public class PerType {
    public static void main(String[] args) throws Exception {
        String out = args[0];
        TreeMap<String, long[]> types = new TreeMap<>();
        TreeMap<String, Long> threads = new TreeMap<>();
        for (int i = 1; i < args.length; i++) {
            try (RecordingFile rf = new RecordingFile(Paths.get(args[i]))) {
                while (rf.hasMoreEvents()) {
                    RecordedEvent e = rf.readEvent();
                    String type = e.getEventType().getName();
                    long[] v = types.computeIfAbsent(type, k -> new long[3]);
                    v[0]++;
                    if (e.getEventType().getField("stackTrace") != null && (e.getStackTrace() == null || e.getStackTrace().getFrames().isEmpty())) v[1]++;
                    v[2] += e.getDuration().toNanos();
                    RecordedThread t = e.hasField("sampledThread") ? e.getThread("sampledThread") : e.hasField("eventThread") ? e.getThread("eventThread") : null;
                    String name = t == null ? "(none)" : t.getJavaName() != null ? t.getJavaName() : t.getOSName() != null ? t.getOSName() : "";
                    threads.merge(type + "\t" + name, 1L, Long::sum);
                }
            } catch (Exception ex) {
                System.err.println(args[i] + ": " + ex);
            }
        }
        StringBuilder counts = new StringBuilder(), detail = new StringBuilder(), byThread = new StringBuilder();
        types.forEach((k, v) -> {
            counts.append(k).append('\t').append(v[0]).append('\n');
            detail.append(k).append('\t').append(v[0]).append('\t').append(v[1]).append('\t').append(v[2]).append('\n');
        });
        threads.forEach((k, v) -> byThread.append(k).append('\t').append(v).append('\n'));
        Files.writeString(Paths.get(out + ".counts.tsv"), counts);
        Files.writeString(Paths.get(out + ".detail.tsv"), detail);
        Files.writeString(Paths.get(out + ".threads.tsv"), byThread);
    }
}
