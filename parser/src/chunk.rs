//! One chunk: its metadata, its constant pools and its events.
//!
//! ```text
//! chunk := header(68) event*          event := size typeId field*
//!   typeId 0: metadata   (see metadata.rs)
//!   typeId 1: checkpoint := startTime duration delta kind(u8) poolCount
//!                           (typeId count (id value)*)*
//! ```
//! Checkpoints form a chain through `delta` (relative offset of the next one, 0 ends it),
//! starting at the header's constant-pool offset; a recording flushed while streaming also
//! writes checkpoints between events. Both are read. Pool entries are indexed by position and
//! decoded lazily, the first time an event refers to them; a class's pool is indexed when it is
//! first looked up, from the checkpoints that may hold it only (the JDK writes its stack traces
//! in checkpoints of their own, so a pass that resolves only threads never walks them):
//!
//! ```text
//! checkpoints  [types: ThreadState, GCName, …] [Thread, ThreadGroup] [StackTrace] … [StackTrace]
//! lookup Thread → index the checkpoints of several pools and those whose one pool is Thread
//! ```

use crate::error::{Error, ErrorKind, Result};
use crate::header::{ChunkHeader, HEADER_SIZE};
use crate::metadata::{Metadata, Prim};
use crate::reader::{RawStr, Reader};
use rustc_hash::{FxHashMap, FxHashSet};

/// An index of one constant pool: entry id → where its value lies in the chunk. The entry of
/// the latest checkpoint in the file wins, whatever order checkpoints were indexed in; an entry
/// whose value could not be skipped is kept as absent (so it hides the same id written earlier,
/// as it does when the checkpoints are read in file order).
#[derive(Debug, Default, Clone)]
pub(crate) struct Pool {
    /// Id → position << 1, | 1 when the value is unreadable.
    entries: FxHashMap<u64, u64>,
}

impl Pool {
    fn put(&mut self, id: u64, pos: usize, readable: bool) {
        let v = (pos as u64) << 1 | (!readable) as u64;
        match self.entries.entry(id) {
            std::collections::hash_map::Entry::Occupied(mut e) => {
                if *e.get() >> 1 <= pos as u64 {
                    e.insert(v);
                }
            }
            std::collections::hash_map::Entry::Vacant(e) => {
                e.insert(v);
            }
        }
    }

    fn get(&self, id: u64) -> Option<usize> {
        let v = *self.entries.get(&id)?;
        (v & 1 == 0).then_some((v >> 1) as usize)
    }
}

/// What one checkpoint holds, as its header says.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Holds {
    /// No pool at all.
    Nothing,
    /// One pool, of this class.
    One(usize),
    /// Several pools (or a header that could not be read): any class.
    Any,
}

impl Holds {
    /// Whether the checkpoint may hold the pool of `class`.
    fn may_hold(self, class: usize) -> bool {
        match self {
            Holds::Nothing => false,
            Holds::One(c) => c == class,
            Holds::Any => true,
        }
    }
}

/// The header of a checkpoint event, what comes before its pools:
///
/// ```text
/// size(int) typeId(long, 1) startTime(long) duration(long) delta(long) kind(u8) poolCount(int)
/// ```
/// Only what a reader uses is kept. Nothing is checked: the callers decide what a wrong type
/// or count means.
#[derive(Debug, Clone, Copy)]
pub(crate) struct CheckpointHead {
    /// The number of pools, as written.
    pub pools: i32,
    /// Absolute offset of the pool count.
    pub pools_at: u64,
}

impl CheckpointHead {
    /// Reads the header of the event `r` is on, leaving `r` on its first pool.
    pub(crate) fn read(r: &mut Reader<'_>) -> Result<CheckpointHead> {
        Self::link(r)?;
        r.u8()?; // checkpoint kind (format 2) or flush flag (format 1)
        let pools_at = r.offset();
        let pools = r.int()?;
        Ok(CheckpointHead { pools, pools_at })
    }

    /// The event's type id (1 for a checkpoint) and the relative offset of the next checkpoint
    /// in the chain (0 ends it): all the chain's walk reads, so a last checkpoint cut off after
    /// its delta still ends the chain where it should.
    pub(crate) fn link(r: &mut Reader<'_>) -> Result<(u64, i64)> {
        r.int()?; // size
        let ty = r.long()? as u64;
        r.long()?; // start
        r.long()?; // duration
        Ok((ty, r.long()?))
    }
}

struct Checkpoint {
    pos: usize,
    holds: Holds,
    indexed: bool,
    errors: Vec<Error>,
}

/// The chunk's checkpoints (found on the first lookup) and the pools indexed so far.
#[derive(Default)]
struct Pools {
    /// In file order; `None` until the first lookup.
    checkpoints: Option<Vec<Checkpoint>>,
    /// Errors met finding the checkpoints (a broken chain, an unreadable event header).
    errors: Vec<Error>,
    by_class: FxHashMap<usize, Pool>,
    /// Per class index: whether every checkpoint that may hold its pool is indexed.
    ready: Vec<bool>,
}

/// A chunk with its metadata read and its pools indexed.
pub struct Chunk<'a> {
    /// Index of the chunk in the file.
    pub index: usize,
    /// Its header.
    pub header: ChunkHeader,
    /// The chunk's bytes (shorter than `header.size` when the file is truncated).
    pub(crate) data: &'a [u8],
    /// The chunk's metadata.
    pub md: Metadata,
    /// Pools by class index, each indexed on first use (a count never needs most of them).
    pools: std::cell::RefCell<Pools>,
    /// A compiled skip program per class.
    skips: Vec<Vec<Op>>,
    /// Thread pool ids whose thread the JDK's reader carries over from an earlier chunk, with
    /// that thread as it was decoded there: [`Chunk::resolve_value`] gives these (see
    /// [`crate::for_each_event`]).
    pub(crate) carried: FxHashMap<u64, crate::value::Value>,
}

/// One step of a compiled skip program: what a value's bytes look like, flattened.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Op {
    /// `n` compressed integers (ints, longs, pool references).
    Varints(u32),
    /// `n` fixed bytes.
    Bytes(u32),
    /// A string.
    Str,
    /// An array of elements laid out as the inner program.
    Array(Box<[Op]>),
    /// A value of this class, skipped recursively (nesting too deep to inline).
    Nested(usize),
}

fn push_op(ops: &mut Vec<Op>, op: Op) {
    match (ops.last_mut(), &op) {
        (Some(Op::Varints(a)), Op::Varints(b)) => *a += b,
        (Some(Op::Bytes(a)), Op::Bytes(b)) => *a += b,
        _ => ops.push(op),
    }
}

/// The skip program of one value of class `class` (inline encoding).
pub(crate) fn compile(md: &Metadata, compressed: bool, class: usize, depth: usize, ops: &mut Vec<Op>) {
    let c = &md.classes[class];
    if let Some(p) = c.prim {
        let int = |n: u32| if compressed { Op::Varints(1) } else { Op::Bytes(n) };
        push_op(
            ops,
            match p {
                Prim::Boolean | Prim::Byte => Op::Bytes(1),
                Prim::Char | Prim::Short => int(2),
                Prim::Int => int(4),
                Prim::Long => int(8),
                Prim::Float => Op::Bytes(4),
                Prim::Double => Op::Bytes(8),
                Prim::String => Op::Str,
            },
        );
        return;
    }
    for f in &c.fields {
        let mut single = Vec::new();
        compile_single(md, compressed, f, depth, &mut single);
        if f.array {
            push_op(ops, Op::Array(single.into_boxed_slice()));
        } else {
            for op in single {
                push_op(ops, op);
            }
        }
    }
}

/// The skip program of one element of field `f` (a reference or an inline value).
pub(crate) fn compile_single(md: &Metadata, compressed: bool, f: &crate::metadata::FieldDesc, depth: usize, ops: &mut Vec<Op>) {
    if f.cpool {
        push_op(ops, if compressed { Op::Varints(1) } else { Op::Bytes(8) });
    } else if depth < 6 {
        compile(md, compressed, f.class, depth + 1, ops);
    } else {
        ops.push(Op::Nested(f.class));
    }
}

const MAX_ERRORS: usize = 32;

impl<'a> Chunk<'a> {
    /// Read the metadata and index the constant pools of the chunk `header` describes.
    pub fn open(file: &'a [u8], header: ChunkHeader, index: usize) -> Result<Chunk<'a>> {
        let start = header.offset as usize;
        let end = (header.offset.saturating_add(header.size)).min(file.len() as u64) as usize;
        Chunk::from_bytes(file.get(start..end).unwrap_or(&[]), header, index)
    }

    /// Like [`Chunk::open`], from the chunk's own bytes (which start with its header; they may
    /// stop short of `header.size` when the file is truncated).
    pub fn from_bytes(data: &'a [u8], header: ChunkHeader, index: usize) -> Result<Chunk<'a>> {
        let data = &data[..data.len().min(header.size as usize)];
        let compressed = header.compressed;
        let base = header.offset;
        let meta_pos = header.meta_offset as usize;
        if meta_pos >= data.len() {
            return Err(Error::new(ErrorKind::UnexpectedEof, base + data.len() as u64).in_chunk(index));
        }
        let mut r = Reader::new(data, base, compressed);
        r.seek(meta_pos).map_err(|e| e.in_chunk(index))?;
        let md = Metadata::parse(&mut r).map_err(|e| e.in_chunk(index))?;
        let skips = (0..md.classes.len())
            .map(|c| {
                let mut ops = Vec::new();
                compile(&md, compressed, c, 0, &mut ops);
                ops
            })
            .collect();
        Ok(Chunk { index, header, data, md, pools: Default::default(), skips, carried: FxHashMap::default() })
    }

    /// A reader over the chunk's bytes, at chunk-relative `pos`.
    pub(crate) fn reader_at(&self, pos: usize) -> Reader<'a> {
        let mut r = Reader::new(self.data, self.header.offset, self.header.compressed);
        let _ = r.seek(pos.min(self.data.len()));
        r
    }

    /// Whether the file ends before the chunk does: its constant pools, written last by the JDK,
    /// may be missing.
    pub fn is_cut(&self) -> bool {
        (self.data.len() as u64) < self.header.size
    }

    /// Where the events end: the chunk's end, or the file's if it is cut short.
    pub(crate) fn events_end(&self) -> usize {
        self.data.len()
    }

    /// Find the chunk's checkpoints, on the first lookup; returns whether the pool of `class` is
    /// indexed already.
    fn found(&self, p: &mut Pools, class: usize) -> bool {
        if p.checkpoints.is_none() {
            let (found, errors) = self.find_checkpoints();
            p.checkpoints = Some(found);
            p.errors = errors;
            p.ready = vec![false; self.md.classes.len()];
        }
        p.ready.get(class).copied().unwrap_or(false)
    }

    /// Index every checkpoint that may hold the pool of `class` (after finding the checkpoints,
    /// on the first lookup).
    fn ensure(&self, p: &mut Pools, class: usize) {
        if self.found(p, class) {
            return;
        }
        let mut cps = p.checkpoints.take().unwrap_or_default();
        for cp in cps.iter_mut().filter(|cp| !cp.indexed) {
            if cp.holds.may_hold(class) {
                cp.indexed = true;
                if let Err(e) = self.index_checkpoint(cp.pos, None, &mut p.by_class) {
                    cp.errors.push(e.in_chunk(self.index));
                }
            }
        }
        p.checkpoints = Some(cps);
        if let Some(r) = p.ready.get_mut(class) {
            *r = true;
        }
    }

    /// Errors met indexing the pools (the chunk stays usable; entries after the damage resolve
    /// to "unknown"), in file order. Indexes every pool not indexed yet: a pass that resolves
    /// little reports the same errors as one that resolves everything.
    pub fn pool_errors(&self) -> Vec<Error> {
        let mut p = self.pools.borrow_mut();
        self.ensure(&mut p, 0);
        let mut cps = p.checkpoints.take().unwrap_or_default();
        for cp in cps.iter_mut().filter(|cp| !cp.indexed) {
            cp.indexed = true;
            if let Err(e) = self.index_checkpoint(cp.pos, None, &mut p.by_class) {
                cp.errors.push(e.in_chunk(self.index));
            }
        }
        p.checkpoints = Some(cps);
        p.ready.iter_mut().for_each(|r| *r = true);
        Self::errors_of(&p)
    }

    /// Errors met indexing the pools that lookups have indexed so far (none when nothing was
    /// looked up): what a pass that resolved some references found wrong on the way.
    pub fn pool_errors_found(&self) -> Vec<Error> {
        Self::errors_of(&self.pools.borrow())
    }

    fn errors_of(p: &Pools) -> Vec<Error> {
        let indexed = p.checkpoints.iter().flatten().filter(|cp| cp.indexed).flat_map(|cp| cp.errors.iter());
        p.errors.iter().chain(indexed).take(MAX_ERRORS).cloned().collect()
    }

    /// Walk event headers: calls `f(pos, size, type_id)` for each event; stops at the first
    /// malformed header and returns its error.
    pub fn scan(&self, mut f: impl FnMut(usize, usize, u64)) -> Result<()> {
        self.scan_bodies(|pos, size, ty, _| f(pos, size, ty))
    }

    /// Like [`Chunk::scan`], also passing where the event's fields start (just after its type
    /// id; past `pos + size` when the header itself overruns the event).
    #[inline]
    pub(crate) fn scan_bodies(&self, mut f: impl FnMut(usize, usize, u64, usize)) -> Result<()> {
        let end = self.events_end();
        let mut pos = HEADER_SIZE;
        while pos < end {
            let (size, ty, body) = self.event_header(pos, end)?;
            f(pos, size, ty, body);
            pos += size;
        }
        Ok(())
    }

    /// The header of the event at `pos` (before `end`, where the events end): its size, its
    /// type id and where its fields start, or the error that stops a walk over the events.
    #[inline(always)]
    pub(crate) fn event_header(&self, pos: usize, end: usize) -> Result<(usize, u64, usize)> {
        // Most events are under 128 bytes with a type id under 16384: a one-byte size and a
        // one- or two-byte type id, read here without the general reader.
        if let Some(&[s, t0, t1, ..]) = self.data.get(pos..) {
            if self.header.compressed && s < 0x80 && s > 0 && pos + (s as usize) <= end {
                if t0 < 0x80 {
                    return Ok((s as usize, t0 as u64, pos + 2));
                } else if t1 < 0x80 {
                    return Ok((s as usize, (t0 & 0x7f) as u64 | (t1 as u64) << 7, pos + 3));
                }
            }
        }
        self.event_header_slow(pos, end)
    }

    #[inline(never)]
    fn event_header_slow(&self, pos: usize, end: usize) -> Result<(usize, u64, usize)> {
        let mut r = self.reader_at(pos);
        let at = r.offset();
        let size = r.int().map_err(|e| e.in_chunk(self.index))?;
        if size <= 0 || pos + size as usize > end {
            let kind = if size > 0 { ErrorKind::UnexpectedEof } else { ErrorKind::OutOfBounds { what: "event size", value: size as i64 } };
            return Err(Error::new(kind, at).in_chunk(self.index));
        }
        let ty = r.long().map_err(|e| e.in_chunk(self.index))? as u64;
        Ok((size as usize, ty, r.pos()))
    }

    /// The chunk's checkpoints in file order, each with what its header says it holds, and the
    /// errors met finding them.
    fn find_checkpoints(&self) -> (Vec<Checkpoint>, Vec<Error>) {
        let mut errors = Vec::new();
        let mut push = |e: Error| {
            if errors.len() < MAX_ERRORS {
                errors.push(e.in_chunk(self.index));
            }
        };
        // Checkpoints from the chain (as the JDK reads them); when the chain is missing, broken,
        // loops or points past a truncation, every checkpoint met between events instead.
        let mut seen = FxHashSet::default();
        let mut order = Vec::new();
        let mut pos = self.header.cp_offset as usize;
        let mut steps = 0usize;
        let mut chain_ok = false;
        while pos >= HEADER_SIZE && pos < self.data.len() && seen.insert(pos) {
            order.push(pos);
            steps += 1;
            match self.checkpoint_delta(pos) {
                Ok(0) => {
                    chain_ok = true;
                    break;
                }
                Ok(d) => {
                    // The delta is read from the file: a sum past i64 is as broken as one below 0.
                    let next = match (pos as i64).checked_add(d) {
                        Some(n) if n >= 0 && steps <= 1_000_000 => n,
                        _ => break,
                    };
                    pos = next as usize;
                }
                Err(e) => {
                    push(e);
                    break;
                }
            }
        }
        let mut scanned = Vec::new();
        if !chain_ok {
            if let Err(e) = self.scan(|p, _, ty| {
                if ty == 1 {
                    scanned.push(p)
                }
            }) {
                push(e);
            }
        }
        for p in scanned {
            if seen.insert(p) {
                order.push(p);
            }
        }
        order.sort_unstable();
        let found = order.into_iter().map(|pos| Checkpoint { pos, holds: self.holds(pos), indexed: false, errors: Vec::new() }).collect();
        (found, errors)
    }

    /// What the checkpoint at `pos` holds, from its header alone.
    fn holds(&self, pos: usize) -> Holds {
        let mut r = self.reader_at(pos);
        match CheckpointHead::read(&mut r).map(|h| h.pools) {
            Ok(0) => Holds::Nothing,
            Ok(1) => r.long().ok().and_then(|id| self.md.class_index(id as u64)).map_or(Holds::Any, Holds::One),
            _ => Holds::Any,
        }
    }

    fn checkpoint_delta(&self, pos: usize) -> Result<i64> {
        let mut r = self.reader_at(pos);
        let at = r.offset();
        let (ty, delta) = CheckpointHead::link(&mut r)?;
        if ty != 1 {
            return Err(Error::new(ErrorKind::BadMetadata("the constant-pool offset does not point at a checkpoint"), at));
        }
        Ok(delta)
    }

    /// A reader over the checkpoint at `pos`, bounded by its size, on its first pool; and its
    /// pool count.
    fn checkpoint_pools(&self, pos: usize) -> Result<(Reader<'a>, usize)> {
        let mut r = self.reader_at(pos);
        let size_at = r.offset();
        let size = r.int()?;
        if size <= 0 || pos + size as usize > self.data.len() {
            return Err(Error::new(ErrorKind::OutOfBounds { what: "checkpoint size", value: size as i64 }, size_at));
        }
        let mut r = Reader::new(&self.data[..pos + size as usize], self.header.offset, self.header.compressed);
        r.seek(pos)?;
        let head = CheckpointHead::read(&mut r)?;
        let npools = r.check_len("pool count", head.pools, 2, head.pools_at)?;
        Ok((r, npools))
    }

    /// Index the pools of the checkpoint at `pos` into `by_class`: every pool, or with `only`
    /// the pool of that class alone, its pools walked up to the end of that one.
    fn index_checkpoint(&self, pos: usize, only: Option<usize>, by_class: &mut FxHashMap<usize, Pool>) -> Result<()> {
        let (mut r, npools) = self.checkpoint_pools(pos)?;
        for _ in 0..npools {
            let at = r.offset();
            let tid = r.long()? as u64;
            let class = self.md.class_index(tid).ok_or_else(|| Error::new(ErrorKind::UnknownType(tid), at))?;
            let n = r.len("pool entry count", 1)?;
            let mut pool = only.is_none_or(|c| c == class).then(|| by_class.entry(class).or_default());
            if let Some(p) = pool.as_mut() {
                p.entries.reserve(n);
            }
            for _ in 0..n {
                let id = r.long()? as u64;
                let at = r.pos();
                let skipped = self.skip_value(&mut r, class, 0);
                if let Some(p) = pool.as_mut() {
                    p.put(id, at, skipped.is_ok());
                }
                skipped?;
            }
            if only == Some(class) {
                break;
            }
        }
        Ok(())
    }

    /// Every readable entry of the pool of `class`: (id, where its value lies), ids increasing,
    /// as [`Chunk::pool_reader`] finds them. The checkpoints that may hold it are walked only up
    /// to the end of that pool, and nothing is indexed (a checkpoint of async-profiler holds
    /// every pool, its stack traces, most of its bytes, after its threads); a checkpoint that
    /// cannot be walked that far sends the lookup to the index instead (which reports why).
    pub(crate) fn pool_entries(&self, class: usize) -> Vec<(u64, usize)> {
        let readable = |pool: &Pool| {
            let mut v: Vec<(u64, usize)> = pool.entries.iter().filter(|(_, &e)| e & 1 == 0).map(|(&id, &e)| (id, (e >> 1) as usize)).collect();
            v.sort_unstable();
            v
        };
        let found: Vec<(usize, Holds)> = {
            let mut p = self.pools.borrow_mut();
            if self.found(&mut p, class) {
                return p.by_class.get(&class).map(readable).unwrap_or_default();
            }
            p.checkpoints.iter().flatten().map(|cp| (cp.pos, cp.holds)).collect()
        };
        let mut pools = FxHashMap::default();
        for (pos, holds) in found {
            if holds.may_hold(class) && self.index_checkpoint(pos, Some(class), &mut pools).is_err() {
                let mut p = self.pools.borrow_mut();
                self.ensure(&mut p, class);
                return p.by_class.get(&class).map(readable).unwrap_or_default();
            }
        }
        pools.get(&class).map(readable).unwrap_or_default()
    }

    /// A reader positioned on the value of pool entry `id` of class `class`.
    pub(crate) fn pool_reader(&self, class: usize, id: u64) -> Option<Reader<'a>> {
        let pos = {
            let mut p = self.pools.borrow_mut();
            if !p.ready.get(class).copied().unwrap_or(false) {
                self.ensure(&mut p, class);
            }
            p.by_class.get(&class)?.get(id)?
        };
        Some(self.reader_at(pos))
    }

    /// Skip a value of class `class` (inline encoding).
    pub fn skip_value(&self, r: &mut Reader<'_>, class: usize, depth: usize) -> Result<()> {
        if depth > 32 {
            return Err(r.err(ErrorKind::TooDeep));
        }
        self.run_ops(r, &self.skips[class], depth)
    }

    /// Run a compiled skip program.
    #[inline]
    pub(crate) fn run_ops(&self, r: &mut Reader<'_>, ops: &[Op], depth: usize) -> Result<()> {
        for op in ops {
            match op {
                Op::Varints(n) => r.skip_varints(*n as usize)?,
                Op::Bytes(n) => r.skip(*n as usize)?,
                Op::Str => r.skip_string()?,
                Op::Array(el) => {
                    let n = r.len("array length", 1)?;
                    match &el[..] {
                        [Op::Varints(k)] => r.skip_varints(n * *k as usize)?,
                        [Op::Bytes(k)] => r.skip(n * *k as usize)?,
                        _ => {
                            for _ in 0..n {
                                self.run_ops(r, el, depth + 1)?;
                            }
                        }
                    }
                }
                Op::Nested(c) => self.skip_value(r, *c, depth + 1)?,
            }
        }
        Ok(())
    }

    #[inline]
    pub(crate) fn skip_single(&self, r: &mut Reader<'_>, cpool: bool, class: usize, depth: usize) -> Result<()> {
        if cpool {
            r.long().map(|_| ())
        } else {
            self.skip_value(r, class, depth + 1)
        }
    }

    /// Decode every field of the event at chunk-relative `pos`.
    pub fn decode_event(&self, pos: usize) -> Result<(String, crate::value::Value)> {
        let (mut r, class) = self.event_at(pos)?;
        let v = self.decode_value(&mut r, class, 0)?;
        Ok((self.md.classes[class].name.clone(), v))
    }

    /// A reader at the first field of the event at chunk-relative `pos`, bounded by the event's
    /// size, and the event's class index.
    pub(crate) fn event_at(&self, pos: usize) -> Result<(Reader<'a>, usize)> {
        let mut r = self.reader_at(pos);
        let size = r.int()?;
        if size <= 0 || pos + size as usize > self.data.len() {
            return Err(r.err(ErrorKind::OutOfBounds { what: "event size", value: size as i64 }));
        }
        let mut r = Reader::new(&self.data[..pos + size as usize], self.header.offset, self.header.compressed);
        r.seek(pos)?;
        r.int()?;
        let at = r.offset();
        let tid = r.long()? as u64;
        let class = self.md.class_index(tid).ok_or_else(|| Error::new(ErrorKind::UnknownType(tid), at))?;
        Ok((r, class))
    }
}

/// A field value as the event decoder needs it.
#[derive(Debug)]
pub(crate) enum Scalar<'a> {
    Int(i64),
    Float(f64),
    Str(RawStr<'a>),
    Ref(u64),
    Other,
}

impl<'a> Chunk<'a> {
    /// Read one field as a scalar; arrays and inline structs are skipped (`Other`).
    #[inline]
    pub(crate) fn read_scalar(&self, r: &mut Reader<'a>, f: &crate::metadata::FieldDesc) -> Result<Scalar<'a>> {
        if f.array {
            let n = r.len("array length", 1)?;
            for _ in 0..n {
                self.skip_single(r, f.cpool, f.class, 0)?;
            }
            return Ok(Scalar::Other);
        }
        if f.cpool {
            return Ok(Scalar::Ref(r.long()? as u64));
        }
        match self.md.classes[f.class].prim {
            Some(Prim::Long) | Some(Prim::Int) | Some(Prim::Short) => Ok(Scalar::Int(r.long()?)),
            Some(Prim::Boolean) | Some(Prim::Byte) => Ok(Scalar::Int(r.u8()? as i64)),
            Some(Prim::Char) => Ok(Scalar::Int(r.char16()? as i64)),
            Some(Prim::Float) => Ok(Scalar::Float(r.f32()? as f64)),
            Some(Prim::Double) => Ok(Scalar::Float(r.f64()?)),
            Some(Prim::String) => Ok(Scalar::Str(r.string()?)),
            None => {
                self.skip_value(r, f.class, 0)?;
                Ok(Scalar::Other)
            }
        }
    }
}

/// Number used for "absent" in i64 id columns.
pub const ABSENT: i64 = i64::MIN;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testutil::Pools as Written;
    use crate::testutil::*;

    /// Metadata, then checkpoints chained from the last back to the first (as the JDK writes
    /// them), then one sample.
    fn chained(pools: &[Written]) -> Vec<u8> {
        let mut evs = vec![metadata(&basic_classes())];
        let mut last = 0i64;
        for p in pools {
            let cp = linked_checkpoint(p, -last);
            last = cp.len() as i64;
            evs.push(cp);
        }
        let head = evs.len() - 1;
        evs.push(event(20, &sample(1, 1, 1)));
        chunk(&evs, 0, Some(head), 0)
    }

    fn os_name(c: &Chunk<'_>, id: u64) -> String {
        let class = c.md.class_by_name("java.lang.Thread").unwrap();
        c.resolve_value(class, id, 0).get("osName").map(|v| v.text()).unwrap_or_default()
    }

    #[test]
    fn a_lookup_indexes_only_the_checkpoints_that_may_hold_its_class() {
        // The stack traces' checkpoint holds one pool and is damaged: its one entry ends early.
        let broken: Written = vec![(10, vec![(2, vec![0, 5, 1])])];
        let data = chained(&[basic_pools(), broken]);
        let (h, _) = crate::header::chunk_headers(&data);
        let c = Chunk::from_bytes(&data, h[0].clone(), 0).unwrap();
        assert_eq!(os_name(&c, 1), "main");
        assert!(c.pool_errors_found().is_empty(), "the threads' lookup walked the stack traces: {:?}", c.pool_errors_found());
        let stack = c.md.class_by_name("jdk.types.StackTrace").unwrap();
        assert!(c.pool_reader(stack, 1).is_some(), "the first checkpoint's stack trace");
        assert_eq!(c.pool_errors_found().len(), 1);
        // A full pass's errors include it whatever was looked up.
        let fresh = Chunk::from_bytes(&data, h[0].clone(), 0).unwrap();
        assert_eq!(fresh.pool_errors(), c.pool_errors_found());
        assert!(c.pool_errors_found()[0].to_string().contains("array length 5"), "{:?}", c.pool_errors_found());
    }

    #[test]
    fn pool_entries_stop_at_the_pool_and_agree_with_the_index() {
        // Threads in a checkpoint of their own, then again (thread 1 renamed, thread 2 new) in
        // one that holds every pool, a damaged stack trace after them.
        let old: Written = vec![(4, vec![(1, thread("old", 1, 1))])];
        let mut new = basic_pools();
        new[0] = (4, vec![(1, thread("new", 2, 1)), (2, thread("two", 3, 2))]);
        new.push((10, vec![(9, vec![0, 5, 1])]));
        let data = chained(&[old, new]);
        let (h, _) = crate::header::chunk_headers(&data);
        let c = Chunk::from_bytes(&data, h[0].clone(), 0).unwrap();
        let thread_class = c.md.class_by_name("java.lang.Thread").unwrap();
        let early = c.pool_entries(thread_class);
        assert!(c.pool_errors_found().is_empty(), "walked past the threads: {:?}", c.pool_errors_found());
        assert_eq!(early.iter().map(|e| e.0).collect::<Vec<_>>(), vec![1, 2]);
        let indexed: Vec<(u64, usize)> = [1, 2].iter().map(|&id| (id, c.pool_reader(thread_class, id).unwrap().pos())).collect();
        assert_eq!(early, indexed);
        assert_eq!(os_name(&c, 1), "new");
        assert_eq!(c.pool_errors_found().len(), 1, "the index walks the whole checkpoint");
        // Once indexed, the index answers.
        assert_eq!(c.pool_entries(thread_class), indexed);
    }

    #[test]
    fn the_latest_checkpoint_wins_whatever_order_they_are_indexed_in() {
        // Thread 1 is "old" in a checkpoint of its own pool, then "new" in a later one that
        // also holds symbols.
        let old: Written = vec![(4, vec![(1, thread("old", 1, 1))])];
        let mut new = basic_pools();
        new[0] = (4, vec![(1, thread("new", 2, 1))]);
        let data = chained(&[old, new]);
        let (h, _) = crate::header::chunk_headers(&data);
        for symbols_first in [true, false] {
            let c = Chunk::from_bytes(&data, h[0].clone(), 0).unwrap();
            if symbols_first {
                // Indexes the later checkpoint (several pools) only, then the earlier one.
                assert!(c.pool_reader(c.md.class_by_name("jdk.types.Symbol").unwrap(), 1).is_some());
            }
            assert_eq!(os_name(&c, 1), "new", "symbols first: {symbols_first}");
        }
        // An entry the later checkpoint cannot read hides the earlier one, in either order.
        // (The thread pool last: its entry's name runs past the checkpoint's end.)
        let old: Written = vec![(4, vec![(1, thread("old", 1, 1))])];
        let mut cut = basic_pools();
        cut.remove(0);
        cut.push((4, vec![(1, vec![3, 9, b'x'])]));
        let data = chained(&[old, cut]);
        let (h, _) = crate::header::chunk_headers(&data);
        for symbols_first in [true, false] {
            let c = Chunk::from_bytes(&data, h[0].clone(), 0).unwrap();
            if symbols_first {
                c.pool_reader(c.md.class_by_name("jdk.types.Symbol").unwrap(), 1);
            }
            let class = c.md.class_by_name("java.lang.Thread").unwrap();
            assert!(c.pool_reader(class, 1).is_none(), "symbols first: {symbols_first}");
        }
    }
}
