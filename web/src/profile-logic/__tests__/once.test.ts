/**
 * What a pick of millions of waits computes once: the median test of the spike finder by count
 * against a sorted median, the union of a list's waits against a brute-force sweep (filtered or
 * whole, with waits nested, touching, of zero length), the wait strip's tracks and the type's own
 * shared where they are the same list, the reach of a list recomputed for another profile, and the
 * timeline's bars (every interval type of a thread merged in one pass) against a sort.
 */
import { describe, expect, it } from 'vitest';
import { matchTracks, medianAtLeast } from '../activity';
import { eventsOf, eventsOfType, indexEvents, reachAt, reachOf, typeLists } from '../event-index';
import { filterLists, flagsOf, typeStates } from '../filters';
import { intervals } from '../intervals';
import { checkWalk } from './walk';
import { spanCum, spanEnd, spanStart, trackOf, waitKinds, waitTracks } from '../waits';
import { buildProfile, type Ev } from './build';

const TYPES = [
  { name: 'jdk.ExecutionSample', kind: 'cpu' as const },
  { name: 'jdk.FileRead', kind: 'io' as const },
  { name: 'jdk.ThreadPark', kind: 'park' as const },
];

function random(seed: number) {
  return () => (seed = (seed * 16807) % 2147483647) / 2147483647;
}

/** Thread `threads` × `n` file reads (nested, touching, zero-length ones too), then samples. */
function reads(n: number, threads: number, seed: number): Ev[] {
  const rnd = random(seed);
  const evs: Ev[] = [];
  for (let t = 0; t < threads; t++) {
    let at = 0;
    for (let k = 0; k < n; k++) {
      const r = rnd();
      // Most reads follow the last one; some nest inside it, touch its end, or last 0 ms.
      const duration = r < 0.1 ? 0 : r < 0.2 ? 0.5 : 1 + rnd() * 30;
      const start = r < 0.3 ? at - 0.5 : at + rnd() * 10;
      evs.push({ type: 1, t: Math.max(0, start), thread: t, stack: 'run;read', duration, subject: `/f${k % 7}` });
      at = Math.max(at, start + duration);
    }
    evs.push({ type: 0, t: at / 2, thread: t, stack: 'run;cpu' });
  }
  return evs;
}

/** The union of the spans (start, end) of events `ids`, by sorting: the reference. */
function union(p: ReturnType<typeof buildProfile>, ids: number[]): [number, number][] {
  const spans = ids.filter((i) => p.events.duration[i] > 0).map((i) => [p.events.start[i], p.events.start[i] + p.events.duration[i]] as [number, number]);
  spans.sort((a, b) => a[0] - b[0]);
  const out: [number, number][] = [];
  for (const [a, b] of spans) {
    if (out.length && a <= out[out.length - 1][1]) out[out.length - 1][1] = Math.max(out[out.length - 1][1], b);
    else out.push([a, b]);
  }
  return out;
}

describe('computed once per pick', () => {
  it('tells whether the median duration of the matching events reaches a bound as a sorted median does', () => {
    const rnd = random(7);
    for (let trial = 0; trial < 40; trial++) {
      // The last few: lists of thousands, whose flags of short events are kept per list.
      const n = trial < 36 ? 1 + Math.floor(rnd() * 60) : 13_000 + Math.floor(rnd() * 2000);
      // Durations around 10 ms, many exactly 10, so the bound falls on the median often.
      const evs: Ev[] = Array.from({ length: n }, (_, k) => ({ type: 1, t: k, thread: k % 3, stack: null, duration: rnd() < 0.3 ? 10 : Math.round(rnd() * 20 * 4) / 4, subject: rnd() < 0.5 ? '/a' : '/b' }));
      const p = buildProfile(TYPES, ['a', 'b', 'c'], evs);
      const index = indexEvents(p);
      const lists = typeLists(p, index, 1);
      // A subject filter keeps about half: the median is over the matching ones only. Without
      // one every event matches (each list's durations read in order, no flags).
      for (const subject of [/a/, null]) {
        const spec = { type: 1, thread: null, stack: null, exclude: null, state: '', hiddenThreads: new Set<string>(), subject };
        const { cums } = filterLists(p, spec, lists.parts, flagsOf(p.events.length, eventsOfType(index, 1)), null);
        const matching = evs.map((e, i) => ({ e, i })).filter(({ e }) => !subject || e.subject === '/a').map(({ i }) => p.events.duration[i]);
        matching.sort((a, b) => a - b);
        for (const bound of [0, 5, 10, 10.25, 15]) {
          const expected = matching.length > 0 && matching[matching.length >> 1] >= bound;
          expect(medianAtLeast(p, cums, bound)).toBe(expected);
        }
      }
    }
  });

  it('lists the thread states of a type, few of its rows or most of them, as its events hold them', () => {
    const rnd = random(5);
    const STATES = ['STATE_RUNNABLE', 'STATE_SLEEPING', 'STATE_IN_NATIVE', 'STATE_PARKED'];
    // Samples with states (a few, or most rows), reads with none, in runs as buffers write them.
    for (const samples of [50, 6000]) {
      const evs: Ev[] = [];
      for (let k = 0; k < samples + 2000; k++) {
        const sample = k < samples ? rnd() < 0.9 : rnd() < 0.05;
        evs.push(sample ? { type: 0, t: k, thread: k % 2, stack: 'run;cpu', state: rnd() < 0.97 ? STATES[k % 2] : STATES[2 + (k % 2)] } : { type: 1, t: k, thread: k % 2, stack: 'run;read', duration: 1 });
      }
      const p = buildProfile(TYPES, ['a', 'b'], evs);
      const index = indexEvents(p);
      for (const ty of [0, 1]) {
        const want = [...new Set(evs.filter((e) => e.type === ty && e.state).map((e) => e.state!))].sort();
        expect(typeStates(p, ty, eventsOfType(index, ty)).map((x) => p.strings[x]).sort(), `${samples} ${ty}`).toEqual(want);
      }
    }
  });

  it("makes the type's flags only when read, as the type column has them", () => {
    const p = buildProfile(TYPES, ['a', 'b'], reads(500, 2, 3));
    const index = indexEvents(p);
    let made = 0;
    const ofType = () => (made++, flagsOf(p.events.length, eventsOfType(index, 1)));
    const spec = { type: 1, thread: null, stack: null, exclude: null, state: '', hiddenThreads: new Set<string>() };
    const pass = filterLists(p, spec, typeLists(p, index, 1).parts, ofType, null);
    expect(made).toBe(0);
    const want = Array.from(p.events.type, (ty) => (ty === 1 ? 1 : 0));
    // Every read matches: the match flags are the type's own.
    expect(Array.from(pass.filtered.match)).toEqual(want);
    expect(Array.from(pass.filtered.ofType)).toEqual(want);
    expect(made).toBe(1);
  });

  it("unions a list's waits, whole or filtered, as a sort of their spans does", () => {
    // Long enough lists (over a thousand) that whole tracks are kept once per list.
    const p = buildProfile(TYPES, ['a', 'b'], reads(3000, 2, 5));
    const index = indexEvents(p);
    for (let t = 0; t < 2; t++) {
      const list = eventsOf(index, 1, t);
      expect(list.length).toBe(3000);
      for (const [keep, name] of [[null, 'whole'], [(i: number) => p.events.subject[i] % 2 === 0, 'filtered']] as const) {
        const tr = trackOf(p, list, keep);
        const ids = Array.from(list).filter((i) => !keep || keep(i));
        const expected = union(p, ids);
        expect(tr.length, name).toBe(expected.length);
        expect(expected.length).toBeGreaterThan(100);
        expect(expected.length).toBeLessThan(ids.length);
        expected.forEach(([a, b], k) => {
          expect(spanStart(tr, k)).toBe(a);
          expect(spanEnd(tr, k)).toBe(b);
          expect(spanCum(tr, k + 1) - spanCum(tr, k)).toBeCloseTo(b - a, 9);
        });
      }
    }
  });

  it("shares the wait strip's file tracks with the type's own when every read matches, and keeps a filter's apart", () => {
    const p = buildProfile(TYPES, ['a', 'b'], reads(2000, 2, 9));
    const index = indexEvents(p);
    const lists = typeLists(p, index, 1);
    const ofType = flagsOf(p.events.length, eventsOfType(index, 1));
    const spec = { type: 1, thread: null, stack: null, exclude: null, state: '', hiddenThreads: new Set<string>() };
    const all = filterLists(p, spec, lists.parts, ofType, null);
    const mine = matchTracks(p, all.cums.slice(0, 2));
    const strip = waitTracks(p, index, waitKinds(p)).file;
    expect(mine[0]).toBe(strip[0]);
    expect(mine[1]).toBe(strip[1]);
    const some = filterLists(p, { ...spec, subject: /f1/ }, lists.parts, ofType, null);
    const filtered = matchTracks(p, some.cums.slice(0, 2));
    expect(filtered[0]).not.toBe(strip[0]);
    expect(spanCum(filtered[0], filtered[0].length)).toBeLessThan(spanCum(strip[0], strip[0].length));
  });

  it("merges a thread's interval events with a duration by start, with their reach, as a sort does", () => {
    const rnd = random(21);
    // Reads (many, some of 0 ms), parks and a few more reads on another thread, samples between;
    // times on a coarse grid so types tie.
    const evs: Ev[] = [];
    for (let i = 0; i < 4000; i++) {
      const r = rnd();
      const type = r < 0.7 ? 1 : r < 0.85 ? 2 : 0;
      const thread = rnd() < 0.8 ? 0 : 1;
      evs.push({ type, t: Math.floor(rnd() * 500), thread, stack: 'run;x', duration: type === 0 ? undefined : rnd() < 0.2 ? 0 : rnd() * 40, subject: '/f' });
    }
    // Thread 2: reads alone, all lasting (its list and reach are the type's own).
    for (let i = 0; i < 1500; i++) evs.push({ type: 1, t: i, thread: 2, stack: 'run;x', duration: 1 + (i % 5) });
    const p = buildProfile(TYPES, ['a', 'b', 'c'], evs);
    const index = indexEvents(p);
    const iv = intervals(p, index);
    const { start, duration } = p.events;
    for (let t = 0; t < 3; t++) {
      const expected: number[] = [];
      for (let i = 0; i < p.events.length; i++) if (p.events.thread[i] === t && p.events.type[i] !== 0 && duration[i] > 0) expected.push(i);
      expected.sort((x, y) => start[x] - start[y] || x - y);
      checkWalk(p, iv, t, expected, [-1, 0, 3.5, 100, 250.25, 499, 10_000]);
    }
    expect(iv.types).toEqual([1, 2]);
    // A thread of one type's intervals: that list and its reach, the type's own.
    expect(iv.parts[2]).toEqual([reachOf(p, eventsOf(index, 1, 2))]);
    expect(iv.parts[2][0]).toBe(reachOf(p, eventsOf(index, 1, 2)));
  });

  it('computes a reach again for a profile whose columns differ, even over an equal list', () => {
    const a = buildProfile(TYPES, ['a'], reads(2000, 1, 3));
    const b = buildProfile(TYPES, ['a'], reads(2000, 1, 4));
    const list = eventsOf(indexEvents(a), 1, 0);
    const ra = reachOf(a, list);
    expect(reachOf(a, list)).toBe(ra);
    const rb = reachOf(b, list);
    expect(rb).not.toBe(ra);
    let max = -Infinity;
    for (let k = 0; k < list.length; k++) {
      max = Math.max(max, b.events.start[list[k]] + b.events.duration[list[k]]);
      expect(reachAt(rb, k)).toBe(max);
    }
  });
});
