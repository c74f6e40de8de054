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
        if n > 0 {
            // Which columns stop holding one value, and the stacks lost: a batch in cache read
            // once here, not every row of a piece again when it is sent.
            let v = &mut e.varies;
            note(v, 0, &e.ty, &self.ty[..n], |a, b| a == b);
            note(v, 1, &e.duration_ns, &self.duration[..n], |a, b| a == b);
            note(v, 2, &e.thread, &self.thread[..n], |a, b| a == b);
            note(v, 3, &e.stack, &self.stack[..n], |a, b| a == b);
            note(v, 4, &e.weight, &self.weight[..n], |a, b| a.to_bits() == b.to_bits());
            note(v, 5, &e.state, &self.state[..n], |a, b| a == b);
            note(v, 6, &e.subject, &self.subject[..n], |a, b| a == b);
            note(v, 7, &e.value, &self.value[..n], |a, b| a.to_bits() == b.to_bits());
            note(v, 8, &e.peer, &self.peer[..n], |a, b| a == b);
            e.stacks_lost += self.stack[..n].iter().filter(|&&s| s == crate::columns::STACK_LOST).count();
        }
        e.ty.extend_from_slice(&self.ty[..n]);
        e.start_ns.extend_from_slice(&self.start[..n]);
        e.duration_ns.extend_from_slice(&self.duration[..n]);
        e.thread.extend_from_slice(&self.thread[..n]);
        e.stack.extend_from_slice(&self.stack[..n]);
        e.weight.extend_from_slice(&self.weight[..n]);
        e.state.extend_from_slice(&self.state[..n]);
        e.subject.extend_from_slice(&self.subject[..n]);
        e.value.extend_from_slice(&self.value[..n]);
        e.peer.extend_from_slice(&self.peer[..n]);
        e.chunk.resize(e.chunk.len() + n, self.chunk);
        e.offset.extend_from_slice(&self.offset[..n]);
        self.n = 0;
    }
}

/// Sets bit `bit` of `varies` when `batch` holds a value other than the column's first (the
/// batch's own first when the column has no rows yet).
#[inline]
fn note<T: Copy>(varies: &mut u16, bit: u32, column: &[T], batch: &[T], same: impl Fn(T, T) -> bool) {
    if *varies & (1 << bit) != 0 {
        return;
    }
    let first = column.first().copied().unwrap_or(batch[0]);
    if !batch.iter().all(|&x| same(x, first)) {
        *varies |= 1 << bit;
    }
}
