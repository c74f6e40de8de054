/**
 * Whether an event matches, read off its type's running counts while walking a thread's events
 * of every type in time order (the timeline's bars), against the per-event flags the counts say.
 */
import { describe, expect, it } from 'vitest';
import { matchAt, type Cumulative } from '../running-counts';
import { rng } from './rng';

describe('matchAt', () => {
  for (const seed of [1, 2, 3, 4, 5]) {
    it(`finds each event of the type among equal starts, in any tie order, random lists ${seed}`, () => {
      const r = rng(seed);
      const n = 400;
      // Starts with many ties; every third event of another type.
      const start = Float64Array.from({ length: n }, () => Math.floor(r() * 60));
      const ofType = Uint8Array.from({ length: n }, (_, i) => (i % 3 === 0 ? 0 : 1));
      const typeList = Int32Array.from([...Array(n).keys()].filter((i) => ofType[i]).sort((a, b) => start[a] - start[b] || a - b));
      const flags = Uint8Array.from({ length: n }, () => (r() < 0.4 ? 1 : 0));
      const match = new Int32Array(typeList.length + 1);
      for (let k = 0; k < typeList.length; k++) match[k + 1] = match[k] + flags[typeList[k]];
      const cum: Cumulative = { list: typeList, match, running: match };
      // The walk: every event by start, ties the other way round; now and then a stretch skipped.
      const all = [...Array(n).keys()].sort((a, b) => start[a] - start[b] || b - a);
      let at = 0;
      let checked = 0;
      for (let k = 0; k < all.length; k++) {
        if (r() < 0.2) continue;
        const i = all[k];
        const got = matchAt(start, cum, i, at);
        at = got.next;
        expect(got.matches).toBe(ofType[i] ? flags[i] === 1 : null);
        checked++;
      }
      expect(checked).toBeGreaterThan(n / 2);
      // Not looked for behind where the search starts.
      expect(matchAt(start, cum, typeList[0], typeList.length).matches).toBeNull();
    });
  }
});
