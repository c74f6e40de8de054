//! Any value, decoded field by field from the metadata: for event types the columns do not
//! cover, the side panel's "all fields" view and the recording's description events.

use crate::chunk::Chunk;
use crate::error::Result;
use crate::metadata::Prim;
use crate::reader::{RawStr, Reader};
use std::fmt::Write;

/// A decoded value. Constant-pool references are resolved up to a depth, then shown as ids.
#[derive(Debug, Clone, PartialEq)]
pub enum Value {
    /// A null string, or a reference to a pool entry the chunk does not hold.
    Null,
    /// A boolean.
    Bool(bool),
    /// Any integer type.
    Int(i64),
    /// float or double.
    Float(f64),
    /// A string.
    Str(String),
    /// An array.
    Array(Vec<Value>),
    /// A struct: (field name, value) in declaration order.
    Object(Vec<(String, Value)>),
}

impl Value {
    /// Field `name` of an object.
    pub fn get(&self, name: &str) -> Option<&Value> {
        match self {
            Value::Object(fs) => fs.iter().find(|(n, _)| n == name).map(|(_, v)| v),
            _ => None,
        }
    }

    /// The value as text (strings as they are, numbers printed, null as "").
    pub fn text(&self) -> String {
        match self {
            Value::Null => String::new(),
            Value::Bool(b) => b.to_string(),
            Value::Int(i) => i.to_string(),
            Value::Float(f) => f.to_string(),
            Value::Str(s) => s.clone(),
            Value::Array(_) | Value::Object(_) => self.to_json(),
        }
    }

    /// JSON text of the value.
    pub fn to_json(&self) -> String {
        let mut s = String::new();
        self.write_json(&mut s);
        s
    }

    fn write_json(&self, out: &mut String) {
        match self {
            Value::Null => out.push_str("null"),
            Value::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
            Value::Int(i) => {
                let _ = write!(out, "{i}");
            }
            Value::Float(f) if f.is_finite() => {
                let _ = write!(out, "{f}");
            }
            Value::Float(_) => out.push_str("null"),
            Value::Str(s) => json_string(s, out),
            Value::Array(a) => {
                out.push('[');
                for (i, v) in a.iter().enumerate() {
                    if i > 0 {
                        out.push(',');
                    }
                    v.write_json(out);
                }
                out.push(']');
            }
            Value::Object(fs) => {
                out.push('{');
                for (i, (k, v)) in fs.iter().enumerate() {
                    if i > 0 {
                        out.push(',');
                    }
                    json_string(k, out);
                    out.push(':');
                    v.write_json(out);
                }
                out.push('}');
            }
        }
    }
}

/// Append `s` as a JSON string literal.
pub fn json_string(s: &str, out: &mut String) {
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if (c as u32) < 0x20 => {
                let _ = write!(out, "\\u{:04x}", c as u32);
            }
            c => out.push(c),
        }
    }
    out.push('"');
}

/// How deep constant-pool references are followed (Thread → ThreadGroup → parent …).
pub const MAX_RESOLVE_DEPTH: usize = 5;
const MAX_NEST: usize = 32;

impl<'a> Chunk<'a> {
    /// The fields named `names` of the event at chunk-relative `pos`, with its type's name; the
    /// other fields are skipped, their references not followed (so no pool they refer to is
    /// indexed for them).
    pub fn decode_event_fields(&self, pos: usize, names: &[&str]) -> Result<(String, Value)> {
        let (mut r, class) = self.event_at(pos)?;
        let c = &self.md.classes[class];
        let mut fields = Vec::new();
        for f in &c.fields {
            if !names.contains(&f.name.as_str()) {
                if f.array {
                    let n = r.len("array length", 1)?;
                    for _ in 0..n {
                        self.skip_single(&mut r, f.cpool, f.class, 0)?;
                    }
                } else {
                    self.skip_single(&mut r, f.cpool, f.class, 0)?;
                }
                continue;
            }
            let v = if f.array {
                let n = r.len("array length", 1)?;
                let mut a = Vec::with_capacity(n.min(4096));
                for _ in 0..n {
                    a.push(self.decode_single(&mut r, f.cpool, f.class, 0)?);
                }
                Value::Array(a)
            } else {
                self.decode_single(&mut r, f.cpool, f.class, 0)?
            };
            fields.push((f.name.clone(), v));
        }
        Ok((c.name.clone(), Value::Object(fields)))
    }

    /// Decode a value of class `class` (inline encoding) at `r`.
    pub fn decode_value(&self, r: &mut Reader<'a>, class: usize, depth: usize) -> Result<Value> {
        if depth > MAX_NEST {
            return Err(r.err(crate::error::ErrorKind::TooDeep));
        }
        let c = &self.md.classes[class];
        if let Some(p) = c.prim {
            return self.decode_prim(r, p, depth);
        }
        let mut fields = Vec::with_capacity(c.fields.len());
        for f in &c.fields {
            let v = if f.array {
                let n = r.len("array length", 1)?;
                let mut a = Vec::with_capacity(n.min(4096));
                for _ in 0..n {
                    a.push(self.decode_single(r, f.cpool, f.class, depth)?);
                }
                Value::Array(a)
            } else {
                self.decode_single(r, f.cpool, f.class, depth)?
            };
            fields.push((f.name.clone(), v));
        }
        Ok(Value::Object(fields))
    }

    fn decode_single(&self, r: &mut Reader<'a>, cpool: bool, class: usize, depth: usize) -> Result<Value> {
        if cpool {
            let id = r.long()? as u64;
            Ok(self.resolve_value(class, id, depth + 1))
        } else {
            self.decode_value(r, class, depth + 1)
        }
    }

    pub(crate) fn decode_prim(&self, r: &mut Reader<'a>, p: Prim, depth: usize) -> Result<Value> {
        Ok(match p {
            Prim::Boolean => Value::Bool(r.u8()? != 0),
            Prim::Byte => Value::Int(r.u8()? as i8 as i64),
            Prim::Char => Value::Str(char::from_u32(r.char16()? as u32).map(String::from).unwrap_or_default()),
            Prim::Short => Value::Int(r.short()? as i64),
            Prim::Int => Value::Int(r.int()? as i64),
            Prim::Long => Value::Int(r.long()?),
            Prim::Float => Value::Float(r.f32()? as f64),
            Prim::Double => Value::Float(r.f64()?),
            Prim::String => match r.string()? {
                RawStr::Null => Value::Null,
                RawStr::Pool(id) => match self.md.class_by_name("java.lang.String") {
                    Some(sc) => self.resolve_value(sc, id, depth + 1),
                    None => Value::Null,
                },
                s => Value::Str(s.to_text().map(|t| t.into_owned()).unwrap_or_default()),
            },
        })
    }

    /// The pool entry `id` of class `class`, decoded; `Null` when the chunk lacks it, the id
    /// itself past [`MAX_RESOLVE_DEPTH`].
    pub fn resolve_value(&self, class: usize, id: u64, depth: usize) -> Value {
        if depth > MAX_RESOLVE_DEPTH {
            return Value::Int(id as i64);
        }
        if !self.carried.is_empty() && self.md.classes[class].name == "java.lang.Thread" {
            if let Some(v) = self.carried.get(&id) {
                return v.clone();
            }
        }
        match self.pool_reader(class, id) {
            // A constant with one field (Symbol, ThreadState, FrameType…) reads as that field.
            Some(mut r) => match self.decode_value(&mut r, class, depth) {
                Ok(Value::Object(mut fs)) if fs.len() == 1 => fs.pop().map(|(_, v)| v).unwrap_or(Value::Null),
                Ok(v) => v,
                Err(_) => Value::Null,
            },
            None => Value::Null,
        }
    }
}
