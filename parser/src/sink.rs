//! The row sink: rows decoded from one chunk, gathered a batch at a time and appended to the
//! event columns of docs/columns.md (columns.rs) in one copy per column.

use crate::chunk::Chunk;
use crate::ticks::Ticks;

/// Rows decoded from one chunk, gathered a batch at a time in small arrays and appended to the
/// columns in one copy per column (twelve pushes per row cost more than the decoding).
pub(crate) struct RowSink {
    pub(crate) ticks: Ticks,
    /// The start of an event without a start time.
    pub(crate) start0: i64,
    pub(crate) chunk: u32,
    pub(crate) base: u64,
    pub(crate) n: usize,
    pub(crate) ty: [u32; BATCH],
    pub(crate) start: [i64; BATCH],
    pub(crate) duration: [i64; BATCH],
    pub(crate) thread: [i32; BATCH],
    pub(crate) stack: [i32; BATCH],
    pub(crate) weight: [f64; BATCH],
    pub(crate) state: [i32; BATCH],
    pub(crate) subject: [i32; BATCH],
    pub(crate) value: [f64; BATCH],
    pub(crate) peer: [i32; BATCH],
    pub(crate) offset: [u64; BATCH],
    /// The latest end (start plus duration, ns) of the rows flushed so far; none without rows.
    pub(crate) end_ns: Option<i64>,
}

pub(crate) const BATCH: usize = 256;

impl RowSink {
    pub(crate) fn new(chunk: &Chunk<'_>) -> Box<RowSink> {
        let ticks = Ticks::new(&chunk.header);
        Box::new(RowSink {
            ticks,
            start0: ticks.nanos(0),
            chunk: chunk.index as u32,
            base: chunk.header.offset,
            n: 0,
            ty: [0; BATCH],
            start: [0; BATCH],
            duration: [0; BATCH],
            thread: [0; BATCH],
            stack: [0; BATCH],
            weight: [0.0; BATCH],
            state: [0; BATCH],
            subject: [0; BATCH],
            value: [0.0; BATCH],
            peer: [0; BATCH],
            offset: [0; BATCH],
            end_ns: None,
        })
    }

    #[allow(clippy::too_many_arguments)]
    #[inline]
    pub(crate) fn push(&mut self, e: &mut crate::columns::Events, ty: u32, start: i64, duration: i64, thread: i32, stack: i32, weight: f64, state: i32, subject: i32, value: f64, peer: i32, pos: usize) {
        let i = self.n;
        if i >= BATCH {
            self.flush(e);
            return self.push(e, ty, start, duration, thread, stack, weight, state, subject, value, peer, pos);
        }
        self.ty[i] = ty;
        self.start[i] = start;
        self.duration[i] = duration;
        self.thread[i] = thread;
        self.stack[i] = stack;
        self.weight[i] = weight;
        self.state[i] = state;
        self.subject[i] = subject;
        self.value[i] = value;
        self.peer[i] = peer;
        self.offset[i] = self.base + pos as u64;
        self.n = i + 1;
    }

    #[inline(never)]
    pub(crate) fn flush(&mut self, e: &mut crate::columns::Events) {
        let n = self.n.min(BATCH);
        self.n = 0;
        if n == 0 {
            return;
        }
        let end = self.start[..n].iter().zip(&self.duration[..n]).map(|(&t, &d)| t.saturating_add(d)).max();
        self.end_ns = self.end_ns.max(end);
        // Which columns stop holding one value, and the stacks lost: a batch in cache read once
        // here, not every row of a piece again when it is sent.
        let v = &mut e.varies;
        note(v, 2, e.thread.first(), &self.thread[..n], |a, b| a == b);
        note(v, 3, e.stack.first(), &self.stack[..n], |a, b| a == b);
        note(v, 4, e.weight.first(), &self.weight[..n], |a, b| a.to_bits() == b.to_bits());
        note(v, 5, e.state.first(), &self.state[..n], |a, b| a == b);
        note(v, 6, e.subject.first(), &self.subject[..n], |a, b| a == b);
        note(v, 7, e.value.first(), &self.value[..n], |a, b| a.to_bits() == b.to_bits());
        note(v, 8, e.peer.first(), &self.peer[..n], |a, b| a == b);
        e.stacks_lost += self.stack[..n].iter().filter(|&&s| s == crate::columns::STACK_LOST).count();
        e.thread.extend_from_slice(&self.thread[..n]);
        e.stack.extend_from_slice(&self.stack[..n]);
        e.weight.extend_from_slice(&self.weight[..n]);
        e.state.extend_from_slice(&self.state[..n]);
        e.subject.extend_from_slice(&self.subject[..n]);
        e.value.extend_from_slice(&self.value[..n]);
        e.peer.extend_from_slice(&self.peer[..n]);
        if let Some(m) = &mut e.ms {
            // The page's form, converted while the batch is in cache: the type as a u16, times
            // in ms since the origin (a duration as an f32), offsets as f64; whether the type
            // or the duration varies, in that form.
            let ty: [u16; BATCH] = std::array::from_fn(|i| self.ty[i].min(u16::MAX as u32) as u16);
            let duration: [f32; BATCH] = std::array::from_fn(|i| (self.duration[i] as f64 / 1e6) as f32);
            note(v, 0, m.ty.first(), &ty[..n], |a, b| a == b);
            note(v, 1, m.duration.first(), &duration[..n], |a, b| a.to_bits() == b.to_bits());
            m.ty.extend_from_slice(&ty[..n]);
            m.duration.extend_from_slice(&duration[..n]);
            let mut end = m.end;
            for (&t, &d) in self.start[..n].iter().zip(&duration[..n]) {
                let s = m.ms_since(t);
                m.start.push(s);
                let x = s + f64::from(d);
                end = if x > end { x } else { end };
            }
            m.end = end;
            m.offset.extend(self.offset[..n].iter().map(|&o| o as f64));
        } else {
            note(v, 0, e.ty.first(), &self.ty[..n], |a, b| a == b);
            note(v, 1, e.duration_ns.first(), &self.duration[..n], |a, b| a == b);
            e.ty.extend_from_slice(&self.ty[..n]);
            e.start_ns.extend_from_slice(&self.start[..n]);
            e.duration_ns.extend_from_slice(&self.duration[..n]);
            e.chunk.resize(e.chunk.len() + n, self.chunk);
            e.offset.extend_from_slice(&self.offset[..n]);
        }
    }
}

/// Sets bit `bit` of `varies` when `batch` holds a value other than the column's `first` (the
/// batch's own first when the column has no rows yet).
#[inline]
fn note<T: Copy>(varies: &mut u16, bit: u32, first: Option<&T>, batch: &[T], same: impl Fn(T, T) -> bool) {
    if *varies & (1 << bit) != 0 {
        return;
    }
    let first = first.copied().unwrap_or(batch[0]);
    if !batch.iter().all(|&x| same(x, first)) {
        *varies |= 1 << bit;
    }
}
