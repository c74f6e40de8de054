//! One event type as a table: every event of a named type, one column per leaf field, each
//! constant-pool reference resolved the way a person reads it (docs/columns.md, "Type
//! tables").
//!
//! ```text
//! jdk.GCHeapSummary event:  startTime 8812345678  gcId 3  when → GCWhen #1 {when "After GC"}
//!                           heapSpace {start 0x7000…, committedEnd …, committedSize 268435456 …}
//!                           heapUsed 12345678
//! row:  startTime 1700000000431250000 (ns since the epoch)  offset 18234  gcId 3
//!       when "After GC"  heapSpace.start 0x7000…  heapSpace.committedSize 268435456 (bytes) …
//!       heapUsed 12345678 (bytes)
//! ```
//! Field by field, in the order the chunk's metadata declares them:
//! - a primitive is one column: integers as `i64`, `float`/`double` as `f64`, booleans, and
//!   strings and chars as text. Times become ns since the epoch, spans ns (JFR's "N/A" and
//!   "infinite" spans, `Long.MIN_VALUE` and `Long.MAX_VALUE`, become null);
//! - an inline struct, or a reference to a pool type that has several fields, becomes one
//!   column per leaf, named by its dotted path (`heapSpace.committedSize`); a pool type with one
//!   field (`GCWhen`, `ThreadState`, `Symbol`…) reads as that field, under the field's own name;
//! - the pool types a person knows by a name read as that name, as the side panel's fields
//!   show them (display.rs): a class or package as its dotted name, a method as
//!   `Class.method`, a frame as `Class.method line: N`, a class loader or module by its name;
//! - a thread (at any depth) is three columns: `X` (its Java name, else its OS name),
//!   `X.javaThreadId`, `X.osThreadId`. The thread is a row of the recording's threads too;
//! - a stack trace is two columns: `X`, the row of the recording's stack prefix tree
//!   (joinable with its stacks table; null when the event has none or the file is cut before
//!   the chunk's stacks), and `X.topFrame`, the leaf frame as text;
//! - an array is one text column: its elements as the side panel shows them, joined by ", ".
//!
//! Every table starts with `startTime`, `duration`, `eventThread` (or `sampledThread`) and
//! `stackTrace` (each when the type has it), then `offset` (the absolute byte offset of the event
//! in the file: the same number as the events table's `offset` for the same event; a field
//! of the event called `offset` is the column `field.offset`). Chunks may
//! declare a type differently: columns are united by name, a row without a column's field
//! holds null there, and a column whose values disagree in kind becomes the wider kind (an
//! integer column that meets a float becomes float; any other mix becomes text).

use crate::chunk::{Chunk, ABSENT};
use crate::columns::{Strings, STACK_LOST};
use crate::display::{Shown, COMPACT, MAX_HOPS, MAX_NEST};
use crate::error::{Error, ErrorKind, Result};
use crate::header::ChunkHeader;
use crate::metadata::{FieldDesc, FieldUnit, Prim};
use crate::reader::{RawStr, Reader};
use crate::resolve::{Cached, Resolver};
use crate::ticks::Ticks;
use crate::value::Value;
use crate::Recording;
use rustc_hash::FxHashMap;

/// Columns a table may grow to: a metadata that nests structs in structs could otherwise ask
/// for one column per path through a tree of any size.
pub const MAX_COLUMNS: usize = 2048;
/// Array elements written into an array's text; the rest are counted.
pub const MAX_ARRAY_SHOWN: usize = 64;
/// Errors kept per chunk.
const MAX_ERRORS: usize = 32;

/// What a column's numbers measure, from the field's annotations.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Unit {
    /// A plain number, text or boolean.
    #[default]
    None,
    /// A point in time: ns since the Unix epoch.
    EpochNanos,
    /// A span of time in ns.
    Nanos,
    /// A memory address.
    Address,
    /// An amount of memory in bytes.
    Bytes,
    /// An amount of data in bits.
    Bits,
    /// A fraction, 1 being 100 %.
    Percentage,
    /// Events per second.
    Hertz,
}

impl Unit {
    /// The unit's name in docs/columns.md: `""`, `epoch-ns`, `ns`, `address`, `bytes`, `bits`,
    /// `percentage`, `hz`.
    pub fn as_str(self) -> &'static str {
        match self {
            Unit::None => "",
            Unit::EpochNanos => "epoch-ns",
            Unit::Nanos => "ns",
            Unit::Address => "address",
            Unit::Bytes => "bytes",
            Unit::Bits => "bits",
            Unit::Percentage => "percentage",
            Unit::Hertz => "hz",
        }
    }

    fn of(u: FieldUnit) -> Unit {
        match u {
            FieldUnit::Plain => Unit::None,
            FieldUnit::TimestampTicks | FieldUnit::TimestampMillis | FieldUnit::TimestampNanos => Unit::EpochNanos,
            FieldUnit::SpanTicks | FieldUnit::SpanNanos | FieldUnit::SpanMicros | FieldUnit::SpanMillis | FieldUnit::SpanSeconds => {
                Unit::Nanos
            }
            FieldUnit::Address => Unit::Address,
            FieldUnit::Bytes => Unit::Bytes,
            FieldUnit::Bits => Unit::Bits,
            FieldUnit::Percentage => Unit::Percentage,
            FieldUnit::Hertz => Unit::Hertz,
        }
    }
}

/// What a column holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ColumnKind {
    /// 64-bit integers.
    Int,
    /// 64-bit floats.
    Float,
    /// Booleans.
    Bool,
    /// Text: indices into the table's strings.
    Str,
}

impl ColumnKind {
    /// `int`, `float`, `bool` or `string`.
    pub fn as_str(self) -> &'static str {
        match self {
            ColumnKind::Int => "int",
            ColumnKind::Float => "float",
            ColumnKind::Bool => "bool",
            ColumnKind::Str => "string",
        }
    }
}

/// A column's values. A null row holds 0 (0.0, false, the empty string) here and `false` in
/// [`Column::valid`].
#[derive(Debug, Clone, PartialEq)]
pub enum ColumnData {
    /// Integers.
    Int(Vec<i64>),
    /// Floats.
    Float(Vec<f64>),
    /// Booleans.
    Bool(Vec<bool>),
    /// Indices into [`TypeTable::strings`].
    Str(Vec<u32>),
}

/// One column of a [`TypeTable`].
#[derive(Debug, Clone, PartialEq)]
pub struct Column {
    /// The field's dotted path (`heapSpace.committedSize`).
    pub name: String,
    /// What its numbers measure.
    pub unit: Unit,
    /// The values, one per row.
    pub data: ColumnData,
    /// Whether each row has a value (false: null).
    pub valid: Vec<bool>,
}

/// One cell, before it joins its column.
#[derive(Debug, Clone, Copy)]
enum Cell {
    Int(i64),
    Float(f64),
    Bool(bool),
    Str(u32),
}

impl Column {
    fn new(name: String, kind: ColumnKind, unit: Unit) -> Column {
        let data = match kind {
            ColumnKind::Int => ColumnData::Int(Vec::new()),
            ColumnKind::Float => ColumnData::Float(Vec::new()),
            ColumnKind::Bool => ColumnData::Bool(Vec::new()),
            ColumnKind::Str => ColumnData::Str(Vec::new()),
        };
        Column { name, unit, data, valid: Vec::new() }
    }

    /// What the column holds.
    pub fn kind(&self) -> ColumnKind {
        match self.data {
            ColumnData::Int(_) => ColumnKind::Int,
            ColumnData::Float(_) => ColumnKind::Float,
            ColumnData::Bool(_) => ColumnKind::Bool,
            ColumnData::Str(_) => ColumnKind::Str,
        }
    }

    /// Number of rows.
    pub fn len(&self) -> usize {
        self.valid.len()
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.valid.is_empty()
    }

    /// Integer at `row`, `None` when null or not an integer column.
    pub fn int(&self, row: usize) -> Option<i64> {
        match &self.data {
            ColumnData::Int(v) if self.valid.get(row) == Some(&true) => v.get(row).copied(),
            _ => None,
        }
    }

    /// Number at `row` (integer or float column), `None` when null.
    pub fn number(&self, row: usize) -> Option<f64> {
        if self.valid.get(row) != Some(&true) {
            return None;
        }
        match &self.data {
            ColumnData::Int(v) => v.get(row).map(|&x| x as f64),
            ColumnData::Float(v) => v.get(row).copied(),
            _ => None,
        }
    }

    fn resize(&mut self, n: usize) {
        self.valid.resize(n, false);
        match &mut self.data {
            ColumnData::Int(v) => v.resize(n, 0),
            ColumnData::Float(v) => v.resize(n, 0.0),
            ColumnData::Bool(v) => v.resize(n, false),
            ColumnData::Str(v) => v.resize(n, 0),
        }
    }

    fn push(&mut self, c: Cell) {
        self.valid.push(true);
        match (&mut self.data, c) {
            (ColumnData::Int(v), Cell::Int(x)) => v.push(x),
            (ColumnData::Float(v), Cell::Float(x)) => v.push(x),
            (ColumnData::Bool(v), Cell::Bool(x)) => v.push(x),
            (ColumnData::Str(v), Cell::Str(x)) => v.push(x),
            // Kinds are made to agree before a push (TypeTable::set); a mismatch would be a bug,
            // kept as a null rather than a panic.
            (d, _) => {
                self.valid.pop();
                self.valid.push(false);
                match d {
                    ColumnData::Int(v) => v.push(0),
                    ColumnData::Float(v) => v.push(0.0),
                    ColumnData::Bool(v) => v.push(false),
                    ColumnData::Str(v) => v.push(0),
                }
            }
        }
    }

    /// Widen the column so that it can hold `c`, and `c` so that it fits the column.
    fn unify(&mut self, c: Cell, strings: &mut Strings) -> Cell {
        match (&mut self.data, c) {
            (ColumnData::Int(_), Cell::Int(_))
            | (ColumnData::Float(_), Cell::Float(_))
            | (ColumnData::Bool(_), Cell::Bool(_))
            | (ColumnData::Str(_), Cell::Str(_)) => c,
            (ColumnData::Float(_), Cell::Int(x)) => Cell::Float(x as f64),
            (ColumnData::Int(v), Cell::Float(_)) => {
                self.data = ColumnData::Float(v.iter().map(|&x| x as f64).collect());
                c
            }
            (data, c) => {
                let texts: Vec<u32> = match data {
                    ColumnData::Int(v) => v.iter().map(|x| strings.intern(&x.to_string())).collect(),
                    ColumnData::Float(v) => v.iter().map(|x| strings.intern(&x.to_string())).collect(),
                    ColumnData::Bool(v) => v.iter().map(|x| strings.intern(&x.to_string())).collect(),
                    ColumnData::Str(v) => std::mem::take(v),
                };
                self.data = ColumnData::Str(texts);
                match c {
                    Cell::Int(x) => Cell::Str(strings.intern(&x.to_string())),
                    Cell::Float(x) => Cell::Str(strings.intern(&x.to_string())),
                    Cell::Bool(x) => Cell::Str(strings.intern(&x.to_string())),
                    Cell::Str(_) => c,
                }
            }
        }
    }
}

/// Every event of one type, as columns (see the module notes).
#[derive(Debug, Clone)]
pub struct TypeTable {
    /// The event type's name (`jdk.GCHeapSummary`).
    pub type_name: String,
    /// Rows decoded.
    pub rows: usize,
    /// The columns, each `rows` long.
    pub columns: Vec<Column>,
    /// The text of the string columns.
    pub strings: Strings,
    /// Errors met, in file order: an event that cannot be read is left out and named here;
    /// a damaged event list stops its chunk here.
    pub errors: Vec<Error>,
    /// ns since the epoch that times inside arrays are shown relative to (the recording's
    /// start), as the side panel shows them.
    pub origin_nanos: i64,
    index: FxHashMap<String, usize>,
    too_many: bool,
}

impl TypeTable {
    /// An empty table for type `type_name`; times inside arrays read relative to
    /// `origin_nanos`.
    pub fn new(type_name: &str, origin_nanos: i64) -> TypeTable {
        TypeTable {
            type_name: type_name.to_string(),
            rows: 0,
            columns: Vec::new(),
            strings: Strings::default(),
            errors: Vec::new(),
            origin_nanos,
            index: FxHashMap::default(),
            too_many: false,
        }
    }

    /// The column called `name`.
    pub fn column(&self, name: &str) -> Option<&Column> {
        self.index.get(name).and_then(|&i| self.columns.get(i))
    }

    /// The text at `row` of string column `name`, `None` when null.
    pub fn text(&self, name: &str, row: usize) -> Option<&str> {
        let c = self.column(name)?;
        match &c.data {
            ColumnData::Str(v) if c.valid.get(row) == Some(&true) => v.get(row).map(|&i| self.strings.get(i as i32)),
            _ => None,
        }
    }

    /// The index of column `name`, added (null in every row so far) if new; `None` past
    /// [`MAX_COLUMNS`].
    fn column_index(&mut self, name: &str, kind: ColumnKind, unit: Unit) -> Option<usize> {
        if let Some(&i) = self.index.get(name) {
            return Some(i);
        }
        if self.columns.len() >= MAX_COLUMNS {
            self.too_many = true;
            return None;
        }
        let i = self.columns.len();
        self.columns.push(Column::new(name.to_string(), kind, unit));
        self.index.insert(name.to_string(), i);
        Some(i)
    }

    /// Set column `col` of the row being read (row number `self.rows`).
    #[inline]
    fn set(&mut self, col: usize, c: Cell) {
        let rows = self.rows;
        let Some(column) = self.columns.get_mut(col) else { return };
        // The usual case: the next value of a column of the same kind.
        if column.valid.len() == rows {
            match (&mut column.data, c) {
                (ColumnData::Int(v), Cell::Int(x)) => v.push(x),
                (ColumnData::Float(v), Cell::Float(x)) => v.push(x),
                (ColumnData::Bool(v), Cell::Bool(x)) => v.push(x),
                (ColumnData::Str(v), Cell::Str(x)) => v.push(x),
                _ => return self.set_slow(col, c),
            }
            column.valid.push(true);
            return;
        }
        self.set_slow(col, c)
    }

    #[inline(never)]
    fn set_slow(&mut self, col: usize, c: Cell) {
        let rows = self.rows;
        let Some(column) = self.columns.get_mut(col) else { return };
        let c = column.unify(c, &mut self.strings);
        if column.len() > rows {
            column.resize(rows);
        }
        column.resize(rows);
        column.push(c);
    }

    /// Forget what the row being read has set so far.
    fn drop_row(&mut self) {
        let rows = self.rows;
        for c in &mut self.columns {
            if c.len() > rows {
                c.resize(rows);
            }
        }
    }

    /// Make every column `rows` long.
    fn pad(&mut self) {
        let rows = self.rows;
        for c in &mut self.columns {
            c.resize(rows);
        }
    }

    /// Add the rows of the chunk whose bytes (header first) are `chunk_data`; `header` says
    /// where it sits in the file and `index` which chunk it is. Threads and stacks become rows
    /// of `rec`'s dictionaries.
    pub fn add_chunk_bytes(&mut self, chunk_data: &[u8], header: ChunkHeader, index: usize, rec: &mut Recording) {
        match Chunk::from_bytes(chunk_data, header, index) {
            Ok(c) => self.add_chunk(&c, rec),
            Err(e) => self.errors.push(e),
        }
    }

    /// Add the rows of one opened chunk, in file order. Threads and stacks become rows of
    /// `rec`'s dictionaries (the stack column indexes `rec.stacks`).
    pub fn add_chunk(&mut self, chunk: &Chunk<'_>, rec: &mut Recording) {
        let md = &chunk.md;
        // The class the events' type id reads as, as the parser reads them: where a metadata
        // gives one id to two classes, the later one.
        let Some(class) = md.classes.iter().enumerate().position(|(i, c)| c.is_event() && c.name == self.type_name && md.class_index(c.id) == Some(i)) else {
            return;
        };
        let type_id = md.classes[class].id;
        // Threads as the JDK names them across chunks (crate::ThreadChain).
        let threads = rec.thread_overrides(chunk, false);
        let mut w = Walk::new(chunk, self.origin_nanos, threads);
        w.declare(self, class);
        let mut errors = 0usize;
        let scan = chunk.scan(|pos, _, ty| {
            if ty != type_id {
                return;
            }
            let res = chunk.event_at(pos).and_then(|(mut r, _)| {
                if let Some(col) = w.fixed.offset {
                    self.set(col, Cell::Int((chunk.header.offset + pos as u64) as i64));
                }
                w.event(self, rec, &mut r, class)
            });
            match res {
                Ok(()) => self.rows += 1,
                Err(e) => {
                    self.drop_row();
                    if errors < MAX_ERRORS {
                        self.errors.push(e.in_chunk(chunk.index));
                    }
                    errors += 1;
                }
            }
        });
        self.pad();
        if let Err(e) = scan {
            self.errors.push(e);
        }
        self.errors.extend(chunk.pool_errors());
        if self.too_many {
            self.too_many = false;
            let at = chunk.header.offset;
            self.errors.push(Error::new(ErrorKind::TooLarge { what: "table columns", value: MAX_COLUMNS as u64 + 1 }, at).in_chunk(chunk.index));
        }
    }
}

/// Every event of type `type_name` in the recording `data`, chunk after chunk. Threads and
/// stacks become rows of `rec`'s dictionaries: pass the [`Recording`] parsed from the same
/// bytes and the stack column indexes its stacks table.
pub fn type_table(data: &[u8], type_name: &str, rec: &mut Recording) -> TypeTable {
    let (headers, err) = crate::header::chunk_headers(data);
    let origin = headers.iter().map(|h| h.start_nanos).min().unwrap_or(0);
    let mut t = TypeTable::new(type_name, origin);
    for (i, h) in headers.into_iter().enumerate() {
        match Chunk::open(data, h, i) {
            Ok(c) => t.add_chunk(&c, rec),
            Err(e) => t.errors.push(e),
        }
    }
    t.errors.extend(err);
    t
}

/// Path ids of one chunk: a field's place in the event (a node of the tree of fields).
type PathId = u32;
const ROOT: PathId = u32::MAX;

/// The columns every row sets first.
#[derive(Default)]
struct Fixed {
    offset: Option<usize>,
}

/// The walk over one chunk's events of the table's type.
struct Walk<'c, 'a> {
    chunk: &'c Chunk<'a>,
    shown: Shown<'c, 'a>,
    ticks: Ticks,
    res: Resolver<'a>,
    thread_class: Option<usize>,
    stack_class: Option<usize>,
    /// (parent path, class) → where the paths of the class's fields start in `flat` (made
    /// together on first sight, one per field).
    paths: FxHashMap<(PathId, usize), usize>,
    flat: Vec<PathId>,
    path_names: Vec<String>,
    /// Per path, per suffix: its column once looked up (0 the path itself, 1 `.javaThreadId`,
    /// 2 `.osThreadId`, 3 `.topFrame`; `Some(None)` past [`MAX_COLUMNS`]).
    cols: Vec<[Option<Option<usize>>; 4]>,
    /// Texts of pool entries of the [`COMPACT`] types, by (class, id), as table strings.
    texts: FxHashMap<(usize, u64), Option<u32>>,
    /// String-pool id → table string.
    pool_strings: FxHashMap<u64, Option<u32>>,
    /// Stack row → string of its top frame.
    tops: FxHashMap<i32, u32>,
    /// Thread row → table string of its name.
    thread_names: FxHashMap<i32, u32>,
    string_class: Option<usize>,
    fixed: Fixed,
}

const SUFFIX: [&str; 4] = ["", ".javaThreadId", ".osThreadId", ".topFrame"];

impl<'c, 'a> Walk<'c, 'a> {
    fn new(chunk: &'c Chunk<'a>, origin_nanos: i64, threads: crate::ThreadMap) -> Walk<'c, 'a> {
        Walk {
            chunk,
            shown: Shown::new(chunk, origin_nanos).with_threads(threads.clone()),
            ticks: Ticks::new(&chunk.header),
            res: Resolver::new(chunk).with_thread_overrides(threads),
            thread_class: chunk.md.class_by_name("java.lang.Thread"),
            stack_class: chunk.md.class_by_name("jdk.types.StackTrace"),
            paths: FxHashMap::default(),
            flat: Vec::new(),
            path_names: Vec::new(),
            cols: Vec::new(),
            texts: FxHashMap::default(),
            pool_strings: FxHashMap::default(),
            tops: FxHashMap::default(),
            thread_names: FxHashMap::default(),
            string_class: chunk.md.class_by_name("java.lang.String"),
            fixed: Fixed::default(),
        }
    }

    /// Where the paths of the fields of `class` under `parent` start in `flat`.
    fn paths(&mut self, parent: PathId, class: usize) -> usize {
        if let Some(&start) = self.paths.get(&(parent, class)) {
            return start;
        }
        let chunk = self.chunk;
        let start = self.flat.len();
        for f in &chunk.md.classes[class].fields {
            let p = {
                let full = match self.path_names.get(parent as usize) {
                    Some(pn) => format!("{pn}.{}", f.name),
                    // The table's own `offset` column keeps its name; a field of that name moves aside.
                    None if f.name == "offset" => "field.offset".to_string(),
                    None => f.name.clone(),
                };
                self.path_names.push(full);
                self.cols.push([None; 4]);
                (self.path_names.len() - 1) as PathId
            };
            self.flat.push(p);
        }
        self.paths.insert((parent, class), start);
        start
    }

    #[inline]
    fn col(&mut self, t: &mut TypeTable, p: PathId, suffix: u8, kind: ColumnKind, unit: Unit) -> Option<usize> {
        let slot = (suffix as usize).min(3);
        if let Some(Some(c)) = self.cols.get(p as usize).map(|cs| cs[slot]) {
            return c;
        }
        let name = format!("{}{}", self.path_names.get(p as usize).map_or("", |s| s.as_str()), SUFFIX[slot]);
        let c = t.column_index(&name, kind, unit);
        if let Some(cs) = self.cols.get_mut(p as usize) {
            cs[slot] = Some(c);
        }
        c
    }

    /// The columns of the event class's own fields, the fixed ones first, so that a table
    /// has them in a set order, and has them even with no rows.
    fn declare(&mut self, t: &mut TypeTable, class: usize) {
        let chunk = self.chunk;
        let c = &chunk.md.classes[class];
        let mut order: Vec<usize> = Vec::with_capacity(c.fields.len());
        for name in ["startTime", "duration", "eventThread", "sampledThread", "stackTrace"] {
            order.extend(c.field(name));
        }
        let n_fixed = order.len();
        for i in 0..c.fields.len() {
            if !order[..n_fixed].contains(&i) {
                order.push(i);
            }
        }
        let start = self.paths(ROOT, class);
        for (k, &i) in order.iter().enumerate() {
            if k == n_fixed {
                self.fixed.offset = t.column_index("offset", ColumnKind::Int, Unit::None);
            }
            let f = &c.fields[i];
            let p = self.flat[start + i];
            let fc = &chunk.md.classes[f.class];
            if f.array {
                self.col(t, p, 0, ColumnKind::Str, Unit::None);
            } else if Some(f.class) == self.thread_class {
                self.col(t, p, 0, ColumnKind::Str, Unit::None);
                self.col(t, p, 1, ColumnKind::Int, Unit::None);
                self.col(t, p, 2, ColumnKind::Int, Unit::None);
            } else if Some(f.class) == self.stack_class {
                self.col(t, p, 0, ColumnKind::Int, Unit::None);
                self.col(t, p, 3, ColumnKind::Str, Unit::None);
            } else if let Some(prim) = fc.prim {
                self.col(t, p, 0, kind_of(prim), Unit::of(f.unit));
            } else if f.cpool && COMPACT.contains(&fc.name.as_str()) {
                self.col(t, p, 0, ColumnKind::Str, Unit::None);
            }
        }
        if self.fixed.offset.is_none() {
            self.fixed.offset = t.column_index("offset", ColumnKind::Int, Unit::None);
        }
    }

    fn event(&mut self, t: &mut TypeTable, rec: &mut Recording, r: &mut Reader<'a>, class: usize) -> Result<()> {
        self.structure(t, rec, r, class, ROOT, 0, 0)
    }

    #[allow(clippy::too_many_arguments)]
    fn field(&mut self, t: &mut TypeTable, rec: &mut Recording, r: &mut Reader<'a>, f: &FieldDesc, p: PathId, nest: usize, hops: usize) -> Result<()> {
        if nest > MAX_NEST {
            return Err(r.err(ErrorKind::TooDeep));
        }
        let chunk = self.chunk;
        if f.array {
            let n = r.len("array length", 1)?;
            let mut text = String::new();
            for i in 0..n {
                let v = self.shown.single(r, f.cpool, f.class, nest, hops)?;
                if i < MAX_ARRAY_SHOWN {
                    if i > 0 {
                        text.push_str(", ");
                    }
                    text.push_str(&self.shown.unit(f.unit, v).text());
                }
            }
            if n > MAX_ARRAY_SHOWN {
                text.push_str(&format!(", … ({n} in all)"));
            }
            let s = t.strings.intern(&text);
            if let Some(c) = self.col(t, p, 0, ColumnKind::Str, Unit::None) {
                t.set(c, Cell::Str(s));
            }
            return Ok(());
        }
        let fc = &chunk.md.classes[f.class];
        if f.cpool {
            let id = r.long()? as u64;
            if Some(f.class) == self.thread_class {
                self.thread(t, rec, f.class, id, p);
            } else if Some(f.class) == self.stack_class {
                self.stack(t, rec, f.class, id, p);
            } else {
                self.reference(t, rec, f, id, p, nest, hops);
            }
            return Ok(());
        }
        if fc.prim == Some(Prim::String) {
            // Strings are interned straight from the bytes; a pool string once per chunk.
            let s = match r.string()? {
                RawStr::Null => None,
                RawStr::Pool(id) => match self.pool_strings.get(&id) {
                    Some(&s) => s,
                    None => {
                        let s = match self.string_class.map(|sc| chunk.resolve_value(sc, id, 1)) {
                            Some(Value::Str(s)) => Some(t.strings.intern(&s)),
                            _ => None,
                        };
                        self.pool_strings.insert(id, s);
                        s
                    }
                },
                raw => Some(t.strings.intern(&raw.to_text().unwrap_or_default())),
            };
            if let Some(s) = s {
                if let Some(c) = self.col(t, p, 0, ColumnKind::Str, Unit::None) {
                    t.set(c, Cell::Str(s));
                }
            }
            return Ok(());
        }
        if let Some(prim) = fc.prim {
            let v = chunk.decode_prim(r, prim, nest)?;
            self.leaf(t, p, f.unit, v);
            return Ok(());
        }
        self.structure(t, rec, r, f.class, p, nest + 1, hops)
    }

    #[allow(clippy::too_many_arguments)]
    fn structure(&mut self, t: &mut TypeTable, rec: &mut Recording, r: &mut Reader<'a>, class: usize, p: PathId, nest: usize, hops: usize) -> Result<()> {
        let chunk = self.chunk;
        let start = self.paths(p, class);
        for (i, f) in chunk.md.classes[class].fields.iter().enumerate() {
            let fp = self.flat.get(start + i).copied().unwrap_or(ROOT);
            self.field(t, rec, r, f, fp, nest, hops)?;
        }
        Ok(())
    }

    /// A reference to pool entry `id` of the field's class. What cannot be read leaves the
    /// columns null (the row is kept: the JDK shows such a reference as null too).
    #[allow(clippy::too_many_arguments)]
    fn reference(&mut self, t: &mut TypeTable, rec: &mut Recording, f: &FieldDesc, id: u64, p: PathId, nest: usize, hops: usize) {
        let chunk = self.chunk;
        let class = f.class;
        let c = &chunk.md.classes[class];
        if hops + 1 >= MAX_HOPS {
            let v = self.shown.reference(class, id, nest, hops);
            return self.leaf(t, p, f.unit, v);
        }
        if COMPACT.contains(&c.name.as_str()) {
            let s = match self.texts.get(&(class, id)) {
                Some(&s) => s,
                None => {
                    let s = match self.shown.reference(class, id, nest, hops) {
                        Value::Null => None,
                        Value::Str(s) => Some(t.strings.intern(&s)),
                        v => Some(t.strings.intern(&v.text())),
                    };
                    self.texts.insert((class, id), s);
                    s
                }
            };
            if let Some(s) = s {
                if let Some(c) = self.col(t, p, 0, ColumnKind::Str, Unit::None) {
                    t.set(c, Cell::Str(s));
                }
            }
            return;
        }
        let Some(mut pr) = chunk.pool_reader(class, id) else { return };
        let _ = match (c.prim, &c.fields[..]) {
            (Some(prim), _) => chunk.decode_prim(&mut pr, prim, nest + 1).map(|v| self.leaf(t, p, f.unit, v)),
            // A constant with one field (Symbol, ThreadState, GCWhen…) reads as that field.
            (None, [only]) => self.field(t, rec, &mut pr, only, p, nest + 1, hops + 1),
            (None, _) => self.structure(t, rec, &mut pr, class, p, nest + 1, hops + 1),
        };
    }

    fn thread(&mut self, t: &mut TypeTable, rec: &mut Recording, class: usize, id: u64, p: PathId) {
        let row = self.res.resolve(Cached::Thread, self.chunk, rec, class, id);
        if row < 0 {
            return;
        }
        let i = row as usize;
        let (Some(&name), Some(&java), Some(&os)) = (rec.threads.name.get(i), rec.threads.java_id.get(i), rec.threads.os_id.get(i)) else {
            return;
        };
        let s = *self.thread_names.entry(row).or_insert_with(|| t.strings.intern(rec.strings.get(name as i32)));
        if let Some(c) = self.col(t, p, 0, ColumnKind::Str, Unit::None) {
            t.set(c, Cell::Str(s));
        }
        for (suffix, v) in [(1u8, java), (2, os)] {
            if v != ABSENT {
                if let Some(c) = self.col(t, p, suffix, ColumnKind::Int, Unit::None) {
                    t.set(c, Cell::Int(v));
                }
            }
        }
    }

    fn stack(&mut self, t: &mut TypeTable, rec: &mut Recording, class: usize, id: u64, p: PathId) {
        let s = self.res.resolve(Cached::Stack, self.chunk, rec, class, id);
        let top = if s >= 0 {
            if let Some(c) = self.col(t, p, 0, ColumnKind::Int, Unit::None) {
                t.set(c, Cell::Int(s as i64));
            }
            match self.tops.get(&s) {
                Some(&x) => Some(x),
                None => {
                    let x = top_frame(rec, s).map(|text| t.strings.intern(&text));
                    if let Some(x) = x {
                        self.tops.insert(s, x);
                    }
                    x
                }
            }
        } else if s == STACK_LOST {
            Some(t.strings.intern("(stack lost: the file ends before the chunk's stack traces)"))
        } else {
            None
        };
        if let Some(x) = top {
            if let Some(c) = self.col(t, p, 3, ColumnKind::Str, Unit::None) {
                t.set(c, Cell::Str(x));
            }
        }
    }

    fn leaf(&mut self, t: &mut TypeTable, p: PathId, unit: FieldUnit, v: Value) {
        let ns = |n: i64, k: i64| if n == i64::MIN || n == i64::MAX { None } else { n.checked_mul(k) };
        let (cell, u) = match v {
            Value::Null => return,
            Value::Bool(b) => (Some(Cell::Bool(b)), Unit::None),
            Value::Float(x) => (Some(Cell::Float(x)), Unit::of(unit)),
            Value::Str(s) => (Some(Cell::Str(t.strings.intern(&s))), Unit::None),
            v @ (Value::Array(_) | Value::Object(_)) => (Some(Cell::Str(t.strings.intern(&v.text()))), Unit::None),
            Value::Int(n) => {
                let x = match unit {
                    FieldUnit::TimestampTicks => Some(self.ticks.nanos(n)),
                    FieldUnit::TimestampMillis => n.checked_mul(1_000_000),
                    FieldUnit::SpanTicks => ns(n, 1).map(|n| self.ticks.duration(n)),
                    FieldUnit::SpanNanos => ns(n, 1),
                    FieldUnit::SpanMicros => ns(n, 1_000),
                    FieldUnit::SpanMillis => ns(n, 1_000_000),
                    FieldUnit::SpanSeconds => ns(n, 1_000_000_000),
                    _ => Some(n),
                };
                (x.map(Cell::Int), Unit::of(unit))
            }
        };
        let Some(cell) = cell else { return };
        let kind = match cell {
            Cell::Int(_) => ColumnKind::Int,
            Cell::Float(_) => ColumnKind::Float,
            Cell::Bool(_) => ColumnKind::Bool,
            Cell::Str(_) => ColumnKind::Str,
        };
        if let Some(c) = self.col(t, p, 0, kind, u) {
            t.set(c, cell);
        }
    }
}

fn kind_of(p: Prim) -> ColumnKind {
    match p {
        Prim::Boolean => ColumnKind::Bool,
        Prim::Byte | Prim::Short | Prim::Int | Prim::Long => ColumnKind::Int,
        Prim::Float | Prim::Double => ColumnKind::Float,
        Prim::Char | Prim::String => ColumnKind::Str,
    }
}

/// The leaf frame of stack row `s` as `Class.method line: N`.
fn top_frame(rec: &Recording, s: i32) -> Option<String> {
    let f = *rec.stacks.frame.get(usize::try_from(s).ok()?)? as usize;
    let name = rec.strings.get(*rec.frames.name.get(f)? as i32);
    Some(match rec.frames.line.get(f) {
        Some(&l) if l > 0 => format!("{name} line: {l}"),
        _ => name.to_string(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kinds_widen_instead_of_mixing() {
        let mut t = TypeTable::new("x", 0);
        let c = t.column_index("a", ColumnKind::Int, Unit::None).unwrap();
        t.set(c, Cell::Int(3));
        t.rows += 1;
        t.set(c, Cell::Float(0.5));
        t.rows += 1;
        assert_eq!(t.columns[c].data, ColumnData::Float(vec![3.0, 0.5]));
        let x = t.strings.intern("x");
        t.set(c, Cell::Str(x));
        t.rows += 1;
        t.rows += 1; // a row without the field
        t.pad();
        let texts: Vec<Option<&str>> = (0..4).map(|r| t.text("a", r)).collect();
        assert_eq!(texts, vec![Some("3"), Some("0.5"), Some("x"), None]);
    }

    #[test]
    fn a_dropped_row_leaves_no_values_behind() {
        let mut t = TypeTable::new("x", 0);
        let a = t.column_index("a", ColumnKind::Int, Unit::None).unwrap();
        let b = t.column_index("b", ColumnKind::Int, Unit::None).unwrap();
        t.set(a, Cell::Int(1));
        t.set(b, Cell::Int(2));
        t.rows += 1;
        t.set(a, Cell::Int(7));
        t.drop_row();
        t.set(b, Cell::Int(9));
        t.rows += 1;
        t.pad();
        assert_eq!((t.columns[a].int(0), t.columns[a].int(1)), (Some(1), None));
        assert_eq!((t.columns[b].int(0), t.columns[b].int(1)), (Some(2), Some(9)));
    }
}

#[cfg(test)]
mod fixture_tests {
    use super::*;
    use std::collections::BTreeSet;

    fn fixture(name: &str) -> Vec<u8> {
        std::fs::read(format!("{}/../fixtures/{name}", env!("CARGO_MANIFEST_DIR"))).unwrap()
    }

    #[test]
    fn structs_flatten_by_path_and_pool_types_read_as_names() {
        let data = fixture("jdk17-profile.jfr");
        let mut rec = crate::parse(&data, &crate::Options::default());
        let t = type_table(&data, "jdk.GCHeapSummary", &mut rec);
        let names: Vec<&str> = t.columns.iter().map(|c| c.name.as_str()).collect();
        eprintln!("{names:?}");
        assert_eq!(names[..5], ["startTime", "offset", "gcId", "heapUsed", "when"][..], "{names:?}");
        let c = t.column("heapSpace.committedSize").expect("a nested struct's leaf");
        assert_eq!((c.kind(), c.unit), (ColumnKind::Int, Unit::Bytes));
        assert_eq!(t.column("heapSpace.start").map(|c| c.unit), Some(Unit::Address));
        assert_eq!(t.column("startTime").map(|c| c.unit), Some(Unit::EpochNanos));
        let whens: BTreeSet<&str> = (0..t.rows).filter_map(|i| t.text("when", i)).collect();
        assert_eq!(whens.into_iter().collect::<Vec<_>>(), ["After GC", "Before GC"]);

        let t = type_table(&data, "jdk.JavaMonitorEnter", &mut rec);
        let names: Vec<&str> = t.columns.iter().map(|c| c.name.as_str()).collect();
        eprintln!("{names:?}");
        assert_eq!(names[..8], ["startTime", "duration", "eventThread", "eventThread.javaThreadId", "eventThread.osThreadId", "stackTrace", "stackTrace.topFrame", "offset"][..]);
        assert_eq!(t.text("monitorClass", 0), Some("SearchService$Index"));
        assert_eq!(t.column("duration").map(|c| c.unit), Some(Unit::Nanos));
        assert!((0..t.rows).all(|i| t.text("stackTrace.topFrame", i).is_some_and(|s| s.contains('.'))));
        let t = type_table(&data, "jdk.CPULoad", &mut rec);
        assert_eq!(t.column("jvmUser").map(|c| (c.kind(), c.unit)), Some((ColumnKind::Float, Unit::Percentage)));
    }
}
