//! A tiny JFR writer for tests: builds chunks byte by byte so each test can put exactly the
//! damage it is about where it wants it.

#![allow(missing_docs)]

/// Append a compressed integer.
pub fn varint(out: &mut Vec<u8>, mut v: u64) {
    for _ in 0..8 {
        if v < 0x80 {
            out.push(v as u8);
            return;
        }
        out.push((v as u8 & 0x7f) | 0x80);
        v >>= 7;
    }
    out.push(v as u8);
}

/// Append a UTF-8 string (encoding 3).
pub fn utf8(out: &mut Vec<u8>, s: &str) {
    out.push(3);
    varint(out, s.len() as u64);
    out.extend_from_slice(s.as_bytes());
}

/// (name, type id, constant pool, array)
pub type Field = (&'static str, u64, bool, bool);
/// (id, name, super type, fields)
pub type Class = (u64, &'static str, Option<&'static str>, Vec<Field>);
/// Constant pools: (type id, [(entry id, encoded value)]).
pub type Pools = Vec<(u64, Vec<(u64, Vec<u8>)>)>;

/// The classes most tests need. Type ids: 1 long, 2 int, 3 String, 4 Thread, 5 Symbol, 6 Class,
/// 7 Method, 8 FrameType, 9 StackFrame, 10 StackTrace, 11 boolean, 12 ThreadState,
/// 20 jdk.ExecutionSample.
pub fn basic_classes() -> Vec<Class> {
    vec![
        (1, "long", None, vec![]),
        (2, "int", None, vec![]),
        (3, "java.lang.String", None, vec![]),
        (11, "boolean", None, vec![]),
        (4, "java.lang.Thread", None, vec![("osName", 3, false, false), ("osThreadId", 1, false, false), ("javaName", 3, false, false), ("javaThreadId", 1, false, false)]),
        (5, "jdk.types.Symbol", None, vec![("string", 3, false, false)]),
        (6, "java.lang.Class", None, vec![("name", 5, true, false)]),
        (7, "jdk.types.Method", None, vec![("type", 6, true, false), ("name", 5, true, false)]),
        (8, "jdk.types.FrameType", None, vec![("description", 3, false, false)]),
        (9, "jdk.types.StackFrame", None, vec![("method", 7, true, false), ("lineNumber", 2, false, false), ("bytecodeIndex", 2, false, false), ("type", 8, true, false)]),
        (10, "jdk.types.StackTrace", None, vec![("truncated", 11, false, false), ("frames", 9, false, true)]),
        (12, "jdk.types.ThreadState", None, vec![("name", 3, false, false)]),
        (20, "jdk.ExecutionSample", Some("jdk.jfr.Event"), vec![("startTime", 1, false, false), ("sampledThread", 4, true, false), ("stackTrace", 10, true, false), ("state", 12, true, false)]),
    ]
}

/// Wrap a body (type id + fields) as an event with a 4-byte padded size.
pub fn event(type_id: u64, body: &[u8]) -> Vec<u8> {
    let mut inner = Vec::new();
    varint(&mut inner, type_id);
    inner.extend_from_slice(body);
    let size = inner.len() + 4;
    let mut out = vec![(size as u8 & 0x7f) | 0x80, ((size >> 7) as u8 & 0x7f) | 0x80, ((size >> 14) as u8 & 0x7f) | 0x80, (size >> 21) as u8];
    out.extend_from_slice(&inner);
    out
}

/// The metadata event for `classes`.
pub fn metadata(classes: &[Class]) -> Vec<u8> {
    let mut strings: Vec<String> = Vec::new();
    let mut idx = |s: &str| -> u64 {
        if let Some(i) = strings.iter().position(|x| x == s) {
            return i as u64;
        }
        strings.push(s.to_string());
        (strings.len() - 1) as u64
    };
    let mut tree = Vec::new();
    // root { metadata { class* } }
    varint(&mut tree, idx("root"));
    varint(&mut tree, 0);
    varint(&mut tree, 1);
    varint(&mut tree, idx("metadata"));
    varint(&mut tree, 0);
    varint(&mut tree, classes.len() as u64);
    for (id, name, sup, fields) in classes {
        varint(&mut tree, idx("class"));
        let mut attrs = vec![(idx("id"), idx(&id.to_string())), (idx("name"), idx(name))];
        if let Some(s) = sup {
            attrs.push((idx("superType"), idx(s)));
        }
        varint(&mut tree, attrs.len() as u64);
        for (k, v) in attrs {
            varint(&mut tree, k);
            varint(&mut tree, v);
        }
        varint(&mut tree, fields.len() as u64);
        for (fname, ftype, cpool, array) in fields {
            varint(&mut tree, idx("field"));
            let mut fa = vec![(idx("name"), idx(fname)), (idx("class"), idx(&ftype.to_string()))];
            if *cpool {
                fa.push((idx("constantPool"), idx("true")));
            }
            if *array {
                fa.push((idx("dimension"), idx("1")));
            }
            varint(&mut tree, fa.len() as u64);
            for (k, v) in fa {
                varint(&mut tree, k);
                varint(&mut tree, v);
            }
            varint(&mut tree, 0);
        }
    }
    let mut body = Vec::new();
    for _ in 0..3 {
        varint(&mut body, 0); // start, duration, metadata id
    }
    varint(&mut body, strings.len() as u64);
    for s in &strings {
        utf8(&mut body, s);
    }
    body.extend_from_slice(&tree);
    event(0, &body)
}

/// A checkpoint event with `pools`: (type id, [(entry id, encoded value)]).
pub fn checkpoint(pools: &Pools) -> Vec<u8> {
    linked_checkpoint(pools, 0)
}

/// A checkpoint whose delta points `delta` bytes away to the one before it (0 ends the chain).
pub fn linked_checkpoint(pools: &Pools, delta: i64) -> Vec<u8> {
    let mut body = Vec::new();
    varint(&mut body, 0); // start
    varint(&mut body, 0); // duration
    varint(&mut body, delta as u64);
    body.push(0); // kind
    varint(&mut body, pools.len() as u64);
    for (tid, entries) in pools {
        varint(&mut body, *tid);
        varint(&mut body, entries.len() as u64);
        for (id, v) in entries {
            varint(&mut body, *id);
            body.extend_from_slice(v);
        }
    }
    event(1, &body)
}

/// A chunk: header, then `events` in order; the header points at the events with indexes
/// `meta` and `cp` (cp `None` = no pool offset).
pub fn chunk(events: &[Vec<u8>], meta: usize, cp: Option<usize>, start_nanos: i64) -> Vec<u8> {
    let mut offsets = Vec::new();
    let mut pos = 68usize;
    for e in events {
        offsets.push(pos);
        pos += e.len();
    }
    let mut out = b"FLR\0".to_vec();
    out.extend_from_slice(&2u16.to_be_bytes());
    out.extend_from_slice(&1u16.to_be_bytes());
    let cp_off = cp.map(|i| offsets[i] as i64).unwrap_or(0);
    for v in [pos as i64, cp_off, offsets[meta] as i64, start_nanos, 1_000_000_000, 0, 1_000_000_000] {
        out.extend_from_slice(&v.to_be_bytes());
    }
    out.extend_from_slice(&[0, 0, 0, 1]);
    for e in events {
        out.extend_from_slice(e);
    }
    out
}

/// Encoded pool values of the basic classes.
pub fn sym(s: &str) -> Vec<u8> {
    let mut v = Vec::new();
    utf8(&mut v, s);
    v
}

/// A thread entry.
pub fn thread(name: &str, os_id: u64, java_id: u64) -> Vec<u8> {
    let mut v = Vec::new();
    utf8(&mut v, name);
    varint(&mut v, os_id);
    utf8(&mut v, name);
    varint(&mut v, java_id);
    v
}

/// Entries referencing other entries by id.
pub fn refs(ids: &[u64]) -> Vec<u8> {
    let mut v = Vec::new();
    for &i in ids {
        varint(&mut v, i);
    }
    v
}

/// A stack trace of (method id, line) frames, leaf first, all of frame type 1.
pub fn stack(frames: &[(u64, u64)]) -> Vec<u8> {
    let mut v = vec![0u8];
    varint(&mut v, frames.len() as u64);
    for &(m, line) in frames {
        varint(&mut v, m);
        varint(&mut v, line);
        varint(&mut v, 0);
        varint(&mut v, 1);
    }
    v
}

/// The pools of a small program: thread 1 "main", class Main, methods main (1) and work (2),
/// stack 1 = main → work, state 1 = STATE_RUNNABLE.
pub fn basic_pools() -> Pools {
    vec![
        (4, vec![(1, thread("main", 100, 1))]),
        (5, vec![(1, sym("Main")), (2, sym("main")), (3, sym("work"))]),
        (6, vec![(1, refs(&[1]))]),
        (7, vec![(1, refs(&[1, 2])), (2, refs(&[1, 3]))]),
        (8, vec![(1, sym("JIT compiled"))]),
        (10, vec![(1, stack(&[(2, 20), (1, 10)]))]),
        (12, vec![(1, sym("STATE_RUNNABLE"))]),
    ]
}

/// An execution sample body: time, thread, stack, state.
pub fn sample(t: u64, thread: u64, stack: u64) -> Vec<u8> {
    refs(&[t, thread, stack, 1])
}
