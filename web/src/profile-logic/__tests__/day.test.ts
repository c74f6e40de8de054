import { describe, expect, it } from 'vitest';
import type { RecordingShape } from '../../columns/profile';
import { cellRange, dayGrid } from '../day';

/** A shape from 10:00:58 UTC for `n` seconds, second k holding k samples and k / 10 waiting threads. */
function shape(n: number): RecordingShape {
  const startMs = Date.UTC(2026, 10, 24, 10, 0, 58);
  return {
    startMs,
    binMs: 1000,
    samples: Uint32Array.from({ length: n }, (_, k) => k),
    allocs: new Uint32Array(n),
    waiting: Float64Array.from({ length: n }, (_, k) => k / 10),
  };
}

describe('the day grid', () => {
  it('puts each second in its minute’s column at its second of the minute', () => {
    const g = dayGrid(shape(125), 'samples');
    // 10:00:58 … 10:03:02: four minutes, 10:00 to 10:03.
    expect(g.minute0).toBe(Date.UTC(2026, 10, 24, 10, 0) / 60_000);
    expect(g.cols).toBe(4);
    expect(g.values[58]).toBe(0);
    expect(g.values[59]).toBe(1);
    expect(g.values[60]).toBe(2); // 10:01:00
    expect(g.values[3 * 60 + 2]).toBe(124); // 10:03:02
    expect(Number.isNaN(g.values[57])).toBe(true); // before the recording
    expect(Number.isNaN(g.values[3 * 60 + 3])).toBe(true); // after it
    expect(g.max).toBe(124);
    expect(dayGrid(shape(125), 'waiting').values[60]).toBeCloseTo(0.2);
  });

  it('starts at the recording’s first second: bins of waits that began before it are left out', () => {
    const s = shape(125);
    // The recording starts at 10:01:03.4, five seconds and a bit into the shape.
    const g = dayGrid(s, 'samples', s.startMs + 5_400);
    expect(g.minute0).toBe(Date.UTC(2026, 10, 24, 10, 1) / 60_000);
    expect(g.cols).toBe(3);
    expect(Number.isNaN(g.values[2])).toBe(true); // 10:01:02, before it
    expect(g.values[3]).toBe(5); // 10:01:03
    expect(g.values[2 * 60 + 2]).toBe(124); // 10:03:02
    // A start before the shape's first bin leaves the grid as it is.
    expect(dayGrid(s, 'samples', s.startMs - 60_000)).toEqual(dayGrid(s, 'samples'));
  });

  it('a drag selects from the earlier second’s start to the later one’s end; a click the minute', () => {
    const s = shape(125);
    const g = dayGrid(s, 'samples');
    const origin = s.startMs;
    // From 10:01:30 back to 10:00:59 (dragged leftwards).
    expect(cellRange(g, [1, 30], [0, 59], origin)).toEqual([1000, 33_000]);
    // A click on 10:02:10 selects 10:02:00–10:03:00.
    expect(cellRange(g, [2, 10], [2, 10], origin)).toEqual([62_000, 122_000]);
  });
});
