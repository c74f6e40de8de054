/**
 * The share of each pixel column that a set of intervals covers (the GC band's opacity), against
 * a brute force that samples every column at many points and asks whether any interval holds
 * the point; overlapping intervals count once.
 */
import { describe, expect, it } from 'vitest';
import { coveredPerColumn } from '../pixel-columns';
import { rng } from './rng';

/** Per column, the share of evenly spaced points (at their centres) inside some interval. */
function sampled(start: number[], duration: number[], from: number, to: number, n: number, points: number): number[] {
  const w = (to - from) / n;
  const out: number[] = [];
  for (let c = 0; c < n; c++) {
    let inside = 0;
    for (let p = 0; p < points; p++) {
      const t = from + c * w + ((p + 0.5) / points) * w;
      if (start.some((s, k) => s <= t && t < s + duration[k])) inside++;
    }
    out.push(inside / points);
  }
  return out;
}

describe('coveredPerColumn', () => {
  it('agrees with point sampling on random, overlapping, nested intervals', () => {
    const r = rng(7);
    for (let round = 0; round < 40; round++) {
      const m = 1 + Math.floor(r() * 30);
      const start = Array.from({ length: m }, () => r() * 100 - 10);
      const duration = start.map(() => (r() < 0.3 ? r() * 40 : r() * 2));
      const list = Int32Array.from(start.map((_, k) => k).sort((a, b) => start[a] - start[b]));
      const from = r() * 20;
      const to = from + 10 + r() * 80;
      const n = 1 + Math.floor(r() * 50);
      const got = coveredPerColumn(Float64Array.from(start), Float64Array.from(duration), list, from, to, n);
      const want = sampled(start, duration, from, to, n, 2000);
      expect(got.length).toBe(n);
      // Sampling at 2000 points a column is within 1/1000 of the exact share.
      for (let c = 0; c < n; c++) expect(Math.abs(got[c] - want[c])).toBeLessThan(2e-3);
    }
  });

  it('gives a thousand 1 ms pauses a minute about 1.7% of each column, not whole columns', () => {
    const start = Float64Array.from({ length: 1000 }, (_, k) => k * 60);
    const duration = new Float64Array(1000).fill(1);
    const list = Int32Array.from({ length: 1000 }, (_, k) => k);
    const got = coveredPerColumn(start, duration, list, 0, 60_000, 100);
    for (const v of got) expect(v).toBeCloseTo(1 / 60, 6);
  });

  it('is empty for an empty window and has nothing outside the intervals', () => {
    expect(coveredPerColumn(new Float64Array([1]), new Float64Array([1]), new Int32Array([0]), 5, 5, 10).every((v) => v === 0)).toBe(true);
    const got = coveredPerColumn(new Float64Array([50]), new Float64Array([10]), new Int32Array([0]), 0, 100, 10);
    expect([...got]).toEqual([0, 0, 0, 0, 0, 1, 0, 0, 0, 0]);
  });
});
