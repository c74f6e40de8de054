/**
 * The event index: every event's row grouped by (type, thread), each group sorted by start, and
 * the binary searches over such time-sorted lists. Built once per decoded round.
 *
 *   rows in file order ─ counting sort by (type, thread) ─ each group by start ─ order / off
 */
import type { IndexIntoEventTypes, Profile } from '../columns/profile';

/**
 * Sort event indexes by start time (ties by index). Recordings are nearly in time order, so check
 * first. A list that is a few hundred sorted runs overlapping in time (as one type's events on
 * one thread are: some are written when they end, some buffers late) keeps the ascending run it
 * can, sorts what it set aside the same way and merges the two, as long as at most half is set
 * aside (so the work shrinks by half at each step). Otherwise a bucket sort on time (linear for
 * the even spread of samples), each bucket finished by insertion sort, or by a comparator sort
 * when a bucket is crowded.
 */
export function sortByStart(profile: Profile, list: Int32Array): Int32Array {
  return sortIndexes(profile.events.start, list);
}

function sortIndexes(start: Float64Array, list: Int32Array): Int32Array {
  const n = list.length;
  if (n < 2) return list;
  const less = (a: number, b: number) => start[a] < start[b] || (start[a] === start[b] && a < b);
  // Events that would break the ascending run kept so far are set aside (none: sorted already).
  let aside = 0;
  let last = list[0];
  let min = start[last];
  let max = min;
  for (let k = 1; k < n; k++) {
    const i = list[k];
    const t = start[i];
    if (t < min) min = t;
    if (t > max) max = t;
    if (t < start[last] || (t === start[last] && i < last)) aside++;
    else last = i;
  }
  if (aside === 0) return list;
  if (aside <= n >> 1) {
    const run = new Int32Array(n - aside);
    const rest = new Int32Array(aside);
    let r = 0;
    let o = 0;
    last = list[0];
    run[r++] = last;
    for (let k = 1; k < n; k++) {
      const i = list[k];
      if (less(i, last)) rest[o++] = i;
      else run[r++] = last = i;
    }
    return mergeByStart(start, [run, sortIndexes(start, rest)]);
  }
  return bucketSort(start, list, less, min, max);
}

/**
 * Sort `list` in place when it is a modest number of ascending runs (a thread's events written
 * buffer by buffer: a few hundred runs of thousands, overlapping at their edges): the runs are
 * merged pairwise, bottom up, back and forth between `list` and `scratch` (at least as long), by
 * galloping, so runs that do not overlap cost a copy per level. Returns false, leaving `list` as
 * it was, when runs are too short for that to pay (shuffled lists: sortInPlace).
 */
function mergeRunsInPlace(start: Float64Array, list: Int32Array, scratch: Int32Array): boolean {
  const n = list.length;
  const most = n >> 6;
  let bounds = [0];
  for (let k = 1; k < n; k++) {
    if (!after(start, list[k], list[k - 1])) {
      if (bounds.length > most) return false;
      bounds.push(k);
    }
  }
  if (bounds.length === 1) return true;
  bounds.push(n);
  let src = list;
  let dst = scratch.subarray(0, n);
  while (bounds.length > 2) {
    const next = [0];
    for (let r = 0; r + 1 < bounds.length; r += 2) {
      const lo = bounds[r];
      const mid = bounds[r + 1];
      if (r + 2 < bounds.length) {
        const hi = bounds[r + 2];
        mergeInto(start, src.subarray(lo, mid), src.subarray(mid, hi), dst, lo);
        next.push(hi);
      } else {
        dst.set(src.subarray(lo, mid), lo);
        next.push(mid);
      }
    }
    bounds = next;
    [src, dst] = [dst, src];
  }
  if (src !== list) list.set(src);
  return true;
}

/**
 * sortIndexes, but writing the sorted list into `list` itself (the index's own groups): the
 * ascending run kept is packed at the front as it is found, only the events set aside get a
 * buffer, and the two are merged from the back, so sorting a group of millions of events nearly
 * in order allocates nothing of its size.
 */
function sortInPlace(start: Float64Array, list: Int32Array): void {
  const n = list.length;
  if (n < 2) return;
  let aside = 0;
  let last = list[0];
  for (let k = 1; k < n; k++) {
    const i = list[k];
    if (start[i] < start[last] || (start[i] === start[last] && i < last)) aside++;
    else last = i;
  }
  if (aside === 0) return;
  if (aside > n >> 1) {
    list.set(sortIndexes(start, list));
    return;
  }
  const setAside = new Int32Array(aside);
  let r = 1;
  let o = 0;
  last = list[0];
  for (let k = 1; k < n; k++) {
    const i = list[k];
    if (start[i] < start[last] || (start[i] === start[last] && i < last)) setAside[o++] = i;
    else list[r++] = last = i;
  }
  const rest = sortIndexes(start, setAside);
  // Merge from the back: the write position stays past the run's unread part.
  let a = r - 1;
  let b = aside - 1;
  for (let w = n - 1; b >= 0; w--) {
    const x = a >= 0 ? list[a] : -1;
    const y = rest[b];
    if (x >= 0 && (start[x] > start[y] || (start[x] === start[y] && x > y))) {
      list[w] = x;
      a--;
    } else {
      list[w] = y;
      b--;
    }
  }
}

function bucketSort(start: Float64Array, list: Int32Array, less: (a: number, b: number) => boolean, min: number, max: number): Int32Array {
  const n = list.length;
  const buckets = Math.max(1, n >> 1);
  const scale = max > min ? (buckets - 1e-9) / (max - min) : 0;
  const count = new Int32Array(buckets + 1);
  for (let k = 0; k < n; k++) count[Math.floor((start[list[k]] - min) * scale) + 1]++;
  for (let b = 0; b < buckets; b++) count[b + 1] += count[b];
  const out = new Int32Array(n);
  const fill = count.slice(0, buckets);
  for (let k = 0; k < n; k++) {
    const i = list[k];
    out[fill[Math.floor((start[i] - min) * scale)]++] = i;
  }
  for (let b = 0; b < buckets; b++) {
    const lo = count[b];
    const hi = count[b + 1];
    if (hi - lo < 2) continue;
    if (hi - lo > 32) {
      out.subarray(lo, hi).sort((a, c) => start[a] - start[c] || a - c);
      continue;
    }
    for (let k = lo + 1; k < hi; k++) {
      const v = out[k];
      let j = k - 1;
      while (j >= lo && less(v, out[j])) {
        out[j + 1] = out[j];
        j--;
      }
      out[j + 1] = v;
    }
  }
  return out;
}

/**
 * Every event's index, grouped by type, then by thread row (the last row: events with no
 * thread), each group sorted by start: one counting sort per profile.
 *
 *   order  [type 0: thread 0 | thread 1 | … | none][type 1: thread 0 | …]…
 *   off    group g = type · rows + row spans order[off[g], off[g + 1])
 *
 * One type's events on one thread come from one writer, so a group is in time order but for a
 * few events (a read written when it ends, after a nested read that started later). A thread's
 * events of all types together are far from it: a park is written when it ends, after the
 * samples taken while it lasted.
 */
export interface ThreadIndex {
  order: Int32Array;
  off: Int32Array;
  /** Thread rows + 1. */
  rows: number;
  /** Per thread row: its events of every type. */
  perThread: Int32Array;
}

export function indexEvents(profile: Profile): ThreadIndex {
  const { type, thread, length: n } = profile.events;
  const none = profile.threads.length;
  const rows = none + 1;
  const types = profile.eventTypes.length;
  const groups = types * rows;
  const off = new Int32Array(groups + 1);
  // Rows come in runs of one type on one thread (a thread's buffer is written at once, hundreds
  // of events): counted, then placed, run by run.
  for (let i = 0; i < n; ) {
    const ty = type[i];
    const t = thread[i];
    let j = i + 1;
    while (j < n && type[j] === ty && thread[j] === t) j++;
    if (ty >= 0 && ty < types) off[ty * rows + (t >= 0 ? t : none) + 1] += j - i;
    i = j;
  }
  for (let g = 0; g < groups; g++) off[g + 1] += off[g];
  const order = new Int32Array(off[groups]);
  const fill = off.slice(0, groups);
  for (let i = 0; i < n; ) {
    const ty = type[i];
    const t = thread[i];
    let j = i + 1;
    while (j < n && type[j] === ty && thread[j] === t) j++;
    if (ty >= 0 && ty < types) {
      const g = ty * rows + (t >= 0 ? t : none);
      let w = fill[g];
      for (let x = i; x < j; x++) order[w++] = x;
      fill[g] = w;
    }
    i = j;
  }
  const perThread = new Int32Array(none);
  const start = profile.events.start;
  let scratch = new Int32Array(0);
  for (let g = 0; g < groups; g++) {
    const lo = off[g];
    const hi = off[g + 1];
    if (g % rows !== none) perThread[g % rows] += hi - lo;
    if (hi - lo < 2) continue;
    const group = order.subarray(lo, hi);
    // Long groups: runs overlapping at their edges merged into what precedes them, else by
    // their runs pairwise (one buffer of the longest for all); the rest as they come.
    if (hi - lo >= 4096) {
      if (scratch.length < hi - lo) scratch = new Int32Array(largestGroup(off));
      if (mergeTails(start, group, scratch) || mergeRunsInPlace(start, group, scratch)) continue;
    }
    sortInPlace(start, group);
  }
  return { order, off, rows, perThread };
}

/**
 * Sort `list` in place when each of its ascending runs overlaps what comes before it only near
 * its edge (a thread's buffers, each written after the last, a few of its events older than the
 * last one's newest): each run is merged into the sorted part before it from where its first
 * event belongs there, that overlapped tail set aside in `scratch`; once the tail is placed the
 * rest of the run is where it belongs already. Gives up, returning false with `list` still a
 * permutation of itself, once the events moved outnumber the list (runs that overlap deeply).
 */
function mergeTails(start: Float64Array, list: Int32Array, scratch: Int32Array): boolean {
  const n = list.length;
  let budget = n;
  let s = 1;
  // The scans along runs compare inline (millions of steps; `after` is not always inlined).
  let prev = list[0];
  let t = start[prev];
  while (s < n) {
    const cur = list[s];
    const u = start[cur];
    if (u > t || (u === t && cur > prev)) {
      prev = cur;
      t = u;
      s++;
      continue;
    }
    // A run [s, e) begins: its first event belongs before list[s - 1], at p.
    let e = s + 1;
    let last = cur;
    let lastT = u;
    for (; e < n; e++) {
      const y = list[e];
      const v = start[y];
      if (!(v > lastT || (v === lastT && y > last))) break;
      last = y;
      lastT = v;
    }
    const first = list[s];
    let p = s - 1;
    let step = 1;
    // Back from s - 1 by galloping to a position whose event does not come after `first`.
    let q = s - 1;
    while (q >= 0 && after(start, list[q], first)) {
      p = q;
      q -= step;
      step *= 2;
    }
    // p: an event after `first`; the answer is in (max(q, -1), p].
    let a = Math.max(q, -1) + 1;
    let b = p;
    while (a < b) {
      const mid = (a + b) >> 1;
      if (after(start, list[mid], first)) b = mid;
      else a = mid + 1;
    }
    p = a;
    const tail = s - p;
    budget -= tail;
    if (budget < 0) return false;
    for (let k = 0; k < tail; k++) scratch[k] = list[p + k];
    // Merge the tail and the run into [p, e): the write position never passes the run's next.
    let x = 0;
    let y = s;
    let w = p;
    while (x < tail && y < e) {
      if (after(start, list[y], scratch[x])) list[w++] = scratch[x++];
      else list[w++] = list[y++];
    }
    while (x < tail) list[w++] = scratch[x++];
    budget -= y - s;
    if (budget < 0) return false;
    s = e;
    prev = list[e - 1];
    t = start[prev];
  }
  return true;
}

/** Events in the largest group of an index's offsets. */
function largestGroup(off: Int32Array): number {
  let most = 0;
  for (let g = 0; g + 1 < off.length; g++) most = Math.max(most, off[g + 1] - off[g]);
  return most;
}

/** Thread row `row`'s events of `type` (row = threads.length: those with no thread), by start. */
export function eventsOf(index: ThreadIndex, type: number, row: number): Int32Array {
  const g = type * index.rows + row;
  if (type < 0 || row < 0 || row >= index.rows || g >= index.off.length - 1) return new Int32Array(0);
  return index.order.subarray(index.off[g], index.off[g + 1]);
}

/** Every event of `type`, thread by thread. */
export function eventsOfType(index: ThreadIndex, type: number): Int32Array {
  const lo = type * index.rows;
  if (type < 0 || lo >= index.off.length - 1) return new Int32Array(0);
  return index.order.subarray(index.off[lo], index.off[lo + index.rows]);
}

/**
 * Events of one type in time order, per thread row, plus those with no thread. There is no
 * overall time-sorted list on purpose: sorting tens of millions of indexes costs seconds, and
 * summing per-thread columns costs (threads × columns × log n) per frame instead.
 */
export interface TypeLists {
  type: IndexIntoEventTypes;
  byThread: Int32Array[];
  unthreaded: Int32Array;
  /** byThread then unthreaded. */
  parts: Int32Array[];
  total: number;
}

/** The type's groups of the index, one per thread row: views, no copies. */
export function typeLists(profile: Profile, index: ThreadIndex, type: IndexIntoEventTypes): TypeLists {
  const byThread = Array.from({ length: profile.threads.length }, (_, t) => eventsOf(index, type, t));
  const unthreaded = eventsOf(index, type, profile.threads.length);
  const parts = [...byThread, unthreaded];
  return { type, byThread, unthreaded, parts, total: parts.reduce((a, l) => a + l.length, 0) };
}

/**
 * Lists sorted by start (ties by index), merged into one sorted list: pairwise, so k lists of n
 * events in all cost n · log k. A pair merges by runs: the events of one list that come before
 * the other's next are found by galloping and copied at once, so a thread's millions of reads
 * merged with its few parks cost a few copies, not a comparison each.
 */
export function mergeByStart(start: Float64Array, lists: Int32Array[]): Int32Array {
  let todo = lists.filter((l) => l.length > 0);
  if (todo.length === 0) return new Int32Array(0);
  while (todo.length > 1) {
    const next: Int32Array[] = [];
    for (let k = 0; k + 1 < todo.length; k += 2) next.push(mergeTwo(start, todo[k], todo[k + 1]));
    if (todo.length % 2) next.push(todo[todo.length - 1]);
    todo = next;
  }
  return todo[0];
}

/**
 * src[from, to) to dst from position o: a short run by a loop (a view of the run per copy costs
 * more than the copy when lists interleave every few dozen events), a long one by set.
 */
function copyRun(src: Int32Array, from: number, to: number, dst: Int32Array, o: number): void {
  if (to - from < 64) for (let k = from; k < to; k++) dst[o++] = src[k];
  else dst.set(src.subarray(from, to), o);
}

/** Whether event x comes after event y in time order (ties by index). */
export function after(start: Float64Array, x: number, y: number): boolean {
  return start[x] > start[y] || (start[x] === start[y] && x > y);
}

/** First position from `from` in `list` (sorted) whose event comes after event `y`: by galloping. */
export function runBefore(start: Float64Array, list: Int32Array, y: number, from: number): number {
  if (from >= list.length || after(start, list[from], y)) return from;
  // list[lo] does not come after y; find hi that does (or the end), doubling the step.
  let lo = from;
  let step = 1;
  let hi = from + 1;
  while (hi < list.length && !after(start, list[hi], y)) {
    lo = hi;
    step *= 2;
    hi = from + step;
  }
  if (hi > list.length) hi = list.length;
  // The answer is in (lo, hi].
  let a = lo + 1;
  while (a < hi) {
    const mid = (a + hi) >> 1;
    if (after(start, list[mid], y)) hi = mid;
    else a = mid + 1;
  }
  return hi;
}

function mergeTwo(start: Float64Array, a: Int32Array, b: Int32Array): Int32Array {
  const out = new Int32Array(a.length + b.length);
  mergeInto(start, a, b, out, 0);
  return out;
}

/** a and b (each sorted) merged into out[o, o + a.length + b.length). */
function mergeInto(start: Float64Array, a: Int32Array, b: Int32Array, out: Int32Array, o: number): void {
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) {
    // a's events up to b[j] (a wins ties of time when its index is lower), then b's up to a's next.
    const ra = runBefore(start, a, b[j], i);
    copyRun(a, i, ra, out, o);
    o += ra - i;
    i = ra;
    if (i >= a.length) break;
    const rb = runBefore(start, b, a[i], j);
    copyRun(b, j, rb, out, o);
    o += rb - j;
    j = rb;
  }
  if (i < a.length) out.set(a.subarray(i), o);
  else if (j < b.length) out.set(b.subarray(j), o);
}

/** First position in `list` (sorted by start) whose event starts at or after `t`, searching [lo, hi). */
export function firstAtOrAfter(start: Float64Array, list: Int32Array, t: number, lo = 0, hi = list.length): number {
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (start[list[mid]] < t) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * firstAtOrAfter from position `from` by galloping: cost O(log distance), so walking forward in
 * small steps (bar after bar when zoomed in) stays cheap and big jumps stay logarithmic.
 */
export function gallopAtOrAfter(start: Float64Array, list: Int32Array, t: number, from: number): number {
  let lo = from;
  let step = 1;
  let hi = from;
  while (hi < list.length && start[list[hi]] < t) {
    lo = hi + 1;
    hi += step;
    step *= 2;
  }
  return firstAtOrAfter(start, list, t, lo, Math.min(hi, list.length));
}

/**
 * A value computed from one list of event indexes, kept while the list's buffer lives: the lists
 * of a type on a thread (typeLists) are views of the index, and the timeline's lists of interval
 * events (intervals.ts) are the very same views wherever a thread's intervals are of one type, so
 * what both need (the reach, a track of waits) is computed once per list, not once per caller.
 * Keyed by the buffer, the view's place in it, and the profile's columns it was computed from.
 */
export class ListMemo<T> {
  private readonly byBuffer = new WeakMap<ArrayBufferLike, Map<string, { events: object; value: T }>>();

  /** The value kept for `list`, if any (nothing computed). */
  peek(profile: Profile, list: Int32Array): T | undefined {
    const had = this.byBuffer.get(list.buffer)?.get(`${list.byteOffset}:${list.length}`);
    return had && had.events === profile.events ? had.value : undefined;
  }

  get(profile: Profile, list: Int32Array, compute: () => T): T {
    let m = this.byBuffer.get(list.buffer);
    if (!m) this.byBuffer.set(list.buffer, (m = new Map()));
    const key = `${list.byteOffset}:${list.length}`;
    const had = m.get(key);
    if (had && had.events === profile.events) return had.value;
    const value = compute();
    m.set(key, { events: profile.events, value });
    return value;
  }
}

/**
 * A list's reach: the running maximum of end times (start + duration) along it, kept per block
 * of CUM_STEP events (`ends`); a position's own is its block's predecessor's and the events of
 * its block before it (reachAt), so a list of millions of waits stores a sixteenth of them.
 *
 * A list whose events all last is, besides, its own track (the union of its spans, waits.ts),
 * when few of them start before all those before them have ended (a nested read, a wait that
 * touches the last): those few are `merged`, each into the span before it, and the pass that
 * finds them sums the spans' lengths (`cum`). When none is merged the list is `disjoint`: each
 * event is a span, and its own end its reach.
 */
export interface Reach {
  list: Int32Array;
  /** Every event lasts and starts after all before it have ended. */
  disjoint: boolean;
  /**
   * Positions (ascending, none the first) whose event starts at or before the reach before it,
   * merged into the span before; null when the list is not its own track (an event of no
   * length, or more than one in MERGED_EVERY merged).
   */
  merged: Int32Array | null;
  /** With `merged`: the spans' lengths summed before every CUM_STEP-th span, (spans / CUM_STEP) + 1 of them; else null. */
  cum: Float64Array | null;
  /** The reach at the last position of each block of CUM_STEP positions (ascending). */
  ends: Float64Array;
  start: Float64Array;
  duration: Profile['events']['duration'];
}

/** A prefix sum of a list's span lengths, and its reach, kept in this many events. */
export const CUM_STEP = 16;
const CUM_SHIFT = 4;
/** A list with more merged events than one in this many makes a track of its own arrays. */
export const MERGED_EVERY = 64;

const reaches = new ListMemo<Reach>();

/** The reach along a time-sorted list (computed once per list when long). */
export function reachOf(profile: Profile, list: Int32Array): Reach {
  return list.length < 1024 ? computeReach(profile, list) : reaches.get(profile, list, () => computeReach(profile, list));
}

/** The list's Reach when kept already (nothing computed). */
export function keptReach(profile: Profile, list: Int32Array): Reach | undefined {
  return reaches.peek(profile, list);
}

/** The reach at position k. */
export function reachAt(r: Reach, k: number): number {
  const { list, start, duration } = r;
  if (r.disjoint) return start[list[k]] + duration[list[k]];
  const c = k >> CUM_SHIFT;
  let max = c > 0 ? r.ends[c - 1] : -Infinity;
  for (let j = c << CUM_SHIFT; j <= k; j++) {
    const e = start[list[j]] + duration[list[j]];
    if (e > max) max = e;
  }
  return max;
}

/** First position whose reach passes `t`: no earlier event reaches past `t`. */
export function firstPast(r: Reach, t: number): number {
  if (r.disjoint) return firstEndPast(r, t, 0);
  const { list, start, duration, ends } = r;
  // The first block reaching past t; in it, the first event ending after t (all before it end by t).
  const c = firstReachingPast(ends, t);
  if (c >= ends.length) return list.length;
  const hi = Math.min(list.length, (c + 1) << CUM_SHIFT);
  for (let j = c << CUM_SHIFT; j < hi; j++) if (start[list[j]] + duration[list[j]] > t) return j;
  return hi;
}

/** Spans of a list that is its own track (`merged` set): its events, less those merged. */
export function spanCount(r: Reach): number {
  return r.list.length - r.merged!.length;
}

/**
 * How many merged positions m[i] have m[i] − step · i ≤ x (ascending in i for step 0 and 1:
 * m[i] − i counts the spans that begin before m[i]).
 */
function mergedUpTo(m: Int32Array, x: number, step: 0 | 1): number {
  let lo = 0;
  let hi = m.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (m[mid] - step * mid <= x) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Position of the first event of span j of a list that is its own track. */
export function spanPos(r: Reach, j: number): number {
  const m = r.merged!;
  // The events merged into span j or before precede its first event.
  return m.length === 0 ? j : j + mergedUpTo(m, j, 1);
}

/** The span holding position k of a list that is its own track. */
export function spanAt(r: Reach, k: number): number {
  const m = r.merged!;
  return m.length === 0 ? k : k - mergedUpTo(m, k, 0);
}

/**
 * Of a list that is its own track, the first span from span `from` on that ends after `t`
 * (spans' ends ascend).
 */
export function firstSpanPast(r: Reach, t: number, from: number): number {
  if (r.disjoint) return firstEndPast(r, t, from);
  const spans = spanCount(r);
  if (from >= spans) return spans;
  // A span ends at the reach of its last event: the first position reaching past t is in the first span ending after it.
  const k = firstPast(r, t);
  return k >= r.list.length ? spans : Math.max(from, spanAt(r, k));
}

/**
 * In a disjoint list, the first position from `from` whose event ends after `t` (ends ascend):
 * the block is found by galloping over the blocks' ends from `from`'s, then the event in it.
 */
export function firstEndPast(r: Reach, t: number, from: number): number {
  const { list, start, duration } = r;
  const ends = r.ends;
  const n = list.length;
  if (from >= n) return n;
  // The first block whose last event ends after t, from from's block on.
  let c = from >> CUM_SHIFT;
  if (!(ends[c] > t)) {
    let lo = c;
    let step = 1;
    let hi = c + 1;
    while (hi < ends.length && !(ends[hi] > t)) {
      lo = hi;
      step *= 2;
      hi = lo + step;
    }
    if (hi >= ends.length) {
      hi = ends.length;
      if (!(ends[hi - 1] > t)) return n;
    }
    // ends[lo] ≤ t < ends[hi]: the answer's block is in (lo, hi].
    lo++;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (ends[mid] > t) hi = mid;
      else lo = mid + 1;
    }
    c = lo;
  }
  let lo = Math.max(from, c << CUM_SHIFT);
  let hi = Math.min(n, (c + 1) << CUM_SHIFT);
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (start[list[mid]] + duration[list[mid]] <= t) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

function computeReach(profile: Profile, list: Int32Array): Reach {
  const { start, duration } = profile.events;
  const n = list.length;
  const ends = new Float64Array((n + CUM_STEP - 1) >> CUM_SHIFT);
  // While the list is its own track: the merged positions, and the spans' lengths summed as
  // each span closes (a span is closed by the next one's first event, or the list's end).
  const most = Math.floor(n / MERGED_EVERY);
  let merged = new Int32Array(Math.min(most, 1024));
  let m = 0;
  const cum = new Float64Array((n >> CUM_SHIFT) + 1);
  let sum = 0;
  let spans = 0;
  let sa = 0;
  let se = 0;
  let max = -Infinity;
  let k = 0;
  // While the list is its own track, each event opens a span or is merged into the one open;
  // the reach is kept at each block's last position.
  for (; k < n; k++) {
    const i = list[k];
    const a = start[i];
    const d = duration[i];
    const end = a + d;
    if (!(d > 0)) break;
    if (a > max) {
      if (k > 0) {
        sum += se - sa;
        spans++;
        if ((spans & (CUM_STEP - 1)) === 0) cum[spans >> CUM_SHIFT] = sum;
      }
      sa = a;
      se = end;
    } else if (k === 0 || m >= most) break;
    else {
      if (m === merged.length) {
        const more = new Int32Array(Math.min(most, 2 * merged.length));
        more.set(merged);
        merged = more;
      }
      merged[m++] = k;
      if (end > se) se = end;
    }
    if (end > max) max = end;
    if ((k & (CUM_STEP - 1)) === CUM_STEP - 1) ends[k >> CUM_SHIFT] = max;
  }
  const own = k === n;
  // The rest (a list that is not its own track): the reach alone.
  for (; k < n; k++) {
    const i = list[k];
    const end = start[i] + duration[i];
    if (end > max) max = end;
    if ((k & (CUM_STEP - 1)) === CUM_STEP - 1) ends[k >> CUM_SHIFT] = max;
  }
  if (n & (CUM_STEP - 1)) ends[ends.length - 1] = max;
  if (!own) return { list, disjoint: false, merged: null, cum: null, ends, start, duration };
  if (n > 0) {
    sum += se - sa;
    spans++;
    if ((spans & (CUM_STEP - 1)) === 0) cum[spans >> CUM_SHIFT] = sum;
  }
  return { list, disjoint: m === 0, merged: merged.slice(0, m), cum, ends, start, duration };
}

/** First position of an ascending array (a running maximum of ends) above `t`. */
export function firstReachingPast(reach: Float64Array, t: number): number {
  let lo = 0;
  let hi = reach.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (reach[mid] <= t) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

