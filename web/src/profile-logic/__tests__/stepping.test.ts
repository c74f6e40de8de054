import { describe, expect, it } from 'vitest';
import type { Profile } from '../../columns/profile';
import type { Cumulative } from '../running-counts';
import { stepEvent } from '../stepping';
import { rng } from './rng';

/** A seeded generator, so a failure repeats. */

/** Random events on a few threads' lists, many at the same time, some matching. */
function world(seed: number) {
  const r = rng(seed);
  const n = 60;
  const start = Float64Array.from({ length: n }, () => Math.floor(r() * 15));
  const matches = Uint8Array.from({ length: n }, () => (r() < 0.45 ? 1 : 0));
  const threads = 3;
  const lists: Cumulative[] = [];
  for (let t = 0; t < threads; t++) {
    const mine = [...Array(n).keys()].filter((i) => i % threads === t);
    // Time-sorted; ties in a shuffled order, as lists may hold them.
    mine.sort((a, b) => start[a] - start[b] || (r() < 0.5 ? -1 : 1));
    const list = Int32Array.from(mine);
    const match = new Int32Array(list.length + 1);
    for (let k = 0; k < list.length; k++) match[k + 1] = match[k] + matches[list[k]];
    lists.push({ list, match, running: match });
  }
  const profile = { events: { start } } as unknown as Profile;
  // The reference order: every matching event by (start, index).
  const order = [...Array(n).keys()].filter((i) => matches[i]).sort((a, b) => start[a] - start[b] || a - b);
  return { profile, lists, order, start };
}

describe('stepping through a lane’s events', () => {
  it('visits every matching event once, in time order, both ways', () => {
    for (let seed = 1; seed <= 40; seed++) {
      const { profile, lists, order, start } = world(seed);
      const fwd: number[] = [];
      let e = stepEvent(profile, lists, { t: -1, event: null }, 1);
      while (e !== null) {
        fwd.push(e);
        e = stepEvent(profile, lists, { t: start[e], event: e }, 1);
      }
      expect(fwd).toEqual(order);
      const back: number[] = [];
      e = stepEvent(profile, lists, { t: 100, event: null }, -1);
      while (e !== null) {
        back.push(e);
        e = stepEvent(profile, lists, { t: start[e], event: e }, -1);
      }
      expect(back).toEqual([...order].reverse());
    }
  });

  it('from a time: the first at or after it, the last at or before it', () => {
    for (let seed = 41; seed <= 60; seed++) {
      const { profile, lists, order, start } = world(seed);
      for (let t = -1; t <= 16; t++) {
        expect(stepEvent(profile, lists, { t, event: null }, 1)).toBe(order.find((i) => start[i] >= t) ?? null);
        expect(stepEvent(profile, lists, { t, event: null }, -1)).toBe([...order].reverse().find((i) => start[i] <= t) ?? null);
      }
    }
  });

  it('a lane with no match has nowhere to go', () => {
    const profile = { events: { start: Float64Array.from([1, 2]) } } as unknown as Profile;
    const lists = [{ list: Int32Array.from([0, 1]), match: Int32Array.from([0, 0, 0]), running: Int32Array.from([0, 0, 0]) }];
    expect(stepEvent(profile, lists, { t: 0, event: null }, 1)).toBeNull();
    expect(stepEvent(profile, lists, { t: 5, event: null }, -1)).toBeNull();
  });
});
