import { describe, expect, it } from 'vitest';
import { formatClock, formatDate, formatTime } from '../format';

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
    expect(formatTime(149_125.25, start)).toBe('14:03:19.125 UTC');
    expect(formatTime(150_000, start, 1000)).toBe('14:03:20 UTC');
  });
});
