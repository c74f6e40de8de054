//! Tick arithmetic: a chunk's header gives its start in ticks and in epoch nanoseconds and the
//! tick rate; every time and duration of its events is a tick count converted here.
//!
//! ```text
//! header: startNanos 1_700_000_000_000_000_000, startTicks 12_345, ticksPerSecond 2_400_000_000
//! event startTime 2_400_012_345 ticks → 1_700_000_001_000_000_000 ns
//! ```

/// Tick → nanosecond conversion of one chunk, without 128-bit division in the usual cases.
#[derive(Clone, Copy)]
pub(crate) struct Ticks {
    pub(crate) start_nanos: i64,
    pub(crate) start_ticks: i64,
    pub(crate) per_second: i64,
}

impl Ticks {
    const NANOS: i64 = 1_000_000_000;

    pub(crate) fn new(h: &crate::header::ChunkHeader) -> Ticks {
        Ticks { start_nanos: h.start_nanos, start_ticks: h.start_ticks, per_second: h.ticks_per_second.max(1) }
    }

    /// Wall-clock ns since the epoch of a tick value.
    #[inline]
    pub(crate) fn nanos(&self, ticks: i64) -> i64 {
        self.start_nanos.wrapping_add(self.duration(ticks.wrapping_sub(self.start_ticks)))
    }

    /// Nanoseconds of a tick span: `ticks * 1e9 / per_second` truncated, as 128-bit arithmetic
    /// gives it (whole seconds and the remainder apart when the remainder's product fits).
    #[inline]
    pub(crate) fn duration(&self, ticks: i64) -> i64 {
        let tps = self.per_second;
        if tps == Self::NANOS {
            ticks
        } else if tps <= i64::MAX / Self::NANOS {
            let (q, r) = (ticks / tps, ticks % tps);
            q.wrapping_mul(Self::NANOS).wrapping_add(r * Self::NANOS / tps)
        } else {
            ((ticks as i128) * Self::NANOS as i128 / tps as i128) as i64
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ticks_agree_with_128_bit_arithmetic() {
        let spans = [0i64, 1, -1, 999_999_999, 1_000_000_001, 123_456_789_012, -987_654_321_098, i64::MAX, i64::MIN, i64::MAX / 3];
        for per_second in [1i64, 3, 1_000_000, 10_000_000, 1_000_000_000, 2_400_000_000, 9_223_372_036, 9_223_372_037, i64::MAX] {
            let t = Ticks { start_nanos: 1_700_000_000_000_000_000, start_ticks: 12_345, per_second };
            for &s in &spans {
                let want = ((s as i128) * 1_000_000_000 / per_second as i128) as i64;
                assert_eq!(t.duration(s), want, "{s} ticks at {per_second}/s");
                assert_eq!(t.nanos(s), t.start_nanos.wrapping_add(t.duration(s.wrapping_sub(12_345))));
            }
        }
    }
}
