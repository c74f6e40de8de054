/**
 * Walking a lane's events by keyboard: the next (or previous) matching event of the selected
 * type on a lane's threads, in time order, ties broken by event index so every event is reached
 * once. Each thread's list is time-sorted with a running count of matches (running-counts.ts),
 * so a step is a binary search for the time and one for the next match:
 *
 *   list    e7  e2  e9  e4  e5        starts 1 2 2 5 8 ms, e2 e4 e5 match
 *   match  0   0   1   1   2   3      after e2 (2 ms): the run of ties at 2 ms (e9: no match),
 *                                     then the first position whose count rises: e4
 */
import { firstAtOrAfter } from './event-index';
import type { Cumulative } from './running-counts';
import type { Profile } from '../columns/profile';

/** Where a step starts: an event (its time and index), or a time (`event` null) to step from. */
export interface StepFrom {
  t: number;
  event: number | null;
}

/** (start, index) after (a before b): -1, 0 or 1. */
function order(ta: number, ia: number, tb: number, ib: number): number {
  return ta < tb ? -1 : ta > tb ? 1 : ia < ib ? -1 : ia > ib ? 1 : 0;
}

/**
 * The matching event of `lists` next after `from` (dir 1) or last before it (dir -1); null when
 * there is none. From a time alone, events at that very time count as after it (dir 1) and
 * before it (dir -1).
 */
export function stepEvent(profile: Profile, lists: readonly Cumulative[], from: StepFrom, dir: 1 | -1): number | null {
  const start = profile.events.start;
  // The reference key: from a time alone, below (dir 1) or above (dir -1) every event at it.
  const refI = from.event ?? (dir === 1 ? -1 : Number.MAX_SAFE_INTEGER);
  let best: number | null = null;
  const better = (i: number) => best === null || order(start[i], i, start[best], best) * dir < 0;
  for (const { list, match } of lists) {
    const n = list.length;
    const lo = firstAtOrAfter(start, list, from.t);
    let hi = lo;
    // The run of events at exactly from.t: compared by index.
    while (hi < n && start[list[hi]] === from.t) {
      const i = list[hi];
      if (match[hi + 1] !== match[hi] && order(start[i], i, from.t, refI) * dir > 0 && better(i)) best = i;
      hi++;
    }
    if (dir === 1) {
      // First matching position at or after hi: the first p > hi with match[p] > match[hi], minus one.
      const want = match[hi] + 1;
      if (want > match[n]) continue;
      let a = hi + 1;
      let b = n;
      while (a < b) {
        const mid = (a + b) >> 1;
        if (match[mid] >= want) b = mid;
        else a = mid + 1;
      }
      // Ties at that time sit in any order: the smallest index of the run's matches.
      const t1 = start[list[a - 1]];
      for (let k = a - 1; k < n && start[list[k]] === t1; k++) if (match[k + 1] !== match[k] && better(list[k])) best = list[k];
    } else {
      // Last matching position before lo: the first p with match[p] = match[lo], minus one.
      const want = match[lo];
      if (want === 0) continue;
      let a = 1;
      let b = lo;
      while (a < b) {
        const mid = (a + b) >> 1;
        if (match[mid] >= want) b = mid;
        else a = mid + 1;
      }
      const t1 = start[list[a - 1]];
      for (let k = a - 1; k >= 0 && start[list[k]] === t1; k--) if (match[k + 1] !== match[k] && better(list[k])) best = list[k];
    }
  }
  return best;
}
