/**
 * A selection against a baseline, method by method, with how sure the change is.
 *
 *   per-stack weights and event counts of each side ─ topMethods ─ per method and measure
 *   (total, self): weights a, b; counts na, nb ─ change(): shares, delta, p-value, score
 *   ─ the table's rows, and the flame graph's frames (each coloured by its method's row)
 *
 * The test conditions on the method's events: under "no change", each of the na + nb events
 * under the method fell in the selection with probability NA / (NA + NB) (the sides' totals), so
 * na ~ Binomial(na + nb, NA / (NA + NB)). The p-value is two-sided, twice the smaller tail,
 * computed exactly for every n through the regularized incomplete beta function:
 *
 *   P(X ≤ k) = I_{1-p}(n - k, k + 1)      P(X ≥ k) = I_p(k, n - k + 1)
 *
 * Weights that are not counts (bytes, durations) are tested on the event counts under the method;
 * their shares and change are of the weights. cli/src/diff.rs computes the same numbers, and both
 * test suites read the same table of exact values (cli/tests/pvalues.tsv).
 */
import type { Profile } from '../columns/profile';
import type { CallNode } from './calltree';
import { topMethods } from './methods';

/** Fewer events than this on either side: the comparison says so instead of showing numbers. */
export const MIN_EVENTS = 20;

/** ln Γ(x) for x > 0: Stirling's series after shifting x up to 15 (error below 1e-14). */
export function lnGamma(x: number): number {
  let shift = 0;
  while (x < 15) {
    shift += Math.log(x);
    x += 1;
  }
  const x2 = x * x;
  const series = (1 / 12 - (1 / 360 - (1 / 1260 - 1 / (1680 * x2)) / x2) / x2) / x;
  return (x - 0.5) * Math.log(x) - x + 0.5 * Math.log(2 * Math.PI) + series - shift;
}

/** The continued fraction of I_x(a, b) (modified Lentz), good for x < (a + 1) / (a + b + 2). */
function betaFraction(x: number, a: number, b: number): number {
  const tiny = 1e-300;
  const front = Math.exp(a * Math.log(x) + b * Math.log1p(-x) - (lnGamma(a) + lnGamma(b) - lnGamma(a + b))) / a;
  // f = 1 + d1 / (1 + d2 / (1 + …)), I = front / f.
  let f = 1;
  let c = 1;
  let d = 0;
  for (let j = 1; j < 1_000_000; j++) {
    const m = j >> 1;
    const dj = j & 1 ? -((a + m) * (a + b + m) * x) / ((a + 2 * m) * (a + 2 * m + 1)) : (m * (b - m) * x) / ((a + 2 * m - 1) * (a + 2 * m));
    d = 1 + dj * d;
    if (Math.abs(d) < tiny) d = tiny;
    c = 1 + dj / c;
    if (Math.abs(c) < tiny) c = tiny;
    d = 1 / d;
    const step = c * d;
    f *= step;
    if (Math.abs(step - 1) < 1e-15) break;
  }
  return front / f;
}

/**
 * The regularized incomplete beta function I_x(a, b) and its complement 1 − I_x(a, b), the
 * smaller of the two computed directly (so a far tail keeps its relative precision).
 */
export function betaIncomplete(x: number, a: number, b: number): [number, number] {
  if (x <= 0) return [0, 1];
  if (x >= 1) return [1, 0];
  if (x < (a + 1) / (a + b + 2)) {
    const v = betaFraction(x, a, b);
    return [v, 1 - v];
  }
  const w = betaFraction(1 - x, b, a);
  return [1 - w, w];
}

/** Two-sided p-value of k successes in n trials of probability p: twice the smaller tail, at most 1. */
export function binomialTest(k: number, n: number, p: number): number {
  if (n <= 0) return 1;
  if (p <= 0) return k === 0 ? 1 : 0;
  if (p >= 1) return k === n ? 1 : 0;
  const below = k >= n ? 1 : betaIncomplete(1 - p, n - k, k + 1)[0]; // P(X ≤ k)
  const above = k <= 0 ? 1 : betaIncomplete(p, k, n - k + 1)[0]; // P(X ≥ k)
  return Math.min(1, 2 * Math.min(below, above));
}

/**
 * Two-sided p-value that a method's na of NA events in the selection and nb of NB in the baseline
 * come from one share: na of na + nb against Binomial(na + nb, NA / (NA + NB)). NaN when a side
 * has no events (nothing to compare with).
 */
export function countTest(na: number, NA: number, nb: number, NB: number): number {
  if (!(NA > 0) || !(NB > 0)) return NaN;
  const a = Math.round(na);
  const n = a + Math.round(nb);
  return binomialTest(a, n, NA / (NA + NB));
}

/** What each side holds in all: weight (samples, bytes, ms or events) and events. */
export interface Totals {
  a: number;
  b: number;
  na: number;
  nb: number;
}

/** A method's change by one measure (total or self). */
export interface Change {
  /** Weight under the method in the selection and in the baseline. */
  a: number;
  b: number;
  /** Events under the method (the same as a, b when the weight is a count). */
  na: number;
  nb: number;
  /** a / A and b / B, 0..1. */
  share: number;
  baseShare: number;
  /** share − baseShare. */
  delta: number;
  /** The change of the count shares, na / NA − nb / NB (what the test is about). */
  countDelta: number;
  /** Two-sided p-value of the count test (NaN: a side is empty). */
  p: number;
  /**
   * The p-value adjusted for the number of methods compared (Benjamini–Hochberg): among the
   * methods at least this significant, the share expected to be chance alone. The p-value alone
   * until the comparison's rows are known (withFdr).
   */
  q: number;
  /** delta × (1 − p): the change, discounted by how likely chance alone makes it. */
  score: number;
}

/** The one function that measures a change, for the table's rows and the flame graph's frames. */
export function change(a: number, na: number, b: number, nb: number, t: Totals): Change {
  const share = t.a > 0 ? a / t.a : 0;
  const baseShare = t.b > 0 ? b / t.b : 0;
  const delta = share - baseShare;
  const countDelta = (t.na > 0 ? na / t.na : 0) - (t.nb > 0 ? nb / t.nb : 0);
  const p = countTest(na, t.na, nb, t.nb);
  return { a, b, na, nb, share, baseShare, delta, countDelta, p, q: p, score: Number.isNaN(p) ? 0 : delta * (1 - p) };
}

/**
 * Benjamini–Hochberg adjusted p-values of `ps` (NaN kept, not counted as a test): the i-th
 * smallest of m becomes min over j ≥ i of m·p(j)/j, at most 1.
 */
export function fdr(ps: readonly number[]): number[] {
  const order = ps.flatMap((p, i) => (Number.isNaN(p) ? [] : [i])).sort((x, y) => ps[x] - ps[y]);
  const m = order.length;
  const q = ps.map(() => NaN);
  let least = 1;
  for (let r = m - 1; r >= 0; r--) {
    const p = ps[order[r]];
    least = Math.min(least, (m * p) / (r + 1));
    // (m / rank ≥ 1: never below p, whatever the rounding of m·p / m.)
    q[order[r]] = Math.min(1, Math.max(p, least));
  }
  return q;
}

/** Each row's q-values, one family of tests per measure (every method compared). */
export function withFdr<R extends { total: Change; self: Change }>(rows: R[]): R[] {
  for (const m of ['total', 'self'] as const) {
    const q = fdr(rows.map((r) => r[m].p));
    rows.forEach((r, i) => (r[m].q = q[i]));
  }
  return rows;
}

/**
 * +1 rose, −1 fell, 0 not significant at `level`: the p-value under it and the weights' change
 * the same way as the counts' (bytes can rise while the events under them fall; that is no
 * finding). The table's arrows and the flame graph's colours both ask this.
 */
export function direction(c: Change, level: number): -1 | 0 | 1 {
  if (!(c.p < level) || c.delta === 0 || Math.sign(c.delta) !== Math.sign(c.countDelta)) return 0;
  return c.delta > 0 ? 1 : -1;
}

/** A p-value as people read it: three decimals, or powers of ten when smaller. */
export function formatP(p: number): string {
  if (Number.isNaN(p)) return '–';
  if (p >= 0.001) return p.toFixed(3);
  return p < 1e-99 ? '< 1e-99' : p.toExponential(1);
}

/** Whether both sides hold enough events to compare. */
export function enoughEvents(t: Totals): boolean {
  return t.na >= MIN_EVENTS && t.nb >= MIN_EVENTS;
}

export type Measure = 'total' | 'self';

export interface Rise {
  /** `Class.method`: its string index (one recording), or its index into the comparison's names (two). */
  name: number;
  /** The method and what it calls. */
  total: Change;
  /** The method itself (the frame on top). */
  self: Change;
}

export interface MethodComparison {
  rows: Rise[];
  totals: Totals;
}

const sum = (w: Float64Array) => w.reduce((x, y) => x + y, 0);

/** A method's weight by both measures. */
export interface MethodWeight {
  total: number;
  self: number;
}

/** One side of a comparison: per method (any key), its weights and its events. */
interface Side<K> {
  weights: Map<K, MethodWeight>;
  /** The same map when the weights are the counts. */
  counts: Map<K, MethodWeight>;
}

const ZERO: MethodWeight = { total: 0, self: 0 };

/** Each method's change from side b to side a, keyed as the sides are (string index or name). */
function rowsOf<K>(a: Side<K>, b: Side<K>, totals: Totals): { name: K; total: Change; self: Change }[] {
  const keys = new Set([...a.weights.keys(), ...b.weights.keys(), ...a.counts.keys(), ...b.counts.keys()]);
  return [...keys].map((name) => {
    const wa = a.weights.get(name) ?? ZERO;
    const wb = b.weights.get(name) ?? ZERO;
    const na = a.counts.get(name) ?? ZERO;
    const nb = b.counts.get(name) ?? ZERO;
    return { name, total: change(wa.total, na.total, wb.total, nb.total, totals), self: change(wa.self, na.self, wb.self, nb.self, totals) };
  });
}

const byIndex = (profile: Profile, w: Float64Array) => new Map(topMethods(profile, w).map((m) => [m.name, { total: m.total, self: m.self }]));

/**
 * Each method's change from `base` to `sel` (per-stack weights, the last slot "no stack"), total
 * and self. `selCounts` / `baseCounts`: per-stack event counts when the weights are not counts
 * (omitted: the weights are the counts). Rows by score, largest rise first.
 */
export function compareMethods(
  profile: Profile,
  sel: Float64Array,
  base: Float64Array,
  selCounts: Float64Array = sel,
  baseCounts: Float64Array = base,
): MethodComparison {
  const totals: Totals = { a: sum(sel), b: sum(base), na: sum(selCounts), nb: sum(baseCounts) };
  const side = (w: Float64Array, n: Float64Array): Side<number> => {
    const weights = byIndex(profile, w);
    return { weights, counts: n === w ? weights : byIndex(profile, n) };
  };
  const rows = withFdr(rowsOf(side(sel, selCounts), side(base, baseCounts), totals));
  return { rows: sortRises(rows, 'score', 'total', true, (n) => profile.strings[n]), totals };
}

/**
 * Per method NAME, the total and self weight of a profile's per-stack weights: what two
 * recordings share (their string indexes and stack numbers differ). A name held by two string
 * indexes (pools of different chunks) adds up.
 */
export function methodsByName(profile: Profile, weights: Float64Array): Map<string, MethodWeight> {
  const out = new Map<string, MethodWeight>();
  for (const m of topMethods(profile, weights)) {
    const name = profile.strings[m.name];
    const had = out.get(name);
    out.set(name, had ? { total: had.total + m.total, self: had.self + m.self } : { total: m.total, self: m.self });
  }
  return out;
}

/** A side of a comparison of two recordings: a profile and its per-stack weights (and counts). */
export interface ProfileSide {
  profile: Profile;
  weights: Float64Array;
  /** Per-stack event counts when the weights are not counts (omitted: the weights are). */
  counts?: Float64Array;
}

/** A comparison of two recordings: rows name methods by index into `names`. */
export interface NamedComparison extends MethodComparison {
  names: string[];
}

/**
 * Each method's change from recording `base` to recording `sel`, methods matched by name: the same
 * rows compareMethods gives for the same data in one profile, with `name` indexing `names`.
 */
export function compareProfiles(sel: ProfileSide, base: ProfileSide): NamedComparison {
  const side = (s: ProfileSide): Side<string> => {
    const weights = methodsByName(s.profile, s.weights);
    return { weights, counts: s.counts && s.counts !== s.weights ? methodsByName(s.profile, s.counts) : weights };
  };
  const totals: Totals = { a: sum(sel.weights), b: sum(base.weights), na: sum(sel.counts ?? sel.weights), nb: sum(base.counts ?? base.weights) };
  const names: string[] = [];
  const rows = withFdr(rowsOf(side(sel), side(base), totals).map((r) => ({ ...r, name: names.push(r.name) - 1 })));
  return { rows: sortRises(rows, 'score', 'total', true, (n) => names[n]), totals, names };
}

/** The table's columns, each a way to sort it. */
export type RiseKey = 'name' | 'a' | 'b' | 'share' | 'baseShare' | 'delta' | 'p' | 'q' | 'score';

/** Rows sorted by a column of one measure; ties by score, then name. NaN p-values last. */
export function sortRises(rows: readonly Rise[], key: RiseKey, measure: Measure, descending: boolean, nameOf: (n: number) => string): Rise[] {
  const sign = descending ? -1 : 1;
  const value = (r: Rise) => {
    const v = r[measure][key as Exclude<RiseKey, 'name'>];
    return Number.isNaN(v) ? (descending ? -Infinity : Infinity) : v;
  };
  const byName = (x: Rise, y: Rise) => (nameOf(x.name) < nameOf(y.name) ? -1 : nameOf(x.name) > nameOf(y.name) ? 1 : 0);
  const cmp =
    key === 'name'
      ? (x: Rise, y: Rise) => sign * byName(x, y)
      : (x: Rise, y: Rise) => sign * (value(x) - value(y)) || y[measure].score - x[measure].score || byName(x, y);
  return [...rows].sort(cmp);
}

/** A frame of the comparison's flame graph: the selection's node with its method's change. */
export interface DiffNode extends CallNode {
  /** The change of the frame's method by the chosen measure (the table's row); none for "(no stack)" and the root. */
  change?: Change;
  children: DiffNode[];
}

/**
 * The selection's tree with each frame given its method's change by `measure`: the same Change
 * the table shows in that method's row, so a frame's colour and its row always agree.
 */
export function diffTree(sel: CallNode, rows: readonly Rise[], measure: Measure, nameOf: (n: number) => string): DiffNode {
  const byName = new Map(rows.map((r) => [nameOf(r.name), r[measure]]));
  const walk = (n: CallNode, depth: number): DiffNode => ({
    ...n,
    change: depth > 0 && n.name !== '(no stack)' ? byName.get(n.name) : undefined,
    children: n.children.map((c) => walk(c, depth + 1)),
  });
  return walk(sel, 0);
}
