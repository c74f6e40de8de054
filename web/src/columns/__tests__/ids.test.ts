/** TupleIds and PrefixTree against a JS Map of the same tuples as text: the same ids, through many growths. */
import { describe, expect, it } from 'vitest';
import { PrefixTree, TupleIds } from '../ids';

/** A small deterministic generator (no test depends on Math.random's sequence). */
function lcg(seed: number): () => number {
  let x = seed >>> 0;
  return () => (x = (Math.imul(x, 1664525) + 1013904223) >>> 0);
}

describe('TupleIds', () => {
  for (const width of [2, 5] as const) {
    it(`numbers ${width}-tuples in first-seen order, as a Map would, across growths`, () => {
      const next = lcg(width);
      const ids = new TupleIds(width);
      const ref = new Map<string, number>();
      const got: number[] = [];
      const want: number[] = [];
      for (let i = 0; i < 80_000; i++) {
        // Few distinct values per field (many repeats), negative ones (-1: none) among them.
        const t = Array.from({ length: 5 }, (_, j) => (j < width ? (next() % 700) - 2 : 0));
        const key = t.join(',');
        if (!ref.has(key)) ref.set(key, ref.size);
        want.push(ref.get(key)!);
        got.push(ids.id(t[0], t[1], t[2], t[3], t[4]));
      }
      expect(got).toEqual(want);
      expect(ids.size).toBe(ref.size);
      // The columns give each id's tuple back.
      const cols = Array.from({ length: width }, (_, j) => ids.column(j));
      for (const [key, id] of ref) expect(cols.map((c) => c[id]).join(',')).toBe(key.split(',').slice(0, width).join(','));
    });
  }
});

describe('PrefixTree', () => {
  it('numbers (prefix, frame) pairs in first-seen order, as a Map would, with rows of one child and of hundreds', () => {
    const next = lcg(7);
    const tree = new PrefixTree();
    const ref = new Map<string, number>();
    const got: number[] = [];
    const want: number[] = [];
    for (let i = 0; i < 80_000; i++) {
      const rows = ref.size;
      // Mostly a path going on from the last row (as a decoder sends them), else a row anywhere,
      // row 0 (hundreds of children) or the root.
      const r = next() % 8;
      const prefix = rows === 0 || r === 0 ? -1 : r === 1 ? 0 : r < 4 ? next() % rows : rows - 1;
      const frame = next() % (r < 2 ? 600 : 5);
      const key = `${prefix},${frame}`;
      if (!ref.has(key)) ref.set(key, ref.size);
      want.push(ref.get(key)!);
      got.push(tree.id(prefix, frame));
    }
    expect(got).toEqual(want);
    expect(tree.size).toBe(ref.size);
    const { frame: frames, prefix: prefixes } = tree.columns();
    for (const [key, id] of ref) expect(`${prefixes[id]},${frames[id]}`).toBe(key);
  });
});
