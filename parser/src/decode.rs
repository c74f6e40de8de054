//! Event decoding: turns each chunk's events of known kinds into rows of the columns, resolving
//! threads, stacks, classes and strings from the chunk's pools on first use.
//!
//! ```text
//! event := size typeId field*        e.g. 07 14 | 85 2b | 01 | 03 | 01   (size 7, type 20,
//!                                     startTime 5,509, thread 1, stack 3, state 1; compressed)
//! ```
//! Each event class gets a [`Plan`] once per chunk (plan.rs). Decoding an event is then a walk
//! over its fields that reads what a role asks for and skips the rest; [`decode_fast`] does the
//! same for the common layouts a word at a time. Unwanted event types are skipped by their size
//! prefix without being looked at.

use crate::chunk::{Chunk, Scalar, ABSENT};
use crate::columns::{EventKind, NONE};
use crate::error::Result;
use crate::plan::{fast_plan, plan_steps, Fast, FastPlan, Head, Plan, Role, Step};
use crate::reader::{pack_groups, varint_in_word, RawStr, Reader};
use crate::resolve::{Cached, Resolver};
use crate::shape::ShapeRole;
use crate::sink::{RowSink, BATCH};
use crate::ticks::Ticks;
use crate::Recording;
use rustc_hash::FxHashMap;

/// Types whose events feed the recording's description.
pub(crate) const INFO_TYPES: [&str; 5] =
    ["jdk.JVMInformation", "jdk.OSInformation", "jdk.CPUInformation", "jdk.ActiveSetting", "jdk.InitialSystemProperty"];

/// The row in `rec.types` of event class `c`, added on first sight (by name).
fn register_type(c: &crate::metadata::ClassDesc, rec: &mut Recording) -> u32 {
    rec.type_row(&c.name, c.label.as_deref(), EventKind::of(&c.name), c.field("stackTrace").is_some())
}

/// Decode one chunk into `rec`. Errors inside single events are recorded and the event
/// skipped by its size; an error in the event headers stops the chunk there.
///
/// Which types get rows: none in a [`crate::Pass::Count`] or [`crate::Pass::Overview`] (a walk
/// of its own, [`count_events`]); with `only`, the types it names, whatever their fields in
/// this chunk; else every type of a known kind or with a stack trace
/// in this chunk or in any chunk met before (`rec.types`), unless events of it already went by
/// without rows (a chunk declared it without a stack trace, and none before with one): a type
/// has rows for all its events or none, and what a pass decodes depends only on the chunks up
/// to this one, so a file decoded whole and chunk by chunk gives the same rows. (Such a type
/// gets every row when asked for by name: the count pass says it has a stack.) Types are
/// identified by name, never by this chunk's type ids: two chunks may number and lay out the
/// same type differently.
/// `threads`: thread pool ids whose identity is carried over from earlier chunks
/// ([`crate::ThreadChain`]).
pub(crate) fn decode_chunk(chunk: &Chunk<'_>, rec: &mut Recording, only: Option<&[String]>, pass: crate::Pass, threads: crate::ThreadMap) {
    decode_chunk_with(chunk, rec, only, pass, true, threads)
}

/// [`decode_chunk`], with [`decode_fast`] or (`fast` false, for tests) the general path only.
fn decode_chunk_with(chunk: &Chunk<'_>, rec: &mut Recording, only: Option<&[String]>, pass: crate::Pass, fast: bool, threads: crate::ThreadMap) {
    let rows_only = pass == crate::Pass::Rows;
    let md = &chunk.md;
    // One slot per event class: its global type row, how many events, whether it feeds the
    // description, and how to decode it. Type ids index a dense table (ids are small in every
    // writer seen); others hash.
    let mut rows: Vec<u32> = Vec::new();
    let mut counts: Vec<u64> = Vec::new();
    let mut info: Vec<bool> = Vec::new();
    let mut plans: Vec<Option<Plan>> = Vec::new();
    let mut shape: Vec<ShapeRole> = Vec::new();
    let mut slot_of_class: FxHashMap<u64, u32> = FxHashMap::default();
    for c in md.classes.iter() {
        if !c.is_event() {
            continue;
        }
        let kind = EventKind::of(&c.name);
        let ty = register_type(c, rec);
        let wanted = match (pass, only) {
            (p, _) if p.counts_only() => false,
            (_, Some(names)) => names.contains(&c.name),
            (_, None) => {
                let t = &rec.types[ty as usize];
                kind != EventKind::Other || (t.has_stack && (t.decoded || t.count == 0))
            }
        };
        let plan = if wanted {
            rec.types[ty as usize].decoded = true;
            let ci = md.class_index(c.id).unwrap_or(0);
            let (mut steps, skips) = plan_steps(chunk, ci, kind);
            let fast = fast_plan(kind, &steps, fast && chunk.header.compressed);
            let head = Head::split(&mut steps);
            Some(Plan { ty, kind, class: ci, head, steps, skips, fast })
        } else {
            None
        };
        slot_of_class.insert(c.id, rows.len() as u32);
        rows.push(ty);
        counts.push(0);
        info.push(!rows_only && (INFO_TYPES.contains(&c.name.as_str()) || crate::FLAG_TYPES.contains(&c.name.as_str())));
        plans.push(plan);
        shape.push(if rows_only { ShapeRole::None } else { crate::shape::role_of(chunk, c) });
    }
    let ticks = Ticks::new(&chunk.header);
    const DENSE: u64 = 1 << 16;
    let max_dense = slot_of_class.keys().copied().filter(|&id| id < DENSE).max().map(|m| m as usize + 1).unwrap_or(0);
    let mut dense = vec![u32::MAX; max_dense];
    for (&id, &si) in &slot_of_class {
        if id < DENSE {
            dense[id as usize] = si;
        }
    }

    let mut d = Resolver::new(chunk).with_thread_overrides(threads);
    let mut out = RowSink::new(chunk);
    let mut errors = Vec::new();
    // Events of one type tend to come in runs: the type of the previous event when it has a
    // fast plan and feeds no description (its id, slot, row in the types and fields), looked
    // up once per run.
    let mut run: Option<(u64, usize, u32, &FastPlan)> = None;
    let end = chunk.events_end();
    let mut pos = crate::header::HEADER_SIZE;
    let scan = if pass.counts_only() {
        count_events(chunk, rec, &ticks, &dense, &slot_of_class, &mut counts, &shape, &info)
    } else {
        loop {
            if pos >= end {
                break Ok(());
            }
            let (size, tid, body) = match chunk.event_header(pos, end) {
                Ok(h) => h,
                Err(e) => break Err(e),
            };
            let at = pos;
            pos += size;
            if let Some((run_tid, si, ty, ops)) = run {
                if tid == run_tid {
                    if let Some(n) = counts.get_mut(si) {
                        *n += 1;
                    }
                    if let Some(&role) = shape.get(si).filter(|&&r| r != ShapeRole::None) {
                        rec.shape.read(chunk, &ticks, role, body, at + size);
                    }
                    if decode_fast(chunk, &mut d, rec, &mut out, ty, ops, at, at + size, body).is_some() {
                        continue;
                    }
                    if let Some(Some(plan)) = plans.get(si) {
                        if let Err(e) = decode_event(chunk, &mut d, rec, &mut out, plan, at, size, body) {
                            if errors.len() < 32 {
                                errors.push(e.in_chunk(chunk.index));
                            }
                        }
                    }
                    continue;
                }
            }
            let si = match dense.get(tid as usize) {
                Some(&si) => si,
                None if tid >= DENSE => slot_of_class.get(&tid).copied().unwrap_or(u32::MAX),
                None => u32::MAX,
            } as usize;
            let Some(n) = counts.get_mut(si) else {
                run = None;
                continue;
            };
            *n += 1;
            if let Some(&role) = shape.get(si).filter(|&&r| r != ShapeRole::None) {
                rec.shape.read(chunk, &ticks, role, body, at + size);
            }
            let is_info = info.get(si).copied().unwrap_or(false);
            if is_info {
                if let Ok((name, v)) = chunk.decode_event_fields(at, &crate::INFO_FIELDS) {
                    rec.add_info(&name, &v, chunk);
                }
            }
            run = None;
            if let Some(Some(plan)) = plans.get(si) {
                if let Some(fast) = &plan.fast {
                    if !is_info {
                        run = Some((tid, si, plan.ty, fast));
                    }
                    if decode_fast(chunk, &mut d, rec, &mut out, plan.ty, fast, at, at + size, body).is_some() {
                        continue;
                    }
                }
                if let Err(e) = decode_event(chunk, &mut d, rec, &mut out, plan, at, size, body) {
                    if errors.len() < 32 {
                        errors.push(e.in_chunk(chunk.index));
                    }
                }
            }
    }
    };
    out.flush(&mut rec.events);
    if let Some(end) = out.end_ns {
        rec.info.data_end_nanos = Some(rec.info.data_end_nanos.map_or(end, |d| d.max(end)));
    }
    if !rows_only {
        let mut mine: Vec<(u32, u64)> = Vec::new();
        for (&row, &n) in rows.iter().zip(&counts) {
            rec.types[row as usize].count += n;
            if n > 0 {
                match mine.iter_mut().find(|(r, _)| *r == row) {
                    Some(x) => x.1 += n,
                    None => mine.push((row, n)),
                }
            }
        }
        if rec.chunk_counts.len() == rec.chunks.len() {
            if let Some(last) = rec.chunk_counts.last_mut() {
                *last = mine;
            }
        }
    }
    rec.errors.extend(errors);
    if let Err(e) = scan.map_err(|e| (!rows_only).then_some(e)) {
        rec.errors.extend(e);
    }
}

/// The walk of a pass that decodes no rows: every event's header, its count, what it adds to
/// the shape, and the description's events decoded. Slots as in [`decode_chunk_with`].
#[allow(clippy::too_many_arguments)]
fn count_events(
    chunk: &Chunk<'_>,
    rec: &mut Recording,
    ticks: &Ticks,
    dense: &[u32],
    slot_of_class: &FxHashMap<u64, u32>,
    counts: &mut [u64],
    shape: &[ShapeRole],
    info: &[bool],
) -> Result<()> {
    // Per slot, what an event of it needs beyond its count: its shape role, or (None) the
    // description's decode as well, looked up once instead of per event.
    let todo: Vec<Option<ShapeRole>> = shape.iter().zip(info).map(|(&r, &i)| (!i).then_some(r)).collect();
    let end = chunk.events_end();
    let mut pos = crate::header::HEADER_SIZE;
    while pos < end {
        let (size, tid, body) = chunk.event_header(pos, end)?;
        let at = pos;
        pos += size;
        let si = match dense.get(tid as usize) {
            Some(&si) => si,
            None if tid >= 1 << 16 => slot_of_class.get(&tid).copied().unwrap_or(u32::MAX),
            None => u32::MAX,
        } as usize;
        let (Some(n), Some(&what)) = (counts.get_mut(si), todo.get(si)) else { continue };
        *n += 1;
        match what {
            Some(ShapeRole::None) => {}
            Some(role) => rec.shape.read(chunk, ticks, role, body, at + size),
            None => {
                if let Some(&role) = shape.get(si).filter(|&&r| r != ShapeRole::None) {
                    rec.shape.read(chunk, ticks, role, body, at + size);
                }
                if let Ok((name, v)) = chunk.decode_event_fields(at, &crate::INFO_FIELDS) {
                    rec.add_info(&name, &v, chunk);
                }
            }
        }
    }
    Ok(())
}

/// The error an event whose header overruns its stated size gives when its fields are read:
/// the header read again within the event's bounds.
#[cold]
fn header_overrun(chunk: &Chunk<'_>, pos: usize, size: usize) -> crate::error::Error {
    let data = chunk.data.get(..pos + size).unwrap_or(chunk.data);
    let mut r = Reader::new(data, chunk.header.offset, chunk.header.compressed);
    let res = r.seek(pos).and_then(|_| r.int()).and_then(|_| r.long());
    match res {
        Err(e) => e,
        Ok(_) => r.err(crate::error::ErrorKind::UnexpectedEof),
    }
}

/// The fields of one event row while its fields are read.
struct Row {
    start: i64,
    duration: i64,
    event_thread: i32,
    sampled_thread: i32,
    stack: i32,
    state: i32,
    weight: f64,
    alloc: f64,
    tlab: f64,
    subject: i32,
    host: i32,
    port: i64,
    value: f64,
    peer: i32,
}

impl Row {
    const EMPTY: Row = Row {
        start: 0,
        duration: 0,
        event_thread: NONE,
        sampled_thread: NONE,
        stack: NONE,
        state: NONE,
        weight: 1.0,
        alloc: f64::NAN,
        tlab: f64::NAN,
        subject: NONE,
        host: NONE,
        port: ABSENT,
        value: f64::NAN,
        peer: NONE,
    };

    /// Apply one field value read for `role` (`class`: the field's class, what a reference
    /// points into).
    fn apply(&mut self, d: &mut Resolver<'_>, chunk: &Chunk<'_>, rec: &mut Recording, role: Role, class: usize, s: Scalar<'_>) {
        match (role, s) {
            (Role::StartTime, Scalar::Int(t)) => self.start = t,
            (Role::Duration, Scalar::Int(t)) => self.duration = t,
            (Role::EventThread, Scalar::Ref(id)) => self.event_thread = d.resolve(Cached::Thread, chunk, rec, class, id),
            (Role::SampledThread, Scalar::Ref(id)) => self.sampled_thread = d.resolve(Cached::Thread, chunk, rec, class, id),
            (Role::ThreadField, Scalar::Ref(id)) => self.event_thread = d.resolve(Cached::Thread, chunk, rec, class, id),
            (Role::Peer, Scalar::Ref(id)) => self.peer = d.resolve(Cached::Thread, chunk, rec, class, id),
            (Role::Stack, Scalar::Ref(id)) => self.stack = d.resolve(Cached::Stack, chunk, rec, class, id),
            (Role::State, s) => self.state = d.text_scalar(chunk, rec, class, s),
            (Role::Samples, Scalar::Int(n)) => self.weight = n as f64,
            (Role::AllocSize, Scalar::Int(n)) => self.alloc = n as f64,
            (Role::TlabSize, Scalar::Int(n)) => self.tlab = n as f64,
            (Role::WeightField, Scalar::Int(n)) => self.alloc = n as f64,
            (Role::SubjectClass, Scalar::Ref(id)) => self.subject = d.resolve(Cached::ClassName, chunk, rec, class, id),
            (Role::SubjectStr, s) => self.subject = d.text_scalar(chunk, rec, class, s),
            (Role::SubjectMethod, Scalar::Ref(id)) => self.subject = d.method_name(chunk, rec, class, id),
            (Role::Host, s) => {
                let h = d.text_scalar(chunk, rec, class, s);
                self.set_host(rec, h);
            }
            (Role::Port, Scalar::Int(p)) => self.port = p,
            (Role::Value, Scalar::Int(v)) => self.value = v as f64,
            (Role::Value, Scalar::Float(v)) => self.value = v,
            _ => {}
        }
    }

    /// The first non-empty host wins (`host` and `address` may both be present).
    fn set_host(&mut self, rec: &Recording, h: i32) {
        if self.host == NONE || rec.strings.get(self.host).is_empty() {
            self.host = h;
        }
    }
}

#[allow(clippy::too_many_arguments)]
#[inline(never)]
fn decode_event<'a>(
    chunk: &Chunk<'a>,
    d: &mut Resolver<'a>,
    rec: &mut Recording,
    out: &mut RowSink,
    plan: &Plan,
    pos: usize,
    size: usize,
    body: usize,
) -> Result<()> {
    let Some(mut r) = Reader::bounded(chunk.data, body, pos + size, chunk.header.offset, chunk.header.compressed) else {
        return Err(header_overrun(chunk, pos, size));
    };
    let mut row = Row::EMPTY;
    let head = &plan.head;
    if head.start {
        row.start = r.varint()? as i64;
    }
    if head.duration {
        row.duration = r.varint()? as i64;
    }
    if let Some((sampled, class)) = head.thread {
        let t = d.resolve(Cached::Thread, chunk, rec, class, r.varint()?);
        if sampled {
            row.sampled_thread = t;
        } else {
            row.event_thread = t;
        }
    }
    if let Some(class) = head.stack {
        row.stack = d.resolve(Cached::Stack, chunk, rec, class, r.varint()?);
    }
    for &step in &plan.steps {
        match step {
            Step::SkipVarints(n) => r.skip_varints(n as usize)?,
            Step::SkipBytes(n) => r.skip(n as usize)?,
            Step::Skip(i) => chunk.run_ops(&mut r, plan.skips.get(i as usize).map_or(&[][..], |v| &v[..]), 0)?,
            Step::Varint(role) => {
                let v = r.varint()? as i64;
                match role {
                    Role::StartTime => row.start = v,
                    Role::Duration => row.duration = v,
                    Role::Value => row.value = v as f64,
                    _ => row.apply(d, chunk, rec, role, 0, Scalar::Int(v)),
                }
            }
            Step::Ref(role, fc) => {
                let fc = fc as usize;
                let id = r.varint()?;
                match role {
                    Role::EventThread | Role::ThreadField => row.event_thread = d.resolve(Cached::Thread, chunk, rec, fc, id),
                    Role::Stack => row.stack = d.resolve(Cached::Stack, chunk, rec, fc, id),
                    Role::SubjectClass => row.subject = d.resolve(Cached::ClassName, chunk, rec, fc, id),
                    _ => row.apply(d, chunk, rec, role, fc, Scalar::Ref(id)),
                }
            }
            Step::Str(role) => {
                // Most strings in events are references to the string pool.
                let t = if r.peek() == Some(2) {
                    r.skip(1)?;
                    let id = r.long()? as u64;
                    match role {
                        Role::SubjectStr | Role::State | Role::Host => d.resolve(Cached::StringRef, chunk, rec, 0, id),
                        _ => NONE,
                    }
                } else {
                    let s = r.string()?;
                    match role {
                        Role::SubjectStr | Role::State | Role::Host => d.inline_text(chunk, rec, s),
                        _ => NONE,
                    }
                };
                match role {
                    Role::SubjectStr => row.subject = t,
                    Role::State => row.state = t,
                    Role::Host => row.set_host(rec, t),
                    _ => {}
                }
            }
            Step::Generic(role, fi) => {
                let Some(f) = chunk.md.classes.get(plan.class).and_then(|c| c.fields.get(fi as usize)) else { continue };
                let s = chunk.read_scalar(&mut r, f)?;
                row.apply(d, chunk, rec, role, f.class, s);
            }
        }
    }
    finish(rec, out, plan, &row, pos);
    Ok(())
}

/// The eight bytes at `p`, little-endian, when the data holds them.
#[inline(always)]
fn word_at(data: &[u8], p: usize) -> Option<u64> {
    let bytes: &[u8; 8] = data.get(p..p.wrapping_add(8))?.try_into().ok()?;
    Some(u64::from_le_bytes(*bytes))
}

/// The compressed integer at `*p`, read a word at a time; `None` when fewer than eight bytes of
/// data follow its start. Whether it ends within the event is the caller's to check.
#[inline(always)]
fn fast_varint(data: &[u8], p: &mut usize) -> Option<u64> {
    let w = word_at(data, *p)?;
    let (v, len) = if w & 0x80 == 0 {
        (w & 0x7f, 1)
    } else if w & 0x8000 == 0 {
        ((w & 0x7f) | (w >> 1 & 0x3f80), 2)
    } else {
        match varint_in_word(w) {
            Some(x) => x,
            None => varint9(w, data, *p)?,
        }
    };
    *p += len;
    Some(v)
}

/// A nine-byte compressed integer whose first eight bytes are `w` (at `p`): their seven-bit
/// groups, and all eight bits of the ninth byte on top (negative longs, `Long.MIN_VALUE`).
#[cold]
fn varint9(w: u64, data: &[u8], p: usize) -> Option<(u64, usize)> {
    let b = *data.get(p + 8)?;
    Some((pack_groups(w) | (b as u64) << 56, 9))
}

/// Skip the compressed integer at `*p`, as [`fast_varint`] reads it.
#[inline(always)]
fn fast_skip_varint(data: &[u8], p: &mut usize) -> Option<()> {
    let term = !word_at(data, *p)? & 0x8080_8080_8080_8080;
    *p += if term == 0 { 9 } else { (term.trailing_zeros() / 8) as usize + 1 };
    Some(())
}

/// [`decode_event`] for an event type with a [`fast_plan`]: the same reads, from a local
/// position and a word at a time, with no error to build, each value written to its column in
/// the sink as it is read. Whether the reads end within the event is checked once at the end,
/// and before anything that is not a cache hit (a pool entry or a string met for the first
/// time), so the references resolved are the ones [`decode_event`] resolves first, in the same
/// order. `None` (no row appended) when the event has anything else (a nine-byte integer, a
/// UTF-16 string, a field that overruns the event, an event at the very end of the chunk):
/// [`decode_event`] then reads it again and gives the row or the error.
#[allow(clippy::too_many_arguments)]
#[inline(always)]
fn decode_fast<'a>(
    chunk: &Chunk<'a>,
    d: &mut Resolver<'a>,
    rec: &mut Recording,
    out: &mut RowSink,
    ty: u32,
    plan: &FastPlan,
    pos: usize,
    end: usize,
    body: usize,
) -> Option<()> {
    let data = chunk.data;
    let mut p = body;
    if p > end {
        return None;
    }
    let i = if out.n >= BATCH {
        out.flush(&mut rec.events);
        0
    } else {
        out.n
    };
    // The row of an event with none of the fields, overwritten field by field.
    out.ty[i] = ty;
    out.start[i] = out.start0;
    out.duration[i] = 0;
    out.thread[i] = NONE;
    out.stack[i] = NONE;
    out.weight[i] = 1.0;
    out.state[i] = NONE;
    out.subject[i] = NONE;
    out.value[i] = f64::NAN;
    out.peer[i] = NONE;
    out.offset[i] = out.base + pos as u64;
    let (mut alloc, mut tlab) = (f64::NAN, f64::NAN);
    if plan.start {
        out.start[i] = out.ticks.nanos(fast_varint(data, &mut p)? as i64);
    }
    if plan.duration {
        out.duration[i] = out.ticks.duration(fast_varint(data, &mut p)? as i64);
    }
    // A row from a cache, or, once the reads so far are known to be within the event, from the
    // resolver.
    macro_rules! cached {
        ($kind:expr, $class:expr, $id:expr) => {
            match d.cached($kind, $id) {
                Some(t) => t,
                None if p <= end => d.miss($kind, chunk, rec, $class as usize, $id),
                None => return None,
            }
        };
    }
    if let Some(c) = plan.thread {
        let id = fast_varint(data, &mut p)?;
        out.thread[i] = cached!(Cached::Thread, c, id);
    }
    if let Some(c) = plan.stack {
        let id = fast_varint(data, &mut p)?;
        out.stack[i] = cached!(Cached::Stack, c, id);
    }
    for &op in plan.ops.iter() {
        match op {
            Fast::SkipVarints(n) => {
                for _ in 0..n {
                    fast_skip_varint(data, &mut p)?;
                }
            }
            Fast::SkipBytes(n) => {
                p += n as usize;
                if p > end {
                    return None;
                }
            }
            Fast::Start => out.start[i] = out.ticks.nanos(fast_varint(data, &mut p)? as i64),
            Fast::Duration => out.duration[i] = out.ticks.duration(fast_varint(data, &mut p)? as i64),
            Fast::Value => out.value[i] = fast_varint(data, &mut p)? as i64 as f64,
            Fast::Samples => out.weight[i] = fast_varint(data, &mut p)? as i64 as f64,
            Fast::Alloc => alloc = fast_varint(data, &mut p)? as i64 as f64,
            Fast::Tlab => tlab = fast_varint(data, &mut p)? as i64 as f64,
            Fast::Thread(c) => {
                let id = fast_varint(data, &mut p)?;
                out.thread[i] = cached!(Cached::Thread, c, id);
            }
            Fast::Peer(c) => {
                let id = fast_varint(data, &mut p)?;
                out.peer[i] = cached!(Cached::Thread, c, id);
            }
            Fast::Stack(c) => {
                let id = fast_varint(data, &mut p)?;
                out.stack[i] = cached!(Cached::Stack, c, id);
            }
            Fast::SubjectClass(c) => {
                let id = fast_varint(data, &mut p)?;
                out.subject[i] = cached!(Cached::ClassName, c, id);
            }
            Fast::Text(subject, c) => {
                let id = fast_varint(data, &mut p)?;
                if p > end {
                    return None;
                }
                let t = d.text(chunk, rec, c as usize, id, 0);
                if subject {
                    out.subject[i] = t;
                } else {
                    out.state[i] = t;
                }
            }
            Fast::Str(col) => {
                let enc = *data.get(p)?;
                p += 1;
                let t = match enc {
                    2 => {
                        let id = fast_varint(data, &mut p)?;
                        match col {
                            Some(_) => cached!(Cached::StringRef, 0, id),
                            None => NONE,
                        }
                    }
                    3 | 5 => {
                        let n = fast_varint(data, &mut p)? as i32;
                        if p > end || n < 0 || n as usize > end - p {
                            return None;
                        }
                        let bytes = data.get(p..p + n as usize)?;
                        p += n as usize;
                        match (col, enc) {
                            (None, _) => NONE,
                            (Some(_), 3) => d.inline_text(chunk, rec, RawStr::Utf8(bytes)),
                            (Some(_), _) => d.inline_text(chunk, rec, RawStr::Latin1(bytes)),
                        }
                    }
                    0 => NONE,
                    1 if col.is_some() => {
                        if p > end {
                            return None;
                        }
                        d.inline_text(chunk, rec, RawStr::Empty)
                    }
                    1 => NONE,
                    _ => return None,
                };
                match col {
                    Some(true) => out.subject[i] = t,
                    Some(false) => out.state[i] = t,
                    None => {}
                }
            }
        }
    }
    if p > end {
        return None;
    }
    if plan.alloc {
        out.weight[i] = if tlab > 0.0 {
            tlab
        } else if alloc.is_nan() {
            0.0
        } else {
            alloc
        };
    }
    out.n = i + 1;
    Some(())
}

/// Append the row of an event read into `row`.
#[inline(always)]
fn finish(rec: &mut Recording, out: &mut RowSink, plan: &Plan, row: &Row, pos: usize) {
    let mut subject = row.subject;
    let mut weight = row.weight;
    if matches!(plan.kind, EventKind::Alloc | EventKind::NativeMem) {
        let (alloc, tlab) = (row.alloc, row.tlab);
        weight = if tlab > 0.0 { tlab } else if alloc.is_nan() { 0.0 } else { alloc };
    }
    if row.host != NONE {
        let h = rec.strings.get(row.host).to_string();
        let text = if row.port != ABSENT { format!("{h}:{}", row.port) } else { h };
        subject = rec.strings.intern(&text) as i32;
    }
    out.push(
        &mut rec.events,
        plan.ty,
        out.ticks.nanos(row.start),
        out.ticks.duration(row.duration),
        if row.sampled_thread != NONE { row.sampled_thread } else { row.event_thread },
        row.stack,
        weight,
        row.state,
        subject,
        row.value,
        row.peer,
        pos,
    );
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testutil::*;

    /// Compressed integers of every length, each followed by eight bytes of padding.
    fn varints() -> Vec<(u64, Vec<u8>)> {
        let mut out = Vec::new();
        for len in 1..=9u32 {
            for v in [(1u64 << (7 * (len - 1)).min(63)) | 3, if len == 9 { u64::MAX } else { (1u64 << (7 * len)) - 1 }, if len == 9 { i64::MIN as u64 } else { 1u64 << (7 * (len - 1)) }] {
                let mut b = Vec::new();
                varint(&mut b, v);
                if b.len() == len as usize {
                    out.push((v, b));
                }
            }
        }
        out.push((0, vec![0]));
        out
    }

    #[test]
    fn fast_varints_agree_with_the_reader() {
        for (v, b) in varints() {
            let mut data = b.clone();
            data.extend_from_slice(&[0x80; 8]);
            let mut r = Reader::new(&data, 0, true);
            assert_eq!(r.varint().unwrap(), v);
            let mut p = 0;
            assert_eq!(fast_varint(&data, &mut p), Some(v), "{b:?}");
            assert_eq!(p, b.len());
            let mut q = 0;
            assert_eq!(fast_skip_varint(&data, &mut q), Some(()));
            assert_eq!(q, b.len());
            // Without eight bytes of data to read a word from: left to the general reader.
            if b.len() < 8 {
                assert_eq!(fast_varint(&b, &mut 0), None);
                assert_eq!(fast_skip_varint(&b, &mut 0), None);
            }
        }
    }

    /// A chunk of jdk.FileRead (type 30) and jdk.ObjectAllocationInNewTLAB (31) events over the
    /// basic pools, their fields written in every way the format allows.
    fn fast_chunk() -> Vec<u8> {
        let mut classes = basic_classes();
        classes.push((
            30,
            "jdk.FileRead",
            Some("jdk.jfr.Event"),
            vec![
                ("startTime", 1, false, false),
                ("duration", 1, false, false),
                ("eventThread", 4, true, false),
                ("stackTrace", 10, true, false),
                ("path", 3, false, false),
                ("bytesRead", 1, false, false),
                ("endOfFile", 11, false, false),
            ],
        ));
        classes.push((
            31,
            "jdk.ObjectAllocationInNewTLAB",
            Some("jdk.jfr.Event"),
            vec![("startTime", 1, false, false), ("eventThread", 4, true, false), ("objectClass", 6, true, false), ("allocationSize", 1, false, false), ("tlabSize", 1, false, false)],
        ));
        // A type that feeds the description, with a stack trace (as the JDK writes it): each
        // of its events is read for the description, runs of them too.
        classes.push((
            32,
            "jdk.ActiveSetting",
            Some("jdk.jfr.Event"),
            vec![("startTime", 1, false, false), ("eventThread", 4, true, false), ("stackTrace", 10, true, false), ("id", 1, false, false), ("name", 3, true, false), ("value", 3, true, false)],
        ));
        let mut pools = basic_pools();
        pools.push((3, vec![(7, vec![3, 4, b'/', b'e', b't', b'c']), (8, vec![3, 0]), (10, sym("enabled")), (11, sym("threshold")), (12, sym("true"))]));
        let mut events = vec![metadata(&classes), checkpoint(&pools)];
        for name in [10, 11, 12] {
            events.push(vec![8, 32, 5, 1, 0, 30, name, 12]);
        }
        let paths: Vec<Vec<u8>> = vec![vec![2, 7], vec![2, 8], vec![2, 99], vec![3, 3, b'/', b'a', b'b'], vec![5, 2, 0xe9, b'x'], vec![4, 2, 0x48, 0xc9, 0x01], vec![0], vec![1], vec![3, 0]];
        for (k, (v, b)) in varints().into_iter().enumerate() {
            let mut body = Vec::new();
            body.extend_from_slice(&b); // startTime
            varint(&mut body, k as u64 * 300); // duration
            varint(&mut body, [1, 1, 9][k % 3]); // eventThread
            varint(&mut body, [1, 9][k % 2]); // stackTrace
            body.extend_from_slice(&paths[k % paths.len()]);
            varint(&mut body, v); // bytesRead
            body.push((k % 2) as u8);
            // A one-byte size and type id (the fast header path).
            let mut e = vec![0, 30];
            e.extend_from_slice(&body);
            e[0] = e.len() as u8;
            events.push(e);
            let mut a = Vec::new();
            varint(&mut a, v);
            varint(&mut a, 1);
            varint(&mut a, 1);
            varint(&mut a, k as u64 * 1000);
            varint(&mut a, [0, 5000, 1][k % 3]);
            events.push(event(31, &a));
        }
        chunk(&events, 0, Some(1), 1_000)
    }

    fn decode_all(data: &[u8], fast: bool) -> Recording {
        let mut rec = Recording::default();
        let (headers, err) = crate::header::chunk_headers(data);
        for (i, h) in headers.into_iter().enumerate() {
            rec.chunks.push(h.clone());
            match Chunk::from_bytes(&data[h.offset as usize..], h, i) {
                Ok(c) => {
                    decode_chunk_with(&c, &mut rec, None, crate::Pass::Full, fast, Default::default());
                    rec.errors.extend(c.pool_errors());
                }
                Err(e) => rec.errors.push(e),
            }
        }
        rec.errors.extend(err);
        rec
    }

    #[test]
    fn fast_and_general_paths_give_the_same_rows_and_errors() {
        let data = fast_chunk();
        let fast = decode_all(&data, true);
        assert_eq!(fast.events.len(), 2 * varints().len() + 3);
        assert!(fast.errors.is_empty(), "{:?}", fast.errors);
        assert_eq!(fast.info.settings.len(), 3);
        assert_eq!(format!("{fast:?}"), format!("{:?}", decode_all(&data, false)));
        // Damage anywhere after the pools, and cuts: the same rows, the same errors.
        let events_at = data.len() - (data.len() - 68) / 2;
        let mut seed = 0x2545_f491_4f6c_dd1du64;
        let mut next = move || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        for _ in 0..400 {
            let mut d = data.clone();
            for _ in 0..1 + next() % 4 {
                let at = events_at + next() as usize % (d.len() - events_at);
                d[at] = [0x80, 0xff, 0, 2, 3, 4, 5, next() as u8][next() as usize % 8];
            }
            if next() % 3 == 0 {
                d.truncate(events_at + next() as usize % (d.len() - events_at));
            }
            assert_eq!(format!("{:?}", decode_all(&d, true)), format!("{:?}", decode_all(&d, false)));
        }
    }
}
