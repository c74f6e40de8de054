/**
 * Where each thread's time went in a time range: how long it waited on locks, parked, slept or
 * did I/O (the interval events on its lane), next to its matching events of the selected type.
 * Intervals of one kind that overlap (a read inside a read) count once.
 */
import type { EventKind, Profile } from '../columns/profile';
import { firstReaching, type Intervals } from './intervals';
import { KINDS, type IntervalKind } from './kinds';
import { countInRange } from './ranges';
import type { Cumulative } from './running-counts';

export interface ThreadTime {
  thread: number;
  /** Matching events of the selected type that start in the range. */
  matching: number;
  /** ms of the range covered by each kind's intervals. */
  ms: Record<IntervalKind, number>;
  /** The sum of `ms`. */
  blocked: number;
}

/**
 * Per thread row with events (`threads[t]` 1 when the filters keep it): time in each kind of
 * interval within [from, to], most blocked first.
 */
export function threadTimes(
  profile: Profile,
  iv: Intervals,
  byThread: readonly Cumulative[],
  threads: Uint8Array,
  from: number,
  to: number,
): ThreadTime[] {
  const { start, duration, type } = profile.events;
  const kindOf: EventKind[] = profile.eventTypes.map((t) => t.kind);
  const out: ThreadTime[] = [];
  for (let t = 0; t < profile.threads.length; t++) {
    if (!threads[t]) continue;
    const ms: Record<IntervalKind, number> = { lock: 0, park: 0, sleep: 0, io: 0 };
    // Per kind, how far the range is already covered (overlapping intervals count once).
    const covered: Record<IntervalKind, number> = { lock: from, park: from, sleep: from, io: from };
    const list = iv.byThread[t];
    for (let k = firstReaching(iv, t, from); k < list.length; k++) {
      const i = list[k];
      if (start[i] > to) break;
      if (!KINDS[kindOf[type[i]]].interval) continue;
      const kind = kindOf[type[i]] as IntervalKind;
      const a = Math.max(start[i], covered[kind]);
      const b = Math.min(start[i] + duration[i], to);
      if (b > a) {
        ms[kind] += b - a;
        covered[kind] = b;
      }
    }
    const cum = byThread[t];
    const matching = cum ? countInRange(profile, [cum], [from, to]) : 0;
    const blocked = ms.lock + ms.park + ms.sleep + ms.io;
    if (blocked > 0 || matching > 0) out.push({ thread: t, matching, ms, blocked });
  }
  return out.sort((x, y) => y.blocked - x.blocked || y.matching - x.matching || x.thread - y.thread);
}
