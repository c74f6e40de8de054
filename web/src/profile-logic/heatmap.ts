/**
 * A latency heatmap of the selected waits, as Brendan Gregg draws them: x time, y duration on a
 * log scale, colour the count of matching events in each cell, so a band of slow reads or long
 * lock waits stands out even when the counts per second do not change.
 *
 *   duration ▲ 1 s   ·  ·        ▓▓
 *   (log)    │ 10 ms ░░░░░░░░░░░░▓▓░░░░
 *            │ 100µs ▓▓▓▓▓▓▓▓▓▓▓▓▓▓▓▓▓▓
 *            └──────────────────────────▶ time
 */
import type { Profile } from '../columns/profile';
import { firstAtOrAfter } from './event-index';
import type { Cumulative } from './running-counts';

export interface Heatmap {
  from: number;
  to: number;
  cols: number;
  rows: number;
  /** Duration at the bottom and top edges, ms (log scale between them). */
  minMs: number;
  maxMs: number;
  /** counts[row * cols + col], row 0 at the shortest durations. */
  counts: Float64Array;
  max: number;
}

/** The smallest and largest duration above zero among the matching events of the lists. */
export function durationSpan(profile: Profile, cums: readonly Cumulative[]): [number, number] {
  const d = profile.events.duration;
  let lo = Infinity;
  let hi = 0;
  for (const { list, match } of cums) {
    for (let k = 0; k < list.length; k++) {
      if (match[k + 1] === match[k]) continue;
      const v = d[list[k]];
      if (v > 0 && v < lo) lo = v;
      if (v > hi) hi = v;
    }
  }
  return lo <= hi ? [lo, hi] : [0.001, 1];
}

/** Row of a duration on the log scale [minMs, maxMs] in `rows` rows. */
export function rowOf(ms: number, minMs: number, maxMs: number, rows: number): number {
  if (!(ms > 0)) return 0;
  const f = Math.log(ms / minMs) / Math.log(maxMs / minMs || 10);
  return Math.min(rows - 1, Math.max(0, Math.floor(f * rows)));
}

/** The duration at the lower edge of row `r`. */
export function durationAt(r: number, minMs: number, maxMs: number, rows: number): number {
  return minMs * Math.pow(maxMs / minMs || 10, r / rows);
}

/** Counts of the matching events starting in [from, to) per (time column, duration row). */
export function latencyHeatmap(profile: Profile, cums: readonly Cumulative[], from: number, to: number, cols: number, rows: number, span: [number, number]): Heatmap {
  const counts = new Float64Array(cols * rows);
  const { start, duration } = profile.events;
  // A little room above and below, so the extremes are not on the edges.
  const minMs = span[0] / 1.5;
  const maxMs = span[1] * 1.5;
  const w = (to - from) / cols;
  let max = 0;
  if (w > 0) {
    for (const { list, match } of cums) {
      for (let k = firstAtOrAfter(start, list, from); k < list.length && start[list[k]] < to; k++) {
        if (match[k + 1] === match[k]) continue;
        const i = list[k];
        const c = Math.min(cols - 1, Math.floor((start[i] - from) / w));
        const cell = rowOf(duration[i], minMs, maxMs, rows) * cols + c;
        const v = ++counts[cell];
        if (v > max) max = v;
      }
    }
  }
  return { from, to, cols, rows, minMs, maxMs, counts, max };
}
