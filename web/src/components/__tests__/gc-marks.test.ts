/**
 * The timeline's GC marks: drawn as runs of touching marks, they cover exactly the pixels the
 * marks drawn one by one would (each GC in the viewport at least 1 px wide).
 */
import { expect, it } from 'vitest';
import { randomSpans, rng } from '../../profile-logic/__tests__/rng';
import { gcMarkRuns } from '../timeline/draw';

/** Pixels [0, width) a list of spans covers, as a pixel is painted when a span covers any of it. */
function painted(spans: [number, number][], width: number): Uint8Array {
  const px = new Uint8Array(width);
  for (const [a, b] of spans) for (let x = Math.floor(a); x < Math.ceil(b) && x < width; x++) px[x] = 1;
  return px;
}

it('covers the pixels of every GC in the viewport, one rect per run', () => {
  const r = rng(7);
  for (let round = 0; round < 50; round++) {
    const { start, duration, order } = randomSpans(r, Math.floor(r() * 3000), 86_400_000, 0.1, 600_000, 50);
    const vp: [number, number] = [r() * 40_000_000, 40_000_000 + r() * 46_400_000];
    const left = 200;
    const width = 1200;
    const xOf = (t: number) => left + ((t - vp[0]) / (vp[1] - vp[0])) * width;
    // One by one, as marks were drawn before.
    const each: [number, number][] = [];
    for (const i of order) {
      if (start[i] > vp[1] || start[i] + duration[i] < vp[0]) continue;
      const x0 = Math.max(left, xOf(start[i]));
      each.push([x0, x0 + Math.max(1, xOf(start[i] + duration[i]) - x0)]);
    }
    const runs = gcMarkRuns(start, duration, order, vp, xOf, left);
    const merged: [number, number][] = [];
    for (let k = 0; k < runs.length; k += 2) merged.push([runs[k], runs[k + 1]]);
    expect(painted(merged, left + width + 2)).toEqual(painted(each, left + width + 2));
    // Runs neither touch nor overlap one another: each is one rect.
    for (let k = 1; k < merged.length; k++) expect(merged[k][0]).toBeGreaterThan(merged[k - 1][1]);
    if (each.length > 0) expect(merged.length).toBeLessThanOrEqual(each.length);
  }
});
