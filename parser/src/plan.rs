//! Field planning: per event class and chunk, what each field is for (its [`Role`], chosen by
//! field name) and how to read it ([`Step`], and [`FastPlan`] for the fast path).
//!
//! ```text
//! jdk.ExecutionSample { startTime long, sampledThread Thread(cp), stackTrace StackTrace(cp), state ThreadState(cp) }
//!   → Head { start, thread: sampled, stack }  steps: [Ref(State, ThreadState)]
//! ```

use crate::chunk::{Chunk, Op};
use crate::columns::EventKind;
use crate::metadata::Prim;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[repr(u8)]
pub(crate) enum Role {
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
    /// A method reference whose `Class.method` goes to the subject column.
    SubjectMethod,
}

pub(crate) fn role_of(kind: EventKind, type_name: &str, field: &str) -> Role {
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
        (EventKind::Pinned, "carrierThread") => Role::Peer,
        (EventKind::Pinned, "pinnedReason") => Role::SubjectStr,
        (EventKind::NativeMem, "address") => Role::Value,
        (EventKind::NativeMem, "size") => Role::AllocSize,
        (EventKind::Span, "tag") => Role::SubjectStr,
        (EventKind::Method, "method") => Role::SubjectMethod,
        _ => Role::Skip,
    }
}

pub(crate) struct Plan {
    pub(crate) ty: u32,
    pub(crate) kind: EventKind,
    /// Index of the event's class in the metadata.
    pub(crate) class: usize,
    /// The leading fields most event types share, read without going through `steps`.
    pub(crate) head: Head,
    /// Per field after those (runs of skipped fields merged into one step): what to do and
    /// how to read it.
    pub(crate) steps: Vec<Step>,
    /// Skip programs of runs of unwanted fields that are more than integers or bytes.
    pub(crate) skips: Vec<Vec<Op>>,
    /// How [`decode_fast`] reads its events, when it can.
    pub(crate) fast: Option<FastPlan>,
}

/// Which of startTime, duration, a thread and a stack trace (compressed, in this order) an
/// event type's fields start with: most types do, and these are read without dispatch.
#[derive(Default)]
pub(crate) struct Head {
    pub(crate) start: bool,
    pub(crate) duration: bool,
    /// Whether the thread is the sampled thread (else the event thread), and its class.
    pub(crate) thread: Option<(bool, usize)>,
    /// The stack trace class.
    pub(crate) stack: Option<usize>,
}

impl Head {
    /// Take the steps a head reads off the front of `steps`.
    pub(crate) fn split(steps: &mut Vec<Step>) -> Head {
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
pub(crate) enum Step {
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
pub(crate) fn plan_steps(chunk: &Chunk<'_>, class: usize, kind: EventKind) -> (Vec<Step>, Vec<Vec<Op>>) {
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

/// One field of an event whose row [`decode_fast`] writes straight into the sink: what to read
/// and which column it goes to (class numbers as in [`Step`]).
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum Fast {
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
pub(crate) struct FastPlan {
    /// Whether the weight is an allocation's size (see `decode::finish`).
    pub(crate) alloc: bool,
    pub(crate) start: bool,
    pub(crate) duration: bool,
    /// Class of the leading thread reference.
    pub(crate) thread: Option<u32>,
    /// Class of the leading stack trace reference.
    pub(crate) stack: Option<u32>,
    pub(crate) ops: Box<[Fast]>,
}

/// The fast form of an event type's steps, when every field's value goes to one column as it
/// is read (allocation sizes aside, weighed at the end): no host and port (joined), no sampled
/// thread beside an event thread (one wins), no field read the generic way. Compressed
/// chunks only.
pub(crate) fn fast_plan(kind: EventKind, steps: &[Step], compressed: bool) -> Option<FastPlan> {
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
    let alloc = matches!(kind, EventKind::Alloc | EventKind::NativeMem);
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

#[cfg(test)]
mod tests {
    use super::*;

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
}
