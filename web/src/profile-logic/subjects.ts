/**
 * What the selected events wait on or touch, by subject: the monitor class of a lock wait, the
 * file or host of an I/O event, the class of an allocation or of the object a park waits on.
 * One pass over the selection's running counts, as the flame graph's weights are summed.
 */
import { rangePositions, type Cumulative } from './density';
import type { WeightMode } from './filters';
import type { Profile } from './profile';

export interface SubjectRow {
  /** String index of the subject, or -1 for events that name none. */
  subject: number;
  events: number;
  weight: number;
  /** Distinct threads among the events. */
  threads: number;
}

/**
 * The matching events of `cums` (one list per thread row, the last one without a thread) that
 * start in `range`, summed by subject, heaviest first.
 */
export function subjectsInRange(profile: Profile, cums: readonly Cumulative[], range: readonly [number, number] | null, mode: WeightMode, unthreaded = cums.length - 1): SubjectRow[] {
  const { subject, weight, duration } = profile.events;
  const rows = new Map<number, SubjectRow & { part: number }>();
  cums.forEach((cum, part) => {
    const [lo, hi] = rangePositions(profile, cum.list, range);
    const m = cum.match;
    for (let k = lo; k < hi; k++) {
      if (m[k + 1] === m[k]) continue;
      const i = cum.list[k];
      const s = subject[i];
      let r = rows.get(s);
      if (!r) rows.set(s, (r = { subject: s, events: 0, weight: 0, threads: 0, part: -1 }));
      r.events++;
      r.weight += mode === 'duration' ? duration[i] : mode === 'events' ? 1 : weight[i];
      if (r.part !== part && part !== unthreaded) {
        r.part = part;
        r.threads++;
      }
    }
  });
  return [...rows.values()]
    .map(({ subject, events, weight, threads }) => ({ subject, events, weight, threads }))
    .sort((a, b) => b.weight - a.weight || b.events - a.events || a.subject - b.subject);
}
