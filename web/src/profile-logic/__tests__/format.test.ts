import { describe, expect, it } from 'vitest';
import { formatClock, formatDate, formatRange, formatTime, parseRange } from '../format';

describe('times', () => {
  // 2026-11-23 14:03:20.125250 UTC
  const t = Date.UTC(2026, 10, 23, 14, 3, 20, 125) + 0.25;

  it('reads the clock in UTC with as many decimals as the spacing needs', () => {
    expect(formatClock(t)).toBe('14:03:20');
    expect(formatClock(t, 100)).toBe('14:03:20.1');
    expect(formatClock(t, 10)).toBe('14:03:20.12');
    expect(formatClock(t, 1)).toBe('14:03:20.125');
    expect(formatClock(t, 0.001)).toBe('14:03:20.125250');
    expect(formatDate(t)).toBe('2026-11-23');
  });

  it('gives a time in the recording since its start or by the clock', () => {
    const start = Date.UTC(2026, 10, 23, 14, 0, 50, 0);
    expect(formatTime(149_300, null)).toBe('2m29.3s');
    // A day-long recording reads in hours, rounding carried through minutes and hours.
    expect(formatTime(60_000_000, null)).toBe('16h40m00.0s');
    expect(formatTime(3_600_000 - 20, null)).toBe('1h00m00.0s');
    expect(formatTime(86_399_950, null)).toBe('24h00m00.0s');
    expect(formatTime(-7_384_500, null)).toBe('-2h03m04.5s');
    expect(formatTime(119_960, null)).toBe('2m00.0s');
    expect(formatTime(59_960, null)).toBe('1m00.0s');
    expect(formatTime(59_940, null)).toBe('59.9 s');
    expect(formatTime(-62_500, null)).toBe('-1m02.5s');
    expect(formatTime(149_125.25, start)).toBe('14:03:19.125 UTC');
    expect(formatTime(150_000, start, 1000)).toBe('14:03:20 UTC');
  });
});

describe('typed ranges', () => {
  it('reads seconds with a hyphen, an en dash or "to", and refuses nonsense', () => {
    expect(parseRange('4.2-4.9', null)).toEqual([4200, 4900]);
    expect(parseRange('4.2–4.9', null)).toEqual([4200, 4900]);
    expect(parseRange(' 4.2 s to 4.9 s ', null)).toEqual([4200, 4900]);
    expect(parseRange('4.9-4.2', null)).toBeNull();
    expect(parseRange('abc', null)).toBeNull();
    expect(parseRange('4.2', null)).toBeNull();
  });

  it('reads clock times on the recording day, round-tripping what it shows', () => {
    const start = Date.UTC(2026, 10, 23, 14, 3, 0, 250);
    expect(parseRange('14:03:20.5-14:03:21', start)).toEqual([20_250, 20_750]);
    expect(parseRange(formatRange([1000, 2500], start), start)).toEqual([1000, 2500]);
    expect(formatRange([1000, 2500], null)).toBe('1–2.5');
    // Seconds still work with clock time on.
    expect(parseRange('1-2', start)).toEqual([1000, 2000]);
  });
});
