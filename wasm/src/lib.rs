//! The bridge between jfrscope-parser and JavaScript: bytes in, columns out.
//!
//! ```text
//! Worker: new Parser(originMs) ─ addChunks(bytes, baseOffset, firstChunk)* ─ column getters
//! Lazy:   countChunks(…)* ─ describe()   then, per round, a new Parser ─ rowsChunks(…, names)*,
//!         read as pieces: getters ─ nextPiece() ─ rowsChunks … (dictionary getters return what
//!         is new since the last piece; event getters the rows since then)
//! ```
//! Columns leave as typed arrays copied straight from the parser's vectors into JS memory (one
//! copy, and nothing handed to JS can go stale when wasm memory grows); the small description
//! leaves as JSON text.
//! Errors become JS `Error`s in exactly one place, [`js_error`].

use jfrscope_parser::value::json_string;
use jfrscope_parser::{ms_since, ColumnData, Options, Recording, Unit};
use std::fmt::Write;
use wasm_bindgen::prelude::*;

fn js_error(e: impl std::fmt::Display) -> JsError {
    JsError::new(&e.to_string())
}

/// How many rows of each dictionary JS already has (see [`Parser::next_piece`]).
#[derive(Default)]
struct Sent {
    strings: usize,
    threads: usize,
    frames: usize,
    stacks: usize,
}

/// One chunk read for the count pass in parts: only what the count needs (the parser's
/// `sparse` module), the rest never leaves the file.
///
/// ```text
/// new SparseChunk(offset, size) ─ (need() → [from, to] ─ read those bytes ─ feed(bytes))* until need() is empty ─ parser.countSparse(chunk, index)
/// ```
#[wasm_bindgen]
pub struct SparseChunk {
    inner: jfrscope_parser::sparse::Sparse,
    offset: u64,
}

#[wasm_bindgen]
impl SparseChunk {
    /// The chunk at absolute `offset`, of which `size` bytes are in the file.
    #[wasm_bindgen(constructor)]
    pub fn new(offset: f64, size: f64) -> SparseChunk {
        SparseChunk { inner: jfrscope_parser::sparse::Sparse::new(offset as u64, size as usize), offset: offset as u64 }
    }

    /// The next byte range to read, relative to the chunk's start, as [from, to]; empty when
    /// the count has what it needs.
    pub fn need(&self) -> Vec<f64> {
        self.inner.need().map(|r| vec![r.start as f64, r.end as f64]).unwrap_or_default()
    }

    /// The bytes of the range `need` gave.
    pub fn feed(&mut self, bytes: &[u8]) {
        self.inner.feed(bytes)
    }

    /// Bytes read so far.
    #[wasm_bindgen(js_name = bytesRead)]
    pub fn bytes_read(&self) -> f64 {
        self.inner.bytes_read() as f64
    }
}

/// An accumulating decoder of one file's chunks.
#[wasm_bindgen]
pub struct Parser {
    rec: Recording,
    sent: Sent,
}

/// An origin in epoch ms as the whole ns it holds: the whole ms exactly, the rest's ns rounded
/// down (`origin_ms * 1e6` is not exact: the product has more digits than an f64 holds). The
/// page's origin is an f64 at or below a chunk's start (web/src/engine/layout.ts originOf), so no
/// time at or after the start reads below zero; `nanosOfMs` there reads it the same way.
fn nanos_of_ms(ms: f64) -> i64 {
    let whole = ms.floor();
    whole as i64 * 1_000_000 + ((ms - whole) * 1e6).floor() as i64
}

fn f64_ids(v: &[i64]) -> Vec<f64> {
    v.iter().map(|&x| if x == i64::MIN { f64::NAN } else { x as f64 }).collect()
}

/// Thread overrides as the page hands them over, one entry each: its chunk, pool id, name, OS
/// and Java ids (NaN when absent) and whether it is virtual.
struct Overrides {
    chunk: Vec<u32>,
    ids: Vec<f64>,
    names: Vec<String>,
    os: Vec<f64>,
    java: Vec<f64>,
    virt: Vec<u8>,
}

impl Overrides {
    /// Per chunk index, its overrides (the parser's `ThreadChain::given`).
    fn per_chunk(self) -> jfrscope_parser::ChunkOverrides {
        let id_of = |v: f64| if v.is_finite() { v as i64 } else { i64::MIN };
        let mut out = jfrscope_parser::ChunkOverrides::default();
        for (k, name) in self.names.into_iter().enumerate() {
            let (Some(&c), Some(&id)) = (self.chunk.get(k), self.ids.get(k)) else { break };
            let t = jfrscope_parser::ThreadIdentity {
                name,
                os_id: self.os.get(k).copied().map_or(i64::MIN, id_of),
                java_id: self.java.get(k).copied().map_or(i64::MIN, id_of),
                is_virtual: self.virt.get(k).is_some_and(|&v| v != 0),
            };
            out.entry(c as usize).or_default().insert(id as u64, t);
        }
        out
    }
}

#[wasm_bindgen]
impl Parser {
    /// A parser whose event times are milliseconds since `origin_ms` (epoch ms).
    #[wasm_bindgen(constructor)]
    pub fn new(origin_ms: f64) -> Parser {
        let mut rec = Recording::default();
        // Rows in the page's form as they are read: the columns JS copies out need no pass of
        // their own (jfrscope_parser::MsColumns).
        rec.events.read_in_ms(nanos_of_ms(origin_ms));
        Parser { rec, sent: Sent::default() }
    }

    /// Decode the whole chunks in `bytes`, which start at absolute `base_offset` of the file
    /// with chunk number `first_chunk`. Problems are collected, not thrown.
    #[wasm_bindgen(js_name = addChunks)]
    pub fn add_chunks(&mut self, bytes: &[u8], base_offset: f64, first_chunk: u32) {
        jfrscope_parser::parse_into(bytes, base_offset as u64, first_chunk as usize, &Options::default(), &mut self.rec);
    }

    /// Count the events of every type, read the description and collect errors, decoding no
    /// rows: the first pass of a lazy load (the parser's `Pass::Overview`: the errors of a
    /// constant pool come with the rows pass that looks into it).
    #[wasm_bindgen(js_name = countChunks)]
    pub fn count_chunks(&mut self, bytes: &[u8], base_offset: f64, first_chunk: u32) {
        let opts = Options { only: None, pass: jfrscope_parser::Pass::Overview };
        jfrscope_parser::parse_into(bytes, base_offset as u64, first_chunk as usize, &opts, &mut self.rec);
    }

    /// Count one chunk read sparsely ([`SparseChunk`], its reads done), as `countChunks` counts
    /// its whole bytes.
    #[wasm_bindgen(js_name = countSparse)]
    pub fn count_sparse(&mut self, chunk: SparseChunk, first_chunk: u32) {
        let opts = Options { only: None, pass: jfrscope_parser::Pass::Overview };
        jfrscope_parser::parse_into(chunk.inner.bytes(), chunk.offset, first_chunk as usize, &opts, &mut self.rec);
    }

    /// Decode rows of the types named in `names` (one name per line) only, and the errors met
    /// decoding them: a later pass of a lazy load (the parser's `Pass::Rows`). Counts, chunks and
    /// the description come from the count pass and are not touched.
    #[wasm_bindgen(js_name = rowsChunks)]
    pub fn rows_chunks(&mut self, bytes: &[u8], base_offset: f64, first_chunk: u32, names: &str) {
        let only = names.lines().filter(|n| !n.is_empty()).map(str::to_string).collect();
        let opts = Options { only: Some(only), pass: jfrscope_parser::Pass::Rows };
        jfrscope_parser::parse_into(bytes, base_offset as u64, first_chunk as usize, &opts, &mut self.rec);
    }

    /// Thread pool ids of chunks whose thread the JDK's reader carries over from an earlier
    /// chunk, one entry each: its chunk, pool id, name, OS and Java ids (NaN when absent) and
    /// whether it is virtual. The page chains every chunk's pool once, from the count passes'
    /// `chunkThreads` (engine/parts.ts chainThreads); a rows pass then resolves those ids to those
    /// threads, as one reader of the whole recording would, and every other id to its chunk's own
    /// entry (not chaining the chunks it decodes itself).
    #[wasm_bindgen(js_name = setThreadChain)]
    pub fn set_thread_chain(&mut self, chunk: Vec<u32>, ids: Vec<f64>, names: Vec<String>, os: Vec<f64>, java: Vec<f64>, virt: Vec<u8>) {
        self.rec.thread_chain.given = Some(Overrides { chunk, ids, names, os, java, virt }.per_chunk());
    }

    /// Room for `rows` more event rows (the count pass knows how many a rows pass will add), so
    /// the columns do not grow by doubling: wasm memory never shrinks, so its peak is what stays.
    #[wasm_bindgen(js_name = reserveRows)]
    pub fn reserve_rows(&mut self, rows: f64) {
        self.rec.events.reserve_exact(rows as usize);
    }

    /// Event rows decoded since the last piece.
    #[wasm_bindgen(js_name = pendingRows)]
    pub fn pending_rows(&self) -> f64 {
        self.rec.events.len() as f64
    }

    /// Stack rows added since the last piece (each path's rows, sent with the piece's events).
    #[wasm_bindgen(js_name = pendingStacks)]
    pub fn pending_stacks(&self) -> f64 {
        (self.rec.stacks.len() - self.sent.stacks) as f64
    }

    /// Start the next piece of a streamed pass: the dictionary getters will return only rows
    /// added from now on (indexes still count from the first row), and the event rows JS has
    /// read are dropped, keeping their capacity, so wasm memory holds one piece's rows at a time.
    #[wasm_bindgen(js_name = nextPiece)]
    pub fn next_piece(&mut self) {
        let r = &self.rec;
        self.sent = Sent { strings: r.strings.list.len(), threads: r.threads.len(), frames: r.frames.len(), stacks: r.stacks.len() };
        self.rec.events.clear();
    }

    /// The string table (from the last piece on).
    pub fn strings(&self) -> Vec<String> {
        self.rec.strings.list[self.sent.strings..].iter().map(|s| s.to_string()).collect()
    }

    #[allow(missing_docs)]
    #[wasm_bindgen(js_name = threadName)]
    pub fn thread_name(&self) -> js_sys::Uint32Array {
        js_sys::Uint32Array::from(&self.rec.threads.name[self.sent.threads..])
    }
    #[allow(missing_docs)]
    #[wasm_bindgen(js_name = threadOsId)]
    pub fn thread_os_id(&self) -> Vec<f64> {
        f64_ids(&self.rec.threads.os_id[self.sent.threads..])
    }
    #[allow(missing_docs)]
    #[wasm_bindgen(js_name = threadJavaId)]
    pub fn thread_java_id(&self) -> Vec<f64> {
        f64_ids(&self.rec.threads.java_id[self.sent.threads..])
    }
    /// 1 for a virtual thread, else 0.
    #[wasm_bindgen(js_name = threadVirtual)]
    pub fn thread_virtual(&self) -> js_sys::Uint8Array {
        js_sys::Uint8Array::from(&self.rec.threads.virtual_[self.sent.threads..])
    }
    #[allow(missing_docs)]
    #[wasm_bindgen(js_name = frameName)]
    pub fn frame_name(&self) -> js_sys::Uint32Array {
        js_sys::Uint32Array::from(&self.rec.frames.name[self.sent.frames..])
    }
    #[allow(missing_docs)]
    #[wasm_bindgen(js_name = frameClass)]
    pub fn frame_class(&self) -> js_sys::Uint32Array {
        js_sys::Uint32Array::from(&self.rec.frames.cls[self.sent.frames..])
    }
    #[allow(missing_docs)]
    #[wasm_bindgen(js_name = frameLine)]
    pub fn frame_line(&self) -> js_sys::Int32Array {
        js_sys::Int32Array::from(&self.rec.frames.line[self.sent.frames..])
    }
    #[allow(missing_docs)]
    #[wasm_bindgen(js_name = frameBci)]
    pub fn frame_bci(&self) -> js_sys::Int32Array {
        js_sys::Int32Array::from(&self.rec.frames.bci[self.sent.frames..])
    }
    #[allow(missing_docs)]
    #[wasm_bindgen(js_name = frameKind)]
    pub fn frame_kind(&self) -> js_sys::Uint8Array {
        js_sys::Uint8Array::from(&self.rec.frames.kind[self.sent.frames..])
    }
    #[allow(missing_docs)]
    #[wasm_bindgen(js_name = stackFrame)]
    pub fn stack_frame(&self) -> js_sys::Uint32Array {
        js_sys::Uint32Array::from(&self.rec.stacks.frame[self.sent.stacks..])
    }
    #[allow(missing_docs)]
    #[wasm_bindgen(js_name = stackPrefix)]
    pub fn stack_prefix(&self) -> js_sys::Int32Array {
        js_sys::Int32Array::from(&self.rec.stacks.prefix[self.sent.stacks..])
    }
    /// Event type rows as u16 (a recording has far fewer than 65,536 event types; the parser
    /// caps them below that).
    #[wasm_bindgen(js_name = eventType)]
    pub fn event_type(&self) -> js_sys::Uint16Array {
        js_sys::Uint16Array::from(&self.ms().ty[..])
    }
    /// Event starts in ms since the origin.
    #[wasm_bindgen(js_name = eventStart)]
    pub fn event_start(&self) -> js_sys::Float64Array {
        js_sys::Float64Array::from(&self.ms().start[..])
    }
    /// Event durations in ms, as f32 (24 bits of mantissa: 0.03 ms steps at five minutes).
    #[wasm_bindgen(js_name = eventDuration)]
    pub fn event_duration(&self) -> js_sys::Float32Array {
        js_sys::Float32Array::from(&self.ms().duration[..])
    }
    #[allow(missing_docs)]
    #[wasm_bindgen(js_name = eventThread)]
    pub fn event_thread(&self) -> js_sys::Int32Array {
        js_sys::Int32Array::from(&self.rec.events.thread[..])
    }
    #[allow(missing_docs)]
    #[wasm_bindgen(js_name = eventStack)]
    pub fn event_stack(&self) -> js_sys::Int32Array {
        js_sys::Int32Array::from(&self.rec.events.stack[..])
    }
    #[allow(missing_docs)]
    #[wasm_bindgen(js_name = eventWeight)]
    pub fn event_weight(&self) -> js_sys::Float64Array {
        js_sys::Float64Array::from(&self.rec.events.weight[..])
    }
    #[allow(missing_docs)]
    #[wasm_bindgen(js_name = eventState)]
    pub fn event_state(&self) -> js_sys::Int32Array {
        js_sys::Int32Array::from(&self.rec.events.state[..])
    }
    #[allow(missing_docs)]
    #[wasm_bindgen(js_name = eventSubject)]
    pub fn event_subject(&self) -> js_sys::Int32Array {
        js_sys::Int32Array::from(&self.rec.events.subject[..])
    }
    #[allow(missing_docs)]
    #[wasm_bindgen(js_name = eventValue)]
    pub fn event_value(&self) -> js_sys::Float64Array {
        js_sys::Float64Array::from(&self.rec.events.value[..])
    }
    #[allow(missing_docs)]
    #[wasm_bindgen(js_name = eventPeer)]
    pub fn event_peer(&self) -> js_sys::Int32Array {
        js_sys::Int32Array::from(&self.rec.events.peer[..])
    }
    #[allow(missing_docs)]
    #[wasm_bindgen(js_name = eventOffset)]
    pub fn event_offset(&self) -> js_sys::Float64Array {
        js_sys::Float64Array::from(&self.ms().offset[..])
    }

    /// The type, start, duration and offset columns, in the page's form (read so from `new`).
    fn ms(&self) -> &jfrscope_parser::MsColumns {
        self.rec.events.ms.as_ref().expect("a Parser reads rows in ms")
    }

    /// Where event column `k` of the rows since the last piece lies in wasm memory (byte
    /// address of its first row; [`Parser::pending_rows`] rows), valid until the parser is next
    /// called: JS copies it into arrays it reuses from piece to piece, so a stream of pieces
    /// does not touch fresh memory for every one. Columns and types as the getters: 0 type
    /// (u16), 1 start (f64 ms since the origin), 2 duration (f32 ms), 3 thread (i32), 4 stack
    /// (i32), 5 weight (f64), 6 state (i32), 7 subject (i32), 8 value (f64), 9 peer (i32),
    /// 10 offset (f64); 0 for another `k`.
    #[wasm_bindgen(js_name = eventColumnAt)]
    pub fn event_column_at(&self, k: u32) -> u32 {
        let e = &self.rec.events;
        let m = self.ms();
        match k {
            0 => m.ty.as_ptr() as u32,
            1 => m.start.as_ptr() as u32,
            2 => m.duration.as_ptr() as u32,
            3 => e.thread.as_ptr() as u32,
            4 => e.stack.as_ptr() as u32,
            5 => e.weight.as_ptr() as u32,
            6 => e.state.as_ptr() as u32,
            7 => e.subject.as_ptr() as u32,
            8 => e.value.as_ptr() as u32,
            9 => e.peer.as_ptr() as u32,
            10 => m.offset.as_ptr() as u32,
            _ => 0,
        }
    }

    /// The one value every row since the last piece holds in event column `k` (numbered and
    /// converted as [`Parser::event_column_at`] gives it), or none when two rows differ or
    /// there are fewer than two: JS then sends that value instead of copying the column. Never
    /// for the start and offset columns (1 and 10).
    #[wasm_bindgen(js_name = eventColumnOne)]
    pub fn event_column_one(&self, k: u32) -> Option<f64> {
        let e = &self.rec.events;
        let m = self.ms();
        // (Which columns hold one value is kept as the rows come: Events::varies.)
        let bit = match k {
            0 => 0,
            2..=9 => k - 1,
            _ => return None,
        };
        if e.len() < 2 || e.varies & (1 << bit) != 0 {
            return None;
        }
        Some(match k {
            0 => f64::from(m.ty[0]),
            2 => f64::from(m.duration[0]),
            3 => f64::from(e.thread[0]),
            4 => f64::from(e.stack[0]),
            5 => e.weight[0],
            6 => f64::from(e.state[0]),
            7 => f64::from(e.subject[0]),
            8 => e.value[0],
            _ => f64::from(e.peer[0]),
        })
    }

    /// The latest end of the rows since the last piece, start plus duration in ms since the
    /// origin, each as its column gives it (-Infinity without rows).
    #[wasm_bindgen(js_name = pieceEnd)]
    pub fn piece_end(&self) -> f64 {
        self.ms().end
    }

    /// Rows since the last piece whose stack was lost (stack row -2: their chunk was cut before
    /// its stack pool).
    #[wasm_bindgen(js_name = pieceStacksLost)]
    pub fn piece_stacks_lost(&self) -> f64 {
        self.rec.events.stacks_lost as f64
    }

    /// The first bin of the shape over time (seconds since the epoch; see [`Self::shape_samples`]).
    #[wasm_bindgen(js_name = shapeFirst)]
    pub fn shape_first(&self) -> f64 {
        self.rec.shape.first as f64
    }

    /// Execution samples per second of the recording from [`Self::shape_first`], counted in
    /// the count pass from every event.
    #[wasm_bindgen(js_name = shapeSamples)]
    pub fn shape_samples(&self) -> js_sys::Uint32Array {
        js_sys::Uint32Array::from(&self.rec.shape.samples[..])
    }

    /// Allocation samples per second.
    #[wasm_bindgen(js_name = shapeAllocs)]
    pub fn shape_allocs(&self) -> js_sys::Uint32Array {
        js_sys::Uint32Array::from(&self.rec.shape.allocs[..])
    }

    /// Waiting threads on average per second (monitor, park, sleep and I/O waits).
    #[wasm_bindgen(js_name = shapeWaiting)]
    pub fn shape_waiting(&self) -> js_sys::Float64Array {
        js_sys::Float64Array::from(&self.rec.shape.waiting()[..])
    }

    /// `{ types, info, chunks, errors }` as JSON text (small: one row per type and chunk).
    pub fn describe(&self) -> String {
        let r = &self.rec;
        let mut s = String::from("{\"types\":[");
        for (i, t) in r.types.iter().enumerate() {
            if i > 0 {
                s.push(',');
            }
            s.push_str("{\"name\":");
            json_string(&t.name, &mut s);
            s.push_str(",\"label\":");
            json_string(&t.label, &mut s);
            let _ = write!(
                s,
                ",\"kind\":\"{}\",\"count\":{},\"hasStack\":{},\"decoded\":{},\"weightUnit\":\"{}\"}}",
                t.kind.as_str(),
                t.count,
                t.has_stack,
                t.decoded,
                t.weight_unit()
            );
        }
        s.push_str("],\"chunks\":[");
        for (i, c) in r.chunks.iter().enumerate() {
            if i > 0 {
                s.push(',');
            }
            let _ = write!(
                s,
                "{{\"offset\":{},\"size\":{},\"startNs\":\"{}\",\"durationNs\":\"{}\",\"version\":\"{}.{}\"}}",
                c.offset, c.size, c.start_nanos, c.duration_nanos, c.major, c.minor
            );
        }
        // Per chunk: [type index, count, type index, count, …] (types with events only).
        s.push_str("],\"chunkCounts\":[");
        for (i, c) in r.chunk_counts.iter().enumerate() {
            if i > 0 {
                s.push(',');
            }
            s.push('[');
            for (k, (t, n)) in c.iter().enumerate() {
                let _ = write!(s, "{}{t},{n}", if k > 0 { "," } else { "" });
            }
            s.push(']');
        }
        // Per chunk counted: its thread pool, whole or as its change since the chunk before
        // (PoolChange): entries [id, name, OS id, Java id, virtual] (ids null when absent), and
        // the ids gone.
        s.push_str("],\"chunkThreads\":[");
        for (i, p) in r.chunk_threads.iter().enumerate() {
            let _ = write!(s, "{}{{\"chunk\":{},\"whole\":{},\"threads\":[", if i > 0 { "," } else { "" }, p.chunk, p.whole);
            for (k, (id, t)) in p.set.iter().enumerate() {
                let _ = write!(s, "{}[{id},", if k > 0 { "," } else { "" });
                json_string(&t.name, &mut s);
                let n = |v: i64| if v == i64::MIN { "null".to_string() } else { v.to_string() };
                let _ = write!(s, ",{},{},{}]", n(t.os_id), n(t.java_id), t.is_virtual as u8);
            }
            s.push_str("],\"gone\":[");
            for (k, id) in p.gone.iter().enumerate() {
                let _ = write!(s, "{}{id}", if k > 0 { "," } else { "" });
            }
            s.push_str("]}");
        }
        // Per chunk counted whose jdk.JVMInformation names its JVM: [chunk, pid, jvmStartTime ms]
        // (null when a field is missing).
        s.push_str("],\"chunkJvms\":[");
        for (i, (c, pid, start)) in r.chunk_jvms.iter().enumerate() {
            let n = |v: i64| if v == i64::MIN { "null".to_string() } else { v.to_string() };
            let _ = write!(s, "{}[{c},{},{}]", if i > 0 { "," } else { "" }, n(*pid), n(*start));
        }
        s.push_str("],\"errors\":[");
        for (i, e) in r.errors.iter().enumerate() {
            if i > 0 {
                s.push(',');
            }
            s.push_str("{\"message\":");
            json_string(&e.to_string(), &mut s);
            let _ = write!(s, ",\"chunk\":{},\"offset\":{}}}", e.chunk().map(|c| c as i64).unwrap_or(-1), e.offset());
        }
        s.push_str("],\"info\":{\"jvm\":");
        match &r.info.jvm {
            Some(j) => {
                s.push_str("{\"name\":");
                json_string(&j.name, &mut s);
                s.push_str(",\"version\":");
                json_string(&j.version, &mut s);
                s.push_str(",\"args\":");
                json_string(&j.args, &mut s);
                s.push_str(",\"flags\":");
                json_string(&j.flags, &mut s);
                s.push('}');
            }
            None => s.push_str("null"),
        }
        match r.info.data_end_nanos {
            Some(ns) => {
                let _ = write!(s, ",\"dataEndNs\":\"{ns}\"");
            }
            None => s.push_str(",\"dataEndNs\":null"),
        }
        let _ = write!(s, ",\"stacksLost\":{}", r.stacks_lost());
        for (k, v) in [("os", &r.info.os), ("cpu", &r.info.cpu)] {
            let _ = write!(s, ",\"{k}\":");
            match v {
                Some(t) => json_string(t, &mut s),
                None => s.push_str("null"),
            }
        }
        s.push_str(",\"settings\":[");
        for (i, (t, n, v)) in r.info.settings.iter().enumerate() {
            if i > 0 {
                s.push(',');
            }
            s.push_str("{\"type\":");
            json_string(t, &mut s);
            s.push_str(",\"name\":");
            json_string(n, &mut s);
            s.push_str(",\"value\":");
            json_string(v, &mut s);
            s.push('}');
        }
        s.push_str("],\"flags\":[");
        for (i, (n, v, o)) in r.info.flags.iter().enumerate() {
            if i > 0 {
                s.push(',');
            }
            s.push_str("{\"name\":");
            json_string(n, &mut s);
            s.push_str(",\"value\":");
            json_string(v, &mut s);
            s.push_str(",\"origin\":");
            json_string(o, &mut s);
            s.push('}');
        }
        s.push_str("],\"properties\":[");
        for (i, (k, v)) in r.info.properties.iter().enumerate() {
            if i > 0 {
                s.push(',');
            }
            s.push_str("{\"key\":");
            json_string(k, &mut s);
            s.push_str(",\"value\":");
            json_string(v, &mut s);
            s.push('}');
        }
        s.push_str("]}}");
        s
    }
}

/// The parser's thread chain (`chain_threads`, the JDK's reading of thread pools from chunk to
/// chunk) over whole pools given as `Parser.setThreadChain` takes overrides: entry k is pool id
/// `ids[k]` of chunk `chunk[k]`; chunks 0 to the largest given, one file's chunks in order (a
/// chunk without entries has an empty pool). Returns the overrides as JSON text, per chunk
/// increasing then id increasing: `[[chunk, id, name, os|null, java|null, virtual], …]`. For
/// checking the page's chain (engine/parts.ts chainThreads) against this one.
#[wasm_bindgen(js_name = chainThreadPools)]
pub fn chain_thread_pools(chunk: Vec<u32>, ids: Vec<f64>, names: Vec<String>, os: Vec<f64>, java: Vec<f64>, virt: Vec<u8>) -> String {
    let last = chunk.iter().copied().max().map_or(0, |c| c as usize + 1);
    let mut pools = Overrides { chunk, ids, names, os, java, virt }.per_chunk();
    let chunks: Vec<jfrscope_parser::ChunkThreads> = (0..last)
        .map(|c| {
            let mut own: jfrscope_parser::ChunkThreads = pools.remove(&c).unwrap_or_default().into_iter().collect();
            own.sort_by_key(|(id, _)| *id);
            own
        })
        .collect();
    let id_json = |v: i64| if v == i64::MIN { "null".to_string() } else { v.to_string() };
    let mut s = String::from("[");
    for (c, over) in jfrscope_parser::chain_threads(&chunks).into_iter().enumerate() {
        let mut over: Vec<_> = over.into_iter().collect();
        over.sort_by_key(|(id, _)| *id);
        for (id, t) in over {
            if s.len() > 1 {
                s.push(',');
            }
            let _ = write!(s, "[{c},{id},");
            json_string(&t.name, &mut s);
            let _ = write!(s, ",{},{},{}]", id_json(t.os_id), id_json(t.java_id), u8::from(t.is_virtual));
        }
    }
    s.push(']');
    s
}

/// All fields of the event at absolute `offset` of the chunk in `chunk_bytes` (which start at
/// absolute `chunk_offset`, chunk number `chunk`), as JSON text `{"type":…, "fields":…}`, resolved
/// for reading (`Chunk::decode_event_shown`): pool references as their values, times as ms since
/// `origin_ms` (epoch ms, the recording's start), spans in ms. The chunk's thread overrides
/// (as `Parser.setThreadChain` takes them, those of other chunks ignored) name its threads as
/// the rows do.
#[wasm_bindgen(js_name = decodeEvent)]
#[allow(clippy::too_many_arguments)]
pub fn decode_event(
    chunk_bytes: &[u8],
    chunk_offset: f64,
    chunk: u32,
    offset: f64,
    origin_ms: f64,
    thread_chunk: Vec<u32>,
    thread_ids: Vec<f64>,
    thread_names: Vec<String>,
    thread_os: Vec<f64>,
    thread_java: Vec<f64>,
    thread_virt: Vec<u8>,
) -> Result<String, JsError> {
    let overrides = Overrides { chunk: thread_chunk, ids: thread_ids, names: thread_names, os: thread_os, java: thread_java, virt: thread_virt };
    let threads = overrides.per_chunk().remove(&(chunk as usize)).unwrap_or_default();
    let (hs, err) = jfrscope_parser::header::chunk_headers_at(chunk_bytes, chunk_offset as u64, chunk as usize);
    let h = hs.into_iter().next().ok_or_else(|| js_error(err.map(|e| e.to_string()).unwrap_or_else(|| "no chunk".into())))?;
    let c = jfrscope_parser::Chunk::from_bytes(chunk_bytes, h, chunk as usize).map_err(js_error)?;
    let origin_nanos = nanos_of_ms(origin_ms);
    let (name, v) = c.decode_event_shown((offset - chunk_offset) as usize, origin_nanos, threads).map_err(|e| js_error(e.in_chunk(chunk as usize)))?;
    let mut s = String::from("{\"type\":");
    json_string(&name, &mut s);
    s.push_str(",\"fields\":");
    s.push_str(&v.to_json());
    s.push('}');
    Ok(s)
}

/// One event type's table (parser/src/table.rs) over the chunks of a group, handed out column by
/// column (docs/columns.md, "Type tables"):
///
/// ```text
/// new TableReader(type, originMs) ─ addChunks(bytes, baseOffset, firstChunk)* ─ names() kinds()
///   units() strings() errors() rows() ─ per column i: ints(i) | floats(i) | bools(i) | texts(i),
///   valid(i)
/// ```
/// Kinds: `int` (BigInt64Array), `float` (Float64Array), `bool` (Uint8Array, 0/1), `string`
/// (Uint32Array of indices into `strings()`), `time` (a timestamp: Float64Array of ms since
/// `originMs`, computed as the events table's start), `span` (Float64Array of ms), `offset`
/// (Float64Array of absolute byte offsets, as the events table's offset), `stack` (a row of this
/// reader's own stack tree: meaningless outside it; its `.topFrame` column says the frame).
#[wasm_bindgen]
pub struct TableReader {
    t: jfrscope_parser::TypeTable,
    rec: Recording,
    origin_ns: i64,
}

#[wasm_bindgen]
impl TableReader {
    /// A reader of the events of type `type_name`; times in ms since `origin_ms` (epoch ms).
    #[wasm_bindgen(constructor)]
    pub fn new(type_name: &str, origin_ms: f64) -> TableReader {
        let origin_nanos = nanos_of_ms(origin_ms);
        TableReader { t: jfrscope_parser::TypeTable::new(type_name, origin_nanos), rec: Recording::default(), origin_ns: origin_nanos }
    }

    /// Thread overrides, as `Parser.setThreadChain` takes them: threads named as the JDK names
    /// them across chunks.
    #[wasm_bindgen(js_name = setThreadChain)]
    pub fn set_thread_chain(&mut self, chunk: Vec<u32>, ids: Vec<f64>, names: Vec<String>, os: Vec<f64>, java: Vec<f64>, virt: Vec<u8>) {
        self.rec.thread_chain.given = Some(Overrides { chunk, ids, names, os, java, virt }.per_chunk());
    }

    /// Add the rows of the whole chunks in `bytes`, which start at absolute `base_offset` of the
    /// file with chunk number `first_chunk`. Problems are collected (`errors()`), not thrown.
    #[wasm_bindgen(js_name = addChunks)]
    pub fn add_chunks(&mut self, bytes: &[u8], base_offset: f64, first_chunk: u32) {
        let base = base_offset as u64;
        let (headers, err) = jfrscope_parser::header::chunk_headers_at(bytes, base, first_chunk as usize);
        for (i, h) in headers.into_iter().enumerate() {
            let pos = ((h.offset - base) as usize).min(bytes.len());
            self.t.add_chunk_bytes(&bytes[pos..], h, first_chunk as usize + i, &mut self.rec);
        }
        self.t.errors.extend(err);
    }

    /// Rows read.
    pub fn rows(&self) -> f64 {
        self.t.rows as f64
    }

    /// Column names, in order.
    pub fn names(&self) -> Vec<String> {
        self.t.columns.iter().map(|c| c.name.clone()).collect()
    }

    /// Column kinds as the bridge hands them over (see the type's notes).
    pub fn kinds(&self) -> Vec<String> {
        (0..self.t.columns.len()).map(|i| self.kind(i).to_string()).collect()
    }

    /// Column units as the parser names them (`Unit::as_str`).
    pub fn units(&self) -> Vec<String> {
        self.t.columns.iter().map(|c| c.unit.as_str().to_string()).collect()
    }

    /// The text of the string columns' indices.
    pub fn strings(&self) -> Vec<String> {
        self.t.strings.list.iter().map(|s| s.to_string()).collect()
    }

    /// `[{message, chunk, offset}]` as JSON text.
    pub fn errors(&self) -> String {
        let mut s = String::from("[");
        for (i, e) in self.t.errors.iter().enumerate() {
            if i > 0 {
                s.push(',');
            }
            s.push_str("{\"message\":");
            json_string(&e.to_string(), &mut s);
            let _ = write!(s, ",\"chunk\":{},\"offset\":{}}}", e.chunk().map(|c| c as i64).unwrap_or(-1), e.offset());
        }
        s.push(']');
        s
    }

    /// Values of an `int` or `stack` column (0 where null).
    pub fn ints(&self, i: usize) -> Vec<i64> {
        match self.t.columns.get(i).map(|c| &c.data) {
            Some(ColumnData::Int(v)) => v.clone(),
            _ => Vec::new(),
        }
    }

    /// Values of a `float`, `time`, `span` or `offset` column (0 where null).
    pub fn floats(&self, i: usize) -> Vec<f64> {
        let o = self.origin_ns;
        match (self.kind(i), self.t.columns.get(i).map(|c| &c.data)) {
            ("time", Some(ColumnData::Int(v))) => v.iter().map(|&t| ms_since(t, o)).collect(),
            ("span", Some(ColumnData::Int(v))) => v.iter().map(|&d| d as f64 / 1e6).collect(),
            (_, Some(ColumnData::Int(v))) => v.iter().map(|&x| x as f64).collect(),
            (_, Some(ColumnData::Float(v))) => v.clone(),
            _ => Vec::new(),
        }
    }

    /// Values of a `bool` column, 0 or 1.
    pub fn bools(&self, i: usize) -> Vec<u8> {
        match self.t.columns.get(i).map(|c| &c.data) {
            Some(ColumnData::Bool(v)) => v.iter().map(|&b| b as u8).collect(),
            _ => Vec::new(),
        }
    }

    /// Values of a `string` column: indices into `strings()`.
    pub fn texts(&self, i: usize) -> Vec<u32> {
        match self.t.columns.get(i).map(|c| &c.data) {
            Some(ColumnData::Str(v)) => v.clone(),
            _ => Vec::new(),
        }
    }

    /// 1 where column `i` has a value, 0 where it is null.
    pub fn valid(&self, i: usize) -> Vec<u8> {
        self.t.columns.get(i).map(|c| c.valid.iter().map(|&b| b as u8).collect()).unwrap_or_default()
    }

    fn kind(&self, i: usize) -> &'static str {
        let Some(c) = self.t.columns.get(i) else { return "int" };
        match (&c.data, c.unit) {
            (ColumnData::Int(_), _) if c.name == "offset" => "offset",
            (ColumnData::Int(_), _) if self.t.column(&format!("{}.topFrame", c.name)).is_some() => "stack",
            (ColumnData::Int(_), Unit::EpochNanos) => "time",
            (ColumnData::Int(_), Unit::Nanos) => "span",
            (ColumnData::Int(_), _) => "int",
            (ColumnData::Float(_), _) => "float",
            (ColumnData::Bool(_), _) => "bool",
            (ColumnData::Str(_), _) => "string",
        }
    }
}
