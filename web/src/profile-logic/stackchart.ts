/**
 * The stack chart of one thread: what it was doing moment by moment, frames stacked by depth
 * along time, as Firefox Profiler's stack chart and speedscope's "time order" draw them.
 *
 *   samples of the thread (time order)   t0 ─ t1 ─ t2 ───────── t3
 *   depth 0                              [ run ─────────── ]    [ run
 *   depth 1                              [ serve ───────── ]    [ serve
 *   depth 2                              [ parse ][ read ─ ]    [ parse
 *
 * How long a sample stands for: an event with a duration (a lock wait, a park, an I/O) for its
 * own duration; a sample (no duration) from its time up to the thread's next event of the type,
 * but no longer than the sampling interval (samplingInterval: the median gap between the
 * thread's consecutive events), so a thread that was not sampled (blocked, idle, not running
 * Java) shows a gap instead of a stretched box. Events the filters drop still end the span of
 * the one before them: the thread was doing something else then.
 *
 * The merge rule: consecutive drawn samples whose spans touch (one ends where the next starts)
 * share a box at depth d when their frames from the root down to d are the same methods (by
 * name, as the flame graph merges them). So boxes nest: a box lies within the box above it.
 */
import type { IndexIntoFrames, IndexIntoStrings, Profile } from '../columns/profile';
import type { Cumulative } from './running-counts';

export interface StackBox {
  depth: number;
  /** ms since the recording's start. */
  start: number;
  end: number;
  /** The method (string index of its name), and the first sample's frame (its kind, its line). */
  name: IndexIntoStrings;
  frame: IndexIntoFrames;
  /** Samples merged into the box. */
  samples: number;
}

export interface StackChart {
  /** By depth, then by start. */
  boxes: StackBox[];
  /** Deepest stack drawn (rows = maxDepth). */
  maxDepth: number;
  /** Samples drawn. */
  samples: number;
}

/** Fallback when a thread has fewer than two events: 10 ms, the JDK's default CPU sampling period under settings=profile. */
export const DEFAULT_INTERVAL_MS = 10;

/**
 * The sampling interval of a list of events in time order: the median of the positive gaps
 * between consecutive starts (gaps over the thread's idle stretches are a minority as long as
 * it was mostly sampled in runs); null with no gap.
 */
export function samplingInterval(start: Float64Array, list: Int32Array): number | null {
  const gaps: number[] = [];
  // A sample of at most 4,097 gaps spread over the list is enough for a median.
  const stride = Math.max(1, Math.floor((list.length - 1) / 4096));
  for (let k = 0; k + 1 < list.length; k += stride) {
    const g = start[list[k + 1]] - start[list[k]];
    if (g > 0) gaps.push(g);
  }
  if (gaps.length === 0) return null;
  gaps.sort((a, b) => a - b);
  return gaps[gaps.length >> 1];
}

/** Where event list[k] stops standing for the thread's activity (see the header). */
function spanEnd(start: Float64Array, duration: Float32Array, list: Int32Array, k: number, interval: number): number {
  const i = list[k];
  if (duration[i] > 0) return start[i] + duration[i];
  const capped = start[i] + interval;
  return k + 1 < list.length ? Math.min(start[list[k + 1]], capped) : capped;
}

/**
 * The boxes of one thread's events (`cum.list`, in time order; those `cum.match` flags drawn)
 * whose spans overlap [from, to] ms, with samples standing for at most `interval` ms.
 */
export function stackChart(profile: Profile, cum: Cumulative, from: number, to: number, interval: number): StackChart {
  const { start, duration, stack } = profile.events;
  const { frame, prefix } = profile.stacks;
  const fname = profile.frames.name;
  const { list, match } = cum;
  const boxes: StackBox[][] = [];
  // The open box per depth, and the methods of the last drawn sample's path (root first).
  const open: StackBox[] = [];
  const path: number[] = [];
  const rows: number[] = [];
  let lastEnd = -Infinity;
  let samples = 0;
  let maxDepth = 0;
  // First event that can reach `from`: spans are at most `interval` long, or the event's duration.
  let lo = 0;
  let hi = list.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (start[list[mid]] < from - interval) lo = mid + 1;
    else hi = mid;
  }
  // Durations can be long: step back over events whose own span still reaches `from`.
  let k0 = lo;
  for (let k = lo - 1; k >= 0 && k >= lo - 64; k--) if (start[list[k]] + duration[list[k]] >= from) k0 = k;
  for (let k = k0; k < list.length; k++) {
    const i = list[k];
    const t = start[i];
    if (t > to) break;
    if (match[k + 1] === match[k]) continue;
    const s = stack[i];
    if (s < 0) continue;
    const end = spanEnd(start, duration, list, k, interval);
    if (end < from) continue;
    // The sample's rows, root first.
    rows.length = 0;
    for (let q = s; q >= 0; q = prefix[q]) rows.push(q);
    rows.reverse();
    const touches = t <= lastEnd && open.length > 0;
    // Depth to which the open boxes continue.
    let d = 0;
    if (touches) {
      while (d < rows.length && d < path.length && path[d] === fname[frame[rows[d]]]) d++;
    }
    for (let e = 0; e < d; e++) {
      open[e].end = end;
      open[e].samples++;
    }
    open.length = d;
    path.length = d;
    for (let e = d; e < rows.length; e++) {
      const f = frame[rows[e]];
      const box: StackBox = { depth: e, start: t, end, name: fname[f], frame: f, samples: 1 };
      open.push(box);
      path.push(fname[f]);
      (boxes[e] ??= []).push(box);
    }
    lastEnd = end;
    samples++;
    if (rows.length > maxDepth) maxDepth = rows.length;
  }
  return { boxes: boxes.flat(), maxDepth, samples };
}

/** The box drawn at depth `depth` and time `t` (binary search in the chart's boxes of that depth); null over a gap. */
export function boxAt(chart: StackChart, depth: number, t: number): StackBox | null {
  const b = chart.boxes;
  // First box of the depth.
  let lo = 0;
  let hi = b.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (b[mid].depth < depth || (b[mid].depth === depth && b[mid].end < t)) lo = mid + 1;
    else hi = mid;
  }
  const x = b[lo];
  return x && x.depth === depth && x.start <= t && t <= x.end ? x : null;
}

/** How many of a thread's drawn events (`cum.match` flags over `cum.list`) start in [from, to] ms. */
export function matchingIn(profile: Profile, cum: Cumulative, from: number, to: number): number {
  const { start } = profile.events;
  const first = (t: number, inclusive: boolean) => {
    let lo = 0;
    let hi = cum.list.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      const v = start[cum.list[mid]];
      if (v < t || (!inclusive && v === t)) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  };
  return cum.match[first(to, false)] - cum.match[first(from, true)];
}

/** Index of the first box of `depth` (boxes are by depth, then start). */
function firstOfDepth(b: StackBox[], depth: number): number {
  let lo = 0;
  let hi = b.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (b[mid].depth < depth) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * The box the arrow keys move to from `box` (itself at an edge): ← → the previous and next box
 * of its row, ↑ the box it lies under (its caller), ↓ the first box under it (its first callee).
 */
export function stepBox(chart: StackChart, box: StackBox, key: 'ArrowUp' | 'ArrowDown' | 'ArrowLeft' | 'ArrowRight'): StackBox {
  const b = chart.boxes;
  if (key === 'ArrowLeft' || key === 'ArrowRight') {
    const k = b.indexOf(box);
    const next = b[key === 'ArrowLeft' ? k - 1 : k + 1];
    return next && next.depth === box.depth ? next : box;
  }
  // The caller's box holds the whole of this one: look it up at the middle, not at an edge it may share.
  if (key === 'ArrowUp') return box.depth > 0 ? (boxAt(chart, box.depth - 1, (box.start + box.end) / 2) ?? box) : box;
  for (let k = firstOfDepth(b, box.depth + 1); k < b.length && b[k].depth === box.depth + 1 && b[k].start <= box.end; k++) {
    if (b[k].start >= box.start) return b[k];
  }
  return box;
}
