/**
 * A time range's events: positions in each time-sorted list by binary search, then counts,
 * the selected events, or their weight per stack, read through the running counts.
 */
import { firstAtOrAfter } from './event-index';
import { eventWeight, type WeightMode } from './kinds';
import type { Cumulative } from './running-counts';
import type { Profile } from '../columns/profile';

/** Positions [lo, hi) of a time-sorted list whose events start in [from, to] (the whole list when no range). */
export function rangePositions(profile: Profile, list: Int32Array, range: readonly [number, number] | null): [number, number] {
  if (!range) return [0, list.length];
  const start = profile.events.start;
  const lo = firstAtOrAfter(start, list, range[0]);
  // First position starting after range[1]: the end is inclusive.
  let a = lo;
  let b = list.length;
  while (a < b) {
    const mid = (a + b) >> 1;
    if (start[list[mid]] <= range[1]) a = mid + 1;
    else b = mid;
  }
  return [lo, a];
}

/** How many events of the lists match and start in the range. */
export function countInRange(profile: Profile, cums: readonly Cumulative[], range: readonly [number, number] | null): number {
  let n = 0;
  for (const cum of cums) {
    const [lo, hi] = rangePositions(profile, cum.list, range);
    n += cum.match[hi] - cum.match[lo];
  }
  return n;
}

/** The matching events of the lists whose start lies in [from, to] (all when no range), list by list. */
export function selectInRanges(profile: Profile, cums: readonly Cumulative[], range: readonly [number, number] | null): Int32Array {
  const out = new Int32Array(countInRange(profile, cums, range));
  let n = 0;
  for (const cum of cums) {
    const [lo, hi] = rangePositions(profile, cum.list, range);
    for (let k = lo; k < hi; k++) if (cum.match[k + 1] !== cum.match[k]) out[n++] = cum.list[k];
  }
  return out;
}

/** weightPerStack of selectInRanges's events, without building that list. */
export function weightsInRange(profile: Profile, cums: readonly Cumulative[], range: readonly [number, number] | null, mode: WeightMode): Float64Array {
  const out = new Float64Array(profile.stacks.length + 1);
  const none = profile.stacks.length;
  const { stack } = profile.events;
  for (const cum of cums) {
    const [lo, hi] = rangePositions(profile, cum.list, range);
    const list = cum.list;
    const m = cum.match;
    for (let k = lo; k < hi; k++) {
      if (m[k + 1] === m[k]) continue;
      const i = list[k];
      const s = stack[i];
      out[s >= 0 ? s : none] += eventWeight(profile, i, mode);
    }
  }
  return out;
}
