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
#[derive(Debug, Clone, Default)]
pub struct Stacks {
    /// Row in [`Frames`].
    pub frame: Vec<u32>,
    /// Row of the caller path, -1 at the root.
    pub prefix: Vec<i32>,
    /// (prefix as u32) << 32 | frame → row.
    map: FxHashMap<u64, u32>,
}

impl Stacks {
    /// The row of `frame` called from `prefix`, adding it if new.
    #[inline]
    pub fn intern(&mut self, prefix: i32, frame: u32) -> u32 {
        let next = self.frame.len() as u32;
        let key = ((prefix as u32 as u64) << 32) | frame as u64;
        let i = *self.map.entry(key).or_insert(next);
        if i == next {
            self.frame.push(frame);
            self.prefix.push(prefix);
        }
        i
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
    /// Garbage collections.
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
            "jdk.FileRead" | "jdk.FileWrite" | "jdk.SocketRead" | "jdk.SocketWrite" => EventKind::Io,
            "jdk.ObjectAllocationSample" | "jdk.ObjectAllocationInNewTLAB" | "jdk.ObjectAllocationOutsideTLAB" => {
                EventKind::Alloc
            }
            "jdk.GarbageCollection" => EventKind::Gc,
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
}

impl Events {
    /// Number of rows.
    pub fn len(&self) -> usize {
        self.ty.len()
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
    }

    /// Room for `n` more rows in every column: a caller that knows the count (from a count
    /// pass) saves the copies and the doubled peak of growing vectors.
    pub fn reserve_exact(&mut self, n: usize) {
        self.ty.reserve_exact(n);
        self.start_ns.reserve_exact(n);
        self.duration_ns.reserve_exact(n);
        self.thread.reserve_exact(n);
        self.stack.reserve_exact(n);
        self.weight.reserve_exact(n);
        self.state.reserve_exact(n);
        self.subject.reserve_exact(n);
        self.value.reserve_exact(n);
        self.peer.reserve_exact(n);
        self.chunk.reserve_exact(n);
        self.offset.reserve_exact(n);
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.ty.is_empty()
    }
}
