/**
 * Interval events (lock waits, parks, sleeps, I/O: the kinds.ts kinds with `interval`) per thread
 * by start, with a running maximum of their ends so the first bar reaching into a window is found
 * by binary search; and the GC marks.
 */
import { eventsOf, firstAtOrAfter, firstPast, firstReachingPast, gallopAtOrAfter, keptReach, mergeBlocked, mergeByStart, mergeWithReach, reachArray, reachAt, reachOf, REACH_BLOCK, type Reach, type ThreadIndex } from './event-index';
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

/**
 * Interval events (lock, park, sleep, I/O with a duration) per thread, by start, with reach.
 * A thread with one type's intervals shares that list and its reach (event-index.ts reachOf);
 * one with several keeps their merged list and its reach once per block of REACH_BLOCK, the
 * rest read off the events in the block (intervalReach).
 */
export interface Intervals {
  byThread: Int32Array[];
  /** Per thread with one type's intervals: their list's reach (else null). */
  reach: (Reach | null)[];
  /**
   * Per thread with several: the running maximum of ends along the merged list at the last
   * position of each block of REACH_BLOCK (else null).
   */
  blocks: (Float64Array | null)[];
  /** The event types with bars on some thread. */
  types: IndexIntoEventTypes[];
  /** The events' start and duration columns (the blocks' ends are read off them). */
  start: Float64Array;
  duration: Profile['events']['duration'];
}

export function intervals(profile: Profile, index: ThreadIndex): Intervals {
  const { start, duration } = profile.events;
  const ivTypes = profile.eventTypes.flatMap((t, ty) => (KINDS[t.kind].interval ? [ty] : []));
  const byThread: Int32Array[] = [];
  const reach: (Reach | null)[] = [];
  const blocks: (Float64Array | null)[] = [];
  const drawn = new Set<number>();
  for (let t = 0; t < profile.threads.length; t++) {
    const lists = ivTypes.map((ty) => {
      const l = withDuration(profile, eventsOf(index, ty, t));
      if (l.length) drawn.add(ty);
      return l;
    });
    // One list (most threads): its reach, kept once per list. Several: the longest merged with
    // the others (merged first, each pair with its reach: they are fewer), the reach in blocks.
    const some = lists.filter((l) => l.length > 0).sort((a, b) => b.length - a.length);
    if (some.length <= 1) {
      const list = some[0] ?? new Int32Array(0);
      byThread.push(list);
      reach.push(reachOf(profile, list));
      blocks.push(null);
      continue;
    }
    const rest = some.slice(1);
    const others: Reach =
      rest.length === 1
        ? reachOf(profile, rest[0])
        : (({ list, reach: every }) => ({ list, every, disjoint: false, cum: null, start, duration }))(mergeWithReach(start, rest, rest.map((l) => reachArray(reachOf(profile, l)))));
    const merged = mergeBlocked(start, reachOf(profile, some[0]), others);
    byThread.push(merged.list);
    reach.push(null);
    blocks.push(merged.blocks);
  }
  return { byThread, reach, blocks, types: [...drawn].sort((a, b) => a - b), start, duration };
}

/** The running maximum of ends along thread `thread`'s interval list, at position k. */
export function intervalReach(iv: Intervals, thread: number, k: number): number {
  const r = iv.blocks[thread];
  if (!r) return reachAt(iv.reach[thread]!, k);
  const list = iv.byThread[thread];
  const c = (k / REACH_BLOCK) | 0;
  if ((k & (REACH_BLOCK - 1)) === REACH_BLOCK - 1 || k === list.length - 1) return r[c];
  const { start, duration } = iv;
  let max = c > 0 ? r[c - 1] : -Infinity;
  for (let j = c * REACH_BLOCK; j <= k; j++) {
    const end = start[list[j]] + duration[list[j]];
    if (end > max) max = end;
  }
  return max;
}

/** First position in thread `t`'s interval list whose interval (or an earlier one) ends after `t0`. */
export function firstReaching(iv: Intervals, thread: number, t0: number): number {
  const r = iv.blocks[thread];
  if (!r) return firstPast(iv.reach[thread]!, t0);
  // The first block reaching past t0, then its first event ending after t0 (none before it did).
  const c = firstReachingPast(r, t0);
  const list = iv.byThread[thread];
  const { start, duration } = iv;
  const to = Math.min(list.length, (c + 1) * REACH_BLOCK);
  for (let j = c * REACH_BLOCK; j < to; j++) if (start[list[j]] + duration[list[j]] > t0) return j;
  return list.length;
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
