/**
 * Which event lies under the pointer in a lane: a bar when the pointer is in the bar strip
 * (within three pixels), else the nearest sample of the selected type.
 */
import type { Profile } from '../../columns/profile';
import { firstAtOrAfter } from '../../profile-logic/event-index';
import { IntervalWalk, type Intervals } from '../../profile-logic/intervals';
import type { Lane } from '../../profile-logic/lanes';
import { BAR_TOP } from './geometry';

export interface HitInput {
  profile: Profile;
  lane: Lane;
  /** y within the lane, px. */
  inLane: number;
  t: number;
  /** How far from `t` an event may be, ms. */
  tol: number;
  intervals: Intervals;
  /** The selected type's events per thread row, by start. */
  byThread: Int32Array[];
}

export function eventAt({ profile, lane, inLane, t, tol, intervals, byThread }: HitInput): number | null {
  const e = profile.events;
  let best: number | null = null;
  let bestD = Infinity;
  if (inLane >= BAR_TOP - 2) {
    for (const th of lane.threads) {
      const walk = new IntervalWalk(intervals, th, t - tol);
      for (let i = walk.event(); i >= 0; walk.step(), i = walk.event()) {
        if (e.start[i] > t + tol) break;
        const d = t < e.start[i] ? e.start[i] - t : Math.max(0, t - e.start[i] - e.duration[i]);
        if (d <= tol && d < bestD) {
          bestD = d;
          best = i;
        }
      }
    }
    if (best !== null) return best;
  }
  for (const th of lane.threads) {
    const list = byThread[th];
    const k = firstAtOrAfter(e.start, list, t);
    for (const j of [k - 1, k]) {
      if (j < 0 || j >= list.length) continue;
      const i = list[j];
      const d = Math.abs(e.start[i] - t);
      if (d <= tol && d < bestD) {
        bestD = d;
        best = i;
      }
    }
  }
  return best;
}
