/**
 * Interval events (lock waits, parks, sleeps, I/O: the kinds.ts kinds with `interval`) per thread
 * by start, with a running maximum of their ends so the first bar reaching into a window is found
 * by binary search; and the GC marks.
 */
import { eventsOf, firstAtOrAfter, firstReachingPast, gallopAtOrAfter, keptReach, mergeByStart, mergeWithReach, reachOf, type ThreadIndex } from './event-index';
import { KINDS } from './kinds';
import type { IndexIntoEventTypes, Profile } from '../columns/profile';

/** The events of `list` with a duration above zero (the list itself when all have one). */
function withDuration(profile: Profile, list: Int32Array): Int32Array {
  // A list known to be disjoint has only events with a duration (no pass over it).
  if (keptReach(profile, list)?.disjoint) return list;
  const d = profile.events.duration;
  let n = 0;
  for (let k = 0; k < list.length; k++) if (d[list[k]] > 0) n++;
  if (n === list.length) return list;
  const out = new Int32Array(n);
  n = 0;
  for (let k = 0; k < list.length; k++) if (d[list[k]] > 0) out[n++] = list[k];
  return out;
}

/** GC events (no thread, with a duration) in start order: the timeline's GC marks. */
export function gcEvents(profile: Profile, index: ThreadIndex): Int32Array {
  const none = profile.threads.length;
  const lists = profile.eventTypes.flatMap((t, ty) => (t.kind === 'gc' ? [withDuration(profile, eventsOf(index, ty, none))] : []));
  return mergeByStart(profile.events.start, lists);
}

/** Interval events (lock, park, sleep, I/O with a duration) per thread, by start, with reach. */
export interface Intervals {
  byThread: Int32Array[];
  /** Per thread: running maximum of end times along the list. */
  reach: Float64Array[];
  /** The event types with bars on some thread. */
  types: IndexIntoEventTypes[];
}

export function intervals(profile: Profile, index: ThreadIndex): Intervals {
  const { start } = profile.events;
  const ivTypes = profile.eventTypes.flatMap((t, ty) => (KINDS[t.kind].interval ? [ty] : []));
  const byThread: Int32Array[] = [];
  const reach: Float64Array[] = [];
  const drawn = new Set<number>();
  for (let t = 0; t < profile.threads.length; t++) {
    const lists = ivTypes.map((ty) => {
      const l = withDuration(profile, eventsOf(index, ty, t));
      if (l.length) drawn.add(ty);
      return l;
    });
    // One list (most threads): its reach, kept once per list; several: the merged reach from theirs.
    const some = lists.filter((l) => l.length > 0);
    const merged = some.length === 1 ? { list: some[0], reach: reachOf(profile, some[0]) } : mergeWithReach(start, some, some.map((l) => reachOf(profile, l)));
    byThread.push(merged.list);
    reach.push(merged.reach);
  }
  return { byThread, reach, types: [...drawn].sort((a, b) => a - b) };
}

/** First position in thread `t`'s interval list whose interval (or an earlier one) ends after `t0`. */
export function firstReaching(iv: Intervals, thread: number, t0: number): number {
  return firstReachingPast(iv.reach[thread], t0);
}

/**
 * The first position ≥ `from` in `list` (by start) whose event starts at or after `t`, searched
 * around a guess of it: forward by galloping when the guess falls short, else backward from the
 * guess. When events are evenly spread (the next pixel holds about as many as the last), the
 * guess lands near and a step costs a few reads instead of a search over the whole run.
 */
export function seekAtOrAfter(start: Float64Array, list: Int32Array, t: number, from: number, guess: number): number {
  const n = list.length;
  if (from >= n) return n;
  const g = Math.min(n, Math.max(from, guess));
  if (g < n && start[list[g]] < t) return gallopAtOrAfter(start, list, t, g + 1);
  // start at g is ≥ t (or g is the end): back off from g until a start below t, then search between.
  let hi = g;
  let lo = g - 1;
  let step = 1;
  while (lo >= from && start[list[lo]] >= t) {
    hi = lo;
    lo -= step;
    step *= 2;
  }
  return firstAtOrAfter(start, list, t, Math.max(from, lo + 1), hi);
}
