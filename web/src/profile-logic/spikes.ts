/**
 * Spikes: time ranges where the histogram's matching weight stands above the rest, and stepping
 * from one to the next.
 */
import type { Histogram } from './pixel-columns';

/** Buckets whose matching count is well above the median (and at least `min`): the spikes. */
export function spikes(h: Histogram, factor = 3, min = 1): number[] {
  const sorted = [...h.matching].sort((a, b) => a - b);
  const median = sorted[Math.floor(sorted.length / 2)] ?? 0;
  const max = sorted[sorted.length - 1] ?? 0;
  const threshold = Math.max(median * factor, max / 3, min);
  const out: number[] = [];
  h.matching.forEach((v, i) => {
    if (v >= threshold) out.push(i);
  });
  return out;
}

/**
 * The spikes of matching events as time ranges: runs of spike buckets (two events at least), a
 * one-bucket gap bridged, each widened by a bucket on both sides so the selection holds the
 * whole burst.
 */
export function spikeRanges(h: Histogram, factor = 3): [number, number][] {
  const hot = spikes(h, factor, 2);
  const w = (h.to - h.from) / Math.max(h.matching.length, 1);
  const out: [number, number][] = [];
  for (let k = 0; k < hot.length; k++) {
    const first = hot[k];
    while (k + 1 < hot.length && hot[k + 1] - hot[k] <= 2) k++;
    out.push([Math.max(h.from, h.from + (first - 1) * w), Math.min(h.to, h.from + (hot[k] + 2) * w)]);
  }
  return out;
}

/** The spike after (dir 1) or before (dir -1) the selection, or the first one; null at the end. */
export function nextSpike(ranges: readonly [number, number][], range: readonly [number, number] | null, dir: 1 | -1): [number, number] | null {
  if (!range) return (dir > 0 ? ranges[0] : ranges[ranges.length - 1]) ?? null;
  const at = (range[0] + range[1]) / 2;
  const pick = dir > 0 ? ranges.find((r) => (r[0] + r[1]) / 2 > at + 1e-9) : [...ranges].reverse().find((r) => (r[0] + r[1]) / 2 < at - 1e-9);
  return pick ?? null;
}
