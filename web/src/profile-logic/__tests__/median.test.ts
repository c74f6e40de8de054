/** The spike finder's median, by quickselect, against a sort. */
import { expect, it } from 'vitest';
import { median } from '../spikes';
import { rng } from './rng';

function sorted(xs: Float64Array): number {
  const s = Float64Array.from(xs).sort();
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

it('equals the middle of the sorted values, odd and even lengths, ties and runs', () => {
  const r = rng(11);
  for (let round = 0; round < 400; round++) {
    const n = 1 + Math.floor(r() * (round < 300 ? 40 : 20_000));
    const shape = round % 4;
    const xs = Float64Array.from({ length: n }, (_, i) =>
      shape === 0 ? r() * 100 : shape === 1 ? Math.floor(r() * 3) : shape === 2 ? i : n - i,
    );
    const input = Float64Array.from(xs);
    expect(median(xs)).toBe(sorted(xs));
    // The curve itself is left as it was.
    expect(xs).toEqual(input);
  }
  expect(median(new Float64Array(0))).toBe(0);
});
