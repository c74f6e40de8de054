//! Event decoding: turns each chunk's events of known kinds into rows of the columns, resolving
//! threads, stacks, classes and strings from the chunk's pools on first use.
//!
//! Each event class gets a plan once per chunk: one [`Role`] per field, chosen by field name.
//! Decoding an event is then a walk over its fields that reads what a role asks for and skips
//! the rest. Unwanted event types are skipped by their size prefix without being looked at.

use crate::chunk::{Chunk, Scalar, ABSENT};
use crate::columns::{EventKind, FrameKind, NONE};
use crate::error::Result;
use crate::metadata::Prim;
use crate::reader::{pack_groups, varint_in_word, RawStr, Reader};
use crate::Recording;
use rustc_hash::FxHashMap;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[repr(u8)]
enum Role {
    Skip,
    StartTime,
    Duration,
    EventThread,
    SampledThread,
    Stack,
    State,
    Samples,
    AllocSize,
    TlabSize,
    WeightField,
    SubjectClass,
    SubjectStr,
    Host,
    Port,
    Value,
    Peer,
    ThreadField,
}

fn role_of(kind: EventKind, type_name: &str, field: &str) -> Role {
    match field {
        "startTime" => return Role::StartTime,
        "duration" => return Role::Duration,
        "eventThread" => return Role::EventThread,
        "stackTrace" => return Role::Stack,
        "sampledThread" => return Role::SampledThread,
        "state" => return Role::State,
        _ => {}
    }
    match (kind, field) {
        (EventKind::Wall, "samples") => Role::Samples,
        (EventKind::Lock, "monitorClass") | (EventKind::Park, "parkedClass") | (EventKind::Alloc, "objectClass") => {
            Role::SubjectClass
        }
        (EventKind::Lock | EventKind::Park, "address") => Role::Value,
        (EventKind::Lock, "previousOwner" | "notifier") => Role::Peer,
        (EventKind::Sleep, "time") => Role::Value,
        (EventKind::Io, "path") => Role::SubjectStr,
        (EventKind::Io, "host") => Role::Host,
        (EventKind::Io, "address") => Role::Host,
        (EventKind::Io, "port") => Role::Port,
        (EventKind::Io, "bytesRead" | "bytesWritten") => Role::Value,
        (EventKind::Alloc, "allocationSize") => Role::AllocSize,
        (EventKind::Alloc, "tlabSize") => Role::TlabSize,
        (EventKind::Alloc, "weight") if type_name == "jdk.ObjectAllocationSample" => Role::WeightField,
        (EventKind::Gc, "name") => Role::SubjectStr,
        (EventKind::Gc, "gcId") => Role::Value,
        (EventKind::Thread, "thread") => Role::ThreadField,
        _ => Role::Skip,
    }
}

struct Plan {
    ty: u32,
    kind: EventKind,
    /// Index of the event's class in the metadata.
    class: usize,
    /// The leading fields most event types share, read without going through `steps`.
    head: Head,
    /// Per field after those (runs of skipped fields merged into one step): what to do and
    /// how to read it.
    steps: Vec<Step>,
    /// Skip programs of runs of unwanted fields that are more than integers or bytes.
    skips: Vec<Vec<crate::chunk::Op>>,
    /// How [`decode_fast`] reads its events, when it can.
    fast: Option<FastPlan>,
}

/// Which of startTime, duration, a thread and a stack trace (compressed, in this order) an
/// event type's fields start with: most types do, and these are read without dispatch.
#[derive(Default)]
struct Head {
    start: bool,
    duration: bool,
    /// Whether the thread is the sampled thread (else the event thread), and its class.
    thread: Option<(bool, usize)>,
    /// The stack trace class.
    stack: Option<usize>,
}

impl Head {
    /// Take the steps a head reads off the front of `steps`.
    fn split(steps: &mut Vec<Step>) -> Head {
        let mut h = Head::default();
        let mut n = 0;
        if let Some(Step::Varint(Role::StartTime)) = steps.get(n) {
            h.start = true;
            n += 1;
        }
        if let Some(Step::Varint(Role::Duration)) = steps.get(n) {
            h.duration = true;
            n += 1;
        }
        if let Some(&Step::Ref(role @ (Role::EventThread | Role::SampledThread), class)) = steps.get(n) {
            h.thread = Some((role == Role::SampledThread, class as usize));
            n += 1;
        }
        if let Some(&Step::Ref(Role::Stack, class)) = steps.get(n) {
            h.stack = Some(class as usize);
            n += 1;
        }
        steps.drain(..n);
        h
    }
}

/// How one field is read: compressed integers and references straight from the varint, inline
/// strings by their encoding, a run of unwanted fields by one skip (a compiled program when it
/// is more than integers or bytes), anything else through `read_scalar`.
/// Small and flat (class and field numbers as `u32`, skip programs kept aside in
/// [`Plan::skips`]) so that dispatching on it is one byte compare.
#[derive(Clone, Copy)]
enum Step {
    SkipVarints(u32),
    SkipBytes(u32),
    /// Index in [`Plan::skips`].
    Skip(u32),
    Varint(Role),
    Ref(Role, u32),
    Str(Role),
    /// Field index.
    Generic(Role, u32),
}

/// The steps of event class `class`, and the skip programs they refer to.
fn plan_steps(chunk: &Chunk<'_>, class: usize, kind: EventKind) -> (Vec<Step>, Vec<Vec<crate::chunk::Op>>) {
    use crate::chunk::Op;
    let md = &chunk.md;
    let c = &md.classes[class];
    let compressed = chunk.header.compressed;
    let mut steps: Vec<Step> = Vec::new();
    let mut skips: Vec<Vec<Op>> = Vec::new();
    let mut skip: Vec<Op> = Vec::new();
    let mut flush = |skip: &mut Vec<Op>, steps: &mut Vec<Step>| {
        let ops = std::mem::take(skip);
        match ops[..] {
            [] => {}
            [Op::Varints(n)] => steps.push(Step::SkipVarints(n)),
            [Op::Bytes(n)] => steps.push(Step::SkipBytes(n)),
            _ => {
                steps.push(Step::Skip(skips.len() as u32));
                skips.push(ops);
            }
        }
    };
    for (i, f) in c.fields.iter().enumerate() {
        let role = role_of(kind, &c.name, &f.name);
        if role == Role::Skip {
            let mut single = Vec::new();
            crate::chunk::compile_single(md, compressed, f, 0, &mut single);
            if f.array {
                skip.push(Op::Array(single.into_boxed_slice()));
            } else {
                // Integers of consecutive fields merge into one skip (an overrun fails at the
                // end of the event either way); bytes do not (where it fails would move).
                for op in single {
                    match (skip.last_mut(), &op) {
                        (Some(Op::Varints(a)), Op::Varints(b)) => *a += b,
                        _ => skip.push(op),
                    }
                }
            }
            continue;
        }
        flush(&mut skip, &mut steps);
        let prim = md.classes[f.class].prim;
        steps.push(if f.array {
            Step::Generic(role, i as u32)
        } else if f.cpool && compressed {
            Step::Ref(role, f.class as u32)
        } else if compressed && matches!(prim, Some(Prim::Long) | Some(Prim::Int) | Some(Prim::Short)) {
            Step::Varint(role)
        } else if !f.cpool && prim == Some(Prim::String) {
            Step::Str(role)
        } else {
            Step::Generic(role, i as u32)
        });
    }
    flush(&mut skip, &mut steps);
    (steps, skips)
}

/// Types whose events feed the recording's description.
const INFO_TYPES: [&str; 5] =
    ["jdk.JVMInformation", "jdk.OSInformation", "jdk.CPUInformation", "jdk.ActiveSetting", "jdk.InitialSystemProperty"];

/// Decode one chunk into `rec`. Errors inside single events are recorded and the event
/// skipped by its size; an error in the event headers stops the chunk there.
pub(crate) fn decode_chunk(chunk: &Chunk<'_>, rec: &mut Recording, wanted: &dyn Fn(&str, EventKind) -> bool, pass: crate::Pass) {
    decode_chunk_with(chunk, rec, wanted, pass, true)
}

/// [`decode_chunk`], with [`decode_fast`] or (`fast` false, for tests) the general path only.
fn decode_chunk_with(chunk: &Chunk<'_>, rec: &mut Recording, wanted: &dyn Fn(&str, EventKind) -> bool, pass: crate::Pass, fast: bool) {
    let rows_only = pass == crate::Pass::Rows;
    let md = &chunk.md;
    // One slot per event class: its global type row, how many events, whether it feeds the
    // description, and how to decode it. Type ids index a dense table (ids are small in every
    // writer seen); others hash.
    let mut rows: Vec<u32> = Vec::new();
    let mut counts: Vec<u64> = Vec::new();
    let mut info: Vec<bool> = Vec::new();
    let mut plans: Vec<Option<Plan>> = Vec::new();
    let mut slot_of_class: FxHashMap<u64, u32> = FxHashMap::default();
    for c in md.classes.iter() {
        if !c.is_event() {
            continue;
        }
        let kind = EventKind::of(&c.name);
        let has_stack = c.field("stackTrace").is_some();
        let ty = rec.type_row(&c.name, c.label.as_deref(), kind, has_stack);
        let decodable = kind != EventKind::Other || has_stack;
        let plan = if decodable && wanted(&c.name, kind) {
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
        info.push(!rows_only && INFO_TYPES.contains(&c.name.as_str()));
        plans.push(plan);
    }
    const DENSE: u64 = 1 << 16;
    let max_dense = slot_of_class.keys().copied().filter(|&id| id < DENSE).max().map(|m| m as usize + 1).unwrap_or(0);
    let mut dense = vec![u32::MAX; max_dense];
    for (&id, &si) in &slot_of_class {
        if id < DENSE {
            dense[id as usize] = si;
        }
    }

    let mut d = Resolver::new(chunk);
    let mut out = RowSink::new(chunk);
    let mut errors = Vec::new();
    // Events of one type tend to come in runs: the type of the previous event when it has a
    // fast plan and feeds no description (its id, slot, row in the types and fields), looked
    // up once per run.
    let mut run: Option<(u64, usize, u32, &FastPlan)> = None;
    let end = chunk.events_end();
    let mut pos = crate::header::HEADER_SIZE;
    let scan = loop {
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
        let is_info = info.get(si).copied().unwrap_or(false);
        if is_info {
            if let Ok((name, v)) = chunk.decode_event(at) {
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
    };
    out.flush(&mut rec.events);
    if !rows_only {
        for (&row, &n) in rows.iter().zip(&counts) {
            rec.types[row as usize].count += n;
        }
    }
    rec.errors.extend(errors);
    if let Err(e) = scan.map_err(|e| (!rows_only).then_some(e)) {
        rec.errors.extend(e);
    }
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
            (Role::EventThread, Scalar::Ref(id)) => self.event_thread = d.thread(chunk, rec, class, id),
            (Role::SampledThread, Scalar::Ref(id)) => self.sampled_thread = d.thread(chunk, rec, class, id),
            (Role::ThreadField, Scalar::Ref(id)) => self.event_thread = d.thread(chunk, rec, class, id),
            (Role::Peer, Scalar::Ref(id)) => self.peer = d.thread(chunk, rec, class, id),
            (Role::Stack, Scalar::Ref(id)) => self.stack = d.stack(chunk, rec, class, id),
            (Role::State, s) => self.state = d.text_scalar(chunk, rec, class, s),
            (Role::Samples, Scalar::Int(n)) => self.weight = n as f64,
            (Role::AllocSize, Scalar::Int(n)) => self.alloc = n as f64,
            (Role::TlabSize, Scalar::Int(n)) => self.tlab = n as f64,
            (Role::WeightField, Scalar::Int(n)) => self.alloc = n as f64,
            (Role::SubjectClass, Scalar::Ref(id)) => self.subject = d.class_name(chunk, rec, class, id),
            (Role::SubjectStr, s) => self.subject = d.text_scalar(chunk, rec, class, s),
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
        let t = d.thread(chunk, rec, class, r.varint()?);
        if sampled {
            row.sampled_thread = t;
        } else {
            row.event_thread = t;
        }
    }
    if let Some(class) = head.stack {
        row.stack = d.stack(chunk, rec, class, r.varint()?);
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
                    Role::EventThread | Role::ThreadField => row.event_thread = d.thread(chunk, rec, fc, id),
                    Role::Stack => row.stack = d.stack(chunk, rec, fc, id),
                    Role::SubjectClass => row.subject = d.class_name(chunk, rec, fc, id),
                    _ => row.apply(d, chunk, rec, role, fc, Scalar::Ref(id)),
                }
            }
            Step::Str(role) => {
                // Most strings in events are references to the string pool.
                let t = if r.peek() == Some(2) {
                    r.skip(1)?;
                    let id = r.long()? as u64;
                    match role {
                        Role::SubjectStr | Role::State | Role::Host => d.string_ref(chunk, rec, id),
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

/// One field of an event whose row [`decode_fast`] writes straight into the sink: what to read
/// and which column it goes to (class numbers as in [`Step`]).
#[derive(Clone, Copy, Debug, PartialEq)]
enum Fast {
    SkipVarints(u32),
    SkipBytes(u32),
    Start,
    Duration,
    Value,
    Samples,
    /// allocationSize or weight (an allocation's bytes unless a TLAB size is given).
    Alloc,
    /// tlabSize.
    Tlab,
    Thread(u32),
    Peer(u32),
    Stack(u32),
    SubjectClass(u32),
    /// A reference to a pool entry's text, for the subject (else the state) column.
    Text(bool, u32),
    /// A string, for the subject (`Some(true)`), the state (`Some(false)`) or no column.
    Str(Option<bool>),
}

/// How [`decode_fast`] reads an event type: the leading fields most types share (startTime,
/// duration, a thread, a stack trace, in this order), read without dispatch, then the others.
#[derive(Debug, PartialEq)]
struct FastPlan {
    /// Whether the weight is an allocation's size (see [`finish`]).
    alloc: bool,
    start: bool,
    duration: bool,
    /// Class of the leading thread reference.
    thread: Option<u32>,
    /// Class of the leading stack trace reference.
    stack: Option<u32>,
    ops: Box<[Fast]>,
}

/// The fast form of an event type's steps, when every field's value goes to one column as it
/// is read (allocation sizes aside, weighed at the end): no host and port (joined), no sampled
/// thread beside an event thread (one wins), no field read the generic way. Compressed
/// chunks only.
fn fast_plan(kind: EventKind, steps: &[Step], compressed: bool) -> Option<FastPlan> {
    if !compressed {
        return None;
    }
    let (mut sampled, mut event) = (false, false);
    let mut ops = Vec::with_capacity(steps.len());
    for &s in steps {
        ops.push(match s {
            Step::SkipVarints(n) => Fast::SkipVarints(n),
            Step::SkipBytes(n) => Fast::SkipBytes(n),
            Step::Varint(Role::StartTime) => Fast::Start,
            Step::Varint(Role::Duration) => Fast::Duration,
            Step::Varint(Role::Value) => Fast::Value,
            Step::Varint(Role::Samples) => Fast::Samples,
            Step::Varint(Role::AllocSize | Role::WeightField) => Fast::Alloc,
            Step::Varint(Role::TlabSize) => Fast::Tlab,
            Step::Ref(role @ (Role::EventThread | Role::ThreadField | Role::SampledThread), c) => {
                sampled |= role == Role::SampledThread;
                event |= role != Role::SampledThread;
                Fast::Thread(c)
            }
            Step::Ref(Role::Peer, c) => Fast::Peer(c),
            Step::Ref(Role::Stack, c) => Fast::Stack(c),
            Step::Ref(Role::SubjectClass, c) => Fast::SubjectClass(c),
            Step::Ref(Role::SubjectStr, c) => Fast::Text(true, c),
            Step::Ref(Role::State, c) => Fast::Text(false, c),
            Step::Str(Role::SubjectStr) => Fast::Str(Some(true)),
            Step::Str(Role::State) => Fast::Str(Some(false)),
            Step::Str(Role::Host) => return None,
            Step::Str(_) => Fast::Str(None),
            _ => return None,
        });
    }
    if sampled && event {
        return None;
    }
    let alloc = kind == EventKind::Alloc;
    let mut plan = FastPlan { alloc, start: false, duration: false, thread: None, stack: None, ops: Box::default() };
    let mut n = 0;
    if ops.get(n) == Some(&Fast::Start) {
        plan.start = true;
        n += 1;
    }
    if ops.get(n) == Some(&Fast::Duration) {
        plan.duration = true;
        n += 1;
    }
    if let Some(&Fast::Thread(c)) = ops.get(n) {
        plan.thread = Some(c);
        n += 1;
    }
    if let Some(&Fast::Stack(c)) = ops.get(n) {
        plan.stack = Some(c);
        n += 1;
    }
    ops.drain(..n);
    plan.ops = ops.into_boxed_slice();
    Some(plan)
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
        ($cache:expr, $id:expr, $miss:expr) => {
            match $cache.get($id) {
                Some(t) => t,
                None if p <= end => $miss,
                None => return None,
            }
        };
    }
    if let Some(c) = plan.thread {
        let id = fast_varint(data, &mut p)?;
        out.thread[i] = cached!(d.threads, id, d.thread_miss(chunk, rec, c as usize, id));
    }
    if let Some(c) = plan.stack {
        let id = fast_varint(data, &mut p)?;
        out.stack[i] = cached!(d.stacks, id, d.stack_miss(chunk, rec, c as usize, id));
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
                out.thread[i] = cached!(d.threads, id, d.thread_miss(chunk, rec, c as usize, id));
            }
            Fast::Peer(c) => {
                let id = fast_varint(data, &mut p)?;
                out.peer[i] = cached!(d.threads, id, d.thread_miss(chunk, rec, c as usize, id));
            }
            Fast::Stack(c) => {
                let id = fast_varint(data, &mut p)?;
                out.stack[i] = cached!(d.stacks, id, d.stack_miss(chunk, rec, c as usize, id));
            }
            Fast::SubjectClass(c) => {
                let id = fast_varint(data, &mut p)?;
                out.subject[i] = cached!(d.class_names, id, d.class_name_miss(chunk, rec, c as usize, id));
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
                            Some(_) => cached!(d.string_refs, id, d.string_ref_miss(chunk, rec, id)),
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
    if plan.kind == EventKind::Alloc {
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

/// Tick → nanosecond conversion of one chunk, without 128-bit division in the usual cases.
#[derive(Clone, Copy)]
struct Ticks {
    start_nanos: i64,
    start_ticks: i64,
    per_second: i64,
}

impl Ticks {
    const NANOS: i64 = 1_000_000_000;

    fn new(h: &crate::header::ChunkHeader) -> Ticks {
        Ticks { start_nanos: h.start_nanos, start_ticks: h.start_ticks, per_second: h.ticks_per_second.max(1) }
    }

    /// Wall-clock ns since the epoch of a tick value.
    #[inline]
    fn nanos(&self, ticks: i64) -> i64 {
        self.start_nanos.wrapping_add(self.duration(ticks.wrapping_sub(self.start_ticks)))
    }

    /// Nanoseconds of a tick span: `ticks * 1e9 / per_second` truncated, as 128-bit arithmetic
    /// gives it (whole seconds and the remainder apart when the remainder's product fits).
    #[inline]
    fn duration(&self, ticks: i64) -> i64 {
        let tps = self.per_second;
        if tps == Self::NANOS {
            ticks
        } else if tps <= i64::MAX / Self::NANOS {
            let (q, r) = (ticks / tps, ticks % tps);
            q.wrapping_mul(Self::NANOS).wrapping_add(r * Self::NANOS / tps)
        } else {
            ((ticks as i128) * Self::NANOS as i128 / tps as i128) as i64
        }
    }
}

/// Rows decoded from one chunk, gathered a batch at a time in small arrays and appended to the
/// columns in one copy per column (twelve pushes per row cost more than the decoding).
struct RowSink {
    ticks: Ticks,
    /// The start of an event without a start time.
    start0: i64,
    chunk: u32,
    base: u64,
    n: usize,
    ty: [u32; BATCH],
    start: [i64; BATCH],
    duration: [i64; BATCH],
    thread: [i32; BATCH],
    stack: [i32; BATCH],
    weight: [f64; BATCH],
    state: [i32; BATCH],
    subject: [i32; BATCH],
    value: [f64; BATCH],
    peer: [i32; BATCH],
    offset: [u64; BATCH],
}

const BATCH: usize = 256;

impl RowSink {
    fn new(chunk: &Chunk<'_>) -> Box<RowSink> {
        let ticks = Ticks::new(&chunk.header);
        Box::new(RowSink {
            ticks,
            start0: ticks.nanos(0),
            chunk: chunk.index as u32,
            base: chunk.header.offset,
            n: 0,
            ty: [0; BATCH],
            start: [0; BATCH],
            duration: [0; BATCH],
            thread: [0; BATCH],
            stack: [0; BATCH],
            weight: [0.0; BATCH],
            state: [0; BATCH],
            subject: [0; BATCH],
            value: [0.0; BATCH],
            peer: [0; BATCH],
            offset: [0; BATCH],
        })
    }

    #[allow(clippy::too_many_arguments)]
    #[inline]
    fn push(&mut self, e: &mut crate::columns::Events, ty: u32, start: i64, duration: i64, thread: i32, stack: i32, weight: f64, state: i32, subject: i32, value: f64, peer: i32, pos: usize) {
        let i = self.n;
        if i >= BATCH {
            self.flush(e);
            return self.push(e, ty, start, duration, thread, stack, weight, state, subject, value, peer, pos);
        }
        self.ty[i] = ty;
        self.start[i] = start;
        self.duration[i] = duration;
        self.thread[i] = thread;
        self.stack[i] = stack;
        self.weight[i] = weight;
        self.state[i] = state;
        self.subject[i] = subject;
        self.value[i] = value;
        self.peer[i] = peer;
        self.offset[i] = self.base + pos as u64;
        self.n = i + 1;
    }

    #[inline(never)]
    fn flush(&mut self, e: &mut crate::columns::Events) {
        let n = self.n.min(BATCH);
        e.ty.extend_from_slice(&self.ty[..n]);
        e.start_ns.extend_from_slice(&self.start[..n]);
        e.duration_ns.extend_from_slice(&self.duration[..n]);
        e.thread.extend_from_slice(&self.thread[..n]);
        e.stack.extend_from_slice(&self.stack[..n]);
        e.weight.extend_from_slice(&self.weight[..n]);
        e.state.extend_from_slice(&self.state[..n]);
        e.subject.extend_from_slice(&self.subject[..n]);
        e.value.extend_from_slice(&self.value[..n]);
        e.peer.extend_from_slice(&self.peer[..n]);
        e.chunk.resize(e.chunk.len() + n, self.chunk);
        e.offset.extend_from_slice(&self.offset[..n]);
        self.n = 0;
    }
}

/// Pool id → row. Writers number threads and stack traces densely from small ids, so those
/// index a vector; larger ids (some writers use addresses) fall back to a hash map.
#[derive(Default)]
struct IdCache {
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

/// Per-chunk caches from pool ids (and inline strings) to rows of the columns.
struct Resolver<'a> {
    threads: IdCache,
    stacks: IdCache,
    /// java.lang.String pool id → string row (paths, hosts, names written as references).
    string_refs: IdCache,
    /// java.lang.Class pool id → string row of its dotted name.
    class_names: IdCache,
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
    codes: Vec<Option<Box<[u8]>>>,
    /// (method id, line, bci, frame type id) → frame row.
    frame_cache: FxHashMap<(u64, i32, i32, u64), u32>,
    /// (StackFrame class, whether it has the standard layout).
    standard: Option<(usize, bool)>,
}

const THREAD_FIELDS: &[&str] = &["osName", "osThreadId", "javaName", "javaThreadId"];
const METHOD_FIELDS: &[&str] = &["type", "name"];
const FRAME_FIELDS: &[&str] = &["method", "lineNumber", "bytecodeIndex", "type"];
const STACK_FIELDS: &[&str] = &["frames"];

impl<'a> Resolver<'a> {
    fn new(chunk: &Chunk<'a>) -> Resolver<'a> {
        Resolver {
            threads: IdCache::default(),
            stacks: IdCache::default(),
            string_refs: IdCache::default(),
            class_names: IdCache::default(),
            texts: FxHashMap::default(),
            inline: FxHashMap::default(),
            methods: FxHashMap::default(),
            frame_kinds: FxHashMap::default(),
            string_class: chunk.md.class_by_name("java.lang.String"),
            frame_buf: Vec::new(),
            codes: vec![None; chunk.md.classes.len()],
            frame_cache: FxHashMap::default(),
            standard: None,
        }
    }

    fn codes(&mut self, chunk: &Chunk<'_>, class: usize, names: &[&str]) -> Box<[u8]> {
        if let Some(Some(c)) = self.codes.get(class) {
            return c.clone();
        }
        let c: Box<[u8]> = chunk.md.classes[class]
            .fields
            .iter()
            .map(|f| names.iter().position(|n| *n == f.name).map(|i| i as u8 + 1).unwrap_or(0))
            .collect();
        if let Some(slot) = self.codes.get_mut(class) {
            *slot = Some(c.clone());
        }
        c
    }

    /// Thread row of pool entry `id`, or -1 when the chunk lacks it.
    #[inline]
    fn thread(&mut self, chunk: &Chunk<'_>, rec: &mut Recording, class: usize, id: u64) -> i32 {
        match self.threads.get(id) {
            Some(t) => t,
            None => self.thread_miss(chunk, rec, class, id),
        }
    }

    #[inline(never)]
    fn thread_miss(&mut self, chunk: &Chunk<'_>, rec: &mut Recording, class: usize, id: u64) -> i32 {
        let t = self.thread_uncached(chunk, rec, class, id).unwrap_or(NONE);
        self.threads.insert(id, t);
        t
    }

    fn thread_uncached(&mut self, chunk: &Chunk<'_>, rec: &mut Recording, class: usize, id: u64) -> Option<i32> {
        let mut r = chunk.pool_reader(class, id)?;
        let c = &chunk.md.classes[class];
        let (mut os_name, mut java_name) = (NONE, NONE);
        let (mut os_id, mut java_id) = (ABSENT, ABSENT);
        let mut java_null = true;
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
                _ => {}
            }
        }
        let name = if !java_null && java_name != NONE { java_name } else { os_name.max(0) };
        Some(rec.threads.intern(name as u32, os_id, if java_null { ABSENT } else { java_id }) as i32)
    }

    /// String row for a string-like field value (inline string, string pool ref, or a ref to a
    /// pool class with a text field such as Symbol or ThreadState).
    fn text_scalar(&mut self, chunk: &Chunk<'_>, rec: &mut Recording, class: usize, s: Scalar<'_>) -> i32 {
        match s {
            Scalar::Str(RawStr::Pool(id)) => self.string_ref(chunk, rec, id),
            Scalar::Str(RawStr::Null) => NONE,
            Scalar::Str(s) => rec.strings.intern(&s.to_text().unwrap_or_default()) as i32,
            Scalar::Ref(id) => self.text(chunk, rec, class, id, 0),
            Scalar::Int(v) => rec.strings.intern(&v.to_string()) as i32,
            _ => NONE,
        }
    }

    /// String row of `java.lang.String` pool entry `id`.
    #[inline]
    fn string_ref(&mut self, chunk: &Chunk<'_>, rec: &mut Recording, id: u64) -> i32 {
        match self.string_refs.get(id) {
            Some(t) => t,
            None => self.string_ref_miss(chunk, rec, id),
        }
    }

    #[inline(never)]
    fn string_ref_miss(&mut self, chunk: &Chunk<'_>, rec: &mut Recording, id: u64) -> i32 {
        let Some(sc) = self.string_class else { return NONE };
        let t = self.text(chunk, rec, sc, id, 0);
        self.string_refs.insert(id, t);
        t
    }

    /// String row of a string field's value, as [`Resolver::text_scalar`] gives it.
    #[inline]
    fn inline_text(&mut self, chunk: &Chunk<'_>, rec: &mut Recording, s: RawStr<'a>) -> i32 {
        let key = match s {
            RawStr::Pool(id) => return self.string_ref(chunk, rec, id),
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
    fn text(&mut self, chunk: &Chunk<'_>, rec: &mut Recording, class: usize, id: u64, depth: usize) -> i32 {
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

    /// String row of a class's name, dotted as `RecordedClass.getName()` gives it.
    #[inline]
    fn class_name(&mut self, chunk: &Chunk<'_>, rec: &mut Recording, class: usize, id: u64) -> i32 {
        match self.class_names.get(id) {
            Some(t) => t,
            None => self.class_name_miss(chunk, rec, class, id),
        }
    }

    #[inline(never)]
    fn class_name_miss(&mut self, chunk: &Chunk<'_>, rec: &mut Recording, class: usize, id: u64) -> i32 {
        let t = self.class_name_uncached(chunk, rec, class, id);
        self.class_names.insert(id, t);
        t
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
                (1, Scalar::Ref(cid)) => cls = self.class_name(chunk, rec, f.class, cid),
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

    /// Stack row of stack trace `id`, or -1 when the chunk lacks it.
    #[inline]
    fn stack(&mut self, chunk: &Chunk<'_>, rec: &mut Recording, class: usize, id: u64) -> i32 {
        match self.stacks.get(id) {
            Some(s) => s,
            None => self.stack_miss(chunk, rec, class, id),
        }
    }

    #[inline(never)]
    fn stack_miss(&mut self, chunk: &Chunk<'_>, rec: &mut Recording, class: usize, id: u64) -> i32 {
        let s = self.stack_uncached(chunk, rec, class, id).unwrap_or(NONE);
        self.stacks.insert(id, s);
        s
    }

    fn stack_uncached(&mut self, chunk: &Chunk<'_>, rec: &mut Recording, class: usize, id: u64) -> Option<i32> {
        let mut r = chunk.pool_reader(class, id)?;
        let c = &chunk.md.classes[class];
        let mut frames = std::mem::take(&mut self.frame_buf);
        frames.clear();
        let codes = self.codes(chunk, class, STACK_FIELDS);
        for (f, &code) in c.fields.iter().zip(codes.iter()) {
            if code == 1 && f.array {
                let n = r.len("frame count", 1).ok()?;
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
        // Frames are stored leaf first; the tree grows from the root.
        let mut s = NONE;
        for &fr in frames.iter().rev() {
            s = rec.stacks.intern(s, fr) as i32;
        }
        self.frame_buf = frames;
        Some(s)
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


#[cfg(test)]
mod tests {
    use super::*;
    use crate::testutil::*;

    #[test]
    fn ticks_agree_with_128_bit_arithmetic() {
        let spans = [0i64, 1, -1, 999_999_999, 1_000_000_001, 123_456_789_012, -987_654_321_098, i64::MAX, i64::MIN, i64::MAX / 3];
        for per_second in [1i64, 3, 1_000_000, 10_000_000, 1_000_000_000, 2_400_000_000, 9_223_372_036, 9_223_372_037, i64::MAX] {
            let t = Ticks { start_nanos: 1_700_000_000_000_000_000, start_ticks: 12_345, per_second };
            for &s in &spans {
                let want = ((s as i128) * 1_000_000_000 / per_second as i128) as i64;
                assert_eq!(t.duration(s), want, "{s} ticks at {per_second}/s");
                assert_eq!(t.nanos(s), t.start_nanos.wrapping_add(t.duration(s.wrapping_sub(12_345))));
            }
        }
    }

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

    #[test]
    fn fast_plans_take_the_leading_fields_and_refuse_joined_ones() {
        let steps = [
            Step::Varint(Role::StartTime),
            Step::Varint(Role::Duration),
            Step::Ref(Role::EventThread, 4),
            Step::Ref(Role::Stack, 10),
            Step::Str(Role::SubjectStr),
            Step::Varint(Role::Value),
            Step::SkipBytes(1),
        ];
        let p = fast_plan(EventKind::Io, &steps, true).unwrap();
        assert!(p.start && p.duration && !p.alloc);
        assert_eq!((p.thread, p.stack), (Some(4), Some(10)));
        assert_eq!(&p.ops[..], &[Fast::Str(Some(true)), Fast::Value, Fast::SkipBytes(1)]);
        assert_eq!(fast_plan(EventKind::Io, &steps, false), None);
        // Host and port are joined, a sampled thread and an event thread compete, generic
        // reads and skip programs are the general path's.
        assert_eq!(fast_plan(EventKind::Io, &[Step::Str(Role::Host)], true), None);
        assert_eq!(fast_plan(EventKind::Cpu, &[Step::Ref(Role::SampledThread, 4), Step::Ref(Role::EventThread, 4)], true), None);
        assert_eq!(fast_plan(EventKind::Cpu, &[Step::Generic(Role::State, 3)], true), None);
        assert_eq!(fast_plan(EventKind::Cpu, &[Step::Skip(0)], true), None);
        let a = fast_plan(EventKind::Alloc, &[Step::Varint(Role::StartTime), Step::Varint(Role::TlabSize), Step::Varint(Role::AllocSize)], true).unwrap();
        assert!(a.alloc && a.start && a.thread.is_none());
        assert_eq!(&a.ops[..], &[Fast::Tlab, Fast::Alloc]);
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
                    decode_chunk_with(&c, &mut rec, &|_, _| true, crate::Pass::Full, fast);
                    rec.errors.extend(c.pool_errors().iter().cloned());
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
