/** The GC under the pointer, within a pixel either side: against a scan of every GC. */
import { expect, it } from 'vitest';
import { gcAt } from '../intervals';
import { randomSpans, rng } from './rng';

it('finds the GC whose span comes nearest the time, within the tolerance, as a scan of all does', () => {
  const r = rng(3);
  for (let round = 0; round < 300; round++) {
    const { start, duration, order: gcs } = randomSpans(r, Math.floor(r() * 400), 10_000, 0.05, 2000, 0.05);
    const longest = duration.reduce((m, d) => Math.max(m, d), 0);
    for (let q = 0; q < 20; q++) {
      const t = r() * 10_000;
      const tol = r() * 20;
      let want = -1;
      let wantGap = Infinity;
      for (const g of gcs) {
        const end = start[g] + duration[g];
        const gap = t < start[g] ? start[g] - t : t > end ? t - end : 0;
        if (gap <= tol && gap <= wantGap) {
          want = g;
          wantGap = gap;
        }
      }
      expect(gcAt(start, duration, gcs, t, tol, longest)).toBe(want);
    }
  }
  // A pause of 10 µs under a pixel of 3 ms is found from anywhere in that pixel.
  const s = Float64Array.of(100);
  const d = Float32Array.of(0.01);
  expect(gcAt(s, d, Int32Array.of(0), 102.5, 3, 0.01)).toBe(0);
  expect(gcAt(s, d, Int32Array.of(0), 104, 3, 0.01)).toBe(-1);
});
