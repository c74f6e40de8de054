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
use crate::reader::{RawStr, Reader};
use crate::Recording;
use rustc_hash::FxHashMap;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
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
    /// Per field (runs of skipped fields merged into one step): what to do and how to read it.
    steps: Vec<Step>,
}

/// How one field is read: compressed integers and references straight from the varint, a run
/// of unwanted fields by one compiled skip program, anything else through `read_scalar`.
enum Step {
    Skip(Vec<crate::chunk::Op>),
    Varint(Role),
    Ref(Role, usize),
    Generic(Role, usize),
}

fn plan_steps(chunk: &Chunk<'_>, class: usize, kind: EventKind) -> Vec<Step> {
    let md = &chunk.md;
    let c = &md.classes[class];
    let compressed = chunk.header.compressed;
    let mut steps: Vec<Step> = Vec::new();
    for (i, f) in c.fields.iter().enumerate() {
        let role = role_of(kind, &c.name, &f.name);
        if role == Role::Skip {
            let mut single = Vec::new();
            crate::chunk::compile_single(md, compressed, f, 0, &mut single);
            let ops = if f.array { vec![crate::chunk::Op::Array(single.into_boxed_slice())] } else { single };
            if let Some(Step::Skip(prev)) = steps.last_mut() {
                prev.extend(ops);
            } else {
                steps.push(Step::Skip(ops));
            }
            continue;
        }
        let prim = md.classes[f.class].prim;
        steps.push(if f.array {
            Step::Generic(role, i)
        } else if f.cpool && compressed {
            Step::Ref(role, f.class)
        } else if compressed && matches!(prim, Some(Prim::Long) | Some(Prim::Int) | Some(Prim::Short)) {
            Step::Varint(role)
        } else {
            Step::Generic(role, i)
        });
    }
    steps
}

/// Types whose events feed the recording's description.
const INFO_TYPES: [&str; 5] =
    ["jdk.JVMInformation", "jdk.OSInformation", "jdk.CPUInformation", "jdk.ActiveSetting", "jdk.InitialSystemProperty"];

/// Decode one chunk into `rec`. Errors inside single events are recorded and the event
/// skipped by its size; an error in the event headers stops the chunk there.
pub(crate) fn decode_chunk(chunk: &Chunk<'_>, rec: &mut Recording, wanted: &dyn Fn(&str, EventKind) -> bool, pass: crate::Pass) {
    let rows_only = pass == crate::Pass::Rows;
    let md = &chunk.md;
    // One slot per event class: its global type row, how many events, and what to do with
    // them. Type ids index a dense table (ids are small in every writer seen); others hash.
    struct Slot {
        row: u32,
        count: u64,
        info: bool,
        plan: Option<Plan>,
    }
    let mut slots: Vec<Slot> = Vec::new();
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
            Some(Plan { ty, kind, steps: plan_steps(chunk, ci, kind) })
        } else {
            None
        };
        slot_of_class.insert(c.id, slots.len() as u32);
        slots.push(Slot { row: ty, count: 0, info: !rows_only && INFO_TYPES.contains(&c.name.as_str()), plan });
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
    let mut errors = Vec::new();
    let scan = chunk.scan(|pos, size, tid| {
        let si = match dense.get(tid as usize) {
            Some(&si) => si,
            None if tid >= DENSE => slot_of_class.get(&tid).copied().unwrap_or(u32::MAX),
            None => u32::MAX,
        };
        let Some(slot) = slots.get_mut(si as usize) else { return };
        slot.count += 1;
        if slot.info {
            if let Ok((name, v)) = chunk.decode_event(pos) {
                rec.add_info(&name, &v, chunk);
            }
        }
        if let Some(plan) = &slot.plan {
            if let Err(e) = decode_event(chunk, &mut d, rec, plan, pos, size) {
                if errors.len() < 32 {
                    errors.push(e.in_chunk(chunk.index));
                }
            }
        }
    });
    if !rows_only {
        for slot in &slots {
            rec.types[slot.row as usize].count += slot.count;
        }
    }
    rec.errors.extend(errors);
    if let Err(e) = scan.map_err(|e| (!rows_only).then_some(e)) {
        rec.errors.extend(e);
    }
}

fn decode_event(chunk: &Chunk<'_>, d: &mut Resolver, rec: &mut Recording, plan: &Plan, pos: usize, size: usize) -> Result<()> {
    let data = chunk.data;
    let mut r = Reader::new(&data[..pos + size], chunk.header.offset, chunk.header.compressed);
    r.seek(pos)?;
    r.int()?;
    let tid = r.long()? as u64;
    let class = &chunk.md.classes[chunk.md.class_index(tid).unwrap_or(0)];
    let mut start = 0i64;
    let mut duration = 0i64;
    let mut event_thread = NONE;
    let mut sampled_thread = NONE;
    let mut stack = NONE;
    let mut state = NONE;
    let mut weight = 1.0f64;
    let mut alloc = f64::NAN;
    let mut tlab = f64::NAN;
    let mut subject = NONE;
    let mut host = NONE;
    let mut port = ABSENT;
    let mut value = f64::NAN;
    let mut peer = NONE;
    for step in &plan.steps {
        let (role, class_of, s) = match step {
            Step::Skip(ops) => {
                chunk.run_ops(&mut r, ops, 0)?;
                continue;
            }
            Step::Varint(role) => (*role, 0, Scalar::Int(r.varint()? as i64)),
            Step::Ref(role, fc) => (*role, *fc, Scalar::Ref(r.varint()?)),
            Step::Generic(role, fi) => {
                let f = &class.fields[*fi];
                (*role, f.class, chunk.read_scalar(&mut r, f)?)
            }
        };
        let f = FieldClass { class: class_of };
        match (role, s) {
            (Role::StartTime, Scalar::Int(t)) => start = t,
            (Role::Duration, Scalar::Int(t)) => duration = t,
            (Role::EventThread, Scalar::Ref(id)) => event_thread = d.thread(chunk, rec, f.class, id),
            (Role::SampledThread, Scalar::Ref(id)) => sampled_thread = d.thread(chunk, rec, f.class, id),
            (Role::ThreadField, Scalar::Ref(id)) => event_thread = d.thread(chunk, rec, f.class, id),
            (Role::Peer, Scalar::Ref(id)) => peer = d.thread(chunk, rec, f.class, id),
            (Role::Stack, Scalar::Ref(id)) => stack = d.stack(chunk, rec, f.class, id),
            (Role::State, s) => state = d.text_scalar(chunk, rec, f.class, s),
            (Role::Samples, Scalar::Int(n)) => weight = n as f64,
            (Role::AllocSize, Scalar::Int(n)) => alloc = n as f64,
            (Role::TlabSize, Scalar::Int(n)) => tlab = n as f64,
            (Role::WeightField, Scalar::Int(n)) => alloc = n as f64,
            (Role::SubjectClass, Scalar::Ref(id)) => subject = d.class_name(chunk, rec, f.class, id),
            (Role::SubjectStr, s) => subject = d.text_scalar(chunk, rec, f.class, s),
            (Role::Host, s) => {
                let h = d.text_scalar(chunk, rec, f.class, s);
                if host == NONE || rec.strings.get(host).is_empty() {
                    host = h;
                }
            }
            (Role::Port, Scalar::Int(p)) => port = p,
            (Role::Value, Scalar::Int(v)) => value = v as f64,
            (Role::Value, Scalar::Float(v)) => value = v,
            _ => {}
        }
    }
    if plan.kind == EventKind::Alloc {
        weight = if tlab > 0.0 { tlab } else if alloc.is_nan() { 0.0 } else { alloc };
    }
    if host != NONE {
        let h = rec.strings.get(host).to_string();
        let text = if port != ABSENT { format!("{h}:{port}") } else { h };
        subject = rec.strings.intern(&text) as i32;
    }
    let h = &chunk.header;
    let e = &mut rec.events;
    e.ty.push(plan.ty);
    e.start_ns.push(h.ticks_to_nanos(start));
    e.duration_ns.push(h.ticks_to_duration(duration));
    e.thread.push(if sampled_thread != NONE { sampled_thread } else { event_thread });
    e.stack.push(stack);
    e.weight.push(weight);
    e.state.push(state);
    e.subject.push(subject);
    e.value.push(value);
    e.peer.push(peer);
    e.chunk.push(chunk.index as u32);
    e.offset.push(h.offset + pos as u64);
    Ok(())
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
    #[inline]
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

/// Per-chunk caches from pool ids to rows of the columns.
struct Resolver {
    threads: IdCache,
    stacks: IdCache,
    /// java.lang.String pool id → string row (paths, hosts, names written as references).
    string_refs: IdCache,
    /// java.lang.Class pool id → string row of its dotted name.
    class_names: IdCache,
    texts: FxHashMap<(usize, u64), i32>,
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

impl Resolver {
    fn new(chunk: &Chunk<'_>) -> Resolver {
        Resolver {
            threads: IdCache::default(),
            stacks: IdCache::default(),
            string_refs: IdCache::default(),
            class_names: IdCache::default(),
            texts: FxHashMap::default(),
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
    fn thread(&mut self, chunk: &Chunk<'_>, rec: &mut Recording, class: usize, id: u64) -> i32 {
        if let Some(t) = self.threads.get(id) {
            return t;
        }
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
            Scalar::Str(RawStr::Pool(id)) => match self.string_class {
                Some(sc) => {
                    if let Some(t) = self.string_refs.get(id) {
                        return t;
                    }
                    let t = self.text(chunk, rec, sc, id, 0);
                    self.string_refs.insert(id, t);
                    t
                }
                None => NONE,
            },
            Scalar::Str(RawStr::Null) => NONE,
            Scalar::Str(s) => rec.strings.intern(&s.to_text().unwrap_or_default()) as i32,
            Scalar::Ref(id) => self.text(chunk, rec, class, id, 0),
            Scalar::Int(v) => rec.strings.intern(&v.to_string()) as i32,
            _ => NONE,
        }
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
    fn class_name(&mut self, chunk: &Chunk<'_>, rec: &mut Recording, class: usize, id: u64) -> i32 {
        if let Some(t) = self.class_names.get(id) {
            return t;
        }
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
    fn stack(&mut self, chunk: &Chunk<'_>, rec: &mut Recording, class: usize, id: u64) -> i32 {
        if let Some(s) = self.stacks.get(id) {
            return s;
        }
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

    fn frame<'a>(&mut self, chunk: &Chunk<'a>, rec: &mut Recording, class: usize, r: &mut Reader<'a>) -> Option<u32> {
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

/// The class of the field a step read (what its references point into).
struct FieldClass {
    class: usize,
}
