/**
 * Events per pixel column at any zoom, in O(columns · log n) however many events there are:
 *
 *   events of the selected type ─ sorted by start, per thread             (per event type)
 *     ─ running counts of matching / matching-and-running events           (per filter change)
 *     ─ per column: two binary searches, three subtractions                 (per drawn frame)
 *
 *   list   [e7  e2  e9  e4  e5]        starts 1 2 2 5 8 ms
 *   match   0   1   1   0   1
 *   cum   0   0   1   2   2   3        column [2, 6) ms: positions 1..4 → 3 events, cum[4]-cum[1] = 2 match
 *
 * The timeline's lanes and its activity histogram read these; drawing never walks the events.
 * Interval events (lock waits, parks, sleeps, I/O) keep their own per-thread lists with a running
 * maximum of their ends, so the first bar reaching into a window is found by binary search too.
 */
import { eventWeight, type WeightMode } from './filters';
import type { EventKind, IndexIntoEvents, IndexIntoEventTypes, Profile } from './profile';

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
  for (let i = 0; i < n; i++) {
    const ty = type[i];
    if (ty < 0 || ty >= types) continue;
    const t = thread[i];
    off[ty * rows + (t >= 0 ? t : none) + 1]++;
  }
  for (let g = 0; g < groups; g++) off[g + 1] += off[g];
  const order = new Int32Array(off[groups]);
  const fill = off.slice(0, groups);
  for (let i = 0; i < n; i++) {
    const ty = type[i];
    if (ty < 0 || ty >= types) continue;
    const t = thread[i];
    order[fill[ty * rows + (t >= 0 ? t : none)]++] = i;
  }
  const perThread = new Int32Array(none);
  for (let g = 0; g < groups; g++) {
    const lo = off[g];
    const hi = off[g + 1];
    if (g % rows !== none) perThread[g % rows] += hi - lo;
    if (hi - lo < 2) continue;
    const part = order.subarray(lo, hi);
    const sorted = sortByStart(profile, part);
    if (sorted !== part) part.set(sorted);
  }
  return { order, off, rows, perThread };
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
 * events in all cost n · log k.
 */
export function mergeByStart(start: Float64Array, lists: Int32Array[]): Int32Array {
  let todo = lists.filter((l) => l.length > 0);
  if (todo.length === 0) return new Int32Array(0);
  while (todo.length > 1) {
    const next: Int32Array[] = [];
    for (let k = 0; k + 1 < todo.length; k += 2) {
      const a = todo[k];
      const b = todo[k + 1];
      const out = new Int32Array(a.length + b.length);
      let i = 0;
      let j = 0;
      let o = 0;
      while (i < a.length && j < b.length) {
        const x = a[i];
        const y = b[j];
        if (start[y] < start[x] || (start[y] === start[x] && y < x)) {
          out[o++] = y;
          j++;
        } else {
          out[o++] = x;
          i++;
        }
      }
      if (i < a.length) out.set(a.subarray(i), o);
      else out.set(b.subarray(j), o);
      next.push(out);
    }
    if (todo.length % 2) next.push(todo[todo.length - 1]);
    todo = next;
  }
  return todo[0];
}

/** The events of `list` with a duration above zero (the list itself when all have one). */
function withDuration(profile: Profile, list: Int32Array): Int32Array {
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

/** Thread states that count as running (drawn strong); others (sleeping, waiting…) drawn light. */
export function runningStates(profile: Profile): Uint8Array {
  const out = new Uint8Array(profile.strings.length);
  profile.strings.forEach((s, i) => {
    if (/^STATE_(RUNNABLE|RUNNING|DEFAULT|IN_JAVA|IN_VM)$/.test(s)) out[i] = 1;
  });
  return out;
}

/** Running counts over one time-sorted list: `match[k]` events among the first k match. */
export interface Cumulative {
  list: Int32Array;
  /** length list.length + 1 */
  match: Int32Array;
  /** Matching events in a running state (or with no state); length list.length + 1. */
  running: Int32Array;
}

/** With `running` null (a type without thread states) every matching event counts as running. */
export function cumulate(profile: Profile, list: Int32Array, match: Uint8Array, running: Uint8Array | null): Cumulative {
  const m = new Int32Array(list.length + 1);
  let cm = 0;
  if (!running) {
    for (let k = 0; k < list.length; k++) {
      cm += match[list[k]];
      m[k + 1] = cm;
    }
    return { list, match: m, running: m };
  }
  const state = profile.events.state;
  const r = new Int32Array(list.length + 1);
  let cr = 0;
  for (let k = 0; k < list.length; k++) {
    const i = list[k];
    if (match[i]) {
      cm++;
      const s = state[i];
      if (s < 0 || running[s]) cr++;
    }
    m[k + 1] = cm;
    r[k + 1] = cr;
  }
  return { list, match: m, running: r };
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

/** Per column counts, written into caller-owned buffers (added to what they hold). */
export interface Columns {
  total: Float64Array;
  match: Float64Array;
  running: Float64Array;
}

export function newColumns(n: number): Columns {
  return { total: new Float64Array(n), match: new Float64Array(n), running: new Float64Array(n) };
}

export function clearColumns(c: Columns): void {
  c.total.fill(0);
  c.match.fill(0);
  c.running.fill(0);
}

/**
 * Add the events of `cum` starting in [from, to) into `out`'s columns of equal width; an event
 * exactly at a column boundary falls in the later column.
 */
export function addColumns(profile: Profile, cum: Cumulative, from: number, to: number, out: Columns): void {
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

/** Interval events (lock, park, sleep, I/O with a duration) per thread, by start, with reach. */
export interface Intervals {
  byThread: Int32Array[];
  /** Per thread: running maximum of end times along the list. */
  reach: Float64Array[];
  /** The event types with bars on some thread. */
  types: IndexIntoEventTypes[];
}

/** Kinds drawn as bars with their duration (lock waits, parks, sleeps, I/O). */
export const INTERVAL_KIND_LIST = ['lock', 'park', 'sleep', 'io'] as const;
export type IntervalKind = (typeof INTERVAL_KIND_LIST)[number];
export const INTERVAL_KINDS: ReadonlySet<EventKind> = new Set(INTERVAL_KIND_LIST);


export function intervals(profile: Profile, index: ThreadIndex): Intervals {
  const { start, duration } = profile.events;
  const ivTypes = profile.eventTypes.flatMap((t, ty) => (INTERVAL_KINDS.has(t.kind) ? [ty] : []));
  const byThread: Int32Array[] = [];
  const reach: Float64Array[] = [];
  const drawn = new Set<number>();
  for (let t = 0; t < profile.threads.length; t++) {
    const lists = ivTypes.map((ty) => {
      const l = withDuration(profile, eventsOf(index, ty, t));
      if (l.length) drawn.add(ty);
      return l;
    });
    const list = mergeByStart(start, lists);
    const r = new Float64Array(list.length);
    let max = -Infinity;
    for (let k = 0; k < list.length; k++) {
      const i = list[k];
      const end = start[i] + duration[i];
      if (end > max) max = end;
      r[k] = max;
    }
    byThread.push(list);
    reach.push(r);
  }
  return { byThread, reach, types: [...drawn].sort((a, b) => a - b) };
}

/** First position in thread `t`'s interval list whose interval (or an earlier one) ends after `t0`. */
export function firstReaching(iv: Intervals, thread: number, t0: number): number {
  const r = iv.reach[thread];
  let lo = 0;
  let hi = r.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (r[mid] <= t0) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** The events (indexes) of thread `t`'s intervals overlapping [from, to], in start order. */
export function intervalsIn(profile: Profile, iv: Intervals, thread: number, from: number, to: number): IndexIntoEvents[] {
  const e = profile.events;
  const list = iv.byThread[thread];
  const out: number[] = [];
  for (let k = firstReaching(iv, thread, from); k < list.length; k++) {
    const i = list[k];
    if (e.start[i] > to) break;
    if (e.start[i] + e.duration[i] >= from) out.push(i);
  }
  return out;
}

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
