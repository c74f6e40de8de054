/**
 * The activity histogram of the selected events, weighed three ways, and its spikes:
 *   count     events starting in each bucket (samples; or the waits that began there)
 *   duration  ms of matching waits inside each bucket (a thread's overlapping waits once)
 *   threads   threads in a matching wait, on average over each bucket
 * Count reads the running counts; duration and threads read each thread's track of matching
 * waits, so every bucket costs threads × log n whatever the number of events.
 */
import type { Profile } from '../columns/profile';
import { firstAtOrAfter, gallopAtOrAfter, ListMemo } from './event-index';
import { histogramOf, type Histogram } from './pixel-columns';
import type { Cumulative } from './running-counts';
import { findSpikes } from './spikes';
import { spansOf, threadsWaiting, trackOf, type Track } from './waits';

export type ActivityWeight = 'count' | 'duration' | 'threads';

export const ACTIVITY_LABEL: Record<ActivityWeight, string> = {
  count: 'count per bucket',
  duration: 'wait time per bucket',
  threads: 'threads waiting',
};

/** Per thread row, the union of its matching waits (the matching events of `cums.byThread`). */
export function matchTracks(profile: Profile, byThread: readonly Cumulative[]): Track[] {
  // match is a running count: the event at position k matches when match[k + 1] > match[k]; all
  // do when it ends at the list's length (the whole list's track, kept once per list).
  return byThread.map(({ list, match }) => (match[list.length] - match[0] === list.length ? trackOf(profile, list, null) : spansOf(profile, list, match, null)));
}

/** The histogram of [from, to) in `buckets` weighed by `weight`; `other` is only counted by count. */
export function activity(
  profile: Profile,
  cums: readonly Cumulative[],
  tracks: readonly Track[] | null,
  keep: Uint8Array | null,
  weight: ActivityWeight,
  from: number,
  to: number,
  buckets: number,
): Histogram {
  if (weight === 'count' || !tracks) return histogramOf(profile, cums, from, to, buckets);
  const matching = threadsWaiting(tracks, keep, from, to, buckets);
  if (weight === 'duration') {
    const w = (to - from) / buckets;
    for (let i = 0; i < buckets; i++) matching[i] *= w;
  }
  return { from, to, matching, other: new Float64Array(buckets) };
}

/**
 * Whether the median duration of the matching events of the lists is `ms` or more (false without
 * any): the median, the sorted durations' element at n / 2 (rounded down), is at least `ms` when
 * at most n / 2 of them are shorter. A count, no copy and no sort of millions of durations.
 */
export function medianAtLeast(profile: Profile, cums: readonly Cumulative[], ms: number): boolean {
  const d = profile.events.duration;
  // How many match is known from the running counts: the count stops once either side decides.
  let n = 0;
  for (const { list, match } of cums) n += match[list.length];
  if (n === 0) return false;
  const half = n >> 1;
  let shorter = 0;
  let longer = 0;
  for (const { list, match } of cums) {
    // A list whose every event matches: each duration read in order, until a side decides (no
    // flags, no running count).
    if (match[list.length] - match[0] === list.length) {
      for (let k = 0; k < list.length; k++) {
        if (d[list[k]] < ms) {
          if (++shorter > half) return false;
        } else if (++longer >= n - half) return true;
      }
      continue;
    }
    // A long list's flags of the events shorter than `ms`, once per list: read in order, not
    // each event's duration wherever it lies among all events.
    const flags = list.length >= 4096 ? shortFlags.get(profile, list, () => ({ ms: NaN, short: new Uint8Array(0) })) : null;
    if (flags && flags.ms !== ms) {
      // A loop, not Uint8Array.from(list, f): that calls f through the iterator protocol, a
      // second per 16 M events.
      const bits = (flags.short = new Uint8Array(list.length));
      for (let k = 0; k < list.length; k++) bits[k] = d[list[k]] < ms ? 1 : 0;
      flags.ms = ms;
    }
    const short = flags?.short;
    for (let k = 0; k < list.length; k++) {
      if (match[k + 1] === match[k]) continue;
      if (short ? short[k] === 1 : d[list[k]] < ms) {
        if (++shorter > half) return false;
      } else if (++longer >= n - half) return true;
    }
  }
  return shorter <= half;
}

const shortFlags = new ListMemo<{ ms: number; short: Uint8Array }>();

/**
 * The spikes of the selected events over the whole recording, on a fine grid (2,000 bins, 2 ms
 * to 1 s each): threads waiting for waits, events per bin for samples; smoothed over about 40 ms
 * with dips under 50 ms bridged for long waits (a median of 10 ms or more), else over about
 * 100 ms with dips under 200 ms bridged (of events per bin, only bursts that hold more events
 * than the mean rate gives by chance: spikes.ts `counts`).
 */
export function activitySpikes(
  profile: Profile,
  cums: readonly Cumulative[],
  tracks: readonly Track[] | null,
  keep: Uint8Array | null,
  weight: ActivityWeight,
): [number, number][] {
  const duration = Math.max(profile.info.durationMs, 1);
  const w = Math.min(1000, Math.max(2, duration / 2000));
  const bins = Math.max(1, Math.ceil(duration / w));
  const byTime = weight !== 'count' && tracks !== null;
  const h = byTime ? activity(profile, cums, tracks, keep, 'threads', 0, bins * w, bins) : { matching: countsInBins(profile, cums, bins * w, bins) };
  const odd = (ms: number) => 2 * Math.round(ms / w / 2) + 1;
  // Long waits (a monitor held for hundreds of ms) pile up into plateaus with sharp edges: a
  // light smoothing keeps the edges. Short waits (a contended monitor taken and let go by the
  // microsecond) pile up as a dense cloud of needles: it needs the smoothing of counts.
  const long = byTime && medianAtLeast(profile, cums, 10);
  return findSpikes(h.matching, 0, w, long ? { smooth: odd(40), bridge: Math.round(50 / w) } : { smooth: odd(100), bridge: Math.round(200 / w), counts: !byTime }).ranges;
}

const binStarts = new ListMemo<{ to: number; bins: number; pos: Int32Array }>();

/**
 * Matching events starting in each of `bins` equal bins of [0, to), as histogramOf counts them,
 * from each list's bin edges (positions where each bin starts, found once per list and grid):
 * a keystroke then costs lists × bins subtractions of running counts, no search.
 */
export function countsInBins(profile: Profile, cums: readonly Cumulative[], to: number, bins: number): Float64Array {
  const out = new Float64Array(bins);
  const start = profile.events.start;
  const w = to / bins;
  for (const { list, match } of cums) {
    if (list.length === 0) continue;
    const edges = binStarts.get(profile, list, () => ({ to, bins, pos: new Int32Array(0) }));
    if (edges.to !== to || edges.bins !== bins || edges.pos.length !== bins + 1) {
      const pos = new Int32Array(bins + 1);
      pos[0] = firstAtOrAfter(start, list, 0);
      const end = firstAtOrAfter(start, list, to, pos[0]);
      // Bin c holds [pos[c], pos[c + 1]); the last ends where the events reach `to`.
      for (let c = 0; c < bins; c++) pos[c + 1] = c === bins - 1 ? end : Math.min(end, gallopAtOrAfter(start, list, (c + 1) * w, pos[c]));
      edges.to = to;
      edges.bins = bins;
      edges.pos = pos;
    }
    const pos = edges.pos;
    for (let c = 0; c < bins; c++) out[c] += match[pos[c + 1]] - match[pos[c]];
  }
  return out;
}
