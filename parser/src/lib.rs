//! jfrscope-parser: a JFR (Java Flight Recorder) decoder that turns a recording into columns.
//!
//! ```text
//! file ─ header.rs (chunk headers) ─ chunk.rs (metadata.rs + pool index) ─ decode.rs ─ columns.rs
//! ```
//! It reads from a byte slice, does no I/O and never panics on input: every problem becomes an
//! [`Error`] that names the chunk and the absolute offset, and whatever was decodable before
//! the damage is kept in the [`Recording`].

#![deny(missing_docs)]
#![forbid(unsafe_code)]

pub mod chunk;
pub mod collapse;
pub mod columns;
mod display;
mod decode;
pub mod error;
pub mod header;
pub mod metadata;
mod plan;
pub mod reader;
mod resolve;
pub mod shape;
mod sink;
pub mod sparse;
pub mod table;
mod ticks;
pub mod value;

#[cfg(test)]
mod testutil;
#[cfg(test)]
mod tests_unit;

pub use chunk::Chunk;
pub use columns::{ms_since, EventKind, EventType, Events, FrameKind, MsColumns, Frames, Stacks, Strings, Threads, NONE, STACK_LOST};
pub use error::{Error, ErrorKind, Result};
pub use header::{chunk_headers, ChunkHeader};
pub use table::{type_table, Column, ColumnData, ColumnKind, TypeTable, Unit};
pub use value::Value;
pub use resolve::{chain_step, chain_threads, ChunkThreads, PoolChange, StackBytes, ThreadIdentity, ThreadMap};

use rustc_hash::FxHashMap;

/// The JVM that made the recording, from jdk.JVMInformation.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct JvmInfo {
    /// `jvmName`.
    pub name: String,
    /// `jvmVersion`.
    pub version: String,
    /// `jvmArguments` then `javaArguments`.
    pub args: String,
    /// `jvmFlags`.
    pub flags: String,
}

/// The recording's own description.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Info {
    /// From jdk.JVMInformation.
    pub jvm: Option<JvmInfo>,
    /// `osVersion` of jdk.OSInformation.
    pub os: Option<String>,
    /// jdk.CPUInformation's `cpu` and `description`.
    pub cpu: Option<String>,
    /// jdk.ActiveSetting rows: (event type, setting name, value), deduplicated.
    pub settings: Vec<(String, String, String)>,
    /// jdk.InitialSystemProperty rows: (key, value), deduplicated.
    pub properties: Vec<(String, String)>,
    /// The JVM flags of the jdk.*Flag events (jdk.BooleanFlag, jdk.IntFlag…): (name, value,
    /// origin), deduplicated.
    pub flags: Vec<(String, String, String)>,
    /// Where the data really ends (ns since the epoch): the latest end (start + duration) of
    /// the rows decoded so far; `None` before any. A cut file's headers claim more.
    pub data_end_nanos: Option<i64>,
}

/// A decoded recording: the columns of docs/columns.md, its chunk headers and description,
/// and every error met (each names its chunk and offset).
#[derive(Debug, Clone, Default)]
pub struct Recording {
    /// Interned strings.
    pub strings: Strings,
    /// Threads.
    pub threads: Threads,
    /// Frames.
    pub frames: Frames,
    /// The stack prefix tree.
    pub stacks: Stacks,
    /// Decoded events.
    pub events: Events,
    /// Every event type seen, with counts.
    pub types: Vec<EventType>,
    /// Type name → row in `types`.
    pub type_index: FxHashMap<String, u32>,
    /// Headers of the chunks read.
    pub chunks: Vec<ChunkHeader>,
    /// Per chunk of `chunks` (same order), the events of each type in it: (row in `types`,
    /// count), the types with none left out. What a time window of a type holds is known
    /// before any of it is decoded.
    pub chunk_counts: Vec<Vec<(u32, u64)>>,
    /// The description.
    pub info: Info,
    /// Samples and waiting threads per second, from every event (not only decoded rows).
    pub shape: shape::Shape,
    /// Errors, in file order.
    pub errors: Vec<Error>,
    /// How thread pool ids resolve across chunks.
    pub thread_chain: ThreadChain,
    /// Per chunk a count pass read (same order as `chunks`): its thread pool as the chunk writes
    /// it, as a change since the chunk before it ([`PoolChange`]). A caller that decodes chunks
    /// apart (the browser's workers) chains the pools once ([`chain_step`]) and gives each
    /// decoder the overrides of its chunks ([`ThreadChain::given`]).
    pub chunk_threads: Vec<PoolChange>,
    /// Per chunk a count pass read whose jdk.JVMInformation says which JVM wrote it: (chunk
    /// index, `pid`, `jvmStartTime` in ms since the epoch). Files of one JVM's repository chain
    /// their threads from one to the next; files of different JVMs never do.
    pub chunk_jvms: Vec<(usize, i64, i64)>,
    /// Stack rows by the bytes of their frames, for the chunks still to be read.
    pub stack_bytes: resolve::StackBytes,
}

/// Per chunk index, its thread overrides (see [`ThreadChain`]).
pub type ChunkOverrides = FxHashMap<usize, ThreadMap>;

/// Thread identities across chunks, as the JDK reads them: a thread pool id the previous chunk's
/// pool holds keeps the previous chunk's thread ([`chain_step`]), so a thread renamed while
/// recording keeps its first name as long as every chunk since lists it.
#[derive(Debug, Clone, Default)]
pub struct ThreadChain {
    /// Per chunk index, its overrides, from the chain over every chunk of the recording (for
    /// chunks decoded apart: the caller chains the count pass's [`PoolChange`]s); a chunk not
    /// in it has none. `None`: chained while decoding, each chunk after the one
    /// decoded just before it when that is the chunk before it in the file (a whole file read
    /// in order, as the CLI does).
    pub given: Option<ChunkOverrides>,
    /// The chunk decoded last, the thread identities it ended with and its overrides (asked
    /// for again by a type table of the same chunk).
    last: Option<(usize, ThreadMap, ThreadMap)>,
    /// The chunk a count pass read last and its own thread pool (what the next chunk's
    /// [`PoolChange`] is taken against).
    counted: Option<(usize, ThreadMap)>,
}

/// Which event types to decode into rows, and what else a pass over the chunks records.
#[derive(Debug, Clone, Default)]
pub struct Options {
    /// Only these type names; `None` decodes every known kind and every stack-bearing type.
    pub only: Option<Vec<String>>,
    /// What the pass records.
    pub pass: Pass,
}

/// What one pass over a file's chunks records. A recording can be read in one [`Pass::Full`]
/// pass, or lazily: one [`Pass::Overview`] pass, then [`Pass::Rows`] passes for the types
/// wanted, each into the same [`Recording`] (the browser defers types too large to hold at
/// once); once every type has had its rows pass, the errors are the full pass's.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum Pass {
    /// Chunk headers, type counts, the shape over time, the description, every error, and rows
    /// of the wanted types.
    #[default]
    Full,
    /// Everything [`Pass::Full`] records except rows.
    Count,
    /// What [`Pass::Count`] records, except the errors of constant pools it had no need to
    /// look into (stack traces, most of a recording's bytes, are not walked to count events):
    /// the rows passes that resolve them report those.
    Overview,
    /// Rows of the wanted types only, and the errors met decoding them, with those of the
    /// constant pools the rows looked into.
    Rows,
}

impl Pass {
    /// Whether the pass decodes no rows at all.
    pub fn counts_only(self) -> bool {
        matches!(self, Pass::Count | Pass::Overview)
    }
}

impl Recording {
    pub(crate) fn type_row(&mut self, name: &str, label: Option<&str>, kind: EventKind, has_stack: bool) -> u32 {
        if let Some(&i) = self.type_index.get(name) {
            let t = &mut self.types[i as usize];
            t.has_stack |= has_stack;
            return i;
        }
        let i = self.types.len() as u32;
        self.types.push(EventType {
            name: name.to_string(),
            label: label.unwrap_or(name).to_string(),
            kind,
            count: 0,
            has_stack,
            decoded: false,
        });
        self.type_index.insert(name.to_string(), i);
        i
    }

    /// Add what an event of the description's types says (its fields of [`INFO_FIELDS`]).
    pub(crate) fn add_info(&mut self, name: &str, v: &Value, chunk: &Chunk<'_>) {
        let t = |f: &str| v.get(f).map(|x| x.text()).unwrap_or_default();
        match name {
            "jdk.JVMInformation" => {
                let int = |f: &str| match v.get(f) {
                    Some(Value::Int(n)) => *n,
                    _ => i64::MIN,
                };
                if self.chunk_jvms.last().is_none_or(|c| c.0 != chunk.index) {
                    self.chunk_jvms.push((chunk.index, int("pid"), int("jvmStartTime")));
                }
                if self.info.jvm.is_some() {
                    return;
                }
                let args = [t("jvmArguments"), t("javaArguments")].iter().filter(|s| !s.is_empty()).cloned().collect::<Vec<_>>().join(" ");
                self.info.jvm = Some(JvmInfo { name: t("jvmName"), version: t("jvmVersion"), args, flags: t("jvmFlags") });
            }
            "jdk.OSInformation" if self.info.os.is_none() => self.info.os = Some(t("osVersion")),
            "jdk.CPUInformation" if self.info.cpu.is_none() => {
                let d = t("description");
                let cpu = t("cpu");
                self.info.cpu = Some(if d.is_empty() { cpu } else { format!("{cpu}\n{d}") });
            }
            "jdk.ActiveSetting" => {
                // `id` is the event type's id in this chunk.
                let ty = match v.get("id") {
                    Some(Value::Int(id)) => chunk.md.class_index(*id as u64).map(|c| chunk.md.classes[c].name.clone()).unwrap_or_else(|| id.to_string()),
                    _ => String::new(),
                };
                let row = (ty, t("name"), t("value"));
                if !self.info.settings.contains(&row) {
                    self.info.settings.push(row);
                }
            }
            _ if FLAG_TYPES.contains(&name) => {
                let row = (t("name"), t("value"), t("origin"));
                if !self.info.flags.contains(&row) {
                    self.info.flags.push(row);
                }
            }
            "jdk.InitialSystemProperty" => {
                let row = (t("key"), t("value"));
                if !self.info.properties.contains(&row) {
                    self.info.properties.push(row);
                }
            }
            _ => {}
        }
    }

    /// The overrides of `chunk`'s thread pool ids (see [`ThreadChain`]); a count pass (`counts`)
    /// also keeps the chunk's own pool in `chunk_threads`, as a change since the chunk before.
    pub(crate) fn thread_overrides(&mut self, chunk: &Chunk<'_>, counts: bool) -> ThreadMap {
        if !counts {
            if let Some(g) = &self.thread_chain.given {
                return g.get(&chunk.index).cloned().unwrap_or_default();
            }
        }
        if let Some((i, _, o)) = &self.thread_chain.last {
            if *i == chunk.index {
                return o.clone();
            }
        }
        let own = resolve::chunk_threads(chunk);
        let prev = match self.thread_chain.last.take() {
            Some((i, m, _)) if i + 1 == chunk.index => m,
            _ => ThreadMap::default(),
        };
        let (last, overrides) = chain_step(&prev, &own);
        self.thread_chain.last = Some((chunk.index, last, overrides.clone()));
        if counts {
            let prev = self.thread_chain.counted.take().filter(|(i, _)| i + 1 == chunk.index);
            self.chunk_threads.push(PoolChange::new(chunk.index, prev.as_ref().map(|(_, p)| p), &own));
            self.thread_chain.counted = Some((chunk.index, own.into_iter().collect()));
        }
        overrides
    }

    /// Wall-clock start of the recording (ns since the epoch): the earliest chunk start.
    pub fn start_nanos(&self) -> i64 {
        self.chunks.iter().map(|c| c.start_nanos).min().unwrap_or(0)
    }

    /// Events whose stack was lost because their chunk was cut before its constant pools
    /// (stack [`STACK_LOST`]).
    pub fn stacks_lost(&self) -> usize {
        self.events.stack.iter().filter(|&&s| s == STACK_LOST).count()
    }

    /// Wall-clock end (ns since the epoch): the latest chunk end.
    pub fn end_nanos(&self) -> i64 {
        self.chunks.iter().map(|c| c.start_nanos.saturating_add(c.duration_nanos)).max().unwrap_or(0)
    }
}

/// The fields of the description's event types that [`Recording::add_info`] reads: the others
/// are not decoded (an event thread or stack trace would index their pools).
pub(crate) const INFO_FIELDS: [&str; 15] = [
    "jvmName", "jvmVersion", "jvmArguments", "javaArguments", "jvmFlags", "pid", "jvmStartTime", "osVersion", "cpu", "description", "id", "name", "value", "origin", "key",
];

/// The event types that each give one JVM flag (`name`, `value`, `origin`) at the recording's
/// start and end.
pub const FLAG_TYPES: [&str; 7] =
    ["jdk.BooleanFlag", "jdk.IntFlag", "jdk.UnsignedIntFlag", "jdk.LongFlag", "jdk.UnsignedLongFlag", "jdk.DoubleFlag", "jdk.StringFlag"];

/// Decode a whole recording. Never fails: a file that cannot be read at all gives an empty
/// recording whose `errors` say why.
pub fn parse(data: &[u8], opts: &Options) -> Recording {
    let mut rec = Recording::default();
    parse_into(data, 0, 0, opts, &mut rec);
    rec
}

/// Decode the chunks in `data`, a slice of a file starting at absolute offset `base` with
/// chunk number `first`, into `rec`. A truncation is reported before the chunk's own errors.
///
/// Chunks are decoded one after the other, each knowing only the chunks before it (see
/// `decode_chunk` for which types get rows): the same call per chunk gives the same rows. A
/// type with a stack trace in one chunk (the JDK chunk of an async-profiler jfrsync recording)
/// has rows in the chunks after it even where they declare it without one.
pub fn parse_into(data: &[u8], base: u64, first: usize, opts: &Options, rec: &mut Recording) {
    let (headers, err) = header::chunk_headers_at(data, base, first);
    let n = headers.len();
    for (i, h) in headers.into_iter().enumerate() {
        if i + 1 == n && opts.pass != Pass::Rows {
            if let Some(e) = err.clone().filter(|e| matches!(e.kind(), ErrorKind::Truncated { .. })) {
                rec.errors.push(e);
            }
        }
        let pos = ((h.offset - base) as usize).min(data.len());
        parse_chunk_bytes(&data[pos..], h, first + i, opts, rec);
    }
    if let Some(e) = err.filter(|e| opts.pass != Pass::Rows && !matches!(e.kind(), ErrorKind::Truncated { .. })) {
        rec.errors.push(e);
    }
}

/// Decode the chunk `header` describes (index `index` in the file) into `rec`.
pub fn parse_chunk_into(data: &[u8], header: ChunkHeader, index: usize, opts: &Options, rec: &mut Recording) {
    let start = (header.offset as usize).min(data.len());
    parse_chunk_bytes(&data[start..], header, index, opts, rec)
}

/// Decode one chunk from its own bytes (`chunk_data` starts with its header; `header.offset`
/// says where it sits in the file) into `rec`.
pub fn parse_chunk_bytes(chunk_data: &[u8], header: ChunkHeader, index: usize, opts: &Options, rec: &mut Recording) {
    let chunk = Chunk::from_bytes(chunk_data, header.clone(), index);
    decode_opened(chunk, header, opts, rec)
}

fn decode_opened(chunk: Result<Chunk<'_>>, header: ChunkHeader, opts: &Options, rec: &mut Recording) {
    let rows_only = opts.pass == Pass::Rows;
    if !rows_only {
        rec.chunks.push(header);
        rec.chunk_counts.push(Vec::new());
    }
    match chunk {
        Ok(chunk) => {
            let threads = rec.thread_overrides(&chunk, opts.pass.counts_only());
            decode::decode_chunk(&chunk, rec, opts.only.as_deref(), opts.pass, threads);
            // Every pool's errors, or those of the pools the pass looked into (an overview
            // resolves the description's few references, a rows pass those of its rows).
            match opts.pass {
                Pass::Full | Pass::Count => rec.errors.extend(chunk.pool_errors()),
                Pass::Overview | Pass::Rows => rec.errors.extend(chunk.pool_errors_found()),
            }
        }
        Err(e) if !rows_only => rec.errors.push(e),
        Err(_) => {}
    }
}

/// All fields of the event at absolute `offset` in chunk `chunk`, as (type name, value).
pub fn decode_event_at(data: &[u8], chunk: usize, offset: u64) -> Result<(String, Value)> {
    let (headers, err) = chunk_headers(data);
    let h = match headers.get(chunk) {
        Some(h) => h.clone(),
        None => return Err(err.unwrap_or_else(|| Error::new(ErrorKind::OutOfBounds { what: "chunk index", value: chunk as i64 }, 0))),
    };
    let c = Chunk::open(data, h.clone(), chunk)?;
    let pos = offset.checked_sub(h.offset).ok_or_else(|| Error::new(ErrorKind::OutOfBounds { what: "event offset", value: offset as i64 }, offset))?;
    c.decode_event(pos as usize).map_err(|e| e.in_chunk(chunk))
}

/// The threads of the chunk [`for_each_event`] read last, as it resolved them, for the next.
#[derive(Debug, Default)]
pub struct ThreadValues {
    index: Option<usize>,
    values: FxHashMap<u64, Value>,
}

/// Decode every event of type `type_name` (all types when `None`) in one chunk's bytes field by
/// field, calling `f(type name, absolute offset, value)` in file order. Returns the first error
/// that stopped the walk; events before it were delivered.
///
/// Threads read as the JDK's reader names them going from chunk to chunk: a thread pool id the
/// chain of `rec` carries over ([`Recording::thread_overrides`], [`chain_step`]) reads as the
/// thread the chunk before resolved it to, every field as decoded there (`threads` holds those
/// from the call for the chunk before; chunks are given in order, starting from a fresh one).
pub fn for_each_event(
    chunk_data: &[u8],
    header: ChunkHeader,
    index: usize,
    type_name: Option<&str>,
    rec: &mut Recording,
    threads: &mut ThreadValues,
    mut f: impl FnMut(&str, u64, &Value),
) -> Result<()> {
    let base = header.offset;
    let mut chunk = Chunk::from_bytes(chunk_data, header, index)?;
    let overrides = rec.thread_overrides(&chunk, false);
    let prev = if threads.index.is_some_and(|i| i + 1 == index) { std::mem::take(&mut threads.values) } else { FxHashMap::default() };
    chunk.carried = overrides
        .into_iter()
        .map(|(id, t)| {
            let v = prev.get(&id).cloned().unwrap_or_else(|| {
                let id_value = |n: i64| if n == chunk::ABSENT { Value::Null } else { Value::Int(n) };
                Value::Object(vec![
                    ("javaName".into(), Value::Str(t.name)),
                    ("osThreadId".into(), id_value(t.os_id)),
                    ("javaThreadId".into(), id_value(t.java_id)),
                    ("virtual".into(), Value::Bool(t.is_virtual)),
                ])
            });
            (id, v)
        })
        .collect();
    // This chunk's threads as it resolves them (carried ones included), for the chunk after.
    threads.index = Some(index);
    threads.values = match chunk.md.class_by_name("java.lang.Thread") {
        Some(class) => chunk.pool_entries(class).into_iter().map(|(id, _)| (id, chunk.resolve_value(class, id, 1))).collect(),
        None => FxHashMap::default(),
    };
    let wanted: Vec<bool> = chunk.md.classes.iter().map(|c| c.is_event() && type_name.is_none_or(|t| t == c.name)).collect();
    let mut first_err = None;
    chunk.scan(|pos, _, tid| {
        if tid < 2 || !chunk.md.class_index(tid).is_some_and(|c| wanted[c]) {
            return;
        }
        match chunk.decode_event(pos) {
            Ok((name, v)) => f(&name, base + pos as u64, &v),
            Err(e) => {
                first_err.get_or_insert(e.in_chunk(index));
            }
        }
    })?;
    match first_err {
        Some(e) => Err(e),
        None => Ok(()),
    }
}
