//! The recording's shape over time, gathered by the count pass: per second of wall-clock time,
//! how many execution and allocation samples started in it, and how many threads waited in it
//! on average (the time waits of the wait kinds overlap the second, divided by the second).
//!
//! ```text
//! jdk.ExecutionSample { startTime long @Timestamp(TICKS), … }            → samples[bin(start)] += 1
//! jdk.ThreadPark { startTime long @Timestamp(TICKS), duration long @Timespan(TICKS), … }
//!   start 10.6 s, duration 0.8 s                                         → waiting[10] += 0.4, waiting[11] += 0.4
//! ```
//! Only the fields right after the type id are read, and only where the chunk's metadata
//! declares them so (`startTime`, then `duration` for waits, both longs in ticks): a type laid
//! out otherwise is counted but adds nothing to the shape. Bins are numbered from the epoch
//! (bin `b` covers `[b, b + 1)` seconds since 1970), so shapes of different chunks and files
//! add up bin by bin.

use crate::chunk::Chunk;
use crate::columns::EventKind;
use crate::metadata::{ClassDesc, FieldUnit, Prim};
use crate::reader::{varint_in_word, Reader};
use crate::ticks::Ticks;

/// Width of a bin: one second.
pub const BIN_NANOS: i64 = 1_000_000_000;

/// How far outside its chunk's time an event may start (and a wait last): an hour.
pub const SLACK_NANOS: i64 = 3_600 * BIN_NANOS;

/// Bins a shape spans at most (48 days of seconds): a timestamp far from the others (a broken
/// clock) is left out instead of growing the arrays without bound.
pub const MAX_BINS: i64 = 1 << 22;

/// Per second of the recording: samples, allocation samples and waiting threads.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Shape {
    /// The first bin's number: it starts `first` seconds after the epoch.
    pub first: i64,
    /// Execution samples (CPU, native-method and wall-clock samples) starting in each bin.
    pub samples: Vec<u32>,
    /// Allocation samples (jdk.ObjectAllocationSample, in and outside TLAB) starting in each bin.
    pub allocs: Vec<u32>,
    /// The part of the waiting threads of each bin from waits that start or end in it: see
    /// [`Shape::waiting`], which adds the waits that cover bins whole.
    part: Vec<f64>,
    /// Waits covering bins whole, as differences: +1 at the first bin a wait covers whole, −1
    /// after the last (one step per wait, however many bins it covers).
    whole: Vec<f64>,
    /// Events whose time fell outside [`MAX_BINS`] of the others, left out.
    pub outside: u64,
}

/// What an event type adds to the shape.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum ShapeRole {
    None,
    Sample,
    Alloc,
    Wait,
}

fn is_tick_long(c: &Chunk<'_>, f: &crate::metadata::FieldDesc, unit: FieldUnit) -> bool {
    !f.cpool && !f.array && f.unit == unit && c.md.classes.get(f.class).is_some_and(|k| k.prim == Some(Prim::Long))
}

/// The role of event class `c` in this chunk: by its kind, when its fields start as the shape
/// reads them.
pub(crate) fn role_of(chunk: &Chunk<'_>, c: &ClassDesc) -> ShapeRole {
    let role = match EventKind::of(&c.name) {
        EventKind::Cpu | EventKind::Native | EventKind::Wall => ShapeRole::Sample,
        EventKind::Alloc => ShapeRole::Alloc,
        EventKind::Lock | EventKind::Park | EventKind::Sleep | EventKind::Io => ShapeRole::Wait,
        _ => return ShapeRole::None,
    };
    let starts = c.fields.first().is_some_and(|f| f.name == "startTime" && is_tick_long(chunk, f, FieldUnit::TimestampTicks));
    let lasts = c.fields.get(1).is_some_and(|f| f.name == "duration" && is_tick_long(chunk, f, FieldUnit::SpanTicks));
    match role {
        _ if !starts => ShapeRole::None,
        ShapeRole::Wait if !lasts => ShapeRole::None,
        r => r,
    }
}

impl Shape {
    /// The index in the arrays of bin `bin`, growing them to hold it; `None` past [`MAX_BINS`].
    fn slot(&mut self, bin: i64) -> Option<usize> {
        let len = self.samples.len() as i64;
        if len == 0 {
            self.first = bin;
            self.grow_back(1);
            return Some(0);
        }
        if bin < self.first {
            let more = self.first - bin;
            if len + more > MAX_BINS {
                return None;
            }
            let k = more as usize;
            self.samples.splice(0..0, std::iter::repeat_n(0, k));
            self.allocs.splice(0..0, std::iter::repeat_n(0, k));
            self.part.splice(0..0, std::iter::repeat_n(0.0, k));
            self.whole.splice(0..0, std::iter::repeat_n(0.0, k));
            self.first = bin;
            return Some(0);
        }
        let i = bin - self.first;
        if i >= len {
            if i >= MAX_BINS {
                return None;
            }
            self.grow_back((i + 1 - len) as usize);
        }
        Some(i as usize)
    }

    /// Waiting threads on average over each bin: the nanoseconds of monitor, park, sleep and
    /// I/O waits that overlap it, divided by [`BIN_NANOS`].
    pub fn waiting(&self) -> Vec<f64> {
        let mut run = 0.0;
        self.part
            .iter()
            .zip(&self.whole)
            .map(|(p, w)| {
                run += w;
                p + run
            })
            .collect()
    }

    fn grow_back(&mut self, n: usize) {
        let len = self.samples.len() + n;
        self.samples.resize(len, 0);
        self.allocs.resize(len, 0);
        self.part.resize(len, 0.0);
        self.whole.resize(len + 1, 0.0);
    }

    /// Add one event of `role` that starts at `start` ns since the epoch and lasts `duration` ns.
    #[inline]
    pub(crate) fn add(&mut self, role: ShapeRole, start: i64, duration: i64) {
        let bin = start.div_euclid(BIN_NANOS);
        // Most events fall in a bin there is, and most waits within it.
        let i = bin.wrapping_sub(self.first);
        if i >= 0 && i < self.samples.len() as i64 {
            let i = i as usize;
            match role {
                ShapeRole::Sample => return self.samples[i] += 1,
                ShapeRole::Alloc => return self.allocs[i] += 1,
                ShapeRole::Wait if duration >= 0 && duration < BIN_NANOS - (start - bin * BIN_NANOS) => {
                    return self.part[i] += duration as f64 / BIN_NANOS as f64;
                }
                _ => {}
            }
        }
        self.add_slow(role, bin, start, duration)
    }

    #[inline(never)]
    fn add_slow(&mut self, role: ShapeRole, bin: i64, start: i64, duration: i64) {
        match role {
            ShapeRole::None => {}
            ShapeRole::Sample | ShapeRole::Alloc => match self.slot(bin) {
                Some(i) if role == ShapeRole::Sample => self.samples[i] += 1,
                Some(i) => self.allocs[i] += 1,
                None => self.outside += 1,
            },
            ShapeRole::Wait => {
                let end = start.saturating_add(duration.max(0));
                let last = end.div_euclid(BIN_NANOS);
                // Both ends first, so that the bins between exist when the middle is filled.
                if self.slot(bin).is_none() || self.slot(last).is_none() {
                    self.outside += 1;
                    return;
                }
                let first = self.first;
                // The two end bins in part, the bins between whole: one step each, so a wait of
                // days costs what one of a millisecond does.
                let ends: &[i64] = if last == bin { &[bin] } else { &[bin, last] };
                for &k in ends {
                    let lo = start.max(k.saturating_mul(BIN_NANOS));
                    let hi = end.min(k.saturating_add(1).saturating_mul(BIN_NANOS));
                    if hi > lo {
                        self.part[(k - first) as usize] += (hi - lo) as f64 / BIN_NANOS as f64;
                    }
                }
                if last - bin >= 2 {
                    self.whole[(bin + 1 - first) as usize] += 1.0;
                    self.whole[(last - first) as usize] -= 1.0;
                }
            }
        }
    }

    /// Add an event of `chunk` unless it starts more than [`SLACK_NANOS`] outside the time the
    /// chunk's header claims (a damaged clock or tick rate: left out, so that the bins stay as
    /// few as the recording's seconds); a wait is cut there.
    #[inline]
    fn add_in(&mut self, chunk: &Chunk<'_>, role: ShapeRole, start: i64, duration: i64) {
        let h = &chunk.header;
        let lo = h.start_nanos.saturating_sub(SLACK_NANOS);
        let hi = h.start_nanos.saturating_add(h.duration_nanos.max(0)).saturating_add(SLACK_NANOS);
        if start < lo || start > hi {
            self.outside += 1;
            return;
        }
        self.add(role, start, duration.min(hi - start))
    }

    /// Read the start (and for waits the duration) of the event whose fields start at `body`
    /// and end at `end` in `chunk`, and add it. An unreadable field adds nothing: the event
    /// decode reports it.
    #[inline]
    pub(crate) fn read(&mut self, chunk: &Chunk<'_>, ticks: &Ticks, role: ShapeRole, body: usize, end: usize) {
        // Compressed integers of up to eight bytes each, read a word at a time.
        if chunk.header.compressed {
            if let Some((t, at)) = varint_at(chunk.data, body, end) {
                if role != ShapeRole::Wait {
                    return self.add_in(chunk, role, ticks.nanos(t as i64), 0);
                }
                if let Some((d, _)) = varint_at(chunk.data, at, end) {
                    return self.add_in(chunk, role, ticks.nanos(t as i64), ticks.duration(d as i64));
                }
            }
        }
        self.read_slow(chunk, ticks, role, body, end)
    }

    #[inline(never)]
    fn read_slow(&mut self, chunk: &Chunk<'_>, ticks: &Ticks, role: ShapeRole, body: usize, end: usize) {
        let Some(mut r) = Reader::bounded(chunk.data, body, end, chunk.header.offset, chunk.header.compressed) else {
            return;
        };
        let Ok(t) = r.long() else { return };
        let d = if role == ShapeRole::Wait {
            match r.long() {
                Ok(d) => ticks.duration(d),
                Err(_) => return,
            }
        } else {
            0
        };
        self.add_in(chunk, role, ticks.nanos(t), d);
    }
}

/// The compressed integer at `pos` when it is at most eight bytes long and ends by `end`, and
/// where it ends.
#[inline(always)]
fn varint_at(data: &[u8], pos: usize, end: usize) -> Option<(u64, usize)> {
    let w: [u8; 8] = data.get(pos..pos.checked_add(8)?)?.try_into().ok()?;
    let (v, n) = varint_in_word(u64::from_le_bytes(w))?;
    (pos + n <= end).then_some((v, pos + n))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn samples_land_in_their_second_and_waits_spread_over_the_seconds_they_overlap() {
        let mut s = Shape::default();
        s.add(ShapeRole::Sample, 10 * BIN_NANOS + 5, 0);
        s.add(ShapeRole::Alloc, 12 * BIN_NANOS - 1, 0);
        s.add(ShapeRole::Wait, 10 * BIN_NANOS + 600_000_000, 800_000_000);
        s.add(ShapeRole::Sample, 8 * BIN_NANOS, 0);
        assert_eq!(s.first, 8);
        assert_eq!(s.samples, vec![1, 0, 1, 0]);
        assert_eq!(s.allocs, vec![0, 0, 0, 1]);
        let w = s.waiting();
        assert!((w[2] - 0.4).abs() < 1e-12 && (w[3] - 0.4).abs() < 1e-12, "{w:?}");
        assert_eq!(w[0] + w[1], 0.0);
        // A wait of 3.5 s from 8.75 s: a quarter of 8, 9 and 10 whole, a quarter of 12.
        s.add(ShapeRole::Wait, 8 * BIN_NANOS + 750_000_000, 3_500_000_000);
        let w = s.waiting();
        let want = [0.25, 1.0, 1.4, 1.4, 0.25];
        assert!(w.iter().zip(want).all(|(a, b)| (a - b).abs() < 1e-12), "{w:?}");
    }

    #[test]
    fn a_type_whose_metadata_does_not_say_ticks_adds_nothing() {
        use crate::testutil::*;
        // The hand-built jdk.ExecutionSample's startTime is a long without @Timestamp("TICKS"):
        // counted, but left out of the shape.
        let c = chunk(&[metadata(&basic_classes()), checkpoint(&basic_pools()), event(20, &sample(5_000, 1, 1))], 0, Some(1), 7_000);
        let rec = crate::parse(&c, &crate::Options { only: None, pass: crate::Pass::Count });
        assert_eq!(rec.types[rec.type_index["jdk.ExecutionSample"] as usize].count, 1);
        assert!(rec.shape.samples.is_empty());
    }

    #[test]
    fn a_time_far_from_the_rest_is_left_out_not_allocated() {
        let mut s = Shape::default();
        s.add(ShapeRole::Sample, 1_700_000_000 * BIN_NANOS, 0);
        s.add(ShapeRole::Sample, 0, 0);
        s.add(ShapeRole::Wait, 1_700_000_000 * BIN_NANOS, i64::MAX);
        assert_eq!((s.samples.len(), s.outside), (1, 2));
        s.add(ShapeRole::Wait, 1_700_000_000 * BIN_NANOS - 1, 2);
        assert_eq!(s.first, 1_699_999_999);
        assert!((s.waiting().iter().sum::<f64>() - 2e-9).abs() < 1e-15);
        // A wait over the whole span costs one step, not one per bin.
        s.add(ShapeRole::Wait, s.first * BIN_NANOS, 100 * BIN_NANOS);
        assert!((s.waiting().iter().sum::<f64>() - 2e-9 - 100.0).abs() < 1e-9, "{} bins", s.samples.len());
    }
}
