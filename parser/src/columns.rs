//! The columns a recording becomes (docs/columns.md): one string table, threads, frames, a stack
//! prefix tree and one row per decoded event. Rows are appended by the chunk decoder; nothing
//! here knows the file format.

use rustc_hash::FxHashMap;

/// Index meaning "none" in the `i32` index columns.
pub const NONE: i32 = -1;

/// The stack column's mark for "stack lost": the event refers to a stack trace that its chunk
/// would have written in a constant pool after the point where the file is cut. Such events
/// are kept apart from those that have no stack trace ([`NONE`]).
pub const STACK_LOST: i32 = -2;

/// Interned strings: each distinct text stored once. Index 0 is the empty string.
#[derive(Debug, Clone)]
pub struct Strings {
    /// The texts, by index.
    pub list: Vec<Box<str>>,
    map: FxHashMap<Box<str>, u32>,
}

impl Default for Strings {
    fn default() -> Self {
        let mut s = Strings { list: Vec::new(), map: FxHashMap::default() };
        s.intern("");
        s
    }
}

impl Strings {
    /// The index of `s`, adding it if new.
    pub fn intern(&mut self, s: &str) -> u32 {
        if let Some(&i) = self.map.get(s) {
            return i;
        }
        let i = self.list.len() as u32;
        self.list.push(s.into());
        self.map.insert(s.into(), i);
        i
    }

    /// The text at `i` ("" when out of range).
    pub fn get(&self, i: i32) -> &str {
        if i < 0 {
            return "";
        }
        self.list.get(i as usize).map(|s| &**s).unwrap_or("")
    }
}

/// Frame kinds, numbered as in docs/columns.md.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[repr(u8)]
pub enum FrameKind {
    /// Interpreted Java.
    Interpreted = 0,
    /// JIT-compiled Java.
    JitCompiled = 1,
    /// Inlined into its caller.
    Inlined = 2,
    /// Native (C) code.
    Native = 3,
    /// C++ code of the JVM.
    Cpp = 4,
    /// Kernel code.
    Kernel = 5,
    /// The recording did not say.
    Unknown = 6,
}

impl FrameKind {
    /// From the description of a `jdk.types.FrameType` entry.
    pub fn from_description(d: &str) -> FrameKind {
        match d {
            "Interpreted" => FrameKind::Interpreted,
            "JIT compiled" => FrameKind::JitCompiled,
            "Inlined" => FrameKind::Inlined,
            "Native" => FrameKind::Native,
            "C++" => FrameKind::Cpp,
            "Kernel" => FrameKind::Kernel,
            _ => FrameKind::Unknown,
        }
    }
}

/// One row per thread.
#[derive(Debug, Clone, Default)]
pub struct Threads {
    /// String index of the Java name, or the OS name when there is none.
    pub name: Vec<u32>,
    /// OS thread id, `i64::MIN` when absent.
    pub os_id: Vec<i64>,
    /// Java thread id, `i64::MIN` when absent.
    pub java_id: Vec<i64>,
    /// 1 for a virtual thread (the pool entry's `virtual` field, JDK 21 on), else 0.
    pub virtual_: Vec<u8>,
    map: FxHashMap<(i64, i64, u32), u32>,
}

impl Threads {
    /// The row of this thread, adding it if new.
    pub fn intern(&mut self, name: u32, os_id: i64, java_id: i64) -> u32 {
        self.intern_thread(name, os_id, java_id, false)
    }

    /// The row of this thread, adding it if new, with whether it is a virtual thread.
    pub fn intern_thread(&mut self, name: u32, os_id: i64, java_id: i64, is_virtual: bool) -> u32 {
        let next = self.name.len() as u32;
        let i = *self.map.entry((os_id, java_id, name)).or_insert(next);
        if i == next {
            self.name.push(name);
            self.os_id.push(os_id);
            self.java_id.push(java_id);
            self.virtual_.push(is_virtual as u8);
        } else if is_virtual {
            self.virtual_[i as usize] = 1;
        }
        i
    }

    /// Number of rows.
    pub fn len(&self) -> usize {
        self.name.len()
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.name.is_empty()
    }
}

/// One row per distinct frame.
#[derive(Debug, Clone, Default)]
pub struct Frames {
    /// String index of `Class.method`.
    pub name: Vec<u32>,
    /// String index of the class name.
    pub cls: Vec<u32>,
    /// Line number, -1 when unknown.
    pub line: Vec<i32>,
    /// Bytecode index, -1 when unknown.
    pub bci: Vec<i32>,
    /// [`FrameKind`] as a byte.
    pub kind: Vec<u8>,
    map: FxHashMap<(u32, u32, i32, i32, u8), u32>,
}

impl Frames {
    /// The row of this frame, adding it if new.
    pub fn intern(&mut self, name: u32, cls: u32, line: i32, bci: i32, kind: FrameKind) -> u32 {
        let next = self.name.len() as u32;
        let i = *self.map.entry((name, cls, line, bci, kind as u8)).or_insert(next);
        if i == next {
            self.name.push(name);
            self.cls.push(cls);
            self.line.push(line);
            self.bci.push(bci);
            self.kind.push(kind as u8);
        }
        i
    }

    /// Number of rows.
    pub fn len(&self) -> usize {
        self.name.len()
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.name.is_empty()
    }
}

/// The stack prefix tree: each row is a frame under a prefix row (or -1 at the root).
///
/// A row's children are found through its own list (first child, next sibling: the rows of one
/// path are added together, so walking it reads nearby memory), or, once a row has more than
/// [`WIDE`] children, through a hash table of (prefix, frame). Deep, nearly unique stacks make
/// trees of millions of rows where most rows have one child; a hash table of every row turned
/// each step of each walk into a cache miss.
#[derive(Debug, Clone, Default)]
pub struct Stacks {
    /// Row in [`Frames`].
    pub frame: Vec<u32>,
    /// Row of the caller path, -1 at the root.
    pub prefix: Vec<i32>,
    /// Per row: its latest child, [`NIL`] when none.
    first_child: Vec<u32>,
    /// Per row: the previous child of its prefix, [`NIL`] when none.
    next_sibling: Vec<u32>,
    /// Per row: whether its children are in `map` (more than [`WIDE`] of them).
    wide: Vec<bool>,
    /// The root's latest child and whether the root is wide.
    root_child: Option<u32>,
    root_wide: bool,
    /// (prefix as u32) << 32 | frame → row, for the children of wide rows.
    map: FxHashMap<u64, u32>,
    /// A whole stack's hash (its frames, leaf first) → its row, for [`Stacks::intern_path`].
    paths: FxHashMap<u64, u32>,
}

/// No row (in the child lists).
const NIL: u32 = u32::MAX;
/// Children of a row searched through its list, at most.
const WIDE: usize = 8;

/// The hash of a stack's frame rows (leaf first) that [`Stacks::intern_path`] looks it up by.
fn path_hash(frames: &[u32]) -> u64 {
    const K: u64 = 0xf135_7aea_2e62_a9c5;
    let mut h = frames.len() as u64;
    let mut pairs = frames.chunks_exact(2);
    for p in &mut pairs {
        h = (h ^ (p[0] as u64 | (p[1] as u64) << 32)).wrapping_mul(K).rotate_left(29);
    }
    for &f in pairs.remainder() {
        h = (h ^ f as u64).wrapping_mul(K).rotate_left(29);
    }
    h ^ (h >> 32)
}

impl Stacks {
    /// The row of the whole stack `frames` (frame rows, leaf first), adding what is new; -1 for
    /// no frame at all. The same as interning its frames one by one from the root, which costs a
    /// lookup in a table of every row per frame: a recording's chunks each write their stacks
    /// again, so a stack seen before is found by its hash and checked by walking up from the
    /// row found (the rows of one path were added together, so the walk reads nearby memory).
    pub fn intern_path(&mut self, frames: &[u32]) -> i32 {
        if frames.is_empty() {
            return NONE;
        }
        let h = path_hash(frames);
        if let Some(&row) = self.paths.get(&h) {
            if self.is_path(row as i32, frames) {
                return row as i32;
            }
        }
        let mut s = NONE;
        for &fr in frames.iter().rev() {
            s = self.intern(s, fr) as i32;
        }
        self.paths.insert(h, s as u32);
        s
    }

    /// Whether row `s` is the stack `frames` (leaf first), all the way to the root.
    fn is_path(&self, mut s: i32, frames: &[u32]) -> bool {
        for &f in frames {
            let Some((&fr, &p)) = usize::try_from(s).ok().and_then(|i| Some((self.frame.get(i)?, self.prefix.get(i)?))) else {
                return false;
            };
            if fr != f {
                return false;
            }
            s = p;
        }
        s == NONE
    }

    /// The row of `frame` called from `prefix`, adding it if new.
    #[inline]
    pub fn intern(&mut self, prefix: i32, frame: u32) -> u32 {
        let p = usize::try_from(prefix).ok().filter(|&p| p < self.frame.len());
        let key = ((prefix as u32 as u64) << 32) | frame as u64;
        let (head, wide) = match p {
            Some(p) => (self.first_child[p], self.wide[p]),
            None if prefix == NONE => (self.root_child.unwrap_or(NIL), self.root_wide),
            // No such row (no caller passes one): its children live in the table alone.
            None => (NIL, true),
        };
        let mut siblings = 0;
        if wide {
            if let Some(&i) = self.map.get(&key) {
                return i;
            }
        } else {
            let mut c = head;
            while let Some(&f) = self.frame.get(c as usize) {
                if f == frame {
                    return c;
                }
                c = self.next_sibling[c as usize];
                siblings += 1;
            }
        }
        let next = self.frame.len() as u32;
        if self.frame.len() == self.frame.capacity() {
            self.grow();
        }
        self.frame.push(frame);
        self.prefix.push(prefix);
        self.first_child.push(NIL);
        self.next_sibling.push(head);
        self.wide.push(false);
        match p {
            Some(p) => self.first_child[p] = next,
            None if prefix == NONE => self.root_child = Some(next),
            None => {}
        }
        if wide {
            self.map.insert(key, next);
        } else if siblings + 1 > WIDE {
            // From now on this row's children are looked up by hash.
            let mut c = next;
            while let Some(&f) = self.frame.get(c as usize) {
                self.map.insert(((prefix as u32 as u64) << 32) | f as u64, c);
                c = self.next_sibling[c as usize];
            }
            match p {
                Some(p) => self.wide[p] = true,
                None => self.root_wide = true,
            }
        }
        next
    }

    /// Room for three times the rows there are (at least 1024 more) in every column at once:
    /// a deep-stack pick makes millions of rows, and each doubling copied them again (in wasm,
    /// into memory touched for the first time), a tenth of a decoder's time.
    #[cold]
    fn grow(&mut self) {
        let more = 3 * self.frame.len().max(1024 / 3);
        self.frame.reserve_exact(more);
        self.prefix.reserve_exact(more);
        self.first_child.reserve_exact(more);
        self.next_sibling.reserve_exact(more);
        self.wide.reserve_exact(more);
    }

    /// Number of rows.
    pub fn len(&self) -> usize {
        self.frame.len()
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.frame.is_empty()
    }

    /// Frames of stack `s`, leaf first.
    pub fn frames_leaf_first(&self, mut s: i32) -> Vec<u32> {
        let mut out = Vec::new();
        while s >= 0 {
            let i = s as usize;
            out.push(self.frame[i]);
            s = self.prefix[i];
        }
        out
    }
}

/// What an event type is, for the timeline and the flame graph.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EventKind {
    /// CPU samples.
    Cpu,
    /// Samples of threads in native methods.
    Native,
    /// Wall-clock samples.
    Wall,
    /// Monitor enter and wait.
    Lock,
    /// LockSupport.park.
    Park,
    /// Thread.sleep.
    Sleep,
    /// File and socket reads and writes.
    Io,
    /// Allocation samples.
    Alloc,
    /// Garbage collections (jdk.GarbageCollection: a whole collection, concurrent phases
    /// included) and their stop-the-world pauses (jdk.GCPhasePause).
    Gc,
    /// Thread start and end (platform and virtual).
    Thread,
    /// A virtual thread pinned to its carrier while it blocked (jdk.VirtualThreadPinned).
    Pinned,
    /// Native memory: async-profiler's malloc and free events (matched by address).
    NativeMem,
    /// A span of application time with a tag (async-profiler's profiler.Span).
    Span,
    /// A traced method's execution (jdk.MethodTrace).
    Method,
    /// Any other type.
    Other,
}

impl EventKind {
    /// The lowercase name used in docs/columns.md.
    pub fn as_str(self) -> &'static str {
        match self {
            EventKind::Cpu => "cpu",
            EventKind::Native => "native",
            EventKind::Wall => "wall",
            EventKind::Lock => "lock",
            EventKind::Park => "park",
            EventKind::Sleep => "sleep",
            EventKind::Io => "io",
            EventKind::Alloc => "alloc",
            EventKind::Gc => "gc",
            EventKind::Thread => "thread",
            EventKind::Pinned => "pinned",
            EventKind::NativeMem => "nativemem",
            EventKind::Span => "span",
            EventKind::Method => "method",
            EventKind::Other => "other",
        }
    }

    /// The kind of a type, by its name.
    pub fn of(name: &str) -> EventKind {
        match name {
            "jdk.ExecutionSample" | "jdk.CPUTimeSample" => EventKind::Cpu,
            "jdk.NativeMethodSample" => EventKind::Native,
            "profiler.WallClockSample" => EventKind::Wall,
            "jdk.JavaMonitorEnter" | "jdk.JavaMonitorWait" | "profiler.NativeLock" => EventKind::Lock,
            "jdk.ThreadPark" => EventKind::Park,
            "jdk.ThreadSleep" => EventKind::Sleep,
            "jdk.FileRead" | "jdk.FileWrite" | "jdk.FileForce" | "jdk.SocketRead" | "jdk.SocketWrite" => EventKind::Io,
            "jdk.ObjectAllocationSample" | "jdk.ObjectAllocationInNewTLAB" | "jdk.ObjectAllocationOutsideTLAB" => {
                EventKind::Alloc
            }
            "jdk.GarbageCollection" | "jdk.GCPhasePause" => EventKind::Gc,
            "jdk.ThreadStart" | "jdk.ThreadEnd" | "jdk.VirtualThreadStart" | "jdk.VirtualThreadEnd" => EventKind::Thread,
            "jdk.VirtualThreadPinned" => EventKind::Pinned,
            "profiler.Malloc" | "profiler.Free" => EventKind::NativeMem,
            "profiler.Span" => EventKind::Span,
            "jdk.MethodTrace" => EventKind::Method,
            _ => EventKind::Other,
        }
    }
}

/// One row per event type seen in the file.
#[derive(Debug, Clone)]
pub struct EventType {
    /// Type name (`jdk.ExecutionSample`).
    pub name: String,
    /// The type's label, or its name.
    pub label: String,
    /// What it is.
    pub kind: EventKind,
    /// Events of this type in every chunk.
    pub count: u64,
    /// Whether the type has a `stackTrace` field.
    pub has_stack: bool,
    /// Whether its rows are in [`Events`].
    pub decoded: bool,
}

impl EventType {
    /// What the weight column measures for this type.
    pub fn weight_unit(&self) -> &'static str {
        match self.kind {
            EventKind::Cpu | EventKind::Native | EventKind::Wall => "samples",
            EventKind::Alloc | EventKind::NativeMem => "bytes",
            _ => "events",
        }
    }
}

/// One row per decoded event.
#[derive(Debug, Clone, Default)]
pub struct Events {
    /// Row in the event types.
    pub ty: Vec<u32>,
    /// Start, nanoseconds since the Unix epoch.
    pub start_ns: Vec<i64>,
    /// Duration in nanoseconds.
    pub duration_ns: Vec<i64>,
    /// Thread row (sampledThread, else eventThread), -1 when none.
    pub thread: Vec<i32>,
    /// Stack row, -1 when none.
    pub stack: Vec<i32>,
    /// Samples (1, or a wall-clock batch's `samples`) or bytes for allocations.
    pub weight: Vec<f64>,
    /// String index of the thread state, -1 when none.
    pub state: Vec<i32>,
    /// String index of the monitor/allocated/parked class, path, host, GC name, pinned reason,
    /// span tag or traced method, -1 when none.
    pub subject: Vec<i32>,
    /// Monitor or malloc'd address, bytes transferred, GC id, sleep time…; NaN when absent.
    pub value: Vec<f64>,
    /// A second thread: the previous owner of a monitor, the notifier of a wait, the carrier
    /// of a pinned virtual thread; -1 when none.
    pub peer: Vec<i32>,
    /// Chunk index.
    pub chunk: Vec<u32>,
    /// Absolute byte offset of the event in the file.
    pub offset: Vec<u64>,
    /// Bit `k` set once the k-th of type, duration, thread, stack, weight, state, subject, value
    /// and peer holds two values (bit for bit) among the rows since the last [`Events::clear`];
    /// a clear bit: every row holds the first row's. Kept as rows are added (the row sink), so a
    /// caller that sends such a column as one value need not read it all.
    pub varies: u16,
    /// Rows whose stack was lost ([`STACK_LOST`]) since the last [`Events::clear`].
    pub stacks_lost: usize,
    /// When set ([`Events::read_in_ms`]), the type, start, duration and offset of each row are
    /// written here, in the form a page keeps them, and not to `ty`, `start_ns`, `duration_ns`
    /// and `offset` (left empty) nor `chunk`.
    pub ms: Option<MsColumns>,
}

/// Four event columns as a page keeps them, converted as the row sink appends each batch (while
/// it is in cache), not in a pass over the columns afterwards: a reader that sends rows on in
/// that form reads them once.
#[derive(Debug, Clone)]
pub struct MsColumns {
    /// The times' zero, in ns since the Unix epoch.
    pub origin_ns: i64,
    /// Row in the event types, at most `u16::MAX`.
    pub ty: Vec<u16>,
    /// Start, ms since the origin: `(start_ns - origin_ns) as f64 / 1e6`.
    pub start: Vec<f64>,
    /// Duration in ms, as an f32.
    pub duration: Vec<f32>,
    /// Absolute byte offset of the event in the file.
    pub offset: Vec<f64>,
    /// The latest end of the rows, each its start plus its duration as an f32 (-infinity
    /// without rows): where a reader of these columns reckons they end.
    pub end: f64,
}

impl MsColumns {
    fn new(origin_ns: i64) -> MsColumns {
        MsColumns { origin_ns, ty: Vec::new(), start: Vec::new(), duration: Vec::new(), offset: Vec::new(), end: f64::NEG_INFINITY }
    }

    /// A start in ns as ms since the origin ([`ms_since`]).
    #[inline]
    pub fn ms_since(&self, t: i64) -> f64 {
        ms_since(t, self.origin_ns)
    }
}

/// Nanoseconds since the epoch as ms since `origin_ns` (epoch ns): the difference in integers,
/// exact in an f64 within 104 days of the origin (an epoch time in ns has more digits than an
/// f64 holds), then one rounding.
#[inline]
pub fn ms_since(t: i64, origin_ns: i64) -> f64 {
    t.wrapping_sub(origin_ns) as f64 / 1e6
}

impl Events {
    /// Number of rows.
    pub fn len(&self) -> usize {
        self.thread.len()
    }

    /// From now on, write the type, start, duration and offset of each row in a page's form
    /// ([`MsColumns`], times in ms since `origin_ns`) instead of `ty`, `start_ns`,
    /// `duration_ns`, `offset` and `chunk`. Call before any row is added.
    pub fn read_in_ms(&mut self, origin_ns: i64) {
        assert!(self.is_empty(), "read_in_ms after rows were added");
        self.ms = Some(MsColumns::new(origin_ns));
    }

    /// Drop every row, keeping the columns' capacity for the next ones.
    pub fn clear(&mut self) {
        self.ty.clear();
        self.start_ns.clear();
        self.duration_ns.clear();
        self.thread.clear();
        self.stack.clear();
        self.weight.clear();
        self.state.clear();
        self.subject.clear();
        self.value.clear();
        self.peer.clear();
        self.chunk.clear();
        self.offset.clear();
        if let Some(m) = &mut self.ms {
            m.ty.clear();
            m.start.clear();
            m.duration.clear();
            m.offset.clear();
            m.end = f64::NEG_INFINITY;
        }
        self.varies = 0;
        self.stacks_lost = 0;
    }

    /// Room for `n` more rows in every column: a caller that knows the count (from a count
    /// pass) saves the copies and the doubled peak of growing vectors.
    pub fn reserve_exact(&mut self, n: usize) {
        if let Some(m) = &mut self.ms {
            m.ty.reserve_exact(n);
            m.start.reserve_exact(n);
            m.duration.reserve_exact(n);
            m.offset.reserve_exact(n);
        } else {
            self.ty.reserve_exact(n);
            self.start_ns.reserve_exact(n);
            self.duration_ns.reserve_exact(n);
            self.chunk.reserve_exact(n);
            self.offset.reserve_exact(n);
        }
        self.thread.reserve_exact(n);
        self.stack.reserve_exact(n);
        self.weight.reserve_exact(n);
        self.state.reserve_exact(n);
        self.subject.reserve_exact(n);
        self.value.reserve_exact(n);
        self.peer.reserve_exact(n);
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.thread.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Stacks interned frame by frame from the root, as the tree defines them.
    fn one_by_one(st: &mut Stacks, frames: &[u32]) -> i32 {
        let mut s = NONE;
        for &f in frames.iter().rev() {
            s = st.intern(s, f) as i32;
        }
        s
    }

    #[test]
    fn intern_path_builds_the_tree_interning_frame_by_frame_builds() {
        // Deep stacks sharing roots, each seen several times (as chunks write them again).
        let mut x = 12345u64;
        let mut next = || {
            x = x.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            (x >> 33) as u32
        };
        let stacks: Vec<Vec<u32>> = (0..300)
            .map(|_| {
                let depth = 1 + next() as usize % 200;
                let mut v: Vec<u32> = (0..depth).map(|d| if d > depth / 2 { (depth - d) as u32 % 7 } else { next() % 40 }).collect();
                v.reverse();
                v
            })
            .collect();
        let (mut a, mut b) = (Stacks::default(), Stacks::default());
        for round in 0..3 {
            for (i, s) in stacks.iter().enumerate() {
                if (i + round) % 3 == 0 {
                    continue;
                }
                assert_eq!(a.intern_path(s), one_by_one(&mut b, s));
            }
        }
        assert_eq!((a.frame.clone(), a.prefix.clone()), (b.frame.clone(), b.prefix.clone()));
        for s in &stacks {
            let row = a.intern_path(s);
            assert_eq!(a.frames_leaf_first(row), *s);
        }
        assert_eq!(a.intern_path(&[]), NONE);
    }

    #[test]
    fn intern_numbers_rows_as_a_table_of_every_prefix_and_frame_would() {
        // Rows with one child, a few, and hundreds (the root, and row 0): lists and the table.
        let mut x = 99u64;
        let mut next = || {
            x = x.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            (x >> 33) as u32
        };
        let mut st = Stacks::default();
        let mut reference: std::collections::HashMap<(i32, u32), u32> = Default::default();
        let mut rows = 0u32;
        for _ in 0..50_000 {
            let prefix = match next() % 4 {
                0 => NONE,
                1 if rows > 0 => 0,
                _ if rows > 0 => (next() % rows) as i32,
                _ => NONE,
            };
            let frame = next() % 500;
            let want = *reference.entry((prefix, frame)).or_insert_with(|| {
                rows += 1;
                rows - 1
            });
            assert_eq!(st.intern(prefix, frame), want);
        }
        assert_eq!(st.len(), rows as usize);
        for (&(p, f), &row) in &reference {
            assert_eq!((st.prefix[row as usize], st.frame[row as usize]), (p, f));
        }
        // A prefix that is no row is kept apart from the root's children.
        let odd = st.intern(i32::MAX, 7);
        assert_eq!(st.intern(i32::MAX, 7), odd);
        assert_ne!(st.intern(NONE, 7), odd);
    }

    #[test]
    fn intern_path_checks_what_its_hash_finds() {
        let mut st = Stacks::default();
        let long = st.intern_path(&[3, 2, 1]);
        // A shorter path, a longer one and another ending in the same rows, all found under the
        // hash of [2, 1] (as a collision would): each still gets its own row.
        st.paths.insert(path_hash(&[2, 1]), long as u32);
        let short = st.intern_path(&[2, 1]);
        assert_eq!(short, st.prefix[long as usize]);
        st.paths.insert(path_hash(&[4, 3, 2, 1]), short as u32);
        let longer = st.intern_path(&[4, 3, 2, 1]);
        assert_eq!(st.prefix[longer as usize], long);
        st.paths.insert(path_hash(&[3, 2, 9]), long as u32);
        let other = st.intern_path(&[3, 2, 9]);
        assert_ne!(other, long);
        assert_eq!(st.frames_leaf_first(other), vec![3, 2, 9]);
    }
}
