/*
 * The JDK's reading of a recording, per event type, for bench/pick-every.bench.test.ts.
 *
 *   java tools/golden/PerType.java OUT FILE           one recording file
 *   java tools/golden/PerType.java OUT DIR            a JFR repository folder (its chunk files)
 *   java tools/golden/PerType.java OUT FILE FILE...   one JVM's chunk files, read as one recording
 *
 * One file is read by jdk.jfr.consumer.RecordingFile. A folder or several files are read as the
 * JDK reads a repository (EventStream.openRepository, `jfr assemble`), so they must be one JVM's
 * chunk files (its repository folder, or files it wrote one after another): the JDK carries
 * constants from chunk to chunk with no check of where they come from, so files of different
 * JVMs read so would merge threads across JVMs (two JVMs number their threads alike). For files
 * of different JVMs (their jdk.JVMInformation differs in pid or jvmStartTime) run this on each
 * file alone and sum the counts, as the page reads several files that are not one repository
 * (engine/layout.ts chainRuns). A folder or several files are one recording whose chunks
 * follow one another, each chunk parsed after the one before it, so constants such as a thread
 * renamed while recording carry over from chunk to chunk and from file to file (jdk.jfr's
 * ChunkParser reuses the previous chunk's resolved constants). The chunks of every file that is
 * a recording (files that are not are named on stderr and left out) are put in time order, as
 * the page joins several files (engine/layout.ts joinLayouts: chunk start, then file name, then
 * offset), and written end to end into a temporary file that RecordingFile reads, as it reads
 * the file `jfr assemble` writes. A chunk whose header says it is still being written (the newest
 * chunk of a running JVM) or whose bytes run past its file's end is named and left out, as the
 * page leaves it out; a chunk RecordingFile cannot read is named and ends the reading, keeping
 * what was read before. Writes:
 *   OUT.counts.tsv    type<TAB>events
 *   OUT.detail.tsv    type<TAB>events<TAB>events of a type with a stackTrace field whose stack is
 *                     absent or empty<TAB>sum of durations in ns<TAB>events with a stack (frames):
 *                     the type is each event's own, so a jfrsync file's profiler chunk, whose
 *                     jdk.ActiveSetting has no stackTrace field, counts none of its events in the
 *                     third column
 *   OUT.threads.tsv   type<TAB>thread<TAB>events: the thread is sampledThread, else eventThread,
 *                     named by its Java name, else its OS name; "(none)" without one
 * each sorted by type (then thread).
 */
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.TreeMap;
import java.util.stream.Stream;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordedThread;
import jdk.jfr.consumer.RecordingFile;

public class PerType {
    /** One chunk of one file: where it lies, and its start (ns since the epoch) from its header. */
    record Chunk(Path file, int fileOrder, long offset, long size, long startNanos) {}

    public static void main(String[] args) throws Exception {
        String out = args[0];
        TreeMap<String, long[]> types = new TreeMap<>();
        TreeMap<String, Long> threads = new TreeMap<>();
        List<Path> files = new ArrayList<>();
        for (int i = 1; i < args.length; i++) {
            Path p = Paths.get(args[i]);
            if (Files.isDirectory(p)) {
                try (Stream<Path> in = Files.list(p)) {
                    in.filter(Files::isRegularFile).sorted(Comparator.comparing(f -> f.getFileName().toString())).forEach(files::add);
                }
            } else {
                files.add(p);
            }
        }
        if (files.isEmpty()) {
            System.err.println(String.join(" ", List.of(args).subList(1, args.length)) + ": no files to read");
            System.exit(1);
        }
        // A plain file argument is read as it is; a folder, even of one file, is read as chunks,
        // leaving out a chunk still being written.
        boolean plain = args.length == 2 && !Files.isDirectory(Paths.get(args[1]));
        Path read = plain ? files.get(0) : joined(files);
        try (RecordingFile rf = new RecordingFile(read)) {
            while (rf.hasMoreEvents()) {
                RecordedEvent e = rf.readEvent();
                String type = e.getEventType().getName();
                long[] v = types.computeIfAbsent(type, k -> new long[4]);
                v[0]++;
                if (e.getEventType().getField("stackTrace") != null && (e.getStackTrace() == null || e.getStackTrace().getFrames().isEmpty())) v[1]++;
                else if (e.getEventType().getField("stackTrace") != null) v[3]++;
                v[2] += e.getDuration().toNanos();
                RecordedThread t = e.hasField("sampledThread") ? e.getThread("sampledThread") : e.hasField("eventThread") ? e.getThread("eventThread") : null;
                String name = t == null ? "(none)" : t.getJavaName() != null ? t.getJavaName() : t.getOSName() != null ? t.getOSName() : "";
                threads.merge(type + "\t" + name, 1L, Long::sum);
            }
        } catch (Exception ex) {
            System.err.println(String.join(" ", files.stream().map(Path::toString).toList()) + ": " + ex);
        } finally {
            if (!plain) Files.deleteIfExists(read);
        }
        StringBuilder counts = new StringBuilder(), detail = new StringBuilder(), byThread = new StringBuilder();
        types.forEach((k, v) -> {
            counts.append(k).append('\t').append(v[0]).append('\n');
            detail.append(k).append('\t').append(v[0]).append('\t').append(v[1]).append('\t').append(v[2]).append('\t').append(v[3]).append('\n');
        });
        threads.forEach((k, v) -> byThread.append(k).append('\t').append(v).append('\n'));
        Files.writeString(Paths.get(out + ".counts.tsv"), counts);
        Files.writeString(Paths.get(out + ".detail.tsv"), detail);
        Files.writeString(Paths.get(out + ".threads.tsv"), byThread);
    }

    /** The chunks of `files` in time order, written end to end into a temporary file. */
    static Path joined(List<Path> files) throws IOException {
        List<Chunk> chunks = new ArrayList<>();
        for (int k = 0; k < files.size(); k++) {
            Path f = files.get(k);
            try (FileChannel in = FileChannel.open(f)) {
                long size = in.size();
                if (size < 68) System.err.println(f + ": not a recording, left out");
                ByteBuffer h = ByteBuffer.allocate(68);
                for (long pos = 0; pos + 68 <= size; ) {
                    h.clear();
                    while (h.hasRemaining() && in.read(h, pos + h.position()) > 0) {}
                    if (h.getInt(0) != 0x464c5200) {
                        if (pos == 0) System.err.println(f + ": not a recording, left out");
                        else System.err.println(f + ": no chunk header at " + pos + ", the rest left out");
                        break;
                    }
                    long n = h.getLong(8);
                    if (h.get(64) != 0) {
                        System.err.println(f + ": the chunk at " + pos + " is still being written, left out");
                        break;
                    }
                    if (n < 68 || pos + n > size) {
                        System.err.println(f + ": the chunk at " + pos + " runs past the end of the file, left out");
                        break;
                    }
                    chunks.add(new Chunk(f, k, pos, n, h.getLong(32)));
                    pos += n;
                }
            }
        }
        chunks.sort(Comparator.comparingLong(Chunk::startNanos).thenComparingInt(Chunk::fileOrder).thenComparingLong(Chunk::offset));
        Path tmp = Files.createTempFile("pertype-", ".jfr");
        try (FileChannel to = FileChannel.open(tmp, StandardOpenOption.WRITE)) {
            for (Chunk c : chunks) {
                try (FileChannel in = FileChannel.open(c.file())) {
                    for (long done = 0; done < c.size(); ) {
                        long w = in.transferTo(c.offset() + done, c.size() - done, to);
                        if (w <= 0) throw new IOException(c.file() + ": could not copy the chunk at " + c.offset());
                        done += w;
                    }
                }
            }
        }
        return tmp;
    }
}
