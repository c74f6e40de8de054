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
import type { ThreadIndex } from './lanes';
import type { WeightMode } from './filters';
import type { EventKind, IndexIntoEvents, IndexIntoEventTypes, Profile } from './profile';

/**
 * Sort event indexes by start time (ties by index). Recordings are nearly in time order, so check
 * first; otherwise a bucket sort on time (linear for the even spread of samples), each bucket
 * finished by insertion sort, or by a comparator sort when a bucket is crowded.
 */
export function sortByStart(profile: Profile, list: Int32Array): Int32Array {
  const start = profile.events.start;
  let sorted = true;
  let min = Infinity;
  let max = -Infinity;
  for (let k = 0; k < list.length; k++) {
    const t = start[list[k]];
    if (k > 0 && t < start[list[k - 1]]) sorted = false;
    if (t < min) min = t;
    if (t > max) max = t;
  }
  if (sorted) return list;
  const less = (a: number, b: number) => start[a] < start[b] || (start[a] === start[b] && a < b);
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

/** Picks the type's events out of indexByThread's lists, which are sorted already. */
export function typeLists(profile: Profile, index: ThreadIndex, type: IndexIntoEventTypes): TypeLists {
  const et = profile.events.type;
  const pick = (list: Int32Array) => {
    let n = 0;
    for (let k = 0; k < list.length; k++) if (et[list[k]] === type) n++;
    if (n === list.length) return list;
    const out = new Int32Array(n);
    n = 0;
    for (let k = 0; k < list.length; k++) if (et[list[k]] === type) out[n++] = list[k];
    return out;
  };
  const byThread = index.events.map(pick);
  const unthreaded = pick(index.unthreaded);
  const parts = [...byThread, unthreaded];
  return { type, byThread, unthreaded, parts, total: parts.reduce((a, l) => a + l.length, 0) };
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
}

export const INTERVAL_KINDS: ReadonlySet<EventKind> = new Set(['lock', 'park', 'sleep', 'io']);

export function intervals(profile: Profile, index: ThreadIndex): Intervals {
  const e = profile.events;
  const isInterval = profile.eventTypes.map((t) => INTERVAL_KINDS.has(t.kind));
  const byThread: Int32Array[] = [];
  const reach: Float64Array[] = [];
  for (const list of index.events) {
    let n = 0;
    for (let k = 0; k < list.length; k++) if (isInterval[e.type[list[k]]] && e.duration[list[k]] > 0) n++;
    const out = new Int32Array(n);
    const r = new Float64Array(n);
    n = 0;
    let max = -Infinity;
    for (let k = 0; k < list.length; k++) {
      const i = list[k];
      if (!(isInterval[e.type[i]] && e.duration[i] > 0)) continue;
      out[n] = i;
      max = Math.max(max, e.start[i] + e.duration[i]);
      r[n++] = max;
    }
    byThread.push(out);
    reach.push(r);
  }
  return { byThread, reach };
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
  const { stack, weight, duration } = profile.events;
  for (const cum of cums) {
    const [lo, hi] = rangePositions(profile, cum.list, range);
    const list = cum.list;
    const m = cum.match;
    for (let k = lo; k < hi; k++) {
      if (m[k + 1] === m[k]) continue;
      const i = list[k];
      const s = stack[i];
      out[s >= 0 ? s : none] += mode === 'duration' ? duration[i] : mode === 'events' ? 1 : weight[i];
    }
  }
  return out;
}
