/** TupleIds, PrefixTree and CallNodeBuilder against a JS Map of the same tuples as text: the same ids, through many growths. */
import { describe, expect, it } from 'vitest';
import { CallNodeBuilder, PrefixTree, TupleIds } from '../ids';

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

  it('numbers the rows of decoders\' stack tables, piece by piece, as a Map would, and their call nodes as row by row', () => {
    const next = lcg(11);
    const tree = new PrefixTree();
    const calls = new CallNodeBuilder();
    const byRow = new CallNodeBuilder();
    // Frames 0–199 as the merge's tuples (name, class, line, bytecode index, kind), named 0–59
    // (frames of one name under one caller merge into one node).
    const named = new TupleIds(5);
    for (let f = 0; f < 200; f++) named.id(f % 60, 0, f, -1, f % 3);
    const name = (f: number) => f % 60;
    const kind = (f: number) => f % 3;
    const ref = new Map<string, number>();
    const cases = [0, 0, 0];
    const want: number[][] = [];
    const got: Int32Array[] = [];
    // Two decoders, taking turns, each sending its table in pieces.
    const tables = [0, 1].map(() => ({ rows: 0, map: new Int32Array(40_000), want: [] as number[] }));
    for (let piece = 0; piece < 60; piece++) {
      const t = tables[piece & 1];
      const n = 1 + (next() % 1200);
      const prefix = new Int32Array(n);
      const frame = new Uint32Array(n);
      for (let i = 0; i < n; i++) {
        const s = t.rows + i;
        // Mostly a path going on from the row before, else a row anywhere (in this piece or an
        // earlier one) or the root; few frames, so that paths meet, and rows get many children.
        const r = next() % 10;
        prefix[i] = s === 0 || r === 0 ? -1 : r < 3 ? next() % s : s - 1;
        frame[i] = next() % (r < 3 ? 200 : 8);
      }
      // The decoder's frames as the merge numbers them: several of its frames may be one here.
      const frames = Int32Array.from({ length: 200 }, (_, f) => (f * 7 + (piece & 1)) % 190);
      for (let i = 0; i < n; i++) {
        const q = prefix[i];
        const p = q < 0 ? q : t.want[q];
        const key = `${p},${frames[frame[i]]}`;
        const row = ref.get(key) ?? ref.size;
        // Which way the tree finds the row (PrefixTree's three cases).
        cases[p === ref.size - 1 ? 0 : row === p + 1 ? 1 : 2]++;
        ref.set(key, row);
        t.want.push(row);
      }
      tree.addTable(prefix, frame, frames, t.map, t.rows);
      t.rows += n;
      calls.addTree(tree, named, 0, 4);
    }
    for (const t of tables) {
      want.push(t.want);
      got.push(t.map.subarray(0, t.rows));
    }
    expect(got.map((m) => Array.from(m))).toEqual(want);
    expect(tree.size).toBe(ref.size);
    const { frame: frames, prefix: prefixes } = tree.columns();
    for (const [key, id] of ref) expect(`${prefixes[id]},${frames[id]}`).toBe(key);
    for (const c of cases) expect(c).toBeGreaterThan(1000);
    for (let r = 0; r < tree.size; r++) byRow.add(prefixes[r], name(frames[r]), kind(frames[r]));
    expect(calls.columns()).toEqual(byRow.columns());
  });
});
