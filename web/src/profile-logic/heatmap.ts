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

/**
 * The matching events binned once per filter change on a fine grid over the whole recording
 * (`bins` time bins × `rows` duration rows): a frame then sums grid cells instead of walking
 * the events, so its cost does not grow with their number.
 */
export interface HeatGrid {
  to: number;
  bins: number;
  rows: number;
  minMs: number;
  maxMs: number;
  /** counts[row * bins + bin] */
  counts: Float64Array;
}

export function heatGrid(profile: Profile, cums: readonly Cumulative[], to: number, rows: number, span: [number, number], bins = 8192): HeatGrid {
  const { start, duration } = profile.events;
  const minMs = span[0] / 1.5;
  const maxMs = span[1] * 1.5;
  const counts = new Float64Array(bins * rows);
  const w = to / bins;
  for (const { list, match } of cums) {
    for (let k = 0; k < list.length; k++) {
      if (match[k + 1] === match[k]) continue;
      const i = list[k];
      const b = Math.min(bins - 1, Math.max(0, Math.floor(start[i] / w)));
      counts[rowOf(duration[i], minMs, maxMs, rows) * bins + b]++;
    }
  }
  return { to, bins, rows, minMs, maxMs, counts };
}

/**
 * Counts of the matching events starting in [from, to) per (time column, duration row). With a
 * grid, a window wide enough to hold at least two grid bins per column is summed from the grid
 * (each bin in the column its middle falls in); a narrower one walks its few events.
 */
export function latencyHeatmap(profile: Profile, cums: readonly Cumulative[], from: number, to: number, cols: number, rows: number, span: [number, number], grid: HeatGrid | null = null): Heatmap {
  const counts = new Float64Array(cols * rows);
  const { start, duration } = profile.events;
  // A little room above and below, so the extremes are not on the edges.
  const minMs = grid ? grid.minMs : span[0] / 1.5;
  const maxMs = grid ? grid.maxMs : span[1] * 1.5;
  const w = (to - from) / cols;
  let max = 0;
  if (grid && grid.rows === rows && w >= (2 * grid.to) / grid.bins) {
    const gw = grid.to / grid.bins;
    const b0 = Math.max(0, Math.floor(from / gw));
    const b1 = Math.min(grid.bins, Math.ceil(to / gw));
    for (let b = b0; b < b1; b++) {
      const mid = (b + 0.5) * gw;
      if (mid < from || mid >= to) continue;
      const c = Math.min(cols - 1, Math.floor((mid - from) / w));
      for (let r = 0; r < rows; r++) {
        const v = grid.counts[r * grid.bins + b];
        if (v === 0) continue;
        const cell = (counts[r * cols + c] += v);
        if (cell > max) max = cell;
      }
    }
    return { from, to, cols, rows, minMs, maxMs, counts, max };
  }
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
