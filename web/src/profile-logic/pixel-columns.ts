/**
 * Events per pixel column (and per histogram bucket) at any zoom, in O(columns · log n) however
 * many events there are: per column two binary searches and three subtractions of running counts.
 */
import { firstAtOrAfter, gallopAtOrAfter } from './event-index';
import type { Cumulative } from './running-counts';
import type { Profile } from '../columns/profile';

/** Per column counts, written into caller-owned buffers (added to what they hold). */
export interface PixelCounts {
  total: Float64Array;
  match: Float64Array;
  running: Float64Array;
}

export function newPixelCounts(n: number): PixelCounts {
  return { total: new Float64Array(n), match: new Float64Array(n), running: new Float64Array(n) };
}

export function clearPixelCounts(c: PixelCounts): void {
  c.total.fill(0);
  c.match.fill(0);
  c.running.fill(0);
}

/**
 * Add the events of `cum` starting in [from, to) into `out`'s columns of equal width; an event
 * exactly at a column boundary falls in the later column.
 */
export function addToPixels(profile: Profile, cum: Cumulative, from: number, to: number, out: PixelCounts): void {
  const n = out.total.length;
  const list = cum.list;
  if (list.length === 0 || !(to > from) || n === 0) return;
  const start = profile.events.start;
  const w = (to - from) / n;
  let lo = firstAtOrAfter(start, list, from);
  const end = firstAtOrAfter(start, list, to, lo);
  if (lo === end) return;
  // Skip straight to the first non-empty column.
  let c = Math.min(n - 1, Math.max(0, Math.floor((start[list[lo]] - from) / w)));
  for (; c < n && lo < end; c++) {
    const hi = c === n - 1 ? end : Math.min(end, gallopAtOrAfter(start, list, from + (c + 1) * w, lo));
    if (hi > lo) {
      out.total[c] += hi - lo;
      out.match[c] += cum.match[hi] - cum.match[lo];
      out.running[c] += cum.running[hi] - cum.running[lo];
      lo = hi;
      // Jump over empty columns in one step.
      if (lo < end) c = Math.min(n - 2, Math.max(c, Math.floor((start[list[lo]] - from) / w) - 1));
    }
  }
}

/** Events per time bucket, split into what the filters match and what they do not. */
export interface Histogram {
  from: number;
  to: number;
  matching: Float64Array;
  other: Float64Array;
}

/**
 * The histogram from time-sorted lists (one per thread) with running counts: the cost grows
 * with lists × buckets, not with the number of events.
 */
export function histogramOf(profile: Profile, cums: readonly Cumulative[], from: number, to: number, buckets: number): Histogram {
  const cols = newPixelCounts(buckets);
  for (const cum of cums) if (cum.list.length) addToPixels(profile, cum, from, to, cols);
  const other = new Float64Array(buckets);
  for (let i = 0; i < buckets; i++) other[i] = cols.total[i] - cols.match[i];
  return { from, to, matching: cols.match, other };
}

/**
 * Per column of [from, to) split into `n` equal columns, the share of the column's time that the
 * union of the intervals of `list` (sorted by start) covers, 0 to 1: where intervals overlap,
 * their time counts once. A band drawn with this as its opacity shows how much of each column
 * was spent in them, so a thousand 1 ms pauses over a minute do not paint the whole minute.
 */
export function coveredPerColumn(start: ArrayLike<number>, duration: ArrayLike<number>, list: Int32Array, from: number, to: number, n: number): Float64Array {
  const out = new Float64Array(Math.max(0, n));
  if (n <= 0 || !(to > from)) return out;
  const w = (to - from) / n;
  let reach = from;
  for (let k = 0; k < list.length; k++) {
    const i = list[k];
    const s = start[i];
    if (s >= to) break;
    // The part of this interval the union has not counted yet, clipped to the window.
    const a = Math.max(s, reach);
    const b = Math.min(s + duration[i], to);
    if (b <= a) continue;
    reach = b;
    let c = Math.min(n - 1, Math.floor((a - from) / w));
    for (let x = a; x < b; c++) {
      const edge = Math.min(b, from + (c + 1) * w);
      out[c] += edge - x;
      x = edge;
      if (c === n - 1) break;
    }
  }
  for (let c = 0; c < n; c++) out[c] = Math.min(1, out[c] / w);
  return out;
}
