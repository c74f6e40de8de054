//! The metadata event: the chunk's own description of every type it uses.
//!
//! ```text
//! size  typeId=0  startTime  duration  metadataId
//! stringCount  string*                        -- a table the element tree indexes into
//! element := nameIdx attrCount (keyIdx valueIdx)* childCount element*
//! root ─ metadata ─ class(id, name, superType, simpleType)
//!      │                ├ field(name, class, constantPool, dimension) ─ annotation*
//!      │                ├ annotation(class, value…)
//!      │                └ setting(name, class, defaultValue)
//!      └ region(locale, gmtOffset)
//! ```
//! Every integer here is a JFR int or long; `class` attributes are type ids written as decimal
//! text. Primitive types are classes too (`int`, `long`, `java.lang.String`…), declared with no
//! fields.

use crate::error::{Error, ErrorKind, Result};
use crate::reader::Reader;
use rustc_hash::FxHashMap;

/// How a value of a type is laid out in the bytes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Prim {
    /// One byte, 0 or 1.
    Boolean,
    /// One byte.
    Byte,
    /// A compressed (or 2-byte) char.
    Char,
    /// A compressed (or 2-byte) short.
    Short,
    /// A compressed (or 4-byte) int.
    Int,
    /// A compressed (or 8-byte) long.
    Long,
    /// Four bytes.
    Float,
    /// Eight bytes.
    Double,
    /// A string with its encoding byte.
    String,
}

impl Prim {
    fn from_name(name: &str) -> Option<Prim> {
        Some(match name {
            "boolean" => Prim::Boolean,
            "byte" => Prim::Byte,
            "char" => Prim::Char,
            "short" => Prim::Short,
            "int" => Prim::Int,
            "long" => Prim::Long,
            "float" => Prim::Float,
            "double" => Prim::Double,
            "java.lang.String" => Prim::String,
            _ => return None,
        })
    }
}

/// One field of a class.
#[derive(Debug, Clone)]
pub struct FieldDesc {
    /// Field name (`startTime`, `stackTrace`…).
    pub name: String,
    /// Type id of the field's class.
    pub type_id: u64,
    /// The value is a constant-pool reference (a long) instead of inline data.
    pub cpool: bool,
    /// The value is an array (an int count, then the elements).
    pub array: bool,
    /// Index of the field's class in [`Metadata::classes`], resolved after parsing.
    pub class: usize,
    /// What its number means, from its annotations (a time, a span, an address).
    pub unit: FieldUnit,
}

/// What a field's number means, from its `jdk.jfr.Timestamp`, `jdk.jfr.Timespan`,
/// `jdk.jfr.MemoryAddress`, `jdk.jfr.DataAmount`, `jdk.jfr.Percentage` or `jdk.jfr.Frequency`
/// annotation.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum FieldUnit {
    /// A plain number (or not a number).
    #[default]
    Plain,
    /// A point in time in ticks.
    TimestampTicks,
    /// A point in time in ms since the epoch.
    TimestampMillis,
    /// A point in time in ns since the epoch.
    TimestampNanos,
    /// A span in ticks.
    SpanTicks,
    /// A span in ns.
    SpanNanos,
    /// A span in µs.
    SpanMicros,
    /// A span in ms.
    SpanMillis,
    /// A span in seconds.
    SpanSeconds,
    /// A memory address.
    Address,
    /// An amount of memory in bytes (`jdk.jfr.DataAmount`, the default unit).
    Bytes,
    /// An amount of data in bits (`jdk.jfr.DataAmount("BITS")`).
    Bits,
    /// A fraction, 1 being 100 % (`jdk.jfr.Percentage`).
    Percentage,
    /// Events per second (`jdk.jfr.Frequency`).
    Hertz,
}

impl FieldUnit {
    fn of(annotation: &str, value: Option<&str>) -> FieldUnit {
        match (annotation, value) {
            ("jdk.jfr.Timestamp", Some("TICKS")) => FieldUnit::TimestampTicks,
            ("jdk.jfr.Timestamp", Some("NANOSECONDS_SINCE_EPOCH")) => FieldUnit::TimestampNanos,
            ("jdk.jfr.Timestamp", _) => FieldUnit::TimestampMillis,
            ("jdk.jfr.Timespan", Some("TICKS")) => FieldUnit::SpanTicks,
            ("jdk.jfr.Timespan", Some("MICROSECONDS")) => FieldUnit::SpanMicros,
            ("jdk.jfr.Timespan", Some("MILLISECONDS")) => FieldUnit::SpanMillis,
            ("jdk.jfr.Timespan", Some("SECONDS")) => FieldUnit::SpanSeconds,
            ("jdk.jfr.Timespan", _) => FieldUnit::SpanNanos,
            ("jdk.jfr.MemoryAddress", _) => FieldUnit::Address,
            ("jdk.jfr.DataAmount", Some("BITS")) => FieldUnit::Bits,
            ("jdk.jfr.DataAmount", _) => FieldUnit::Bytes,
            ("jdk.jfr.Percentage", _) => FieldUnit::Percentage,
            ("jdk.jfr.Frequency", _) => FieldUnit::Hertz,
            _ => FieldUnit::Plain,
        }
    }
}

/// One class (event type, pool type, struct or primitive).
#[derive(Debug, Clone)]
pub struct ClassDesc {
    /// Type id, as events and pools name it.
    pub id: u64,
    /// Fully qualified name (`jdk.ExecutionSample`, `java.lang.Thread`).
    pub name: String,
    /// `jdk.jfr.Event` for event types.
    pub super_type: Option<String>,
    /// Its fields, in encoding order.
    pub fields: Vec<FieldDesc>,
    /// Set for the primitive types.
    pub prim: Option<Prim>,
    /// The `jdk.jfr.Label` annotation's text, if any.
    pub label: Option<String>,
    /// (annotation class id, value attribute) pairs.
    annotations: Vec<(u64, Option<String>)>,
}

impl ClassDesc {
    /// Whether this is an event type.
    pub fn is_event(&self) -> bool {
        self.super_type.as_deref() == Some("jdk.jfr.Event")
    }

    /// Index of the field called `name`.
    pub fn field(&self, name: &str) -> Option<usize> {
        self.fields.iter().position(|f| f.name == name)
    }
}

/// The parsed metadata of one chunk.
#[derive(Debug, Clone, Default)]
pub struct Metadata {
    /// Every declared class.
    pub classes: Vec<ClassDesc>,
    by_id: FxHashMap<u64, usize>,
}

const MAX_DEPTH: usize = 16;

struct Element {
    name: u32,
    attrs: Vec<(u32, u32)>,
    children: Vec<Element>,
}

impl Metadata {
    /// The class with type id `id`.
    pub fn class_index(&self, id: u64) -> Option<usize> {
        self.by_id.get(&id).copied()
    }

    /// The class named `name`.
    pub fn class_by_name(&self, name: &str) -> Option<usize> {
        self.classes.iter().position(|c| c.name == name)
    }

    /// Parse the metadata event whose first byte (its size) `r` is positioned on.
    pub fn parse(r: &mut Reader<'_>) -> Result<Metadata> {
        let start = r.pos();
        let size_at = r.offset();
        let size = r.int()?;
        if size <= 0 || size as usize > r.remaining() + (r.pos() - start) {
            return Err(Error::new(ErrorKind::OutOfBounds { what: "metadata size", value: size as i64 }, size_at));
        }
        let ty = r.long()?;
        if ty != 0 {
            return Err(r.err(ErrorKind::BadMetadata("the metadata offset does not point at a metadata event")));
        }
        let _start_time = r.long()?;
        let _duration = r.long()?;
        let _id = r.long()?;
        let n = r.len("metadata string count", 1)?;
        let mut strings = Vec::with_capacity(n);
        for _ in 0..n {
            let s = r.string()?;
            strings.push(s.to_text().map(|t| t.into_owned()).unwrap_or_default());
        }
        let root = parse_element(r, 0, strings.len())?;
        let at = r.offset();
        let s = |i: u32| strings[i as usize].as_str();
        let attr = |e: &Element, key: &str| -> Option<String> {
            e.attrs.iter().find(|(k, _)| s(*k) == key).map(|(_, v)| s(*v).to_string())
        };
        let mut md = Metadata::default();
        // (class index, [(field index, annotation class id, value)]) until every class is known.
        let mut pending_units = Vec::new();
        for m in root.children.iter().filter(|e| s(e.name) == "metadata") {
            for c in m.children.iter().filter(|e| s(e.name) == "class") {
                let id = parse_id(attr(c, "id"), at)?;
                let name = attr(c, "name").ok_or_else(|| Error::new(ErrorKind::BadMetadata("class without a name"), at))?;
                let mut fields = Vec::new();
                let mut annotations = Vec::new();
                let mut field_annotations = Vec::new();
                for ch in &c.children {
                    match s(ch.name) {
                        "field" => {
                            let fname = attr(ch, "name").unwrap_or_default();
                            let type_id = parse_id(attr(ch, "class"), at)?;
                            let cpool = attr(ch, "constantPool").as_deref() == Some("true");
                            let array = attr(ch, "dimension").is_some_and(|d| d != "0");
                            for a in ch.children.iter().filter(|e| s(e.name) == "annotation") {
                                if let Ok(aid) = parse_id(attr(a, "class"), at) {
                                    field_annotations.push((fields.len(), aid, attr(a, "value")));
                                }
                            }
                            fields.push(FieldDesc { name: fname, type_id, cpool, array, class: usize::MAX, unit: FieldUnit::Plain });
                        }
                        "annotation" => {
                            let aid = parse_id(attr(ch, "class"), at)?;
                            annotations.push((aid, attr(ch, "value")));
                        }
                        _ => {}
                    }
                }
                let prim = if fields.is_empty() { Prim::from_name(&name) } else { None };
                if !field_annotations.is_empty() {
                    pending_units.push((md.classes.len(), field_annotations));
                }
                md.by_id.insert(id, md.classes.len());
                md.classes.push(ClassDesc {
                    id,
                    super_type: attr(c, "superType"),
                    name,
                    fields,
                    prim,
                    label: None,
                    annotations,
                });
            }
        }
        // Field units, now that annotation classes are known by id.
        for (ci, list) in pending_units {
            for (fi, aid, value) in list {
                let unit = md.by_id.get(&aid).map_or(FieldUnit::Plain, |&a| FieldUnit::of(&md.classes[a].name, value.as_deref()));
                if unit != FieldUnit::Plain {
                    md.classes[ci].fields[fi].unit = unit;
                }
            }
        }
        // Resolve field classes and labels now that every class is known.
        let label_id = md.classes.iter().find(|c| c.name == "jdk.jfr.Label").map(|c| c.id);
        for i in 0..md.classes.len() {
            for j in 0..md.classes[i].fields.len() {
                let tid = md.classes[i].fields[j].type_id;
                let ci = md.by_id.get(&tid).copied().ok_or_else(|| Error::new(ErrorKind::UnknownType(tid), at))?;
                md.classes[i].fields[j].class = ci;
            }
            if let Some(lid) = label_id {
                let label = md.classes[i].annotations.iter().find(|(a, _)| *a == lid).and_then(|(_, v)| v.clone());
                md.classes[i].label = label;
            }
        }
        Ok(md)
    }
}

fn parse_id(v: Option<String>, at: u64) -> Result<u64> {
    v.and_then(|s| s.parse::<u64>().ok()).ok_or_else(|| Error::new(ErrorKind::BadMetadata("missing or non-numeric type id"), at))
}

fn parse_element(r: &mut Reader<'_>, depth: usize, nstrings: usize) -> Result<Element> {
    if depth > MAX_DEPTH {
        return Err(r.err(ErrorKind::TooDeep));
    }
    let idx = |r: &mut Reader<'_>| -> Result<u32> {
        let at = r.offset();
        let i = r.int()?;
        if i < 0 || i as usize >= nstrings {
            return Err(Error::new(ErrorKind::BadMetadata("string index out of range"), at));
        }
        Ok(i as u32)
    };
    let name = idx(r)?;
    let na = r.len("attribute count", 2)?;
    let mut attrs = Vec::with_capacity(na);
    for _ in 0..na {
        let k = idx(r)?;
        let v = idx(r)?;
        attrs.push((k, v));
    }
    let nc = r.len("child count", 3)?;
    let mut children = Vec::with_capacity(nc);
    for _ in 0..nc {
        children.push(parse_element(r, depth + 1, nstrings)?);
    }
    Ok(Element { name, attrs, children })
}
