//! Constant-pool resolution: per chunk, pool ids (threads, stack traces, frames, methods,
//! classes, strings) become rows of the shared dictionaries, each id read once and cached.
//!
//! ```text
//! checkpoint pool java.lang.Thread: id 1 → 03 04 "main" | 64 | 03 04 "main" | 01
//!   (osName, osThreadId 100, javaName, javaThreadId 1) → threads row 0, cached under id 1
//! ```

use crate::chunk::{Chunk, Scalar, ABSENT};
use crate::columns::{FrameKind, NONE, STACK_LOST};
use crate::error::Result;
use crate::metadata::Prim;
use crate::reader::{RawStr, Reader};
use crate::Recording;
use rustc_hash::FxHashMap;
use std::rc::Rc;

/// Pool id → row. Writers number threads and stack traces densely from small ids, so those
/// index a vector; larger ids (some writers use addresses) fall back to a hash map.
#[derive(Default)]
pub(crate) struct IdCache {
    dense: Vec<i32>,
    sparse: FxHashMap<u64, i32>,
}

const DENSE_IDS: u64 = 1 << 22;
const UNSET: i32 = i32::MIN;

impl IdCache {
    #[inline(always)]
    fn get(&self, id: u64) -> Option<i32> {
        if id < DENSE_IDS {
            match self.dense.get(id as usize) {
                Some(&v) if v != UNSET => Some(v),
                _ => None,
            }
        } else {
            self.sparse.get(&id).copied()
        }
    }

    fn insert(&mut self, id: u64, v: i32) {
        if id < DENSE_IDS {
            let i = id as usize;
            if i >= self.dense.len() {
                self.dense.resize((i + 1).next_power_of_two(), UNSET);
            }
            self.dense[i] = v;
        } else {
            self.sparse.insert(id, v);
        }
    }
}

/// Stack rows found by the bytes of their frames, across the chunks of one [`Recording`].
///
/// A recording's chunks each write their stack traces again, and a writer numbers methods and
/// frame types alike from chunk to chunk (the JDK's trace ids live as long as the JVM), so a
/// stack trace seen in an earlier chunk is most often the same bytes: its row is found by a hash
/// of them, without reading its frames one by one.
///
/// ```text
/// chunk 1  stack 7: frames [m 12 line 40 bci 3 type 1, m 9 line 8 …] → resolved → row 5120
///          key xxh3-128(frame count, those bytes) → 5120
/// chunk 2  stack 3: the same bytes → row 5120, no frame read
/// ```
///
/// The bytes mean the same only where each method and frame type id reads the same as before
/// (the symbols' ids, which the JDK numbers anew in every chunk, do not matter): a chunk uses
/// the table only after what its pools' methods and frame types read as is checked against the
/// chunks before; one where an id reads otherwise (another JVM's file, a writer that numbers
/// anew) empties the table first.
#[derive(Debug, Clone, Default)]
pub struct StackBytes {
    /// xxh3-128 of (frame count, the frames' bytes) → stack row.
    rows: FxHashMap<u128, i32>,
    /// (pool, id) → xxh3-64 of what the entry reads as, from the chunks the rows were found in
    /// (a method: its "Class.method" and class name; a frame type: its kind).
    entries: FxHashMap<(u32, u64), u64>,
    /// Pool names, by their number in `entries`.
    pools: Vec<String>,
    /// Stack traces found in the table (read from their bytes alone).
    pub hits: u64,
}

impl StackBytes {
    /// The key of a stack trace whose `n` frames are `bytes`.
    fn key(n: usize, bytes: &[u8]) -> u128 {
        xxhash_rust::xxh3::xxh3_128_with_seed(bytes, n as u64)
    }

    /// The number of the pool of `class` (by its name: chunks may number classes otherwise).
    fn pool_key(&mut self, chunk: &Chunk<'_>, class: usize) -> u32 {
        let name = &chunk.md.classes[class].name;
        match self.pools.iter().position(|p| p == name) {
            Some(i) => i as u32,
            None => {
                self.pools.push(name.clone());
                (self.pools.len() - 1) as u32
            }
        }
    }

    /// Check what `chunk`'s methods and frame types (of frames of class `frame_class`) read as
    /// against the ids' reading in the chunks before, emptying the table where an id reads
    /// otherwise, and remember them. False when the chunk cannot use the table (cut short: its
    /// pools may be missing).
    fn vouch(&mut self, chunk: &Chunk<'_>, frame_class: usize) -> bool {
        if chunk.is_cut() {
            return false;
        }
        // Read as a frame reads them ([`Resolver::frame`]), into a scratch recording: a method
        // is its "Class.method" and its class's name, a frame type its kind.
        let mut v = Resolver::new(chunk);
        let mut scratch = Recording::default();
        let c = &chunk.md.classes[frame_class];
        let field_class = |name: &str| c.field(name).map(|i| c.fields[i].class);
        let mut found = Vec::new();
        if let Some(mc) = field_class("method") {
            let pool = self.pool_key(chunk, mc);
            for (id, _) in chunk.pool_entries(mc) {
                let read = v.method(chunk, &mut scratch, mc, id).map(|(full, cls)| {
                    let text = |row: u32| scratch.strings.get(row as i32).as_bytes();
                    xxhash_rust::xxh3::xxh3_64_with_seed(text(full), xxhash_rust::xxh3::xxh3_64(text(cls)))
                });
                found.push(((pool, id), read.unwrap_or(0)));
            }
        }
        if let Some(tc) = field_class("type") {
            let pool = self.pool_key(chunk, tc);
            for (id, _) in chunk.pool_entries(tc) {
                found.push(((pool, id), v.frame_kind(chunk, &mut scratch, tc, id) as u64 + 1));
            }
        }
        if found.iter().any(|(k, h)| self.entries.get(k).is_some_and(|was| was != h)) {
            self.rows.clear();
            self.entries.clear();
        }
        self.entries.extend(found);
        true
    }
}

/// Stack traces a chunk reads frame by frame before it looks them up by their bytes: the check
/// that it may ([`StackBytes::vouch`]) reads every method of its pool, which a chunk of few
/// stacks (a first view's CPU samples) does not repay.
pub(crate) const VOUCH_AFTER: u32 = 256;

/// Per-chunk caches from pool ids (and inline strings) to rows of the columns.
pub(crate) struct Resolver<'a> {
    /// One cache per [`Cached`] kind of id.
    ids: [IdCache; 4],
    texts: FxHashMap<(usize, u64), i32>,
    /// Inline UTF-8 (3) or Latin-1 (5) string bytes in the chunk → string row: an event type
    /// that writes its path or name inline repeats the same bytes event after event.
    inline: FxHashMap<(u8, &'a [u8]), i32>,
    methods: FxHashMap<u64, Option<(u32, u32)>>,
    frame_kinds: FxHashMap<u64, FrameKind>,
    string_class: Option<usize>,
    frame_buf: Vec<u32>,
    /// Per class: for each field, 1 + its position in the name list the class is read with
    /// (0 for fields not asked for), so hot loops compare bytes, not names.
    codes: Vec<Option<Rc<[u8]>>>,
    /// (method id, line, bci, frame type id) → frame row.
    frame_cache: FxHashMap<(u64, i32, i32, u64), u32>,
    /// (StackFrame class, whether it has the standard layout).
    standard: Option<(usize, bool)>,
    /// Thread pool id → the identity carried over from earlier chunks ([`chain_step`]), where
    /// it differs from this chunk's own entry.
    thread_overrides: FxHashMap<u64, ThreadIdentity>,
    /// Whether this chunk finds stacks by their frames' bytes ([`StackBytes`]); `None` until
    /// it has read [`VOUCH_AFTER`] stack traces.
    by_bytes: Option<bool>,
    /// Stack traces read in this chunk.
    stacks_read: u32,
}

/// A thread as jfrscope tells threads apart: name (the Java name, else the OS name), OS and
/// Java thread ids ([`ABSENT`] when missing), and whether it is virtual.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct ThreadIdentity {
    /// The Java name, else the OS name.
    pub name: String,
    /// OS thread id, [`ABSENT`] when missing.
    pub os_id: i64,
    /// Java thread id, [`ABSENT`] when missing.
    pub java_id: i64,
    /// A virtual thread.
    pub is_virtual: bool,
}

/// One chunk's thread pool: (pool id, identity as the chunk writes it), ids increasing.
pub type ChunkThreads = Vec<(u64, ThreadIdentity)>;

/// Pool id → identity.
pub type ThreadMap = FxHashMap<u64, ThreadIdentity>;

/// One chunk's thread pool as a count pass hands it to a caller that chains chunks decoded
/// apart: the entries that differ from the pool of the chunk just before it, when the same pass
/// read that one, else the whole pool. A day of chunks lists the same few thousand threads in
/// every pool, so the changes stay small where the pools together would not.
///
/// ```text
/// chunk 7 pool {1 main, 2 worker, 3 job-1}   → whole: true,  set [1 main, 2 worker, 3 job-1]
/// chunk 8 pool {1 main, 3 job-2, 4 reader}   → whole: false, set [3 job-2, 4 reader], gone [2]
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PoolChange {
    /// The chunk's index.
    pub chunk: usize,
    /// `set` is the whole pool; otherwise the change since chunk `chunk - 1`'s pool.
    pub whole: bool,
    /// Entries new or changed since the previous pool (every entry when `whole`), ids increasing.
    pub set: ChunkThreads,
    /// Ids the previous pool held and this one lacks, increasing (empty when `whole`).
    pub gone: Vec<u64>,
}

impl PoolChange {
    /// `own`, the pool of chunk `chunk`, as a change since `prev` (chunk `chunk - 1`'s pool), or
    /// whole without one.
    pub(crate) fn new(chunk: usize, prev: Option<&ThreadMap>, own: &ChunkThreads) -> PoolChange {
        let Some(prev) = prev else { return PoolChange { chunk, whole: true, set: own.clone(), gone: Vec::new() } };
        let set = own.iter().filter(|(id, t)| prev.get(id) != Some(t)).cloned().collect();
        let held: rustc_hash::FxHashSet<u64> = own.iter().map(|(id, _)| *id).collect();
        let mut gone: Vec<u64> = prev.keys().filter(|id| !held.contains(id)).copied().collect();
        gone.sort_unstable();
        PoolChange { chunk, whole: false, set, gone }
    }

    /// The pool this change makes of `pool` (the previous chunk's; ignored when `whole`).
    pub fn apply(&self, pool: &mut ThreadMap) {
        if self.whole {
            pool.clear();
        }
        for id in &self.gone {
            pool.remove(id);
        }
        pool.extend(self.set.iter().cloned());
    }
}

/// One step of the JDK's reading of thread pools across chunks (jdk.jfr's ChunkParser reuses
/// the previous chunk's resolved constant for every key the previous chunk's pool holds):
/// given the identities the previous chunk ended with (`prev`) and this chunk's own entries,
/// returns (the identities this chunk ends with, the overrides: ids whose identity is carried
/// over and differs from the chunk's own entry). A thread renamed while recording keeps the
/// name of the first chunk of the unbroken run of chunks whose pools hold its id.
pub fn chain_step(prev: &ThreadMap, own: &[(u64, ThreadIdentity)]) -> (ThreadMap, ThreadMap) {
    let mut last = ThreadMap::default();
    let mut overrides = ThreadMap::default();
    for (id, t) in own {
        // Only the same thread renamed: two files of different JVMs, opened together, number
        // their threads alike, and the JDK reads each file on its own. The same thread is the
        // same OS thread; its Java id may change when the native thread attaches again under a
        // new java.lang.Thread (async-profiler keys its pool by OS id, and `main` comes back
        // as `DestroyJavaVM` with the next Java id), but threads without a real OS thread
        // (virtual threads write 0) are told apart by their Java ids.
        let same = |p: &&ThreadIdentity| p.os_id == t.os_id && (p.java_id == t.java_id || (t.os_id != ABSENT && t.os_id != 0));
        match prev.get(id).filter(same) {
            Some(p) => {
                if p != t {
                    overrides.insert(*id, p.clone());
                }
                last.insert(*id, p.clone());
            }
            None => {
                last.insert(*id, t.clone());
            }
        }
    }
    (last, overrides)
}

/// [`chain_step`] over a file's chunks (or a repository's, in time order): per chunk, its
/// overrides.
pub fn chain_threads(chunks: &[ChunkThreads]) -> Vec<ThreadMap> {
    let mut prev = ThreadMap::default();
    chunks
        .iter()
        .map(|own| {
            let (last, overrides) = chain_step(&prev, own);
            prev = last;
            overrides
        })
        .collect()
}

/// Every readable entry of a chunk's thread pool, as [`Resolver`] reads a thread.
pub(crate) fn chunk_threads(chunk: &Chunk<'_>) -> ChunkThreads {
    let Some(class) = chunk.md.class_by_name("java.lang.Thread") else { return Vec::new() };
    let mut scratch = Recording::default();
    let mut d = Resolver::new(chunk);
    let mut out = Vec::new();
    for (id, pos) in chunk.pool_entries(class) {
        if let Some(row) = d.thread_at(chunk, &mut scratch, class, chunk.reader_at(pos)) {
            let t = &scratch.threads;
            let r = row as usize;
            out.push((
                id,
                ThreadIdentity {
                    name: scratch.strings.get(t.name[r] as i32).to_string(),
                    os_id: t.os_id[r],
                    java_id: t.java_id[r],
                    is_virtual: t.virtual_[r] != 0,
                },
            ));
        }
    }
    out
}

const THREAD_FIELDS: &[&str] = &["osName", "osThreadId", "javaName", "javaThreadId", "virtual"];
const METHOD_FIELDS: &[&str] = &["type", "name"];
const FRAME_FIELDS: &[&str] = &["method", "lineNumber", "bytecodeIndex", "type"];
const STACK_FIELDS: &[&str] = &["frames"];

/// The ids whose rows the resolver caches densely, each kind in its own [`IdCache`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Cached {
    /// java.lang.Thread pool id → thread row.
    Thread,
    /// jdk.types.StackTrace pool id → stack row.
    Stack,
    /// java.lang.String pool id → string row (paths, hosts, names written as references).
    StringRef,
    /// java.lang.Class pool id → string row of its dotted name.
    ClassName,
}

impl<'a> Resolver<'a> {
    /// The row cached for `id`, if it was resolved before in this chunk.
    #[inline(always)]
    pub(crate) fn cached(&self, kind: Cached, id: u64) -> Option<i32> {
        self.ids[kind as usize].get(id)
    }

    /// The row of pool entry `id` (of pool class `class`; unused for [`Cached::StringRef`]),
    /// -1 when the chunk lacks it.
    #[inline]
    pub(crate) fn resolve(&mut self, kind: Cached, chunk: &Chunk<'_>, rec: &mut Recording, class: usize, id: u64) -> i32 {
        match self.cached(kind, id) {
            Some(t) => t,
            None => self.miss(kind, chunk, rec, class, id),
        }
    }

    /// [`Resolver::resolve`] for an id not cached yet: read it from the pool and cache it.
    #[inline(never)]
    pub(crate) fn miss(&mut self, kind: Cached, chunk: &Chunk<'_>, rec: &mut Recording, class: usize, id: u64) -> i32 {
        let t = match kind {
            Cached::Thread => self.thread_uncached(chunk, rec, class, id).unwrap_or(NONE),
            // A stack missing from a cut chunk was to be written after the cut.
            Cached::Stack => self.stack_uncached(chunk, rec, class, id).unwrap_or(if chunk.is_cut() { STACK_LOST } else { NONE }),
            Cached::StringRef => match self.string_class {
                Some(sc) => self.text(chunk, rec, sc, id, 0),
                None => return NONE,
            },
            Cached::ClassName => self.class_name_uncached(chunk, rec, class, id),
        };
        self.ids[kind as usize].insert(id, t);
        t
    }

    pub(crate) fn new(chunk: &Chunk<'a>) -> Resolver<'a> {
        Resolver {
            ids: Default::default(),
            texts: FxHashMap::default(),
            inline: FxHashMap::default(),
            methods: FxHashMap::default(),
            frame_kinds: FxHashMap::default(),
            string_class: chunk.md.class_by_name("java.lang.String"),
            frame_buf: Vec::new(),
            codes: vec![None; chunk.md.classes.len()],
            frame_cache: FxHashMap::default(),
            standard: None,
            thread_overrides: FxHashMap::default(),
            by_bytes: None,
            stacks_read: 0,
        }
    }

    /// Resolve these thread pool ids to the identities carried over from earlier chunks.
    pub(crate) fn with_thread_overrides(mut self, overrides: ThreadMap) -> Self {
        self.thread_overrides = overrides;
        self
    }

    /// (Shared, not copied: a stack trace's codes are asked for once per stack.)
    fn codes(&mut self, chunk: &Chunk<'_>, class: usize, names: &[&str]) -> Rc<[u8]> {
        if let Some(Some(c)) = self.codes.get(class) {
            return Rc::clone(c);
        }
        let c: Rc<[u8]> = chunk.md.classes[class]
            .fields
            .iter()
            .map(|f| names.iter().position(|n| *n == f.name).map(|i| i as u8 + 1).unwrap_or(0))
            .collect();
        if let Some(slot) = self.codes.get_mut(class) {
            *slot = Some(c.clone());
        }
        c
    }

    fn thread_uncached(&mut self, chunk: &Chunk<'_>, rec: &mut Recording, class: usize, id: u64) -> Option<i32> {
        if let Some(t) = self.thread_overrides.get(&id) {
            if chunk.pool_reader(class, id).is_some() {
                let name = rec.strings.intern(&t.name);
                return Some(rec.threads.intern_thread(name, t.os_id, t.java_id, t.is_virtual) as i32);
            }
        }
        let r = chunk.pool_reader(class, id)?;
        self.thread_at(chunk, rec, class, r)
    }

    /// The thread row of the thread pool entry (of class `class`) `r` is on.
    fn thread_at<'b>(&mut self, chunk: &Chunk<'b>, rec: &mut Recording, class: usize, mut r: Reader<'b>) -> Option<i32> {
        let c = &chunk.md.classes[class];
        let (mut os_name, mut java_name) = (NONE, NONE);
        let (mut os_id, mut java_id) = (ABSENT, ABSENT);
        let mut java_null = true;
        let mut is_virtual = false;
        let codes = self.codes(chunk, class, THREAD_FIELDS);
        for (f, &code) in c.fields.iter().zip(codes.iter()) {
            if code == 0 {
                chunk.skip_value_field(&mut r, f).ok()?;
                continue;
            }
            let s = chunk.read_scalar(&mut r, f).ok()?;
            match (code, s) {
                (1, s) => os_name = self.text_scalar(chunk, rec, f.class, s),
                (3, s) => {
                    java_null = matches!(s, Scalar::Str(RawStr::Null));
                    java_name = self.text_scalar(chunk, rec, f.class, s)
                }
                (2, Scalar::Int(v)) => os_id = v,
                (4, Scalar::Int(v)) => java_id = v,
                (5, Scalar::Int(v)) => is_virtual = v != 0,
                _ => {}
            }
        }
        let name = if !java_null && java_name != NONE { java_name } else { os_name.max(0) };
        Some(rec.threads.intern_thread(name as u32, os_id, if java_null { ABSENT } else { java_id }, is_virtual) as i32)
    }

    /// String row for a string-like field value (inline string, string pool ref, or a ref to a
    /// pool class with a text field such as Symbol or ThreadState).
    pub(crate) fn text_scalar(&mut self, chunk: &Chunk<'_>, rec: &mut Recording, class: usize, s: Scalar<'_>) -> i32 {
        match s {
            Scalar::Str(RawStr::Pool(id)) => self.resolve(Cached::StringRef, chunk, rec, 0, id),
            Scalar::Str(RawStr::Null) => NONE,
            Scalar::Str(s) => rec.strings.intern(&s.to_text().unwrap_or_default()) as i32,
            Scalar::Ref(id) => self.text(chunk, rec, class, id, 0),
            Scalar::Int(v) => rec.strings.intern(&v.to_string()) as i32,
            _ => NONE,
        }
    }

    /// String row of a string field's value, as [`Resolver::text_scalar`] gives it.
    #[inline]
    pub(crate) fn inline_text(&mut self, chunk: &Chunk<'_>, rec: &mut Recording, s: RawStr<'a>) -> i32 {
        let key = match s {
            RawStr::Pool(id) => return self.resolve(Cached::StringRef, chunk, rec, 0, id),
            RawStr::Utf8(b) => (3, b),
            RawStr::Latin1(b) => (5, b),
            s => return self.text_scalar(chunk, rec, 0, Scalar::Str(s)),
        };
        if let Some(&t) = self.inline.get(&key) {
            return t;
        }
        let s = if key.0 == 3 { RawStr::Utf8(key.1) } else { RawStr::Latin1(key.1) };
        let t = rec.strings.intern(&s.to_text().unwrap_or_default()) as i32;
        self.inline.insert(key, t);
        t
    }

    /// The text of pool entry `id` of `class`: a string itself, or the struct's `name`,
    /// `string` or `description` field (following references).
    pub(crate) fn text(&mut self, chunk: &Chunk<'_>, rec: &mut Recording, class: usize, id: u64, depth: usize) -> i32 {
        if let Some(&t) = self.texts.get(&(class, id)) {
            return t;
        }
        let t = self.text_uncached(chunk, rec, class, id, depth).unwrap_or(NONE);
        self.texts.insert((class, id), t);
        t
    }

    fn text_uncached(&mut self, chunk: &Chunk<'_>, rec: &mut Recording, class: usize, id: u64, depth: usize) -> Option<i32> {
        if depth > 4 {
            return None;
        }
        let mut r = chunk.pool_reader(class, id)?;
        let c = &chunk.md.classes[class];
        if c.prim == Some(Prim::String) {
            return match r.string().ok()? {
                RawStr::Null => None,
                RawStr::Pool(_) => None,
                s => Some(rec.strings.intern(&s.to_text()?) as i32),
            };
        }
        let want = ["name", "string", "description"].iter().find_map(|n| c.field(n)).or_else(|| {
            c.fields.iter().position(|f| chunk.md.classes[f.class].prim == Some(Prim::String))
        })?;
        for (i, f) in c.fields.iter().enumerate() {
            if i == want {
                let s = chunk.read_scalar(&mut r, f).ok()?;
                return match s {
                    Scalar::Ref(rid) => Some(self.text(chunk, rec, f.class, rid, depth + 1)),
                    Scalar::Str(RawStr::Pool(sid)) => Some(self.text(chunk, rec, self.string_class?, sid, depth + 1)),
                    Scalar::Str(RawStr::Null) => None,
                    Scalar::Str(s) => Some(rec.strings.intern(&s.to_text()?) as i32),
                    _ => None,
                };
            }
            chunk.skip_value_field(&mut r, f).ok()?;
        }
        None
    }

    fn class_name_uncached(&mut self, chunk: &Chunk<'_>, rec: &mut Recording, class: usize, id: u64) -> i32 {
        let raw = self.text(chunk, rec, class, id, 0);
        if raw == NONE {
            return NONE;
        }
        let s = rec.strings.get(raw);
        if s.contains('/') {
            let dotted = s.replace('/', ".");
            rec.strings.intern(&dotted) as i32
        } else {
            raw
        }
    }

    /// String row of "Class.method" of method pool entry `id` (of class `class`), -1 when the
    /// chunk lacks it.
    pub(crate) fn method_name(&mut self, chunk: &Chunk<'_>, rec: &mut Recording, class: usize, id: u64) -> i32 {
        self.method(chunk, rec, class, id).map_or(NONE, |(full, _)| full as i32)
    }

    /// (string row of "Class.method", string row of the class) of method `id`.
    fn method(&mut self, chunk: &Chunk<'_>, rec: &mut Recording, class: usize, id: u64) -> Option<(u32, u32)> {
        if let Some(&m) = self.methods.get(&id) {
            return m;
        }
        let m = self.method_uncached(chunk, rec, class, id);
        self.methods.insert(id, m);
        m
    }

    fn method_uncached(&mut self, chunk: &Chunk<'_>, rec: &mut Recording, class: usize, id: u64) -> Option<(u32, u32)> {
        let mut r = chunk.pool_reader(class, id)?;
        let c = &chunk.md.classes[class];
        let (mut cls, mut name) = (NONE, NONE);
        let codes = self.codes(chunk, class, METHOD_FIELDS);
        for (f, &code) in c.fields.iter().zip(codes.iter()) {
            if code == 0 {
                chunk.skip_value_field(&mut r, f).ok()?;
                continue;
            }
            let s = chunk.read_scalar(&mut r, f).ok()?;
            match (code, s) {
                (1, Scalar::Ref(cid)) => cls = self.resolve(Cached::ClassName, chunk, rec, f.class, cid),
                (2, s) => name = self.text_scalar(chunk, rec, f.class, s),
                _ => {}
            }
        }
        let cls_s = rec.strings.get(cls);
        let full = format!("{}.{}", cls_s, rec.strings.get(name));
        let full = rec.strings.intern(&full);
        Some((full, cls.max(0) as u32))
    }

    fn frame_kind(&mut self, chunk: &Chunk<'_>, rec: &mut Recording, class: usize, id: u64) -> FrameKind {
        if let Some(&k) = self.frame_kinds.get(&id) {
            return k;
        }
        let t = self.text(chunk, rec, class, id, 0);
        let k = FrameKind::from_description(rec.strings.get(t));
        self.frame_kinds.insert(id, k);
        k
    }

    fn stack_uncached(&mut self, chunk: &Chunk<'_>, rec: &mut Recording, class: usize, id: u64) -> Option<i32> {
        let mut r = chunk.pool_reader(class, id)?;
        let c = &chunk.md.classes[class];
        let mut frames = std::mem::take(&mut self.frame_buf);
        frames.clear();
        let codes = self.codes(chunk, class, STACK_FIELDS);
        // (The row of a stack an earlier chunk wrote with the same bytes, and their key.)
        let (mut known, mut key) = (None, None);
        for (f, &code) in c.fields.iter().zip(codes.iter()) {
            if code == 1 && f.array {
                let n = r.len("frame count", 1).ok()?;
                if !f.cpool && self.standard_frame(chunk, f.class) && self.by_bytes(chunk, rec, f.class) {
                    // Four integers a frame (method, line, bytecode index, type).
                    let start = r.pos();
                    r.skip_varints(4 * n).ok()?;
                    let k = StackBytes::key(n, &chunk.data[start..r.pos()]);
                    key = Some(k);
                    known = rec.stack_bytes.rows.get(&k).copied();
                    if known.is_some() {
                        rec.stack_bytes.hits += 1;
                        continue;
                    }
                    r.seek(start).ok()?;
                }
                for _ in 0..n {
                    let fr = if f.cpool {
                        let fid = r.long().ok()? as u64;
                        let mut fr_r = chunk.pool_reader(f.class, fid)?;
                        self.frame(chunk, rec, f.class, &mut fr_r)?
                    } else {
                        self.frame(chunk, rec, f.class, &mut r)?
                    };
                    frames.push(fr);
                }
            } else {
                chunk.skip_value_field(&mut r, f).ok()?;
            }
        }
        if let Some(s) = known {
            self.frame_buf = frames;
            return Some(s);
        }
        // Frames are stored leaf first; the tree grows from the root.
        let s = rec.stacks.intern_path(&frames);
        if let Some(k) = key {
            rec.stack_bytes.rows.insert(k, s);
        }
        self.frame_buf = frames;
        Some(s)
    }

    /// Whether this chunk finds its stacks by their frames' bytes: once it has read
    /// [`VOUCH_AFTER`] stack traces, if [`StackBytes::vouch`] says so.
    #[inline]
    fn by_bytes(&mut self, chunk: &Chunk<'_>, rec: &mut Recording, frame_class: usize) -> bool {
        if let Some(b) = self.by_bytes {
            return b;
        }
        self.stacks_read += 1;
        if self.stacks_read <= VOUCH_AFTER {
            return false;
        }
        let b = rec.stack_bytes.vouch(chunk, frame_class);
        self.by_bytes = Some(b);
        b
    }

    fn frame<'b>(&mut self, chunk: &Chunk<'b>, rec: &mut Recording, class: usize, r: &mut Reader<'b>) -> Option<u32> {
        // Read the raw ids first; a frame seen before in this chunk costs one lookup.
        let (mut mid, mut line, mut bci, mut tid) = (None, -1i32, -1i32, None);
        if self.standard_frame(chunk, class) {
            mid = Some(r.varint().ok()?);
            line = r.varint().ok()? as i32;
            bci = r.varint().ok()? as i32;
            tid = Some(r.varint().ok()?);
        } else {
            let c = &chunk.md.classes[class];
            let codes = self.codes(chunk, class, FRAME_FIELDS);
            for (f, &code) in c.fields.iter().zip(codes.iter()) {
                if code == 0 {
                    chunk.skip_value_field(r, f).ok()?;
                    continue;
                }
                match (code, chunk.read_scalar(r, f).ok()?) {
                    (1, Scalar::Ref(m)) => mid = Some(m),
                    (2, Scalar::Int(v)) => line = v as i32,
                    (3, Scalar::Int(v)) => bci = v as i32,
                    (4, Scalar::Ref(t)) => tid = Some(t),
                    _ => {}
                }
            }
        }
        let key = (mid.unwrap_or(u64::MAX), line, bci, tid.unwrap_or(u64::MAX));
        if let Some(&f) = self.frame_cache.get(&key) {
            return Some(f);
        }
        let c = &chunk.md.classes[class];
        let field_class = |name: &str| c.field(name).map(|i| c.fields[i].class);
        let method = match (mid, field_class("method")) {
            (Some(m), Some(mc)) => self.method(chunk, rec, mc, m),
            _ => None,
        };
        let kind = match (tid, field_class("type")) {
            (Some(t), Some(tc)) => self.frame_kind(chunk, rec, tc, t),
            _ => FrameKind::Unknown,
        };
        let (name, cls) = match method {
            Some(m) => m,
            None => {
                let u = rec.strings.intern("unknown");
                (u, u)
            }
        };
        let f = rec.frames.intern(name, cls, line, bci, kind);
        self.frame_cache.insert(key, f);
        Some(f)
    }

    /// Whether frames of `class` are laid out as JDK and async-profiler write them: method
    /// (reference), lineNumber (int), bytecodeIndex (int), type (reference), compressed.
    fn standard_frame(&mut self, chunk: &Chunk<'_>, class: usize) -> bool {
        if let Some(&(c, v)) = self.standard.as_ref() {
            if c == class {
                return v;
            }
        }
        let cd = &chunk.md.classes[class];
        let prim = |i: usize, p: Prim| chunk.md.classes[cd.fields[i].class].prim == Some(p) && !cd.fields[i].cpool;
        let v = chunk.header.compressed
            && cd.fields.len() == 4
            && cd.fields.iter().zip(FRAME_FIELDS).all(|(f, n)| f.name == *n && !f.array)
            && cd.fields[0].cpool
            && cd.fields[3].cpool
            && prim(1, Prim::Int)
            && prim(2, Prim::Int);
        self.standard = Some((class, v));
        v
    }
}

impl<'a> Chunk<'a> {
    /// Skip one field's value.
    pub(crate) fn skip_value_field(&self, r: &mut Reader<'_>, f: &crate::metadata::FieldDesc) -> Result<()> {
        if f.array {
            let n = r.len("array length", 1)?;
            for _ in 0..n {
                if f.cpool {
                    r.long()?;
                } else {
                    self.skip_value(r, f.class, 1)?;
                }
            }
            Ok(())
        } else if f.cpool {
            r.long().map(|_| ())
        } else {
            self.skip_value(r, f.class, 1)
        }
    }
}
