//! `jfrscope export`: many recordings into one dataset of Parquet (or Arrow IPC) tables that
//! DuckDB, Spark, pandas or Polars read as they are (docs/fleet.md has the schema).
//!
//! ```text
//! FILE… ─ read chunk by chunk (main.rs) ─ decode one chunk ─ rows of each type ─┬ events/<type>/part-00000.parquet
//!                                                                               ├ stacks, frames, threads (new rows)
//!                                                                               └ recordings (one row per FILE)
//! ```
//! Memory holds one chunk's bytes and rows, the stack, frame and thread tables of the recording
//! being read (they grow with distinct stacks, not with events), and the Parquet row groups
//! being filled, flushed once together they pass [`BUFFER_BUDGET`]: never a whole file's rows.
//!
//! Ids are per recording: `thread`, `stack` and `frame` number rows within one recording, and
//! every table carries the `recording` column, part of each key.

use crate::{read_chunks, report_errors};
use arrow_array::builder::{BooleanBuilder, Float64Builder, Int32Builder, Int64Builder, StringBuilder, TimestampMicrosecondBuilder};
use arrow_array::{ArrayRef, RecordBatch};
use arrow_schema::{DataType, Field, Schema, SchemaRef, TimeUnit};
use jfrscope_parser::{Chunk, ChunkHeader, ColumnData, Options, Pass, Recording, TypeTable, Unit, STACK_LOST};
use parquet::arrow::ArrowWriter;
use parquet::basic::Compression;
use parquet::file::properties::WriterProperties;
use std::collections::BTreeMap;
use std::fs::File;
use std::io::BufWriter;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// The file format of the tables.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    /// Apache Parquet, Snappy-compressed, one row group per [`ROW_GROUP`] rows at most.
    Parquet,
    /// Arrow IPC files (Feather v2), one record batch per chunk and type.
    Arrow,
}

impl Format {
    /// From the `--format` argument.
    pub fn parse(s: &str) -> Result<Format, String> {
        match s {
            "parquet" => Ok(Format::Parquet),
            "arrow" => Ok(Format::Arrow),
            _ => Err(format!("--format must be parquet or arrow, not {s:?}")),
        }
    }

    fn ext(self) -> &'static str {
        match self {
            Format::Parquet => "parquet",
            Format::Arrow => "arrow",
        }
    }
}

/// Rows per Parquet row group at most.
const ROW_GROUP: usize = 1 << 20;
/// Bytes of Parquet row groups being filled, over every table, past which they are flushed.
const BUFFER_BUDGET: usize = 64 << 20;

/// One open table file.
enum Sink {
    Parquet(ArrowWriter<File>),
    Arrow(arrow_ipc::writer::FileWriter<BufWriter<File>>),
}

/// One part file of a table being written.
struct Table {
    dir: PathBuf,
    schema: SchemaRef,
    sink: Sink,
}

/// An event type's folder: a part file per distinct schema (a type whose fields differ
/// between two recordings, or two chunks, gets a part for each; rows go to the part of their
/// schema).
struct TypeSink {
    folder: String,
    parts: Vec<Table>,
}

impl Table {
    fn open(dir: PathBuf, schema: SchemaRef, part: usize, format: Format) -> Result<Table, String> {
        std::fs::create_dir_all(&dir).map_err(|e| format!("{}: {e}", dir.display()))?;
        let path = dir.join(format!("part-{part:05}.{}", format.ext()));
        let f = File::create(&path).map_err(|e| format!("{}: {e}", path.display()))?;
        let sink = match format {
            Format::Parquet => {
                let props = WriterProperties::builder()
                    .set_compression(Compression::SNAPPY)
                    .set_max_row_group_row_count(Some(ROW_GROUP))
                    .set_created_by(format!("jfrscope {}", env!("CARGO_PKG_VERSION")))
                    .build();
                Sink::Parquet(ArrowWriter::try_new(f, schema.clone(), Some(props)).map_err(|e| format!("{}: {e}", path.display()))?)
            }
            Format::Arrow => Sink::Arrow(
                arrow_ipc::writer::FileWriter::try_new_buffered(f, &schema).map_err(|e| format!("{}: {e}", path.display()))?,
            ),
        };
        Ok(Table { dir, schema, sink })
    }

    fn write(&mut self, batch: &RecordBatch) -> Result<(), String> {
        if batch.num_rows() == 0 {
            return Ok(());
        }
        let r = match &mut self.sink {
            Sink::Parquet(w) => w.write(batch).map_err(|e| e.to_string()),
            Sink::Arrow(w) => w.write(batch).map_err(|e| e.to_string()),
        };
        r.map_err(|e| format!("{}: {e}", self.dir.display()))
    }

    fn buffered(&self) -> usize {
        match &self.sink {
            Sink::Parquet(w) => w.in_progress_size(),
            Sink::Arrow(_) => 0,
        }
    }

    fn flush(&mut self) -> Result<(), String> {
        match &mut self.sink {
            Sink::Parquet(w) => w.flush().map_err(|e| format!("{}: {e}", self.dir.display())),
            Sink::Arrow(_) => Ok(()),
        }
    }

    fn close(self) -> Result<(), String> {
        let dir = self.dir.display().to_string();
        match self.sink {
            Sink::Parquet(w) => w.close().map(|_| ()).map_err(|e| format!("{dir}: {e}")),
            Sink::Arrow(mut w) => w.finish().map_err(|e| format!("{dir}: {e}")),
        }
    }
}

impl TypeSink {
    /// Write `batch` into the part of its schema, opening one for a schema not met before.
    fn write(&mut self, batch: &RecordBatch, root: &Path, format: Format) -> Result<(), String> {
        let schema = batch.schema();
        let i = match self.parts.iter().position(|p| p.schema == schema) {
            Some(i) => i,
            None => {
                let dir = root.join("events").join(&self.folder);
                self.parts.push(Table::open(dir, schema, self.parts.len(), format)?);
                self.parts.len() - 1
            }
        };
        self.parts[i].write(batch)
    }
}

fn ts_type() -> DataType {
    DataType::Timestamp(TimeUnit::Microsecond, Some("UTC".into()))
}

fn schema(fields: Vec<Field>) -> SchemaRef {
    Arc::new(Schema::new(fields))
}

fn threads_schema() -> SchemaRef {
    schema(vec![
        Field::new("recording", DataType::Int32, false),
        Field::new("thread", DataType::Int32, false),
        Field::new("name", DataType::Utf8, false),
        Field::new("os_id", DataType::Int64, true),
        Field::new("java_id", DataType::Int64, true),
    ])
}

fn frames_schema() -> SchemaRef {
    schema(vec![
        Field::new("recording", DataType::Int32, false),
        Field::new("frame", DataType::Int32, false),
        Field::new("name", DataType::Utf8, false),
        Field::new("class", DataType::Utf8, false),
        Field::new("line", DataType::Int32, true),
        Field::new("bci", DataType::Int32, true),
        Field::new("kind", DataType::Utf8, false),
    ])
}

fn stacks_schema() -> SchemaRef {
    schema(vec![
        Field::new("recording", DataType::Int32, false),
        Field::new("stack", DataType::Int32, false),
        Field::new("frame", DataType::Int32, false),
        Field::new("prefix", DataType::Int32, true),
        Field::new("depth", DataType::Int32, false),
    ])
}

fn types_schema() -> SchemaRef {
    schema(vec![
        Field::new("recording", DataType::Int32, false),
        Field::new("type", DataType::Utf8, false),
        Field::new("label", DataType::Utf8, false),
        Field::new("folder", DataType::Utf8, true),
        Field::new("has_stack", DataType::Boolean, false),
        Field::new("events", DataType::Int64, false),
        Field::new("rows", DataType::Int64, false),
    ])
}

fn recordings_schema() -> SchemaRef {
    schema(vec![
        Field::new("recording", DataType::Int32, false),
        Field::new("path", DataType::Utf8, false),
        Field::new("size", DataType::Int64, false),
        Field::new("start", ts_type(), true),
        Field::new("start_ns", DataType::Int64, true),
        Field::new("duration_ns", DataType::Int64, true),
        Field::new("chunks", DataType::Int32, false),
        Field::new("jvm_name", DataType::Utf8, true),
        Field::new("jvm_version", DataType::Utf8, true),
        Field::new("jvm_args", DataType::Utf8, true),
        Field::new("os", DataType::Utf8, true),
        Field::new("events", DataType::Int64, false),
        Field::new("rows", DataType::Int64, false),
        Field::new("errors", DataType::Utf8, true),
    ])
}

/// The columns every event table starts with; the type's own fields follow.
fn event_fields() -> Vec<Field> {
    vec![
        Field::new("recording", DataType::Int32, false),
        Field::new("chunk", DataType::Int32, false),
        Field::new("offset", DataType::Int64, false),
        Field::new("start", ts_type(), false),
        Field::new("start_ns", DataType::Int64, false),
        Field::new("duration_ns", DataType::Int64, false),
        Field::new("thread", DataType::Int32, true),
        Field::new("stack", DataType::Int32, true),
        Field::new("stack_lost", DataType::Boolean, false),
    ]
}

/// Frame kinds by number (docs/columns.md), as the JDK's `jdk.types.FrameType` says them.
const FRAME_KINDS: [&str; 7] = ["Interpreted", "JIT compiled", "Inlined", "Native", "C++", "Kernel", "Unknown"];

/// A folder name for event type `name`: letters, digits and `.-$` kept, anything else `_`, never
/// starting with `.` or `_` (Spark skips such files).
fn folder_name(name: &str) -> String {
    let mut s: String = name.chars().map(|c| if c.is_ascii_alphanumeric() || ".-$".contains(c) { c } else { '_' }).collect();
    if s.is_empty() || s.starts_with(['.', '_']) {
        s.insert(0, 't');
    }
    s
}

/// How many rows of each table of one recording are written already.
#[derive(Default)]
struct Written {
    threads: usize,
    frames: usize,
    stacks: usize,
    depth: Vec<i32>,
}

/// What one recording gave.
pub struct Outcome {
    /// Errors met (the recording's own, then any I/O error that ended the read).
    pub errors: Vec<String>,
    /// Event rows written.
    pub rows: u64,
    /// Events counted in the chunks read.
    pub counted: u64,
    /// Rows whose stack was lost (a chunk cut before its constant pools).
    pub stacks_lost: u64,
    /// Per type, (counted, written), where they differ.
    pub short: Vec<(String, u64, u64)>,
    /// Per type, rows whose fields could not be read (null but for the standard columns).
    pub unread: Vec<(String, u64)>,
}

/// The dataset being written.
pub struct Exporter {
    dir: PathBuf,
    format: Format,
    events: BTreeMap<String, TypeSink>,
    /// Folder names taken by event types.
    folders: std::collections::BTreeSet<String>,
    threads: Table,
    frames: Table,
    stacks: Table,
    recordings: Table,
    types: Table,
    next_recording: i32,
}

impl Exporter {
    /// Start a dataset in `dir`, which must be empty or absent.
    pub fn create(dir: &Path, format: Format) -> Result<Exporter, String> {
        if dir.exists() {
            let mut entries = std::fs::read_dir(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
            if entries.next().is_some() {
                return Err(format!("{}: not empty; export writes a new dataset into an empty or new folder", dir.display()));
            }
        }
        std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
        let t = |name: &str, s: SchemaRef| Table::open(dir.join(name), s, 0, format);
        Ok(Exporter {
            dir: dir.to_path_buf(),
            format,
            events: BTreeMap::new(),
            folders: Default::default(),
            threads: t("threads", threads_schema())?,
            frames: t("frames", frames_schema())?,
            stacks: t("stacks", stacks_schema())?,
            recordings: t("recordings", recordings_schema())?,
            types: t("types", types_schema())?,
            next_recording: 0,
        })
    }

    /// Export every event of the recording at `path`, read chunk by chunk. Errors writing the
    /// dataset end it (`Err`); damage in the recording is told in the outcome, and what could
    /// be read is written.
    pub fn add(&mut self, path: &str) -> Result<Outcome, String> {
        let id = self.next_recording;
        self.next_recording += 1;
        let size = std::fs::metadata(path).map_err(|e| format!("{path}: {e}"))?.len();
        let mut rec = Recording::default();
        let mut written = Written::default();
        let mut failure: Option<String> = None;
        let mut rows = 0u64;
        let mut per_type: BTreeMap<String, u64> = BTreeMap::new();
        let mut lost = 0u64;
        let mut unread: BTreeMap<String, u64> = BTreeMap::new();
        let io = read_chunks(path, &mut rec, |bytes, header, index, rec| {
            if failure.is_some() {
                return;
            }
            decode_all(bytes, header.clone(), index, rec);
            let chunk = Chunk::from_bytes(bytes, header, index).ok();
            let r = self.write_chunk(id, rec, chunk.as_ref(), &mut written, &mut per_type, &mut unread).and_then(|n| {
                rows += n;
                lost += rec.events.stack.iter().filter(|&&s| s == STACK_LOST).count() as u64;
                rec.events.clear();
                self.keep_budget()
            });
            if let Err(e) = r {
                failure = Some(e);
            }
        });
        if let Some(e) = failure {
            return Err(e);
        }
        let mut errors: Vec<String> = rec.errors.iter().map(|e| e.to_string()).collect();
        if let Err(e) = &io {
            errors.push(e.to_string());
        }
        let counted = rec.types.iter().map(|t| t.count).sum::<u64>();
        let short = rec
            .types
            .iter()
            .filter_map(|t| {
                let w = per_type.get(&t.name).copied().unwrap_or(0);
                (w != t.count).then(|| (t.name.clone(), t.count, w))
            })
            .collect();
        self.write_recording(id, path, size, &rec, counted, rows, &errors)?;
        self.write_types(id, &rec, &per_type)?;
        report_errors(path, &rec);
        if let Err(e) = io {
            eprintln!("jfrscope: {path}: {e}");
        }
        Ok(Outcome { errors, rows, counted, stacks_lost: lost, short, unread: unread.into_iter().collect() })
    }

    /// Close every table (writing the Parquet footers). Returns the number of event tables.
    pub fn finish(self) -> Result<usize, String> {
        let n = self.events.len();
        for t in self.events.into_values().flat_map(|s| s.parts) {
            t.close()?;
        }
        self.threads.close()?;
        self.frames.close()?;
        self.stacks.close()?;
        self.recordings.close()?;
        self.types.close()?;
        Ok(n)
    }

    /// Write the chunk's event rows by type, each with the fields of its type's table (made
    /// one type at a time, so that one type's table is in memory at once), then the threads,
    /// frames and stacks the chunk added; returns the number of event rows.
    fn write_chunk(
        &mut self,
        id: i32,
        rec: &mut Recording,
        chunk: Option<&Chunk<'_>>,
        w: &mut Written,
        per_type: &mut BTreeMap<String, u64>,
        unread: &mut BTreeMap<String, u64>,
    ) -> Result<u64, String> {
        let origin = rec.start_nanos();
        let mut n = 0;
        for (t, rows) in rows_by_type(rec).iter().enumerate().filter(|(_, r)| !r.is_empty()) {
            let name = rec.types[t].name.clone();
            // The parser's type table: threads and stacks resolve to rows of `rec`.
            let table = chunk.map(|c| {
                let mut table = TypeTable::new(&name, origin);
                table.add_chunk(c, rec);
                table
            });
            let (batch, missing) = event_batch(id, rec, rows, table.as_ref())?;
            drop(table);
            if missing > 0 {
                *unread.entry(name.clone()).or_default() += missing;
            }
            let (dir, format) = (self.dir.clone(), self.format);
            self.sink_for(&name).write(&batch, &dir, format)?;
            *per_type.entry(name).or_default() += rows.len() as u64;
            n += rows.len() as u64;
            self.keep_budget()?;
        }
        self.threads.write(&threads_batch(id, rec, w.threads)?)?;
        w.threads = rec.threads.len();
        self.frames.write(&frames_batch(id, rec, w.frames)?)?;
        w.frames = rec.frames.len();
        self.stacks.write(&stacks_batch(id, rec, w)?)?;
        w.stacks = rec.stacks.len();
        Ok(n)
    }

    /// The folder of type `name`, made on first use.
    fn sink_for(&mut self, name: &str) -> &mut TypeSink {
        if !self.events.contains_key(name) {
            let folder = self.folder_for(name);
            self.events.insert(name.to_string(), TypeSink { folder, parts: Vec::new() });
        }
        self.events.get_mut(name).expect("inserted above")
    }

    /// A folder for type `name` no other type has.
    fn folder_for(&mut self, name: &str) -> String {
        let base = folder_name(name);
        let mut folder = base.clone();
        let mut k = 2;
        while self.folders.contains(&folder) {
            folder = format!("{base}~{k}");
            k += 1;
        }
        self.folders.insert(folder.clone());
        folder
    }

    /// Flush the fullest row groups while those being filled hold more than the budget.
    fn keep_budget(&mut self) -> Result<(), String> {
        let mut tables: Vec<&mut Table> =
            self.events.values_mut().flat_map(|s| s.parts.iter_mut()).chain([&mut self.threads, &mut self.frames, &mut self.stacks]).collect();
        let mut total: usize = tables.iter().map(|t| t.buffered()).sum();
        if total <= BUFFER_BUDGET {
            return Ok(());
        }
        tables.sort_by_key(|t| std::cmp::Reverse(t.buffered()));
        for t in tables {
            if total <= BUFFER_BUDGET / 2 {
                break;
            }
            total -= t.buffered();
            t.flush()?;
        }
        Ok(())
    }

    fn write_types(&mut self, id: i32, rec: &Recording, per_type: &BTreeMap<String, u64>) -> Result<(), String> {
        let types: Vec<_> = rec.types.iter().filter(|t| t.count > 0 || per_type.contains_key(&t.name)).collect();
        let n = types.len();
        let (mut name, mut label, mut folder) = (StringBuilder::new(), StringBuilder::new(), StringBuilder::new());
        let (mut stack, mut events, mut rows) = (BooleanBuilder::with_capacity(n), Int64Builder::with_capacity(n), Int64Builder::with_capacity(n));
        for t in types {
            name.append_value(&t.name);
            label.append_value(&t.label);
            folder.append_option(self.events.get(&t.name).map(|x| format!("events/{}", x.folder)));
            stack.append_value(t.has_stack);
            events.append_value(t.count as i64);
            rows.append_value(per_type.get(&t.name).copied().unwrap_or(0) as i64);
        }
        let cols: Vec<ArrayRef> = vec![
            Arc::new(arrow_array::Int32Array::from(vec![id; n])),
            Arc::new(name.finish()),
            Arc::new(label.finish()),
            Arc::new(folder.finish()),
            Arc::new(stack.finish()),
            Arc::new(events.finish()),
            Arc::new(rows.finish()),
        ];
        self.types.write(&batch(types_schema(), cols)?)
    }

    #[allow(clippy::too_many_arguments)]
    fn write_recording(&mut self, id: i32, path: &str, size: u64, rec: &Recording, counted: u64, rows: u64, errors: &[String]) -> Result<(), String> {
        let has_chunks = !rec.chunks.is_empty();
        let start = has_chunks.then(|| rec.start_nanos());
        let jvm = rec.info.jvm.as_ref();
        let cols: Vec<ArrayRef> = vec![
            Arc::new(arrow_array::Int32Array::from(vec![id])),
            Arc::new(arrow_array::StringArray::from(vec![path])),
            Arc::new(arrow_array::Int64Array::from(vec![size as i64])),
            Arc::new(arrow_array::TimestampMicrosecondArray::from(vec![start.map(|s| s.div_euclid(1000))]).with_timezone("UTC")),
            Arc::new(arrow_array::Int64Array::from(vec![start])),
            Arc::new(arrow_array::Int64Array::from(vec![has_chunks.then(|| rec.end_nanos() - rec.start_nanos())])),
            Arc::new(arrow_array::Int32Array::from(vec![rec.chunks.len() as i32])),
            Arc::new(arrow_array::StringArray::from(vec![jvm.map(|j| j.name.as_str())])),
            Arc::new(arrow_array::StringArray::from(vec![jvm.map(|j| j.version.as_str())])),
            Arc::new(arrow_array::StringArray::from(vec![jvm.map(|j| j.args.as_str())])),
            Arc::new(arrow_array::StringArray::from(vec![rec.info.os.as_deref()])),
            Arc::new(arrow_array::Int64Array::from(vec![counted as i64])),
            Arc::new(arrow_array::Int64Array::from(vec![rows as i64])),
            Arc::new(arrow_array::StringArray::from(vec![(!errors.is_empty()).then(|| errors.join("\n"))])),
        ];
        let b = RecordBatch::try_new(recordings_schema(), cols).map_err(|e| e.to_string())?;
        self.recordings.write(&b)
    }
}

/// Decode every event type of the chunk into rows (the parser's default leaves out types of
/// no known kind without a stack trace).
fn decode_all(bytes: &[u8], header: ChunkHeader, index: usize, rec: &mut Recording) {
    let names: Vec<String> = match Chunk::from_bytes(bytes, header.clone(), index) {
        Ok(c) => c.md.classes.iter().filter(|c| c.is_event()).map(|c| c.name.clone()).collect(),
        Err(_) => Vec::new(),
    };
    jfrscope_parser::parse_chunk_bytes(bytes, header, index, &Options { only: Some(names), pass: Pass::Full }, rec);
}

/// Row numbers of the recording's events, by type row.
fn rows_by_type(rec: &Recording) -> Vec<Vec<u32>> {
    let mut by_type: Vec<Vec<u32>> = vec![Vec::new(); rec.types.len()];
    for (i, &t) in rec.events.ty.iter().enumerate() {
        if let Some(v) = by_type.get_mut(t as usize) {
            v.push(i as u32);
        }
    }
    by_type
}

fn batch(s: SchemaRef, cols: Vec<ArrayRef>) -> Result<RecordBatch, String> {
    RecordBatch::try_new(s, cols).map_err(|e| e.to_string())
}

fn opt_id(v: i64) -> Option<i64> {
    (v != i64::MIN).then_some(v)
}

fn threads_batch(id: i32, rec: &Recording, from: usize) -> Result<RecordBatch, String> {
    let t = &rec.threads;
    let n = t.len().saturating_sub(from);
    let mut name = StringBuilder::new();
    let (mut os, mut java) = (Int64Builder::with_capacity(n), Int64Builder::with_capacity(n));
    for i in from..t.len() {
        name.append_value(rec.strings.get(t.name[i] as i32));
        os.append_option(opt_id(t.os_id[i]));
        java.append_option(opt_id(t.java_id[i]));
    }
    batch(
        threads_schema(),
        vec![
            Arc::new(arrow_array::Int32Array::from(vec![id; n])),
            Arc::new(arrow_array::Int32Array::from_iter_values(from as i32..t.len() as i32)),
            Arc::new(name.finish()),
            Arc::new(os.finish()),
            Arc::new(java.finish()),
        ],
    )
}

fn frames_batch(id: i32, rec: &Recording, from: usize) -> Result<RecordBatch, String> {
    let f = &rec.frames;
    let n = f.len().saturating_sub(from);
    let (mut name, mut cls, mut kind) = (StringBuilder::new(), StringBuilder::new(), StringBuilder::new());
    let (mut line, mut bci) = (Int32Builder::with_capacity(n), Int32Builder::with_capacity(n));
    for i in from..f.len() {
        name.append_value(rec.strings.get(f.name[i] as i32));
        cls.append_value(rec.strings.get(f.cls[i] as i32));
        line.append_option((f.line[i] >= 0).then_some(f.line[i]));
        bci.append_option((f.bci[i] >= 0).then_some(f.bci[i]));
        kind.append_value(FRAME_KINDS.get(f.kind[i] as usize).copied().unwrap_or("Unknown"));
    }
    batch(
        frames_schema(),
        vec![
            Arc::new(arrow_array::Int32Array::from(vec![id; n])),
            Arc::new(arrow_array::Int32Array::from_iter_values(from as i32..f.len() as i32)),
            Arc::new(name.finish()),
            Arc::new(cls.finish()),
            Arc::new(line.finish()),
            Arc::new(bci.finish()),
            Arc::new(kind.finish()),
        ],
    )
}

fn stacks_batch(id: i32, rec: &Recording, w: &mut Written) -> Result<RecordBatch, String> {
    let s = &rec.stacks;
    let n = s.len().saturating_sub(w.stacks);
    let mut prefix = Int32Builder::with_capacity(n);
    for i in w.stacks..s.len() {
        let p = s.prefix[i];
        // A prefix is always an earlier row, so its depth is known.
        let d = if p >= 0 { w.depth.get(p as usize).copied().unwrap_or(0) + 1 } else { 1 };
        w.depth.push(d);
        prefix.append_option((p >= 0).then_some(p));
    }
    batch(
        stacks_schema(),
        vec![
            Arc::new(arrow_array::Int32Array::from(vec![id; n])),
            Arc::new(arrow_array::Int32Array::from_iter_values(w.stacks as i32..s.len() as i32)),
            Arc::new(arrow_array::Int32Array::from_iter_values(s.frame[w.stacks..].iter().map(|&f| f as i32))),
            Arc::new(prefix.finish()),
            Arc::new(arrow_array::Int32Array::from(w.depth[w.stacks..].to_vec())),
        ],
    )
}

/// The columns of the type tables that the standard columns already hold: `startTime` is
/// `start_ns`, `duration` is `duration_ns`, `offset` is `offset`, the `stackTrace` row is `stack`.
const SAME_AS_STANDARD: [&str; 4] = ["startTime", "duration", "offset", "stackTrace"];

/// The rows `rows` of the recording's events (all of one type): the standard columns, then
/// every field from the type's table, matched by offset. Returns the batch and how many rows
/// found no row of the table (their fields are null).
fn event_batch(id: i32, rec: &Recording, rows: &[u32], table: Option<&TypeTable>) -> Result<(RecordBatch, u64), String> {
    let e = &rec.events;
    let n = rows.len();
    let mut start = TimestampMicrosecondBuilder::with_capacity(n).with_timezone("UTC");
    let (mut thread, mut stack) = (Int32Builder::with_capacity(n), Int32Builder::with_capacity(n));
    let mut lost = BooleanBuilder::with_capacity(n);
    for &i in rows {
        let i = i as usize;
        start.append_value(e.start_ns[i].div_euclid(1000));
        thread.append_option((e.thread[i] >= 0).then_some(e.thread[i]));
        stack.append_option((e.stack[i] >= 0).then_some(e.stack[i]));
        lost.append_value(e.stack[i] == STACK_LOST);
    }
    let col64 = |v: &[i64]| -> ArrayRef { Arc::new(arrow_array::Int64Array::from_iter_values(rows.iter().map(|&i| v[i as usize]))) };
    let mut fields = event_fields();
    let mut cols: Vec<ArrayRef> = vec![
        Arc::new(arrow_array::Int32Array::from(vec![id; n])),
        Arc::new(arrow_array::Int32Array::from_iter_values(rows.iter().map(|&i| e.chunk[i as usize] as i32))),
        Arc::new(arrow_array::Int64Array::from_iter_values(rows.iter().map(|&i| e.offset[i as usize] as i64))),
        Arc::new(start.finish()),
        col64(&e.start_ns),
        col64(&e.duration_ns),
        Arc::new(thread.finish()),
        Arc::new(stack.finish()),
        Arc::new(lost.finish()),
    ];
    let mut missing = 0;
    if let Some(t) = table {
        // Both are in file order: walk the table's offsets beside the rows'.
        let mut at: Vec<Option<usize>> = Vec::with_capacity(n);
        if let Some(off) = t.column("offset") {
            let mut j = 0;
            for &i in rows {
                let want = e.offset[i as usize] as i64;
                while j < t.rows && off.int(j).is_some_and(|o| o < want) {
                    j += 1;
                }
                at.push((j < t.rows && off.int(j) == Some(want)).then_some(j));
            }
        }
        at.resize(n, None);
        missing = at.iter().filter(|x| x.is_none()).count() as u64;
        let standard: Vec<String> = fields.iter().map(|f| f.name().clone()).collect();
        for c in &t.columns {
            let same = match c.name.as_str() {
                "stackTrace" => matches!(c.data, ColumnData::Int(_)),
                name => SAME_AS_STANDARD.contains(&name),
            };
            if same {
                continue;
            }
            // A field named as a standard column moves aside with its dotted leaves:
            // jdk.ThreadStart's `thread`, `thread.javaThreadId` → `field.thread`, `field.thread.javaThreadId`.
            let head = c.name.split('.').next().unwrap_or("");
            let name = if standard.iter().any(|s| s == head) { format!("field.{}", c.name) } else { c.name.clone() };
            let ok = |r: &Option<usize>| r.filter(|&r| c.valid.get(r) == Some(&true));
            let (ty, array): (DataType, ArrayRef) = match &c.data {
                ColumnData::Int(v) => {
                    let mut b = Int64Builder::with_capacity(n);
                    at.iter().for_each(|r| b.append_option(ok(r).and_then(|r| v.get(r).copied())));
                    (DataType::Int64, Arc::new(b.finish()))
                }
                ColumnData::Float(v) => {
                    let mut b = Float64Builder::with_capacity(n);
                    at.iter().for_each(|r| b.append_option(ok(r).and_then(|r| v.get(r).copied())));
                    (DataType::Float64, Arc::new(b.finish()))
                }
                ColumnData::Bool(v) => {
                    let mut b = BooleanBuilder::with_capacity(n);
                    at.iter().for_each(|r| b.append_option(ok(r).and_then(|r| v.get(r).copied())));
                    (DataType::Boolean, Arc::new(b.finish()))
                }
                ColumnData::Str(v) => {
                    let mut b = StringBuilder::new();
                    at.iter().for_each(|r| b.append_option(ok(r).and_then(|r| v.get(r)).map(|&s| t.strings.get(s as i32))));
                    (DataType::Utf8, Arc::new(b.finish()))
                }
            };
            let mut f = Field::new(name, ty, true);
            if c.unit != Unit::None {
                f = f.with_metadata(std::collections::HashMap::from([("unit".to_string(), c.unit.as_str().to_string())]));
            }
            fields.push(f);
            cols.push(array);
        }
    }
    Ok((batch(schema(fields), cols)?, missing))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn folder_names_stay_inside_the_dataset_and_visible_to_spark() {
        assert_eq!(folder_name("jdk.ExecutionSample"), "jdk.ExecutionSample");
        assert_eq!(folder_name("../../etc/passwd"), "t.._.._etc_passwd");
        assert_eq!(folder_name("_hidden"), "t_hidden");
        assert_eq!(folder_name(""), "t");
        assert_eq!(folder_name("a/b\\c d\u{1b}"), "a_b_c_d_");
    }
}
