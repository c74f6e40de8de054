/**
 * What the selected events wait on or touch, by subject: the monitor class of a lock wait, the
 * file or host of an I/O event, the class of an allocation or of the object a park waits on.
 * One pass over the selection's running counts, as the flame graph's weights are summed.
 *
 * Lock waits and parks also carry the object's address (the value column), so they can be told
 * apart by instance: "java.lang.Object @ 0x1a2b3c40". That text is what the subject filter reads
 * for them. (A moving collector can relocate an object, so one lock may show at two addresses.)
 */
import type { IndexIntoEvents, Profile } from '../columns/profile';
import { instanceText } from './filters';
import { hasInstances, type WeightMode } from './kinds';
import { forEachInRange, weightIn, type Range } from './ranges';
import type { Cumulative } from './running-counts';

/** The subject as the filter reads it: with the instance for lock waits and parks; null if none. */
export function subjectText(profile: Profile, i: IndexIntoEvents): string | null {
  const s = profile.events.subject[i];
  if (s < 0) return null;
  const kind = profile.eventTypes[profile.events.type[i]]?.kind;
  return hasInstances(kind) ? instanceText(profile.strings[s], profile.events.value[i]) : profile.strings[s];
}

export interface SubjectRow {
  /** String index of the subject, or -1 for events that name none. */
  subject: number;
  /** The instance's address when rows are by instance, else NaN. */
  address: number;
  /** What the row shows (and what its filter matches). */
  label: string;
  events: number;
  weight: number;
  /** Distinct threads among the events. */
  threads: number;
}

/**
 * The matching events of `cums` (one list per thread row, the last one without a thread) in
 * `range` (overlapping it, for intervals, their wait clipped to it), summed by subject (and by instance when `byInstance`), heaviest first.
 */
export function subjectsInRange(
  profile: Profile,
  cums: readonly Cumulative[],
  range: Range | null,
  mode: WeightMode,
  byInstance = false,
  unthreaded = cums.length - 1,
): SubjectRow[] {
  const { subject, value } = profile.events;
  type Acc = SubjectRow & { part: number };
  const rows = new Map<number, Map<number, Acc>>();
  forEachInRange(profile, cums, range, (i, part) => {
    const s = subject[i];
    const a = byInstance && s >= 0 && value[i] > 0 ? value[i] : NaN;
    let bySubject = rows.get(s);
    if (!bySubject) rows.set(s, (bySubject = new Map()));
    let r = bySubject.get(a);
    if (!r) bySubject.set(a, (r = { subject: s, address: a, label: '', events: 0, weight: 0, threads: 0, part: -1 }));
    r.events++;
    r.weight += weightIn(profile, i, mode, range);
    if (r.part !== part && part !== unthreaded) {
      r.part = part;
      r.threads++;
    }
  });
  const out: SubjectRow[] = [];
  for (const bySubject of rows.values()) {
    for (const { subject: s, address, events, weight: w, threads } of bySubject.values()) {
      const label = s < 0 ? '(none)' : instanceText(profile.strings[s], address);
      out.push({ subject: s, address, label, events, weight: w, threads });
    }
  }
  return out.sort((a, b) => b.weight - a.weight || b.events - a.events || (a.label < b.label ? -1 : a.label > b.label ? 1 : 0));
}
