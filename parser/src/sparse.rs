//! The bytes of a chunk an overview pass ([`crate::Pass::Overview`]) reads: all but the bodies
//! of the checkpoints that hold one pool it never looks into, such as the JDK's stack traces,
//! most of a profiling recording's bytes.
//!
//! ```text
//! chunk   [header][events…][checkpoint: StackTrace × 9,421, 6.5 MB][events…][metadata]
//! read     1st     3rd…     its header only (about 20 bytes)         …        2nd
//! ```
//! The caller reads the byte ranges [`Sparse::need`] asks for, one at a time, and hands each
//! over with [`Sparse::feed`]; what is never asked for stays zero. The metadata comes first
//! (which classes the overview looks into: those the description's event types refer to), then
//! the events in windows that grow while nothing is skipped. The pass walks the same event
//! headers the reading walked, so it steps over a skipped body by its size without reading it;
//! pools are indexed only for the classes looked up (chunk.rs), never one whose body was
//! skipped. A chunk whose header, metadata or event headers cannot be read is read whole, so
//! the pass reports what it would on the whole bytes.

use crate::chunk::CheckpointHead;
use crate::header::{ChunkHeader, HEADER_SIZE};
use crate::metadata::Metadata;
use crate::reader::Reader;
use std::ops::Range;

/// The first window of events read, and after each skip. A read costs the browser about what
/// a megabyte of bytes does: fewer, larger reads of a profile (mixed.jfr: 5 a chunk, 10% of its
/// bytes) cost less than many small ones (64 KB: 16 a chunk, the same bytes).
const MIN_WINDOW: usize = 512 * 1024;
/// The largest window of events read at once.
const MAX_WINDOW: usize = 8 * 1024 * 1024;
/// Bytes the metadata is first read in (the rest, if it is larger, next).
const META_GUESS: usize = 256 * 1024;
/// A checkpoint shorter than this is read even when the overview does not need it: skipping
/// it would cost a read of its own.
const SKIP_MIN: usize = 64 * 1024;

#[derive(Debug, Clone, PartialEq)]
enum State {
    /// The chunk header, with the first window of events.
    Header,
    /// The metadata event, from `at`; `to` read so far.
    Meta { at: usize, to: usize },
    /// Event headers from `pos`, bytes read up to `loaded`; the next read reaches `want` at least.
    Walk { pos: usize, loaded: usize, want: usize },
    /// Everything from `from` (something could not be read: the pass decides what it means).
    Rest { from: usize },
    Done,
}

/// One chunk being read for an overview: its bytes so far, zero where not read.
pub struct Sparse {
    offset: u64,
    bytes: Vec<u8>,
    state: State,
    /// Per class index of the chunk's metadata: whether the overview may look into its pool.
    needed: Vec<bool>,
    meta: Option<(Metadata, bool)>,
    meta_range: Range<usize>,
    compressed: bool,
    /// Bytes read from the start (the header and the first events).
    first: usize,
    window: usize,
    read: usize,
}

impl Sparse {
    /// A chunk at absolute `offset` of which `size` bytes are in the file.
    pub fn new(offset: u64, size: usize) -> Sparse {
        Sparse { offset, bytes: vec![0; size], state: State::Header, needed: Vec::new(), meta: None, meta_range: 0..0, compressed: false, first: 0, window: MIN_WINDOW, read: 0 }
    }

    /// The chunk-relative byte range to read next, or `None` when the overview has what it needs.
    pub fn need(&self) -> Option<Range<usize>> {
        let size = self.bytes.len();
        let r = match self.state {
            State::Header => 0..MIN_WINDOW.min(size),
            State::Meta { at, to } => to..(at.max(to) + META_GUESS).min(size).max(to),
            State::Walk { loaded, want, .. } => {
                let mut end = (loaded + self.window).max(want).min(size);
                // The metadata was read already.
                if loaded < self.meta_range.start && end > self.meta_range.start && want <= self.meta_range.start {
                    end = self.meta_range.start;
                }
                loaded..end
            }
            State::Rest { from } => from..size,
            State::Done => return None,
        };
        (r.start < r.end).then_some(r)
    }

    /// The bytes of the range [`Sparse::need`] asked for (fewer if the file ended early).
    pub fn feed(&mut self, data: &[u8]) {
        let Some(r) = self.need() else { return };
        let n = data.len().min(r.end - r.start);
        self.bytes[r.start..r.start + n].copy_from_slice(&data[..n]);
        self.read += n;
        if n < r.end - r.start {
            // The file ended early: what there is is all there is.
            self.bytes.truncate(r.start + n);
            self.state = State::Done;
            return;
        }
        self.state = match std::mem::replace(&mut self.state, State::Done) {
            State::Header => match ChunkHeader::parse(&self.bytes, self.offset) {
                Ok(h) if (h.meta_offset as usize) >= HEADER_SIZE && (h.meta_offset as usize) < self.bytes.len() => {
                    let at = h.meta_offset as usize;
                    self.compressed = h.compressed;
                    self.first = r.end;
                    self.meta_range = at..at;
                    if at < r.end {
                        self.after_meta(at, r.end)
                    } else {
                        State::Meta { at, to: at }
                    }
                }
                _ => State::Rest { from: r.end },
            },
            State::Meta { at, .. } => self.after_meta(at, r.end),
            State::Walk { pos, .. } => {
                self.window = (self.window * 2).min(MAX_WINDOW);
                self.walk(pos, r.end)
            }
            State::Rest { .. } | State::Done => State::Done,
        };
        if self.need().is_none() && self.state != State::Done {
            self.state = State::Done;
        }
    }

    /// Bytes read so far.
    pub fn bytes_read(&self) -> usize {
        self.read
    }

    /// The chunk's bytes, zero where not read (call once [`Sparse::need`] is `None`).
    pub fn bytes(&self) -> &[u8] {
        &self.bytes
    }

    fn after_meta(&mut self, at: usize, to: usize) -> State {
        let compressed = self.compressed;
        let mut r = Reader::new(&self.bytes[..to], self.offset, compressed);
        let size = match r.seek(at).and_then(|_| r.int()) {
            Ok(s) if s > 0 => s as usize,
            _ => return State::Rest { from: self.first },
        };
        let end = at.saturating_add(size);
        if end > to && end <= self.bytes.len() {
            return State::Meta { at, to };
        }
        if end > self.bytes.len() {
            return State::Rest { from: self.first };
        }
        let mut r = Reader::new(&self.bytes[..end], self.offset, compressed);
        let md = match r.seek(at).and_then(|_| Metadata::parse(&mut r)) {
            Ok(md) => md,
            Err(_) => return State::Rest { from: self.first },
        };
        self.meta_range = at..to;
        self.needed = needed_classes(&md);
        self.meta = Some((md, compressed));
        self.walk(HEADER_SIZE, self.first)
    }

    /// Walk the event headers from `pos` over the bytes read (up to `loaded`, and the metadata),
    /// stepping over the bodies of checkpoints the overview does not need.
    fn walk(&mut self, mut pos: usize, mut loaded: usize) -> State {
        let Some((md, compressed)) = &self.meta else { return State::Rest { from: loaded } };
        let size = self.bytes.len();
        loop {
            if self.meta_range.contains(&loaded) {
                loaded = self.meta_range.end;
            }
            if pos >= size {
                return State::Done;
            }
            let mut r = Reader::new(&self.bytes[..loaded.max(pos)], self.offset, *compressed);
            let head = r.seek(pos).and_then(|_| Ok((r.int()?, r.long()?)));
            let (esize, ty) = match head {
                Ok((s, t)) => (s, t),
                // The header is not read yet.
                Err(_) if loaded < size => return State::Walk { pos, loaded, want: 0 },
                Err(_) => return State::Done,
            };
            // (checked: on wasm32 a hostile size could wrap the sum and walk backwards for ever)
            let end = match pos.checked_add(esize as usize) {
                Some(end) if esize > 0 && end <= size => end,
                // The pass stops here with an error; the checkpoints it may look for are read.
                _ => return if loaded < size { State::Rest { from: loaded } } else { State::Done },
            };
            if end <= loaded {
                pos = end;
                continue;
            }
            if ty == 1 && esize as usize >= SKIP_MIN {
                match one_pool(&mut r, pos) {
                    Some(id) if md.class_index(id).is_some_and(|c| !self.needed.get(c).copied().unwrap_or(true)) => {
                        pos = end;
                        loaded = end;
                        self.window = MIN_WINDOW;
                        continue;
                    }
                    // Its header is not read yet.
                    None if r.pos() >= loaded && loaded < size => return State::Walk { pos, loaded, want: 0 },
                    _ => {}
                }
            }
            return State::Walk { pos, loaded, want: end };
        }
    }
}

/// The class id of the one pool of the checkpoint at `pos`, if it holds one.
fn one_pool(r: &mut Reader<'_>, pos: usize) -> Option<u64> {
    r.seek(pos).ok()?;
    match CheckpointHead::read(r).ok()?.pools {
        1 => r.long().ok().map(|id| id as u64),
        _ => None,
    }
}

/// Per class index: whether the overview may look into its pool: the classes of the fields it
/// decodes of the description's event types ([`crate::INFO_FIELDS`]), those their fields refer
/// to at any depth, strings and threads.
fn needed_classes(md: &Metadata) -> Vec<bool> {
    let mut needed = vec![false; md.classes.len()];
    // Threads too: every chunk's thread pool is read for the identities chained across chunks.
    let mut todo: Vec<usize> = ["java.lang.String", "java.lang.Thread"].iter().filter_map(|n| md.class_by_name(n)).collect();
    for c in &md.classes {
        let n = c.name.as_str();
        if crate::decode::INFO_TYPES.contains(&n) || crate::FLAG_TYPES.contains(&n) {
            todo.extend(c.fields.iter().filter(|f| crate::INFO_FIELDS.contains(&f.name.as_str())).map(|f| f.class));
        }
    }
    while let Some(c) = todo.pop() {
        if c >= needed.len() || std::mem::replace(&mut needed[c], true) {
            continue;
        }
        todo.extend(md.classes[c].fields.iter().map(|f| f.class));
    }
    needed
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testutil::*;

    /// Read a chunk as the browser does, through `need` and `feed`.
    fn read_sparse(data: &[u8]) -> Sparse {
        let mut s = Sparse::new(0, data.len());
        let mut steps = 0;
        while let Some(r) = s.need() {
            s.feed(&data[r.start..r.end.min(data.len())]);
            steps += 1;
            assert!(steps < 10_000, "no end to the reads");
        }
        s
    }

    #[test]
    fn a_large_checkpoint_of_stack_traces_is_skipped_and_the_overview_is_the_same() {
        // Thread and method pools in one checkpoint, 200,000 stack traces in another, samples,
        // and the metadata last (as the JDK writes a chunk).
        let mut traces = Vec::new();
        for i in 1..=200_000u64 {
            traces.push((i, stack(&[(2, 20 + i % 7), (1, 10), (1, 11)])));
        }
        let mut evs = vec![checkpoint(&basic_pools()), checkpoint(&vec![(10, traces)])];
        for i in 0..50u64 {
            evs.push(event(20, &sample(1000 + i, 1, 1 + i % 3000)));
        }
        evs.push(metadata(&basic_classes()));
        let data = chunk(&evs, evs.len() - 1, Some(0), 7_000);
        let s = read_sparse(&data);
        assert!(s.bytes_read() < data.len() / 2, "read {} of {} bytes", s.bytes_read(), data.len());
        let opts = crate::Options { only: None, pass: crate::Pass::Overview };
        let (whole, sparse) = (crate::parse(&data, &opts), crate::parse(s.bytes(), &opts));
        assert_eq!(format!("{:?}", sparse.types), format!("{:?}", whole.types));
        assert_eq!(sparse.chunk_counts, whole.chunk_counts);
        assert_eq!(sparse.shape, whole.shape);
        assert_eq!(format!("{:?}", sparse.errors), format!("{:?}", whole.errors));
    }

    #[test]
    fn a_large_checkpoint_of_threads_is_read_for_the_thread_chain() {
        // Stack traces (skipped), then 20,000 threads in a checkpoint of their own, larger than a
        // window of reads: the overview reads every chunk's thread pool
        // (ThreadChain), so that one is read.
        let traces: Vec<_> = (1..=100_000u64).map(|i| (i, stack(&[(2, 20 + i % 7), (1, 10), (1, 11)]))).collect();
        let threads: Vec<_> = (1..=20_000u64).map(|i| (i, thread(&format!("pool-worker-thread-{i}"), 100 + i, i))).collect();
        let mut evs = vec![checkpoint(&vec![(10, traces)]), checkpoint(&vec![(4, threads)])];
        assert!(evs[0].len() > MIN_WINDOW && evs[1].len() > MIN_WINDOW);
        for i in 0..50u64 {
            evs.push(event(20, &sample(1000 + i, 1 + i, 1)));
        }
        evs.push(metadata(&basic_classes()));
        let traces_len = evs[0].len();
        let data = chunk(&evs, evs.len() - 1, Some(1), 7_000);
        let s = read_sparse(&data);
        // The stack traces are skipped.
        assert!(s.bytes_read() < data.len() - traces_len / 2, "read {} of {} bytes", s.bytes_read(), data.len());
        let opts = crate::Options { only: None, pass: crate::Pass::Overview };
        let (whole, sparse) = (crate::parse(&data, &opts), crate::parse(s.bytes(), &opts));
        assert_eq!(whole.chunk_threads.len(), 1);
        assert_eq!((whole.chunk_threads[0].whole, whole.chunk_threads[0].set.len()), (true, 20_000));
        assert_eq!(whole.chunk_threads[0].set[41].1.name, "pool-worker-thread-42");
        let named = |r: &crate::Recording| r.chunk_threads[0].set.iter().filter(|(_, t)| t.name.starts_with("pool-worker-thread-")).count();
        assert_eq!((sparse.chunk_threads.len(), named(&sparse)), (1, 20_000));
        assert!(sparse.chunk_threads == whole.chunk_threads);
    }

    #[test]
    fn a_chunk_whose_metadata_cannot_be_read_is_read_whole() {
        let mut data = chunk(&[metadata(&basic_classes()), checkpoint(&basic_pools()), event(20, &sample(1, 1, 1))], 0, Some(1), 0);
        // The metadata offset points past the end.
        let past = (data.len() as u64 + 10).to_be_bytes();
        data[24..32].copy_from_slice(&past);
        let s = read_sparse(&data);
        assert_eq!(s.bytes(), &data[..]);
        // A file that ends inside the chunk: what there is.
        let cut = &data[..data.len() - 5];
        let mut s = Sparse::new(0, data.len());
        while let Some(r) = s.need() {
            s.feed(&cut[r.start.min(cut.len())..r.end.min(cut.len())]);
        }
        assert_eq!(s.bytes(), cut);
    }
}
