/*
 * The JDK's reading of a recording, as golden files for the parser's tests.
 *
 *   java tools/golden/Golden.java OUTDIR FILE...
 *
 * For each FILE (NAME.jfr, or NAME.jfr.gz, read decompressed), jdk.jfr.consumer.RecordingFile
 * writes into OUTDIR:
 *   NAME.jfr.rf-counts.tsv          type<TAB>count, sorted by type
 *   NAME.jfr.TYPE.collapsed.gz      per type with a stackTrace field (in any chunk) and events:
 *                                   collapsed
 *                                   stacks, root first, frame = Class.method, sorted; weight =
 *                                   events (the sum of `samples` for profiler.WallClockSample)
 *   NAME.jfr.threads.tsv            samples per Java thread name of jdk.ExecutionSample
 *   NAME.jfr.TYPE.threads.tsv       the same for the other execution-sample types
 *   NAME.jfr.fields.tsv             per type and top-level field, for the type tables:
 *                                   type<TAB>field<TAB>sum<TAB>VALUE   the sum of an integer
 *                                     field (not a time or a span), as a long that wraps
 *                                   type<TAB>field<TAB>fsum<TAB>VALUE  the sum of a float field
 *                                   type<TAB>field<TAB>true<TAB>N      true values of a boolean
 *                                   type<TAB>field<TAB>threads<TAB>A|B the distinct thread names
 *                                     (Java name, else OS name) of a thread field, sorted, each
 *                                     with \ \n \r \t | written \\ \n \r \t \p
 *                                   sorted by type, then field
 *   NAME.jfr.samples.tsv.gz         each jdk.ExecutionSample in file order: start time (ns since
 *                                   the epoch), thread's Java name, stack root first (as collapsed)
 *   NAME.jfr.nativemem.tsv.gz       each profiler.Malloc and profiler.Free in file order:
 *                                     M<TAB>start ns<TAB>address<TAB>size<TAB>stack (as collapsed)
 *                                     F<TAB>start ns<TAB>address
 *   NAME.jfr.shape.tsv              per second since the epoch with any: second<TAB>execution
 *                                   samples starting in it<TAB>allocation samples starting in
 *                                   it<TAB>ns of waits (monitor enter/wait, native lock, park,
 *                                   sleep, file and socket I/O) overlapping it; sorted by second
 *   NAME.jfr.chunk-counts.tsv       for recordings of several chunks: chunk<TAB>type<TAB>count, each
 *                                   chunk (cut out by its header's size) read on its own
 *   NAME.jfr.kinds.tsv              for recordings with virtual threads, pinned virtual threads,
 *                                   native memory, native locks, spans or method traces: the
 *                                   fields the parser puts into its event columns, summed (sorted):
 *                                     virtual<TAB>thread name<TAB>events on it
 *                                     pinned<TAB>thread<TAB>carrier<TAB>reason<TAB>events<TAB>ns
 *                                     malloc<TAB>events<TAB>bytes
 *                                     unfreed<TAB>allocations<TAB>bytes   (in time order, file
 *                                       order among equal times, a free matches the latest
 *                                       malloc of its address; what no free matched)
 *                                     span<TAB>tag<TAB>events<TAB>ns
 *                                     method<TAB>Class.method<TAB>events<TAB>ns
 *                                     nativelock<TAB>events<TAB>ns
 * If RecordingFile throws, nothing but a notice is written for that file.
 */
import java.io.*;
import java.nio.file.*;
import java.util.*;
import java.util.zip.*;
import jdk.jfr.consumer.*;

public class Golden {
    static final List<String> SAMPLE_TYPES = List.of("jdk.ExecutionSample", "jdk.NativeMethodSample",
        "profiler.WallClockSample", "jdk.CPUTimeSample");

    static final List<String> SHAPE_SAMPLES = List.of("jdk.ExecutionSample", "jdk.CPUTimeSample", "jdk.NativeMethodSample",
        "profiler.WallClockSample");
    static final List<String> SHAPE_ALLOCS = List.of("jdk.ObjectAllocationSample", "jdk.ObjectAllocationInNewTLAB",
        "jdk.ObjectAllocationOutsideTLAB");
    static final List<String> SHAPE_WAITS = List.of("jdk.JavaMonitorEnter", "jdk.JavaMonitorWait", "profiler.NativeLock",
        "jdk.ThreadPark", "jdk.ThreadSleep", "jdk.FileRead", "jdk.FileWrite", "jdk.FileForce", "jdk.SocketRead", "jdk.SocketWrite");

    static long nanos(java.time.Instant t) {
        return t.getEpochSecond() * 1_000_000_000L + t.getNano();
    }

    /** Adds one event to the per-second shape: {samples, allocs, wait ns} per second. */
    static void shape(RecordedEvent e, String type, TreeMap<Long, long[]> shape) {
        long start = nanos(e.getStartTime());
        long sec = Math.floorDiv(start, 1_000_000_000L);
        if (SHAPE_SAMPLES.contains(type)) shape.computeIfAbsent(sec, k -> new long[3])[0]++;
        if (SHAPE_ALLOCS.contains(type)) shape.computeIfAbsent(sec, k -> new long[3])[1]++;
        if (SHAPE_WAITS.contains(type)) {
            long end = start + Math.max(0, e.getDuration().toNanos());
            for (long s = sec; s <= Math.floorDiv(end, 1_000_000_000L); s++) {
                long lo = Math.max(start, s * 1_000_000_000L), hi = Math.min(end, (s + 1) * 1_000_000_000L);
                if (hi > lo) shape.computeIfAbsent(s, k -> new long[3])[2] += hi - lo;
            }
        }
    }

    public static void main(String[] args) throws Exception {
        Path out = Paths.get(args[0]);
        Files.createDirectories(out);
        for (int i = 1; i < args.length; i++) {
            Path file = Paths.get(args[i]);
            String name = file.getFileName().toString().replaceAll("\\.gz$", "");
            Path jfr = file;
            if (file.toString().endsWith(".gz")) {
                jfr = Files.createTempFile("golden", ".jfr");
                try (InputStream in = new GZIPInputStream(Files.newInputStream(file))) {
                    Files.copy(in, jfr, StandardCopyOption.REPLACE_EXISTING);
                }
            }
            try {
                chunkCounts(jfr, out, name);
                write(jfr, out, name);
            } catch (Exception e) {
                System.err.println("notice: RecordingFile cannot read " + file + ": " + e);
            }
        }
    }

    /** Events per type of each chunk, each chunk's bytes read by RecordingFile alone. */
    static void chunkCounts(Path jfr, Path out, String name) throws IOException {
        byte[] all = Files.readAllBytes(jfr);
        List<byte[]> chunks = new ArrayList<>();
        for (int pos = 0; pos + 68 <= all.length; ) {
            long size = java.nio.ByteBuffer.wrap(all, pos + 8, 8).getLong();
            if (size <= 0 || pos + size > all.length) break;
            chunks.add(Arrays.copyOfRange(all, pos, (int) (pos + size)));
            pos += (int) size;
        }
        if (chunks.size() < 2) return;
        StringBuilder b = new StringBuilder();
        for (int k = 0; k < chunks.size(); k++) {
            Path one = Files.createTempFile("chunk", ".jfr");
            Files.write(one, chunks.get(k));
            TreeMap<String, Long> counts = new TreeMap<>();
            try (RecordingFile rf = new RecordingFile(one)) {
                while (rf.hasMoreEvents()) counts.merge(rf.readEvent().getEventType().getName(), 1L, Long::sum);
            }
            Files.delete(one);
            final int chunk = k;
            counts.forEach((t, n) -> b.append(chunk).append('\t').append(t).append('\t').append(n).append('\n'));
        }
        Files.writeString(out.resolve(name + ".chunk-counts.tsv"), b);
    }

    static void write(Path jfr, Path out, String name) throws IOException {
        TreeMap<String, Long> counts = new TreeMap<>();
        TreeMap<String, TreeMap<String, Long>> stacks = new TreeMap<>();
        TreeMap<String, TreeMap<String, Long>> threads = new TreeMap<>();
        Set<String> stackTypes = new HashSet<>();
        TreeMap<String, Object> fields = new TreeMap<>();
        StringBuilder samples = new StringBuilder();
        StringBuilder nativemem = new StringBuilder();
        TreeMap<String, long[]> kinds = new TreeMap<>();
        TreeMap<Long, long[]> shape = new TreeMap<>();
        List<long[]> memory = new ArrayList<>();
        long[] malloc = new long[2];
        // A type is known by its name: when one chunk declares it with a stack trace and
        // another without (async-profiler's jfrsync), the stackless events count under the
        // empty stack. readEventTypes() keeps one type per id across chunks, so a chunk whose
        // ids another chunk already used (jfrsync's profiler chunk) would be missed: the
        // events' own types are collected in a first pass instead.
        Set<String> withStack = new HashSet<>();
        try (RecordingFile rf = new RecordingFile(jfr)) {
            while (rf.hasMoreEvents()) {
                jdk.jfr.EventType t = rf.readEvent().getEventType();
                if (t.getField("stackTrace") != null) withStack.add(t.getName());
            }
        }
        try (RecordingFile rf = new RecordingFile(jfr)) {
            while (rf.hasMoreEvents()) {
                RecordedEvent e = rf.readEvent();
                String type = e.getEventType().getName();
                counts.merge(type, 1L, Long::sum);
                addFields(e, type, fields);
                kinds(e, type, kinds, memory, malloc);
                shape(e, type, shape);
                boolean hasStack = withStack.contains(type);
                long weight = type.equals("profiler.WallClockSample") && e.hasField("samples") ? e.getLong("samples") : 1;
                if (hasStack) {
                    stackTypes.add(type);
                    StringBuilder line = new StringBuilder();
                    RecordedStackTrace st = e.hasField("stackTrace") ? e.getStackTrace() : null;
                    if (st != null) {
                        List<RecordedFrame> frames = st.getFrames();
                        for (int f = frames.size() - 1; f >= 0; f--) {
                            RecordedMethod m = frames.get(f).getMethod();
                            if (line.length() > 0) line.append(';');
                            line.append(m.getType().getName()).append('.').append(m.getName());
                        }
                    }
                    stacks.computeIfAbsent(type, k -> new TreeMap<>()).merge(line.toString(), weight, Long::sum);
                    if (type.equals("profiler.Malloc")) {
                        java.time.Instant at = e.getStartTime();
                        nativemem.append("M\t").append(at.getEpochSecond()).append(String.format("%09d", at.getNano())).append('\t')
                            .append(e.getLong("address")).append('\t').append(e.getLong("size")).append('\t').append(line).append('\n');
                    }
                    if (type.equals("jdk.ExecutionSample")) {
                        java.time.Instant at = e.getStartTime();
                        RecordedThread t = e.hasField("sampledThread") ? e.getThread("sampledThread") : null;
                        samples.append(at.getEpochSecond()).append(String.format("%09d", at.getNano())).append('\t')
                            .append(t == null || t.getJavaName() == null ? "" : t.getJavaName()).append('\t').append(line).append('\n');
                    }
                }
                if (type.equals("profiler.Free")) {
                    java.time.Instant at = e.getStartTime();
                    nativemem.append("F\t").append(at.getEpochSecond()).append(String.format("%09d", at.getNano())).append('\t')
                        .append(e.getLong("address")).append('\n');
                }
                if (SAMPLE_TYPES.contains(type)) {
                    RecordedThread t = e.hasField("sampledThread") ? e.getThread("sampledThread") : e.getThread();
                    String tn = t == null || t.getJavaName() == null ? "" : t.getJavaName();
                    threads.computeIfAbsent(type, k -> new TreeMap<>()).merge(tn, weight, Long::sum);
                }
            }
        }
        StringBuilder fs = new StringBuilder();
        fields.forEach((k, v) -> {
            String value = v instanceof TreeSet<?> ? String.join("|", ((TreeSet<String>) v).stream().map(Golden::escape).collect(java.util.stream.Collectors.toList())) : String.valueOf(v);
            fs.append(k).append('\t').append(value).append('\n');
        });
        Files.writeString(out.resolve(name + ".fields.tsv"), fs);
        if (malloc[0] > 0) {
            memory.sort(Comparator.<long[]>comparingLong(x -> x[0]).thenComparingLong(x -> x[1]));
            HashMap<Long, Long> live = new HashMap<>();
            for (long[] x : memory) {
                if (x[3] >= 0) live.put(x[2], x[3]);
                else live.remove(x[2]);
            }
            kinds.put("malloc\t" + malloc[0], new long[] {malloc[1]});
            long bytes = 0;
            for (long b : live.values()) bytes += b;
            kinds.put("unfreed\t" + live.size(), new long[] {bytes});
        }
        if (!kinds.isEmpty()) {
            StringBuilder b = new StringBuilder();
            kinds.forEach((k, v) -> {
                b.append(k);
                for (long x : v) b.append('\t').append(x);
                b.append('\n');
            });
            Files.writeString(out.resolve(name + ".kinds.tsv"), b);
        }
        if (!shape.isEmpty()) {
            StringBuilder b = new StringBuilder();
            shape.forEach((k, v) -> b.append(k).append('\t').append(v[0]).append('\t').append(v[1]).append('\t').append(v[2]).append('\n'));
            Files.writeString(out.resolve(name + ".shape.tsv"), b);
        }
        StringBuilder c = new StringBuilder();
        counts.forEach((k, v) -> c.append(k).append('\t').append(v).append('\n'));
        Files.writeString(out.resolve(name + ".rf-counts.tsv"), c);
        for (Map.Entry<String, TreeMap<String, Long>> s : stacks.entrySet()) {
            StringBuilder b = new StringBuilder();
            s.getValue().forEach((k, v) -> b.append(k).append(' ').append(v).append('\n'));
            try (OutputStream o = new GZIPOutputStream(Files.newOutputStream(out.resolve(name + "." + s.getKey() + ".collapsed.gz")))) {
                o.write(b.toString().getBytes("UTF-8"));
            }
        }
        if (nativemem.length() > 0) {
            try (OutputStream o = new GZIPOutputStream(Files.newOutputStream(out.resolve(name + ".nativemem.tsv.gz")))) {
                o.write(nativemem.toString().getBytes("UTF-8"));
            }
        }
        if (samples.length() > 0) {
            try (OutputStream o = new GZIPOutputStream(Files.newOutputStream(out.resolve(name + ".samples.tsv.gz")))) {
                o.write(samples.toString().getBytes("UTF-8"));
            }
        }
        for (Map.Entry<String, TreeMap<String, Long>> t : threads.entrySet()) {
            StringBuilder b = new StringBuilder();
            t.getValue().forEach((k, v) -> b.append(k).append('\t').append(v).append('\n'));
            String file = t.getKey().equals("jdk.ExecutionSample") ? name + ".threads.tsv" : name + "." + t.getKey() + ".threads.tsv";
            Files.writeString(out.resolve(file), b);
        }
    }

    static String threadName(RecordedThread t) {
        return t == null || t.getJavaName() == null ? "" : t.getJavaName();
    }

    static void add(TreeMap<String, long[]> m, String key, long ns) {
        long[] v = m.computeIfAbsent(key, k -> new long[2]);
        v[0]++;
        v[1] += ns;
    }

    /** Virtual threads, pinning, native memory, native locks, spans and traces (kinds.tsv). */
    static long nanos(RecordedEvent e) {
        java.time.Instant at = e.getStartTime();
        return at.getEpochSecond() * 1_000_000_000L + at.getNano();
    }

    static void kinds(RecordedEvent e, String type, TreeMap<String, long[]> m, List<long[]> memory, long[] malloc) {
        RecordedThread t = e.hasField("eventThread") ? e.getThread("eventThread") : null;
        if (t != null && t.hasField("virtual") && t.getBoolean("virtual")) {
            m.computeIfAbsent("virtual\t" + threadName(t), k -> new long[1])[0]++;
        }
        long ns = e.getDuration().toNanos();
        // Written for --release 11 (no switch rules or patterns): golden.sh runs it on JDK 11 too.
        if (type.equals("jdk.VirtualThreadPinned")) {
            add(m, "pinned\t" + threadName(t) + "\t" + threadName(e.getThread("carrierThread")) + "\t" + e.getString("pinnedReason"), ns);
        } else if (type.equals("profiler.Span")) {
            add(m, "span\t" + e.getString("tag"), ns);
        } else if (type.equals("jdk.MethodTrace")) {
            RecordedMethod method = e.getValue("method");
            add(m, "method\t" + method.getType().getName() + "." + method.getName(), ns);
        } else if (type.equals("profiler.NativeLock")) {
            add(m, "nativelock", ns);
        } else if (type.equals("profiler.Malloc")) {
            malloc[0]++;
            malloc[1] += e.getLong("size");
            memory.add(new long[] {nanos(e), memory.size(), e.getLong("address"), e.getLong("size")});
        } else if (type.equals("profiler.Free")) {
            memory.add(new long[] {nanos(e), memory.size(), e.getLong("address"), -1});
        }
    }

    /** Fold the top-level fields of one event into `fields` (see the header). */
    @SuppressWarnings("unchecked")
    static void addFields(RecordedEvent e, String type, TreeMap<String, Object> fields) {
        for (jdk.jfr.ValueDescriptor vd : e.getFields()) {
            String f = vd.getName();
            if (vd.getAnnotation(jdk.jfr.Timestamp.class) != null || vd.getAnnotation(jdk.jfr.Timespan.class) != null || vd.isArray()) continue;
            String typeName = vd.getTypeName();
            if (List.of("long", "int", "short", "byte").contains(typeName)) {
                Object v = e.getValue(f);
                if (v instanceof Number) fields.merge(type + "\t" + f + "\tsum", ((Number) v).longValue(), (a, b) -> (Long) a + (Long) b);
            } else if (typeName.equals("float") || typeName.equals("double")) {
                Object v = e.getValue(f);
                if (v instanceof Number) fields.merge(type + "\t" + f + "\tfsum", ((Number) v).doubleValue(), (a, b) -> (Double) a + (Double) b);
            } else if (typeName.equals("boolean")) {
                Object v = e.getValue(f);
                if (v instanceof Boolean) fields.merge(type + "\t" + f + "\ttrue", (Boolean) v ? 1L : 0L, (a, c) -> (Long) a + (Long) c);
            } else if (typeName.equals("java.lang.Thread")) {
                RecordedThread t = e.getThread(f);
                if (t != null) {
                    String n = t.getJavaName() != null ? t.getJavaName() : t.getOSName();
                    ((TreeSet<String>) fields.computeIfAbsent(type + "\t" + f + "\tthreads", k -> new TreeSet<String>())).add(n == null ? "" : n);
                }
            }
        }
    }

    static String escape(String s) {
        return s.replace("\\", "\\\\").replace("\n", "\\n").replace("\r", "\\r").replace("\t", "\\t").replace("|", "\\p");
    }
}
