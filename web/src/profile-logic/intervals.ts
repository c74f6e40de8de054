/**
 * Interval events (lock waits, parks, sleeps, I/O: the kinds.ts kinds with `interval`) per thread
 * by start, with a running maximum of their ends so the first bar reaching into a window is found
 * by binary search; and the GC marks.
 */
import { after, eventsOf, firstAtOrAfter, firstPast, gallopAtOrAfter, keptReach, mergeByStart, reachAt, reachOf, runBefore, type Reach, type ThreadIndex } from './event-index';
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

/** The type whose events are the stop-the-world pauses of the collections. */
export const GC_PAUSE_TYPE = 'jdk.GCPhasePause';

/**
 * The GC pauses (with a duration) in start order: the timeline's GC marks and band. A collection
 * (jdk.GarbageCollection) lasts as long as its concurrent phases too, while the application runs
 * (ZGC and Shenandoah collect concurrently, G1 marks concurrently): ZGC's collections cover most
 * of a busy recording with a few microseconds of pauses each. The pauses themselves are
 * jdk.GCPhasePause events (on the VM thread); collections stand in for them only in a recording
 * without any.
 */
export function gcEvents(profile: Profile, index: ThreadIndex): Int32Array {
  const rows = profile.threads.length + 1;
  const of = (ty: number) => withDuration(profile, mergeByStart(profile.events.start, Array.from({ length: rows }, (_, r) => eventsOf(index, ty, r))));
  const gc = profile.eventTypes.flatMap((t, ty) => (t.kind === 'gc' ? [ty] : []));
  const pauses = gc.filter((ty) => profile.eventTypes[ty].name === GC_PAUSE_TYPE).map(of).filter((l) => l.length > 0);
  return mergeByStart(profile.events.start, pauses.length ? pauses : gc.filter((ty) => profile.eventTypes[ty].name !== GC_PAUSE_TYPE).map(of));
}

/**
 * The GC (of `gcs`, in start order) under time `t`, within `tolerance` ms either side (a mark is
 * drawn at least a pixel wide, a pause lasts microseconds): the one whose span comes nearest,
 * the latest on a tie; -1 for none. `longest`: the longest of their durations (how far back a
 * GC starting before `t` may still reach it).
 */
export function gcAt(start: Float64Array, duration: Float32Array, gcs: Int32Array, t: number, tolerance: number, longest: number): number {
  // The first GC starting after t + tolerance.
  let lo = firstAtOrAfter(start, gcs, t + tolerance);
  while (lo < gcs.length && start[gcs[lo]] === t + tolerance) lo++;
  let best = -1;
  let bestGap = Infinity;
  for (let k = lo - 1; k >= 0; k--) {
    const g = gcs[k];
    if (start[g] + longest < t - tolerance) break;
    const end = start[g] + duration[g];
    const gap = t < start[g] ? start[g] - t : t > end ? t - end : 0;
    if (gap <= tolerance && gap < bestGap) {
      best = g;
      bestGap = gap;
    }
  }
  return best;
}

/**
 * Interval events (lock, park, sleep, I/O with a duration) per thread: each type's list by start
 * with its reach (event-index.ts reachOf, shared with the type's own view), walked in their merged
 * order (IntervalWalk) rather than merged: a thread's millions of reads and its parks cost no
 * merged copy.
 */
export interface Intervals {
  /** Per thread: the reach of each of its interval types' lists (events with a duration). */
  parts: Reach[][];
  /** The event types with bars on some thread. */
  types: IndexIntoEventTypes[];
  start: Float64Array;
  duration: Profile['events']['duration'];
}

export function intervals(profile: Profile, index: ThreadIndex): Intervals {
  const { start, duration } = profile.events;
  const ivTypes = profile.eventTypes.flatMap((t, ty) => (KINDS[t.kind].interval ? [ty] : []));
  const parts: Reach[][] = [];
  const drawn = new Set<number>();
  for (let t = 0; t < profile.threads.length; t++) {
    const mine: Reach[] = [];
    for (const ty of ivTypes) {
      const l = withDuration(profile, eventsOf(index, ty, t));
      if (l.length === 0) continue;
      drawn.add(ty);
      mine.push(reachOf(profile, l));
    }
    parts.push(mine);
  }
  return { parts, types: [...drawn].sort((a, b) => a - b), start, duration };
}

/**
 * A walk over a thread's interval events in time order (start, ties by index), as one list merged
 * from its types' lists would give them, from the first event that reaches past a time (an
 * earlier one of its list, or of another, may still have started before it).
 */
export class IntervalWalk {
  private readonly lists: Int32Array[];
  private readonly reaches: Reach[];
  /** Per list: the position of its next event. */
  private readonly pos: Int32Array;
  /** Per list: how many events the last skip passed (where the next skip looks first). */
  private readonly run: Int32Array;
  private readonly start: Float64Array;
  /** The list holding the current event (-1: the walk is over). */
  private at = -1;
  /** The running maximum of ends over every event passed by the last skip and before. */
  reach = -Infinity;

  constructor(iv: Intervals, thread: number, from: number) {
    this.reaches = iv.parts[thread] ?? [];
    this.lists = this.reaches.map((r) => r.list);
    this.start = iv.start;
    const n = this.lists.length;
    this.pos = new Int32Array(n);
    this.run = new Int32Array(n).fill(1);
    // Each list's first event ending after `from`; the earliest of those is the walk's first, and
    // every other list resumes at its first event after that one.
    let first = -1;
    for (let p = 0; p < n; p++) {
      this.pos[p] = firstPast(this.reaches[p], from);
      const k = this.pos[p];
      if (k < this.lists[p].length && (first < 0 || after(this.start, this.lists[first][this.pos[first]], this.lists[p][k]))) first = p;
    }
    if (first < 0) return;
    const e = this.lists[first][this.pos[first]];
    for (let p = 0; p < n; p++) if (p !== first) this.pos[p] = runBefore(this.start, this.lists[p], e, 0);
    this.at = first;
  }

  /** The current event, -1 when the walk is over. */
  event(): number {
    return this.at < 0 ? -1 : this.lists[this.at][this.pos[this.at]];
  }

  private choose(): void {
    const { lists, pos, start } = this;
    let best = -1;
    for (let p = 0; p < lists.length; p++) {
      if (pos[p] >= lists[p].length) continue;
      if (best < 0 || after(start, lists[best][pos[best]], lists[p][pos[p]])) best = p;
    }
    this.at = best;
  }

  /** On to the next event. */
  step(): void {
    if (this.at < 0) return;
    this.pos[this.at]++;
    this.choose();
  }

  /**
   * On past the current event and every event starting before `t`; returns how many were passed,
   * and sets `reach`: the running maximum of ends up to the last one passed.
   */
  skipBefore(t: number): number {
    if (this.at < 0) return 0;
    const { lists, pos, run, start } = this;
    let passed = 0;
    let reach = -Infinity;
    for (let p = 0; p < lists.length; p++) {
      const from = p === this.at ? pos[p] + 1 : pos[p];
      const next = from < lists[p].length && start[lists[p][from]] < t ? seekAtOrAfter(start, lists[p], t, from, pos[p] + run[p]) : from;
      if (next > pos[p]) run[p] = next - pos[p];
      passed += next - pos[p];
      pos[p] = next;
      if (next > 0) {
        const r = reachAt(this.reaches[p], next - 1);
        if (r > reach) reach = r;
      }
    }
    this.reach = reach;
    this.choose();
    return passed;
  }

  /**
   * Whether one of the (at most `most`) events after the current one that start before `t`
   * (those the next skipBefore(t) passes), met in time order, passes `test`.
   */
  someAhead(t: number, most: number, test: (i: number) => boolean): boolean {
    if (this.at < 0) return false;
    const { lists, start } = this;
    const pos = Int32Array.from(this.pos);
    pos[this.at]++;
    for (let seen = 0; seen < most; seen++) {
      let best = -1;
      for (let p = 0; p < lists.length; p++) {
        if (pos[p] >= lists[p].length) continue;
        if (best < 0 || after(start, lists[best][pos[best]], lists[p][pos[p]])) best = p;
      }
      if (best < 0) return false;
      const i = lists[best][pos[best]];
      if (!(start[i] < t)) return false;
      if (test(i)) return true;
      pos[best]++;
    }
    return false;
  }
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
