/**
 * Spikes: the bursts of a curve (threads waiting, or events per bin) above its calm level, each
 * one range from where it rises to where it falls back, and stepping from one to the next.
 *
 *   curve ─ smoothed ─ baseline (median: the calm parts dominate) and noise (MAD) ─ bins above
 *   the high threshold ─ widened to where the curve falls under the low one (hysteresis) ─
 *   short dips bridged ─ (events per bin: more events than a steady rate gives by chance) ─
 *   ranges
 */

import { lnGamma } from './compare';

export interface SpikeOptions {
  /** Bins of the moving average (odd). */
  smooth?: number;
  /** Dips under the low threshold shorter than this many bins do not split a spike. */
  bridge?: number;
  /** Spikes whose area above the baseline is under this share of the largest one's are noise. */
  minShare?: number;
  /**
   * The curve counts events per bin: a spike must also hold more events than a steady rate
   * would give there by chance (Poisson). Sparse events (a few per bin, most bins empty) have a
   * median and a median deviation of zero, which alone would call every cluster of them a spike.
   */
  counts?: boolean;
}

/** The chance that any spike of counts found is chance alone (a steady rate's scatter). */
const CHANCE = 0.01;

/** P(X ≥ n) for X ~ Poisson(mu): the tail's terms summed from n on (n > mu) or 1 − the head's. */
export function poissonAtLeast(n: number, mu: number): number {
  if (n <= 0) return 1;
  if (!(mu > 0)) return 0;
  const term = (k: number) => Math.exp(-mu + k * Math.log(mu) - lnGamma(k + 1));
  if (n > mu) {
    let t = term(n);
    let sum = 0;
    for (let k = n; t > 1e-17 * sum || k === n; k++) {
      sum += t;
      t *= mu / (k + 1);
    }
    return Math.min(1, sum);
  }
  // 1 − P(X ≤ n − 1), the head summed down from n − 1.
  let t = term(n - 1);
  let head = 0;
  for (let k = n - 1; k >= 0 && t > 1e-17 * head; k--) {
    head += t;
    t *= k / mu;
  }
  return Math.max(0, 1 - head);
}

export interface Spikes {
  ranges: [number, number][];
  /** The calm level and the two thresholds, in the curve's unit. */
  baseline: number;
  high: number;
  low: number;
}

/** The k-th smallest of `a` (reordered in place): quickselect, linear on average, no sort. */
function select(a: Float64Array, k: number): number {
  let lo = 0;
  let hi = a.length - 1;
  while (hi > lo) {
    // Median of three as the pivot; Hoare's partition.
    const mid = (lo + hi) >> 1;
    const x = a[lo];
    const y = a[mid];
    const z = a[hi];
    const pivot = x < y ? (y < z ? y : x < z ? z : x) : x < z ? x : y < z ? z : y;
    let i = lo;
    let j = hi;
    while (i <= j) {
      while (a[i] < pivot) i++;
      while (a[j] > pivot) j--;
      if (i <= j) {
        const t = a[i];
        a[i] = a[j];
        a[j] = t;
        i++;
        j--;
      }
    }
    if (k <= j) hi = j;
    else if (k >= i) lo = i;
    else return a[k];
  }
  return a[k];
}

/** The median of `xs` (NaN-free), without sorting it: a day's curve has hundreds of thousands of bins. */
export function median(xs: Float64Array): number {
  if (xs.length === 0) return 0;
  const s = Float64Array.from(xs);
  const m = s.length >> 1;
  const upper = select(s, m);
  if (s.length % 2) return upper;
  // The largest of the lower half (left of m after the select).
  let lower = -Infinity;
  for (let i = 0; i < m; i++) if (s[i] > lower) lower = s[i];
  return (lower + upper) / 2;
}

/** Moving average over `k` bins (k odd), shrinking at the edges. */
export function smoothed(y: Float64Array, k: number): Float64Array {
  const h = Math.max(0, (k - 1) >> 1);
  if (h === 0) return y;
  const out = new Float64Array(y.length);
  const pre = new Float64Array(y.length + 1);
  for (let i = 0; i < y.length; i++) pre[i + 1] = pre[i] + y[i];
  for (let i = 0; i < y.length; i++) {
    const a = Math.max(0, i - h);
    const b = Math.min(y.length, i + h + 1);
    out[i] = (pre[b] - pre[a]) / (b - a);
  }
  return out;
}

/**
 * The spikes of `y` (one value per bin of width `w` from `from`): a spike holds a bin above
 * baseline + max(4·noise, a quarter of the way to the peak) and spans the bins around it above
 * baseline + max(2·noise, a tenth of the way); none when nothing rises above the calm level.
 */
export function findSpikes(y: Float64Array, from: number, w: number, opts: SpikeOptions = {}): Spikes {
  const ys = smoothed(y, opts.smooth ?? 3);
  const bridge = opts.bridge ?? 3;
  const baseline = median(ys);
  const dev = new Float64Array(ys.length);
  for (let i = 0; i < ys.length; i++) dev[i] = Math.abs(ys[i] - baseline);
  const noise = 1.4826 * median(dev);
  let peak = baseline;
  for (let i = 0; i < ys.length; i++) if (ys[i] > peak) peak = ys[i];
  const rise = peak - baseline;
  const high = baseline + Math.max(4 * noise, 0.25 * rise);
  const low = baseline + Math.max(2 * noise, 0.1 * rise);
  const ranges: [number, number][] = [];
  if (!(rise > 0) || !(peak > high) || high <= 0) return { ranges, baseline, high, low };
  // Runs of bins above `low` that hold at least one bin above `high`.
  const runs: [number, number][] = [];
  for (let i = 0; i < ys.length; ) {
    if (ys[i] <= low) {
      i++;
      continue;
    }
    let j = i;
    let hot = false;
    while (j < ys.length && ys[j] > low) {
      if (ys[j] > high) hot = true;
      j++;
    }
    if (hot) runs.push([i, j]);
    i = j;
  }
  // Bridge short dips between runs.
  const merged: [number, number][] = [];
  for (const r of runs) {
    const last = merged[merged.length - 1];
    if (last && r[0] - last[1] <= bridge) last[1] = r[1];
    else merged.push([r[0], r[1]]);
  }
  // Counts: each run's chance of holding its events at the recording's mean rate (its spikes
  // included, so it errs towards none), against 1% shared out over every window of the run's
  // length the curve holds (the runs are the curve's most crowded stretches, not one guess).
  let all = 0;
  if (opts.counts) for (let i = 0; i < y.length; i++) all += y[i];
  const rate = all / Math.max(1, y.length);
  const beyondChance = ([a, b]: [number, number]) => {
    let n = 0;
    for (let i = a; i < b; i++) n += y[i];
    return poissonAtLeast(Math.round(n), rate * (b - a)) < (CHANCE * (b - a)) / y.length;
  };
  const spikes = opts.counts ? merged.filter(beyondChance) : merged;
  // Area above the baseline: a blip next to real bursts is not what the eye calls a spike.
  const area = spikes.map(([a, b]) => {
    let sum = 0;
    for (let i = a; i < b; i++) sum += Math.max(0, ys[i] - baseline);
    return sum;
  });
  const largest = Math.max(0, ...area);
  spikes.forEach(([a, b], k) => {
    if (area[k] >= (opts.minShare ?? 0.1) * largest) ranges.push([from + a * w, from + b * w]);
  });
  return { ranges, baseline, high, low };
}

/** The spike after (dir 1) or before (dir -1) the selection, or the first one; null at the end. */
export function nextSpike(ranges: readonly [number, number][], range: readonly [number, number] | null, dir: 1 | -1): [number, number] | null {
  if (!range) return (dir > 0 ? ranges[0] : ranges[ranges.length - 1]) ?? null;
  const at = (range[0] + range[1]) / 2;
  const pick = dir > 0 ? ranges.find((r) => (r[0] + r[1]) / 2 > at + 1e-9) : [...ranges].reverse().find((r) => (r[0] + r[1]) / 2 < at - 1e-9);
  return pick ?? null;
}
