import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { callTree, invertedTree, type CallNode } from '../calltree';
import {
  fdr,
  betaIncomplete,
  binomialTest,
  compareMethods,
  countTest,
  diffTree,
  direction,
  enoughEvents,
  lnGamma,
  MIN_EVENTS,
  sortRises,
  type DiffNode,
  type Measure,
  type RiseKey,
} from '../compare';
import { topMethods } from '../methods';
import { buildProfile, type Ev } from './build';
import { weightPerStack } from './reference';
import { rng } from './rng';

/** The exact p-values of cli/tests/pvalues.py, which cli/src/diff.rs is tested against too. */
const table = readFileSync(fileURLToPath(new URL('../../../../cli/tests/pvalues.tsv', import.meta.url)), 'utf8')
  .trim()
  .split('\n')
  .slice(1)
  .map((l) => l.split('\t').map(Number));

/** P(X = k) for X ~ Binomial(n, p), by the product formula (small n only). */
function pmf(k: number, n: number, p: number): number {
  let c = 1;
  for (let j = 0; j < k; j++) c = (c * (n - j)) / (j + 1);
  return c * p ** k * (1 - p) ** (n - k);
}

function relClose(got: number, want: number, rel: number) {
  if (want === 0) expect(got).toBe(0);
  else expect(Math.abs(got - want) / want).toBeLessThan(rel);
}

/** A small deterministic generator (mulberry32), so a failure can be replayed. */

describe('the confidence measure', () => {
  it('ln Γ matches known values', () => {
    expect(lnGamma(1)).toBeCloseTo(0, 12);
    expect(lnGamma(2)).toBeCloseTo(0, 12);
    expect(lnGamma(0.5)).toBeCloseTo(Math.log(Math.sqrt(Math.PI)), 12);
    expect(lnGamma(10)).toBeCloseTo(Math.log(362880), 12);
    relClose(lnGamma(100), 359.1342053695754, 1e-14);
    relClose(lnGamma(1e6), 12815504.569147611, 1e-14);
  });

  it('the regularized incomplete beta function matches closed forms', () => {
    for (const x of [0.01, 0.2, 0.5, 0.77, 0.999]) {
      relClose(betaIncomplete(x, 1, 1)[0], x, 1e-13);
      relClose(betaIncomplete(x, 3, 1)[0], x ** 3, 1e-12);
      relClose(betaIncomplete(x, 1, 4)[0], 1 - (1 - x) ** 4, 1e-12);
      const [v, w] = betaIncomplete(x, 2.5, 7);
      expect(v + w).toBeCloseTo(1, 14);
    }
    // I_0.4(2, 3) = P(Binomial(4, 0.4) ≥ 2) = 1 − 0.6⁴ − 4 · 0.4 · 0.6³.
    relClose(betaIncomplete(0.4, 2, 3)[0], 0.5248, 1e-13);
    expect(betaIncomplete(0.5, 40, 40)[0]).toBeCloseTo(0.5, 12);
    expect(betaIncomplete(0.5, 12345, 12345)[0]).toBeCloseTo(0.5, 10);
  });

  it('the binomial test equals exact enumeration for small n', () => {
    const r = rng(7);
    for (let t = 0; t < 300; t++) {
      const n = 1 + Math.floor(r() * 60);
      const k = Math.floor(r() * (n + 1));
      const p = 0.02 + 0.96 * r();
      let below = 0;
      let above = 0;
      for (let j = 0; j <= n; j++) {
        if (j <= k) below += pmf(j, n, p);
        if (j >= k) above += pmf(j, n, p);
      }
      relClose(binomialTest(k, n, p), Math.min(1, 2 * Math.min(below, above)), 1e-9);
    }
  });

  it('equals the exact p-values of cli/tests/pvalues.tsv (the CLI is tested against the same table)', () => {
    expect(table.length).toBeGreaterThan(15);
    for (const [a, A, b, B, want] of table) relClose(countTest(a, A, b, B), want, 1e-9);
  });

  it('has no answer when a side is empty', () => {
    expect(countTest(0, 0, 5, 100)).toBeNaN();
    expect(countTest(3, 20, 0, 0)).toBeNaN();
    expect(countTest(0, 20, 0, 100)).toBe(1);
  });
});

const types = [
  { name: 'jdk.ExecutionSample', kind: 'cpu' as const },
  { name: 'jdk.ObjectAllocationSample', kind: 'alloc' as const },
];

/** `n` events of each stack, at times from `t`. */
const many = (stack: string | null, n: number, t: number, over: Partial<Ev> = {}): Ev[] =>
  Array.from({ length: n }, (_, k) => ({ type: 0, t: t + k * 1e-3, thread: 0, stack, ...over }));

describe('comparing methods', () => {
  // Calm: 100 samples, 20 under parse. Spike: 60 samples, 40 under parse (skipBytes self).
  const p = buildProfile(types, ['w'], [
    ...many('run;serve;read', 80, 0),
    ...many('run;serve;parse;skipBytes', 20, 1),
    ...many('run;serve;read', 20, 50),
    ...many('run;serve;parse;skipBytes', 40, 51),
  ]);
  const events = (from: number, to: number) => Int32Array.from(p.events.start.map((t, i) => (t >= from && t < to ? i : -1)).filter((i) => i >= 0));
  const calm = weightPerStack(p, events(0, 49), 'samples');
  const spike = weightPerStack(p, events(49, 100), 'samples');
  const name = (s: string) => p.strings.indexOf(s);

  it('shows counts for both sides, shares, change, p-value and score', () => {
    const { rows, totals } = compareMethods(p, spike, calm);
    expect(totals).toEqual({ a: 60, b: 100, na: 60, nb: 100 });
    const parse = rows.find((r) => r.name === name('parse'))!;
    expect(parse.total).toMatchObject({ a: 40, b: 20, na: 40, nb: 20 });
    expect(parse.total.share).toBeCloseTo(40 / 60);
    expect(parse.total.baseShare).toBeCloseTo(0.2);
    expect(parse.total.delta).toBeCloseTo(40 / 60 - 0.2);
    expect(parse.total.p).toBeCloseTo(countTest(40, 60, 20, 100), 15);
    expect(parse.total.p).toBeLessThan(1e-4);
    expect(parse.total.score).toBeCloseTo(parse.total.delta * (1 - parse.total.p));
    expect(parse.self.a).toBe(0);
    // run is under everything: no change, p = 1, score 0.
    const run = rows.find((r) => r.name === name('run'))!;
    expect(run.total.delta).toBeCloseTo(0);
    expect(run.total.p).toBe(1);
    // Rows come by score: the rises first, the falls last.
    expect([rows[0].name, rows[1].name].sort()).toEqual([name('parse'), name('skipBytes')].sort());
    expect(p.strings[rows[rows.length - 1].name]).toBe('read');
    expect(direction(rows[rows.length - 1].total, 0.05)).toBe(-1);
  });

  it('tests weights that are not counts on the events under each method', () => {
    // Allocations: 30 small ones under a in both sides; in the selection, 2 huge ones under b.
    const q = buildProfile(types, ['w'], [
      ...many('main;a', 30, 0, { type: 1, weight: 10 }),
      ...many('main;b', 30, 1, { type: 1, weight: 10 }),
      ...many('main;a', 30, 50, { type: 1, weight: 10 }),
      ...many('main;b', 28, 51, { type: 1, weight: 10 }),
      ...many('main;b', 2, 52, { type: 1, weight: 100_000 }),
    ]);
    const ev = (from: number, to: number) => Int32Array.from(q.events.start.map((t, i) => (t >= from && t < to ? i : -1)).filter((i) => i >= 0));
    const sel = weightPerStack(q, ev(49, 100), 'bytes');
    const base = weightPerStack(q, ev(0, 49), 'bytes');
    const { rows, totals } = compareMethods(q, sel, base, weightPerStack(q, ev(49, 100), 'events'), weightPerStack(q, ev(0, 49), 'events'));
    expect(totals).toEqual({ a: 200_580, b: 600, na: 60, nb: 60 });
    const b = rows.find((r) => q.strings[r.name] === 'b')!.total;
    expect(b.delta).toBeGreaterThan(0.4); // bytes: b holds nearly all of the selection
    expect(b.countDelta).toBe(0); // events: 30 of 60 on both sides
    expect(b.p).toBe(1);
    expect(direction(b, 0.05)).toBe(0);
  });

  it('says an empty or tiny side is too small, and never ranks its rows', () => {
    const none = new Float64Array(calm.length);
    const empty = compareMethods(p, none, calm);
    expect(enoughEvents(empty.totals)).toBe(false);
    for (const r of empty.rows) {
      expect(r.total.p).toBeNaN();
      expect(r.total.score).toBe(0);
      expect(direction(r.total, 0.05)).toBe(0);
    }
    const one = weightPerStack(p, events(51, 51.0005), 'samples');
    expect(one.reduce((x, y) => x + y)).toBe(1);
    expect(enoughEvents(compareMethods(p, one, calm).totals)).toBe(false);
    const nineteen = weightPerStack(p, Int32Array.from({ length: MIN_EVENTS - 1 }, (_, k) => 100 + k), 'samples');
    expect(enoughEvents(compareMethods(p, nineteen, calm).totals)).toBe(false);
    const twenty = weightPerStack(p, Int32Array.from({ length: MIN_EVENTS }, (_, k) => 100 + k), 'samples');
    expect(enoughEvents(compareMethods(p, twenty, calm).totals)).toBe(true);
  });

  it('sorts by every column, both ways', () => {
    const { rows } = compareMethods(p, spike, calm);
    const nameOf = (n: number) => p.strings[n];
    const keys: Exclude<RiseKey, 'name'>[] = ['a', 'b', 'share', 'baseShare', 'delta', 'p', 'score'];
    for (const measure of ['total', 'self'] as Measure[]) {
      for (const key of keys) {
        const down = sortRises(rows, key, measure, true, nameOf).map((r) => r[measure][key]);
        expect(down).toEqual([...down].sort((x, y) => y - x));
        const up = sortRises(rows, key, measure, false, nameOf).map((r) => r[measure][key]);
        expect(up).toEqual([...up].sort((x, y) => x - y));
      }
    }
    const names = sortRises(rows, 'name', 'total', false, nameOf).map((r) => nameOf(r.name));
    expect(names).toEqual([...names].sort());
  });
});

describe('the table and the diff flame graph agree', () => {
  const frames = ['main', 'run', 'serve', 'read', 'parse', 'skip', 'log', 'lock'];

  function randomCase(seed: number) {
    const r = rng(seed);
    const stacks = Array.from({ length: 12 }, () => {
      const depth = 1 + Math.floor(r() * 5);
      return Array.from({ length: depth }, () => frames[Math.floor(r() * frames.length)]).join(';');
    });
    const evs: Ev[] = [];
    // Each stack gets its own rate in each half, so some methods rise and some fall.
    stacks.forEach((s, k) => {
      evs.push(...many(s, Math.floor(r() * 40), k));
      evs.push(...many(s, Math.floor(r() * 40), 50 + k));
    });
    evs.push(...many(null, 3, 30));
    const p = buildProfile(types, ['w'], evs);
    const half = (lo: number) => Int32Array.from(p.events.start.map((t, i) => (t >= lo && t < lo + 50 ? i : -1)).filter((i) => i >= 0));
    return { p, sel: weightPerStack(p, half(50), 'samples'), base: weightPerStack(p, half(0), 'samples') };
  }

  it('every frame is coloured by its method row: the same sign where significant, grey otherwise', () => {
    let significant = 0;
    for (let seed = 1; seed <= 40; seed++) {
      const { p, sel, base } = randomCase(seed);
      const { rows } = compareMethods(p, sel, base);
      const nameOf = (n: number) => p.strings[n];
      const rowOf = new Map(rows.map((r) => [nameOf(r.name), r]));
      for (const measure of ['total', 'self'] as Measure[]) {
        for (const tree of [callTree(p, sel), invertedTree(p, sel)]) {
          const walk = (n: DiffNode, depth: number) => {
            if (depth > 0 && n.name !== '(no stack)') {
              const row = rowOf.get(n.name)![measure];
              for (const level of [0.05, 0.01]) {
                const colour = direction(n.change!, level);
                expect(colour).toBe(direction(row, level));
                if (colour !== 0) {
                  significant++;
                  expect(colour).toBe(Math.sign(row.delta));
                  expect(row.p).toBeLessThan(level);
                }
              }
            } else expect(n.change).toBeUndefined();
            n.children.forEach((c) => walk(c, depth + 1));
          };
          walk(diffTree(tree, rows, measure, nameOf), 0);
        }
      }
    }
    expect(significant).toBeGreaterThan(50);
  });

  it('the table counts what the top methods count', () => {
    const { p, sel, base } = randomCase(99);
    const { rows } = compareMethods(p, sel, base);
    for (const m of topMethods(p, sel)) {
      const r = rows.find((x) => x.name === m.name)!;
      expect([r.total.a, r.self.a]).toEqual([m.total, m.self]);
    }
    const tree: CallNode = callTree(p, sel);
    expect(rows.reduce((s, r) => s + r.self.a, 0) + sel[sel.length - 1]).toBe(tree.value);
  });
});

describe('q-values (Benjamini–Hochberg)', () => {
  it('adjusts a hand-worked example', () => {
    // Sorted 0.005, 0.01, 0.03, 0.04 of m = 4: 4·p/rank = 0.02, 0.02, 0.04, 0.04 (already monotone).
    expect(fdr([0.01, 0.04, 0.03, 0.005])).toEqual([0.02, 0.04, 0.04, 0.02]);
    // A larger p ranked later caps an earlier one: 3·0.02/1 = 0.06 > 3·0.03/2 = 0.045.
    const q = fdr([0.02, 0.03, 0.9, NaN]);
    expect(q[0]).toBeCloseTo(0.045, 12);
    expect(q[1]).toBeCloseTo(0.045, 12);
    expect(q[2]).toBeCloseTo(0.9, 12);
    expect(q[3]).toBeNaN();
    expect(fdr([])).toEqual([]);
  });

  it('equals the definition on random p-values: min over the as or less significant of m·p / rank', () => {
    const r = rng(5);
    for (let round = 0; round < 200; round++) {
      const n = Math.floor(r() * 60);
      const ps = Array.from({ length: n }, () => (r() < 0.1 ? NaN : r() < 0.3 ? Math.floor(r() * 4) / 4 : r() ** 3));
      const tested = ps.filter((p) => !Number.isNaN(p));
      const m = tested.length;
      const q = fdr(ps);
      ps.forEach((p, i) => {
        if (Number.isNaN(p)) return expect(q[i]).toBeNaN();
        // Rank of each tested p: ties take the largest rank they share (the step-up procedure).
        const rank = (x: number) => tested.filter((y) => y <= x).length;
        const want = Math.min(1, ...tested.filter((x) => x >= p).map((x) => (m * x) / rank(x)));
        expect(q[i]).toBeCloseTo(want, 12);
        expect(q[i]).toBeGreaterThanOrEqual(p);
      });
    }
  });
});

