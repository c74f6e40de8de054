/**
 * Reference implementations, for tests only: the plain, per-event versions of what the app
 * computes faster (filterLists, weightsInRange, histogramOf…). Tests cross-check the two.
 */
import type { IndexIntoEvents, Profile } from '../../columns/profile';
import { eventsOf, type ThreadIndex } from '../event-index';
import { eventTest, passes, threadsMatching, type FilterSpec, type Filtered } from '../filters';
import type { Intervals } from '../intervals';
import { eventWeight, type WeightMode } from '../kinds';
import type { Histogram } from '../pixel-columns';
import type { Cumulative } from '../running-counts';

/**
 * The events of `spec.type` that the filters keep (before any time range). `candidates`, when
 * given, lists the events of that type (eventsOfType) so the loop skips every other event.
 */
export function filterEvents(profile: Profile, spec: FilterSpec, candidates?: Int32Array, ofTypeCached?: Uint8Array): Filtered {
  const e = profile.events;
  const threads = threadsMatching(profile, spec.thread, spec.hiddenThreads);
  const test = eventTest(profile, spec);
  // Nothing to filter: every event of the type matches (the arrays are shared, never written).
  if (ofTypeCached && !spec.thread && !test && spec.hiddenThreads.size === 0) {
    return { match: ofTypeCached, ofType: ofTypeCached, threads };
  }
  const threadFiltered = spec.thread !== null;
  const match = new Uint8Array(e.length);
  const ofType = ofTypeCached ?? new Uint8Array(e.length);
  const { type, thread } = e;
  const want = spec.type;
  const n = candidates ? candidates.length : e.length;
  for (let k = 0; k < n; k++) {
    const i = candidates ? candidates[k] : k;
    if (type[i] !== want) continue;
    if (!ofTypeCached) ofType[i] = 1;
    const t = thread[i];
    if (t >= 0 ? !threads[t] : threadFiltered) continue;
    if (test && !passes(test, i)) continue;
    match[i] = 1;
  }
  return { match, ofType, threads };
}


/** Indexes of matching events whose start lies in [from, to] (ms), or all when no range. */
export function selectInRange(profile: Profile, match: Uint8Array, range: readonly [number, number] | null): Int32Array {
  const e = profile.events;
  let n = 0;
  const out = new Int32Array(e.length);
  for (let i = 0; i < e.length; i++) {
    if (!match[i]) continue;
    if (range && (e.start[i] < range[0] || e.start[i] > range[1])) continue;
    out[n++] = i;
  }
  return out.slice(0, n);
}


/** Weight per stack row (index = stack, then one slot for "no stack" and one for "stack lost" (-2)). */
export function weightPerStack(profile: Profile, events: Int32Array, mode: WeightMode): Float64Array {
  const out = new Float64Array(profile.stacks.length + 2);
  const none = profile.stacks.length;
  for (let k = 0; k < events.length; k++) {
    const i = events[k];
    const s = profile.events.stack[i];
    out[s >= 0 ? s : s === -2 ? none + 1 : none] += eventWeight(profile, i, mode);
  }
  return out;
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

/** The events (indexes) of thread `t`'s intervals overlapping [from, to], in start order. */
export function intervalsIn(profile: Profile, iv: Intervals, thread: number, from: number, to: number): IndexIntoEvents[] {
  const e = profile.events;
  // The thread's events of the types with bars that last, sorted; from the first whose running
  // maximum of ends passes `from`.
  const list: number[] = [];
  for (let i = 0; i < e.length; i++) if (e.thread[i] === thread && iv.types.includes(e.type[i]) && e.duration[i] > 0) list.push(i);
  list.sort((a, b) => e.start[a] - e.start[b] || a - b);
  let max = -Infinity;
  let k = 0;
  while (k < list.length && !((max = Math.max(max, e.start[list[k]] + e.duration[list[k]])) > from)) k++;
  const out: number[] = [];
  for (; k < list.length; k++) {
    const i = list[k];
    if (e.start[i] > to) break;
    if (e.start[i] + e.duration[i] >= from) out.push(i);
  }
  return out;
}

/** Events of the type per bucket by their start, matching or not, walking every event. */
export function histogram(profile: Profile, ofType: Uint8Array, match: Uint8Array, from: number, to: number, buckets: number): Histogram {
  const matching = new Float64Array(buckets);
  const other = new Float64Array(buckets);
  const e = profile.events;
  const span = to - from;
  if (span > 0) {
    const scale = buckets / span;
    for (let i = 0; i < e.length; i++) {
      if (!ofType[i]) continue;
      const t = e.start[i];
      if (t < from || t >= to) continue;
      const b = Math.min(buckets - 1, Math.floor((t - from) * scale));
      if (match[i]) matching[b] += 1;
      else other[b] += 1;
    }
  }
  return { from, to, matching, other };
}

/** First position in `list` whose event starts at or after `t`. */
export function lowerBound(profile: Profile, list: Int32Array, t: number): number {
  let lo = 0;
  let hi = list.length;
  const start = profile.events.start;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (start[list[mid]] < t) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Per thread row: events of the selected type, and how many of them match the filters. */
/** Count by walking each thread's events (the reference; the timeline uses running counts). */
export function threadCounts(profile: Profile, index: ThreadIndex, ofType: Uint8Array, match: Uint8Array): { count: Int32Array; matching: Int32Array } {
  const n = profile.threads.length;
  const count = new Int32Array(n);
  const matching = new Int32Array(n);
  for (let t = 0; t < n; t++) {
    for (let ty = 0; ty < profile.eventTypes.length; ty++) {
      const list = eventsOf(index, ty, t);
      for (let k = 0; k < list.length; k++) {
        count[t] += ofType[list[k]];
        matching[t] += match[list[k]];
      }
    }
  }
  return { count, matching };
}
