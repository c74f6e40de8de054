/**
 * The whole recording on one screen, as async-profiler's heatmap shows a day: one column per
 * minute of clock time, one row per second within it, each cell coloured by the count pass's
 * bins (samples, allocation samples or waiting threads in that second).
 *
 *   second ▲ 59 ░░▓▓░░░░
 *          │ 30 ░░▓▓▓░░░        a burst of samples at 10:02, seconds 20–40
 *          │  0 ░░░░░░░░
 *          └──────────────▶ minute  10:00 10:01 10:02 …
 *
 * The bins cover every event of the file, decoded or not, so this is there before any row is.
 */
import type { RecordingShape } from '../columns/profile';

export type DayMetric = 'samples' | 'allocs' | 'waiting';

export interface DayGrid {
  /** The first column's minute, minutes since the epoch. */
  minute0: number;
  cols: number;
  /** values[col * 60 + second]; NaN where the recording has no bin (before or after it). */
  values: Float64Array;
  max: number;
}

/**
 * The bins of `shape` for `metric` laid out by minute and second, from the second the recording
 * starts in (`fromMs`, epoch ms): a wait that began before the recording fills bins before it
 * (the JDK writes the wait's own start), which no view of the recording's time can select.
 */
export function dayGrid(shape: RecordingShape, metric: DayMetric, fromMs = -Infinity): DayGrid {
  const sec0 = Math.round(shape.startMs / 1000);
  const n = shape.samples.length;
  // The first bin shown: the recording's first second, or the shape's first when later.
  const skip = Math.min(Math.max(0, Math.floor(fromMs / 1000) - sec0), Math.max(0, n - 1));
  const minute0 = Math.floor((sec0 + skip) / 60);
  const cols = Math.max(1, Math.floor((sec0 + n - 1) / 60) - minute0 + 1);
  const values = new Float64Array(cols * 60).fill(NaN);
  const src = shape[metric];
  let max = 0;
  for (let i = skip; i < n; i++) {
    const s = sec0 + i - minute0 * 60;
    const v = src[i];
    values[Math.floor(s / 60) * 60 + (s % 60)] = v;
    if (v > max) max = v;
  }
  return { minute0, cols, values, max };
}

/** The epoch second of a cell. */
export function cellSecond(g: DayGrid, col: number, row: number): number {
  return (g.minute0 + col) * 60 + row;
}

/**
 * The time range (ms since the recording's start, `originMs` its epoch ms) a drag from one
 * cell to another selects: from the earlier second's start to the later one's end. A click
 * (the same cell) selects its whole minute.
 */
export function cellRange(g: DayGrid, a: [number, number], b: [number, number], originMs: number): [number, number] {
  if (a[0] === b[0] && a[1] === b[1]) {
    const m = (g.minute0 + a[0]) * 60_000;
    return [m - originMs, m + 60_000 - originMs];
  }
  const s1 = cellSecond(g, a[0], a[1]);
  const s2 = cellSecond(g, b[0], b[1]);
  return [Math.min(s1, s2) * 1000 - originMs, (Math.max(s1, s2) + 1) * 1000 - originMs];
}

/** The whole recording spans more than this: its overview shows above the lanes from the start. */
export const LONG_RECORDING_MS = 10 * 60_000;
