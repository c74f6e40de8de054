//! An event's fields as a person reads them (the side panel's "Fields"): every constant-pool
//! reference as its value, the well-known pool types in short (a class as its name, a thread as
//! its name and Java id, a frame as `Class.method line: N`), times as ms since the recording's
//! origin, spans as ms, addresses in hex.
//!
//! ```text
//! raw:   monitorClass {classLoader {…}, name "SearchService$Index", package {…}}  startTime 8812345678
//! shown: monitorClass "SearchService$Index"                                       startTime "+431.250 ms"
//! ```

use crate::chunk::{Chunk, ABSENT};
use crate::error::{ErrorKind, Result};
use crate::metadata::FieldUnit;
use crate::reader::Reader;
use crate::resolve::ThreadMap;
use crate::ticks::Ticks;
use crate::value::Value;

/// Pool references followed from the event (Thread → ThreadGroup → parent …); past it, a
/// reference reads as `Type #id`.
pub(crate) const MAX_HOPS: usize = 8;
/// Nesting of any kind, as [`Chunk::decode_value`] bounds it.
pub(crate) const MAX_NEST: usize = 32;

pub(crate) struct Shown<'c, 'a> {
    chunk: &'c Chunk<'a>,
    ticks: Ticks,
    origin_nanos: i64,
    /// Thread pool ids whose thread is carried over from an earlier chunk ([`crate::ThreadChain`]).
    threads: ThreadMap,
}

impl<'a> Chunk<'a> {
    /// Every field of the event at chunk-relative `pos`, resolved for reading: see the module
    /// notes. Times read as ms since `origin_nanos` (epoch ns, the recording's start); a thread
    /// whose pool id `threads` holds (the chunk's overrides, [`crate::ThreadChain`]) reads as
    /// that thread, as the JDK names it reading the chunks before this one.
    pub fn decode_event_shown(&self, pos: usize, origin_nanos: i64, threads: ThreadMap) -> Result<(String, Value)> {
        let (mut r, class) = self.event_at(pos)?;
        let s = Shown::new(self, origin_nanos).with_threads(threads);
        let v = s.value(&mut r, class, 0, 0)?;
        Ok((self.md.classes[class].name.clone(), v))
    }
}

fn ms(nanos: i64) -> String {
    format!("{:.3} ms", nanos as f64 / 1e6)
}

fn short(class: &str) -> &str {
    class.rsplit('.').next().unwrap_or(class)
}

impl<'c, 'a> Shown<'c, 'a> {
    pub(crate) fn new(chunk: &'c Chunk<'a>, origin_nanos: i64) -> Shown<'c, 'a> {
        Shown { chunk, ticks: Ticks::new(&chunk.header), origin_nanos, threads: ThreadMap::default() }
    }

    /// Name these thread pool ids as these threads (the chunk's overrides).
    pub(crate) fn with_threads(mut self, threads: ThreadMap) -> Self {
        self.threads = threads;
        self
    }

    fn value(&self, r: &mut Reader<'a>, class: usize, nest: usize, hops: usize) -> Result<Value> {
        if nest > MAX_NEST {
            return Err(r.err(ErrorKind::TooDeep));
        }
        let c = &self.chunk.md.classes[class];
        if let Some(p) = c.prim {
            return self.chunk.decode_prim(r, p, nest);
        }
        let mut fields = Vec::with_capacity(c.fields.len());
        for f in &c.fields {
            let v = if f.array {
                let n = r.len("array length", 1)?;
                let mut a = Vec::with_capacity(n.min(4096));
                for _ in 0..n {
                    let v = self.single(r, f.cpool, f.class, nest, hops)?;
                    a.push(self.unit(f.unit, v));
                }
                Value::Array(a)
            } else {
                let v = self.single(r, f.cpool, f.class, nest, hops)?;
                self.unit(f.unit, v)
            };
            fields.push((f.name.clone(), v));
        }
        Ok(compact(&c.name, fields))
    }

    pub(crate) fn single(&self, r: &mut Reader<'a>, cpool: bool, class: usize, nest: usize, hops: usize) -> Result<Value> {
        if !cpool {
            return self.value(r, class, nest + 1, hops);
        }
        let id = r.long()? as u64;
        Ok(self.reference(class, id, nest, hops))
    }

    /// Pool entry `id` of `class`, as the panel shows a reference to it (`hops` references
    /// followed to get here).
    pub(crate) fn reference(&self, class: usize, id: u64, nest: usize, hops: usize) -> Value {
        let name = &self.chunk.md.classes[class].name;
        if hops >= MAX_HOPS {
            return Value::Str(format!("{} #{id}", short(name)));
        }
        match self.chunk.pool_reader(class, id) {
            // A thread the chain carries over from an earlier chunk, as that chunk wrote it.
            Some(_) if name == "java.lang.Thread" && self.threads.contains_key(&id) => {
                let t = &self.threads[&id];
                let id = if t.java_id == ABSENT { Value::Null } else { Value::Int(t.java_id) };
                thread_text((!t.name.is_empty()).then(|| t.name.clone()), id).map_or(Value::Null, Value::Str)
            }
            // A constant with one field (Symbol, ThreadState, FrameType…) reads as that field.
            Some(mut pr) => match self.value(&mut pr, class, nest + 1, hops + 1) {
                Ok(Value::Object(mut fs)) if fs.len() == 1 => fs.pop().map(|(_, v)| v).unwrap_or(Value::Null),
                Ok(v) => v,
                Err(_) => Value::Str(format!("{} #{id} (unreadable)", short(name))),
            },
            None if id == 0 => Value::Null,
            None => Value::Str(format!("{} #{id} (not in the chunk)", short(name))),
        }
    }

    pub(crate) fn unit(&self, unit: FieldUnit, v: Value) -> Value {
        let Value::Int(n) = v else { return v };
        let span = |nanos: Option<i64>| match n {
            i64::MIN => Value::Str("N/A".into()),
            i64::MAX => Value::Str("∞".into()),
            _ => Value::Str(nanos.map_or_else(|| n.to_string(), ms)),
        };
        let at = |nanos: Option<i64>| match nanos {
            Some(ns) => Value::Str(format!("+{}", ms(ns.wrapping_sub(self.origin_nanos)))),
            None => Value::Int(n),
        };
        match unit {
            FieldUnit::Plain | FieldUnit::Bytes | FieldUnit::Bits | FieldUnit::Percentage | FieldUnit::Hertz => Value::Int(n),
            FieldUnit::Address => Value::Str(format!("0x{:X}", n as u64)),
            FieldUnit::TimestampTicks => at(Some(self.ticks.nanos(n))),
            FieldUnit::TimestampMillis => at(n.checked_mul(1_000_000)),
            FieldUnit::TimestampNanos => at(Some(n)),
            FieldUnit::SpanTicks => span(Some(self.ticks.duration(n))),
            FieldUnit::SpanNanos => span(Some(n)),
            FieldUnit::SpanMicros => span(n.checked_mul(1_000)),
            FieldUnit::SpanMillis => span(n.checked_mul(1_000_000)),
            FieldUnit::SpanSeconds => span(n.checked_mul(1_000_000_000)),
        }
    }
}

fn take(fields: &mut [(String, Value)], name: &str) -> Value {
    fields.iter_mut().find(|(n, _)| n == name).map(|(_, v)| std::mem::replace(v, Value::Null)).unwrap_or(Value::Null)
}

fn text(v: &Value) -> Option<String> {
    match v {
        Value::Str(s) if !s.is_empty() => Some(s.clone()),
        _ => None,
    }
}

/// A thread in short: its name (the Java name, else the OS name) and Java id.
fn thread_text(name: Option<String>, java_id: Value) -> Option<String> {
    match (name, java_id) {
        (Some(n), Value::Int(id)) if id > 0 => Some(format!("{n} (javaThreadId = {id})")),
        (Some(n), _) => Some(n),
        (None, Value::Int(id)) => Some(format!("javaThreadId = {id}")),
        _ => None,
    }
}

/// The pool types shown in short: one text instead of their fields.
pub(crate) const COMPACT: [&str; 8] = [
    "java.lang.Class",
    "jdk.types.Package",
    "java.lang.ThreadGroup",
    "jdk.types.Module",
    "jdk.types.ClassLoader",
    "java.lang.Thread",
    "jdk.types.Method",
    "jdk.types.StackFrame",
];

/// The well-known pool types in short ([`COMPACT`]); any other value as it is.
fn compact(class: &str, mut fs: Vec<(String, Value)>) -> Value {
    let shown = match class {
        "java.lang.Class" => text(&take(&mut fs, "name")).map(|n| n.replace('/', ".")),
        "jdk.types.Package" => text(&take(&mut fs, "name")).map(|n| n.replace('/', ".")),
        "java.lang.ThreadGroup" | "jdk.types.Module" => text(&take(&mut fs, "name")),
        "jdk.types.ClassLoader" => text(&take(&mut fs, "name")).or_else(|| text(&take(&mut fs, "type"))),
        "java.lang.Thread" => {
            let id = take(&mut fs, "javaThreadId");
            thread_text(text(&take(&mut fs, "javaName")).or_else(|| text(&take(&mut fs, "osName"))), id)
        }
        "jdk.types.Method" => {
            let ty = text(&take(&mut fs, "type")).unwrap_or_default();
            text(&take(&mut fs, "name")).map(|n| if ty.is_empty() { n } else { format!("{ty}.{n}") })
        }
        "jdk.types.StackFrame" => {
            let line = take(&mut fs, "lineNumber");
            text(&take(&mut fs, "method")).map(|m| match line {
                Value::Int(l) if l > 0 => format!("{m} line: {l}"),
                _ => m,
            })
        }
        _ => None,
    };
    match shown {
        Some(s) => Value::Str(s),
        None if matches!(class, "java.lang.Class" | "java.lang.Thread" | "jdk.types.Method" | "jdk.types.StackFrame") => Value::Null,
        None => Value::Object(fs),
    }
}

#[cfg(test)]
mod tests {
    use crate::{chunk_headers, Chunk, Value};

    #[test]
    fn a_monitor_enter_reads_as_jfr_print_shows_it() {
        let data = std::fs::read(concat!(env!("CARGO_MANIFEST_DIR"), "/../fixtures/jdk17-profile.jfr")).unwrap();
        let (headers, _) = chunk_headers(&data);
        let chunk = Chunk::open(&data, headers[0].clone(), 0).unwrap();
        let class = chunk.md.class_by_name("jdk.JavaMonitorEnter").unwrap();
        let id = chunk.md.classes[class].id;
        let mut at = None;
        chunk.scan(|pos, _, tid| if tid == id && at.is_none() { at = Some(pos) }).unwrap();
        let origin = headers[0].start_nanos;
        let (name, v) = chunk.decode_event_shown(at.unwrap(), origin, Default::default()).unwrap();
        assert_eq!(name, "jdk.JavaMonitorEnter");
        let s = |f: &str| match v.get(f) {
            Some(Value::Str(s)) => s.clone(),
            other => panic!("{f}: {other:?} in {}", v.to_json()),
        };
        assert_eq!(s("monitorClass"), "SearchService$Index", "{}", v.to_json());
        assert!(s("eventThread").contains("(javaThreadId = "), "{}", v.to_json());
        assert!(s("startTime").starts_with('+') && s("startTime").ends_with(" ms"));
        assert!(s("duration").ends_with(" ms"));
        assert!(s("address").starts_with("0x"));
        let Some(Value::Object(st)) = v.get("stackTrace") else { panic!("{}", v.to_json()) };
        let frames = st.iter().find(|(n, _)| n == "frames").map(|(_, f)| f.to_json()).unwrap();
        assert!(frames.contains("SearchService.serve line: "), "{frames}");
    }
}
