import { describe, expect, it } from 'vitest';
import { formatClock, formatDate, formatMs, formatRange, formatThreads, formatTick, formatTime, parseRange } from '../format';

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

describe('axis ticks', () => {
  const ticks = (from: number, step: number, n: number) => Array.from({ length: n }, (_, k) => formatTick(from + k * step, step));

  it('reads the first tick in the unit of its neighbours, never as 0 µs', () => {
    expect(ticks(0, 1000, 3)).toEqual(['0 s', '1 s', '2 s']);
    expect(ticks(0, 500, 4)).toEqual(['0 ms', '500 ms', '1.0 s', '1.5 s']);
    expect(ticks(0, 0.2, 2)).toEqual(['0 ms', '0.2 ms']);
    expect(ticks(0, 0.02, 2)).toEqual(['0 µs', '20 µs']);
  });

  it('gives every tick the decimals its step needs, so neighbours differ', () => {
    // 0.01 ms apart: formatMs alone gives 4.3 ms to both.
    expect(ticks(4.25, 0.01, 2)).toEqual(['4.25 ms', '4.26 ms']);
    expect(ticks(9455, 5, 2)).toEqual(['9.455 s', '9.460 s']);
    expect(ticks(0.0035, 0.0005, 2)).toEqual(['3.5 µs', '4.0 µs']);
    // Steps of a float sum (0.1 + 0.2) still read round.
    expect(formatTick(0.1 + 0.2, 0.1)).toBe('0.3 ms');
    for (const step of [0.001, 0.02, 0.5, 2, 50, 250, 1000, 5000]) {
      const labels = ticks(3 * step, step, 20);
      expect(new Set(labels).size).toBe(labels.length);
    }
  });

  it('reads minutes and hours once ticks are a second apart or more', () => {
    expect(formatTick(120_000, 60_000)).toBe('2m00.0s');
    expect(ticks(0, 60_000, 3)).toEqual(['0m00.0s', '1m00.0s', '2m00.0s']);
    expect(ticks(0, 3_600_000, 2)).toEqual(['0m00.0s', '1h00m00.0s']);
    expect(formatTick(61_000, 1000)).toBe('1m01.0s');
    expect(formatTick(65_500, 500)).toBe('65.5 s');
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

  it('reads a time a hair before the origin as 0, a real negative one with its sign', () => {
    expect(formatMs(-0.0001)).toBe('0 µs');
    expect(formatMs(-0.002)).toBe('-2 µs');
    expect(formatMs(0.0004)).toBe('0 µs');
  });
});

describe('threads on average', () => {
  it('keeps two significant digits below one thread, so a few short waits do not read as none', () => {
    expect(formatThreads(0)).toBe('0');
    expect(formatThreads(0.0333)).toBe('0.033');
    expect(formatThreads(0.95)).toBe('0.95');
    expect(formatThreads(8)).toBe('8.0');
    expect(formatThreads(12.345)).toBe('12.3');
  });
});
