/**
 * The timeline's walk over a thread's interval lists, against the thread's interval events
 * merged by a sort (`want`: start, ties by index): what it meets from any time, what a skip
 * passes and the running maximum of ends there, and what lies ahead of it.
 */
import { expect } from 'vitest';
import type { Profile } from '../../columns/profile';
import { IntervalWalk, type Intervals } from '../intervals';

/** Every event the walk meets from `from` on, in order. */
export function walked(iv: Intervals, thread: number, from = -Infinity): number[] {
  const w = new IntervalWalk(iv, thread, from);
  const out: number[] = [];
  for (let i = w.event(); i >= 0; w.step(), i = w.event()) out.push(i);
  return out;
}

/** Checks the walk of `thread` against `want`, its interval events sorted, at times `times`. */
export function checkWalk(p: Profile, iv: Intervals, thread: number, want: number[], times: number[]): void {
  const { start, duration } = p.events;
  const end = (i: number) => start[i] + duration[i];
  expect(walked(iv, thread)).toEqual(want);
  let max = -Infinity;
  const reach = want.map((i) => (max = Math.max(max, end(i))));
  for (const t of times) {
    // From a time: the first event whose running maximum of ends passes it, and all after.
    const k = reach.findIndex((x) => x > t);
    expect(walked(iv, thread, t)).toEqual(k < 0 ? [] : want.slice(k));
    // A skip from the first event: it and every event starting before t.
    const w = new IntervalWalk(iv, thread, -Infinity);
    const passed = w.skipBefore(t);
    const expected = want.length === 0 ? 0 : Math.max(1, want.filter((i) => start[i] < t).length);
    expect(passed).toBe(expected);
    if (expected > 0) expect(w.reach).toBe(reach[expected - 1]);
    expect(w.event()).toBe(expected < want.length ? want[expected] : -1);
  }
  // What lies ahead of each event: the first `most` after it starting before a time.
  const w = new IntervalWalk(iv, thread, -Infinity);
  for (let k = 0; k < Math.min(want.length, 200); k++, w.step()) {
    for (const [dt, most] of [[0.5, 3], [5, 63], [50, 10]] as const) {
      const t = start[want[k]] + dt;
      const ahead = want.slice(k + 1).filter((i) => start[i] < t).slice(0, most);
      for (const probe of [want[k], want[k + 1], want[k + 2], want[k + 3], want[k + 4], want[k + 5]]) {
        if (probe === undefined) continue;
        expect(w.someAhead(t, most, (i) => i === probe)).toBe(ahead.includes(probe));
      }
    }
  }
}
