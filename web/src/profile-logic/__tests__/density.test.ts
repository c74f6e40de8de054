import { describe, expect, it } from 'vitest';
import { eventsOf, eventsOfType, firstAtOrAfter, gallopAtOrAfter, indexEvents, mergeByStart, sortByStart, typeLists } from '../event-index';
import { filterLists, flagsOf } from '../filters';
import { gcEvents, IntervalWalk, intervals, seekAtOrAfter } from '../intervals';
import { walked } from './walk';
import { addToPixels as addColumns, histogramOf, newPixelCounts as newColumns } from '../pixel-columns';
import { countInRange, selectInRanges, weightsInRange } from '../ranges';
import { runningStates } from '../running-counts';
import { threadTimes } from '../threadtime';
import { waitKinds, waitTracks } from '../waits';
import { cumulate, filterEvents, histogram, intervalsIn, selectInRange, weightPerStack } from './reference';
import { buildProfile, type Ev } from './build';

const types = [
  { name: 'profiler.WallClockSample', kind: 'wall' as const },
  { name: 'jdk.JavaMonitorEnter', kind: 'lock' as const },
];
const threads = ['w-1', 'w-2'];

/** Each thread's list in the index (of type `typeOf(thread)`) against its events sorted by start, ties in file order. */
function expectSortedByThread(many: Ev[], typeOf: (thread: number) => number) {
  const q = buildProfile(types, threads, many);
  const index = indexEvents(q);
  for (const thread of [0, 1]) {
    const expected = many
      .map((e, i) => ({ e, i }))
      .filter(({ e }) => e.thread === thread)
      .map(({ i }) => i)
      .sort((a, b) => q.events.start[a] - q.events.start[b] || a - b);
    expect(expected.length).toBeGreaterThan(4096);
    expect(Array.from(eventsOf(index, typeOf(thread), thread))).toEqual(expected);
  }
}

// Out of time order on purpose, as events come chunk by chunk.
const evs: Ev[] = [
  { type: 0, t: 5, thread: 0, stack: 'run;a', state: 'STATE_RUNNABLE' },
  { type: 0, t: 1, thread: 0, stack: 'run;b', state: 'STATE_SLEEPING' },
  { type: 0, t: 2, thread: 1, stack: 'run;a', state: 'STATE_RUNNABLE' },
  { type: 1, t: 3, thread: 1, stack: 'run;a', duration: 40 },
  { type: 0, t: 2, thread: 0, stack: 'run;a', state: 'STATE_SLEEPING' },
  { type: 0, t: 8, thread: 1, stack: 'run;b' },
  { type: 1, t: 10, thread: 1, stack: 'run;b', duration: 2 },
  { type: 0, t: 9.99, thread: 0, stack: 'run;a', state: 'STATE_RUNNABLE' },
  { type: 1, t: 60, thread: 1, stack: 'run;a', duration: 1 },
];
const p = buildProfile(types, threads, evs);
const idx = indexEvents(p);
const spec = { type: 0, thread: null, stack: /^a$/, exclude: null, state: '', hiddenThreads: new Set<string>() };

describe('density', () => {
  it('sorts by start only when needed, ties by index', () => {
    const sorted = Int32Array.from([1, 2, 4]);
    expect(sortByStart(p, sorted)).toBe(sorted);
    expect(Array.from(sortByStart(p, Int32Array.from([0, 4, 1, 2])))).toEqual([1, 2, 4, 0]);
  });

  it('sorts shuffled and crowded lists as a comparator sort does', () => {
    let seed = 3;
    const rnd = () => (seed = (seed * 16807) % 2147483647) / 2147483647;
    const many: Ev[] = [];
    // Mostly spread out, with a crowd of equal times (one bucket) and a dense burst.
    for (let i = 0; i < 2000; i++) many.push({ type: 0, t: i < 300 ? 50 : i < 600 ? 70 + rnd() * 0.001 : rnd() * 1000, thread: 0, stack: null });
    const q = buildProfile(types, threads, many);
    const list = Int32Array.from({ length: 2000 }, (_, k) => k);
    const expected = Array.from(list).sort((a, b) => q.events.start[a] - q.events.start[b] || a - b);
    expect(Array.from(sortByStart(q, Int32Array.from(list)))).toEqual(expected);
  });

  it('sorts a list with a few events out of place, and one far out of place, as a comparator sort does', () => {
    let seed = 5;
    const rnd = () => (seed = (seed * 16807) % 2147483647) / 2147483647;
    // Ascending, but every 50th event started earlier than the few before it (written when it
    // ended), with ties; then the same with one event far ahead of all others at the front.
    for (const front of [false, true]) {
      const many: Ev[] = Array.from({ length: 5000 }, (_, i) => ({ type: 0, t: front && i === 0 ? 1e6 : i % 50 === 0 ? i - 1 - rnd() * 5 : 2 * Math.floor(i / 2), thread: 0, stack: null }));
      const q = buildProfile(types, threads, many);
      const list = Int32Array.from({ length: many.length }, (_, k) => k);
      const expected = Array.from(list).sort((a, b) => q.events.start[a] - q.events.start[b] || a - b);
      expect(Array.from(sortByStart(q, list))).toEqual(expected);
    }
  });

  it("sorts the index's groups in place as a comparator sort does: a few events out of place, most of them, and ties", () => {
    let seed = 11;
    const rnd = () => (seed = (seed * 16807) % 2147483647) / 2147483647;
    // Two threads, two types interleaved in file order. Thread 0's waits are ascending but for
    // every 40th (written when it ended, after later ones: the in-place merge), at times others
    // have too (ties go by index); thread 1's are shuffled (most out of place: the bucket sort).
    const many: Ev[] = [];
    for (let i = 0; i < 6000; i++) {
      const thread = i % 3 === 0 ? 1 : 0;
      const t = thread === 1 ? rnd() * 1000 : i % 40 === 0 ? 2 * Math.floor(i / 4 - 1 - rnd() * 15) : 2 * Math.floor(i / 4);
      many.push({ type: i % 5 === 0 ? 0 : 1, t, thread, stack: null, duration: 1 });
    }
    const q = buildProfile(types, threads, many);
    const index = indexEvents(q);
    for (const type of [0, 1]) {
      for (const thread of [0, 1]) {
        const expected = many
          .map((e, i) => ({ e, i }))
          .filter(({ e }) => e.type === type && e.thread === thread)
          .map(({ i }) => i)
          .sort((a, b) => q.events.start[a] - q.events.start[b] || a - b);
        expect(expected.length).toBeGreaterThan(100);
        expect(Array.from(eventsOf(index, type, thread))).toEqual(expected);
      }
    }
  });

  it('indexes groups already in order, all ties, reversed, and events with no thread as a comparator sort does', () => {
    let seed = 13;
    const rnd = () => (seed = (seed * 16807) % 2147483647) / 2147483647;
    // Type 0 on thread 0: ascending (left as scattered); on thread 1: one time for all (ties by
    // index); with no thread: descending (every event but the first set aside). Type 1: ascending
    // but for an event now and then far back, on both threads.
    const many: Ev[] = [];
    for (let i = 0; i < 4000; i++) {
      const which = i % 4;
      if (which === 0) many.push({ type: 0, t: i, thread: 0, stack: null });
      else if (which === 1) many.push({ type: 0, t: 7, thread: 1, stack: null });
      else if (which === 2) many.push({ type: 0, t: 5000 - i, thread: -1, stack: null });
      else many.push({ type: 1, t: rnd() < 0.02 ? rnd() * i : i, thread: i % 8 === 3 ? 0 : 1, stack: null, duration: 1 });
    }
    const q = buildProfile(types, threads, many);
    const index = indexEvents(q);
    for (const type of [0, 1]) {
      for (const row of [0, 1, 2]) {
        const expected = many
          .map((e, i) => ({ e, i }))
          .filter(({ e }) => e.type === type && (e.thread < 0 ? 2 : e.thread) === row)
          .map(({ i }) => i)
          .sort((a, b) => q.events.start[a] - q.events.start[b] || a - b);
        expect(Array.from(eventsOf(index, type, row))).toEqual(expected);
      }
    }
    expect(eventsOf(index, 1, 2).length).toBe(0);
    expect(Array.from(index.perThread)).toEqual([1000 + 500, 1000 + 500]);
  });

  it('indexes long groups written buffer by buffer (ascending runs overlapping at their edges, with ties) as a comparator sort does', () => {
    let seed = 17;
    const rnd = () => (seed = (seed * 16807) % 2147483647) / 2147483647;
    // Per thread, buffers of 50 to 400 events each ascending, each starting a little before the
    // last one ended (or long before, now and then); an odd number of runs on one, ties on both.
    for (const buffers of [120, 77]) {
      const many: Ev[] = [];
      const at = [0, 0];
      for (let b = 0; b < buffers; b++) {
        for (const thread of [0, 1]) {
          const len = 50 + Math.floor(rnd() * 350);
          let t = at[thread] - (rnd() < 0.1 ? 500 : rnd() * 20);
          for (let k = 0; k < len; k++) {
            many.push({ type: thread, t: Math.round(t), thread, stack: null, duration: 1 });
            t += rnd() * 2;
          }
          at[thread] = t;
        }
      }
      expectSortedByThread(many, (thread) => thread);
    }
  });

  it('indexes long groups whose buffers overlap deeply (each anywhere in time) as a comparator sort does', () => {
    let seed = 23;
    const rnd = () => (seed = (seed * 16807) % 2147483647) / 2147483647;
    // Buffers ascending within, each starting anywhere in the thread's time: merging each into
    // what precedes it would move most of the list again and again, so the index sorts otherwise.
    for (const [buffers, spread] of [[60, 1000], [300, 50], [9, 5000]] as const) {
      const many: Ev[] = [];
      for (let b = 0; b < buffers; b++) {
        let t = rnd() * spread;
        const len = Math.ceil(10_000 / buffers);
        for (let k = 0; k < len; k++) {
          many.push({ type: 0, t: Math.round(t), thread: b % 2, stack: null, duration: 1 });
          t += rnd() * 3;
        }
      }
      expectSortedByThread(many, () => 0);
    }
  });

  it('gallops to the same position a binary search finds', () => {
    const list = Int32Array.from([1, 2, 4, 0, 5, 7]);
    for (const t of [0, 1, 2, 3, 5, 8, 9.99, 10, 11]) {
      for (let from = 0; from <= list.length; from++) {
        expect(gallopAtOrAfter(p.events.start, list, t, from)).toBe(Math.max(from, firstAtOrAfter(p.events.start, list, t)));
      }
    }
  });

  it('seeks the first start at or after a time from any guess, as a scan from the left finds it', () => {
    let seed = 7;
    const rnd = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
    // Starts with ties and gaps, listed out of index order (a list is sorted by start, not by index).
    const start = Float64Array.from({ length: 400 }, () => Math.floor(rnd() * 300) / 3);
    const list = Int32Array.from(start.keys()).sort((a, b) => start[a] - start[b]);
    const scan = (t: number, from: number) => {
      let k = from;
      while (k < list.length && start[list[k]] < t) k++;
      return k;
    };
    for (let q = 0; q < 3000; q++) {
      const t = rnd() * 110 - 5;
      const from = Math.floor(rnd() * (list.length + 2));
      const guess = Math.floor(rnd() * (list.length + 40)) - 20;
      expect(seekAtOrAfter(start, list, t, from, guess)).toBe(scan(t, Math.min(from, list.length)));
    }
    expect(seekAtOrAfter(start, new Int32Array(0), 1, 0, 5)).toBe(0);
  });

  it('lists one type per thread in time order', () => {
    const tl = typeLists(p, idx, 0);
    expect(Array.from(tl.byThread[0])).toEqual([1, 4, 0, 7]);
    expect(Array.from(tl.byThread[1])).toEqual([2, 5]);
    expect(tl.unthreaded).toHaveLength(0);
    expect(tl.parts).toHaveLength(3);
    expect(tl.total).toBe(6);
  });

  it('counts matching and running events per column with binary searches', () => {
    const f = filterEvents(p, spec);
    const tl = typeLists(p, idx, 0);
    const run = runningStates(p);
    const cum = cumulate(p, tl.byThread[0], f.match, run);
    // thread 0: t=1 b sleeping, t=2 a sleeping, t=5 a runnable, t=9.99 a runnable
    expect(Array.from(cum.match)).toEqual([0, 0, 1, 2, 3]);
    expect(Array.from(cum.running)).toEqual([0, 0, 0, 1, 2]);
    const cols = newColumns(5);
    addColumns(p, cum, 0, 10, cols);
    expect(Array.from(cols.total)).toEqual([1, 1, 1, 0, 1]);
    expect(Array.from(cols.match)).toEqual([0, 1, 1, 0, 1]);
    expect(Array.from(cols.running)).toEqual([0, 0, 1, 0, 1]);
    // Columns add up across threads (a grouped lane), and a window past the end is empty.
    addColumns(p, cumulate(p, tl.byThread[1], f.match, run), 0, 10, cols);
    expect(Array.from(cols.total)).toEqual([1, 2, 1, 0, 2]);
    const empty = newColumns(3);
    addColumns(p, cum, 20, 30, empty);
    expect(Array.from(empty.total)).toEqual([0, 0, 0]);
  });

  it('selects, counts and weighs a time range from the per-thread lists as selectInRange does', () => {
    const f = filterEvents(p, spec);
    const cum = typeLists(p, idx, 0).parts.map((l) => cumulate(p, l, f.match, runningStates(p)));
    expect(Array.from(selectInRanges(p, cum, null))).toEqual([4, 0, 7, 2]);
    expect(Array.from(selectInRanges(p, cum, [2, 5]))).toEqual([4, 0, 2]);
    expect(Array.from(selectInRanges(p, cum, [2.5, 9.99]))).toEqual([0, 7]);
    expect(Array.from(selectInRanges(p, cum, [11, 20]))).toEqual([]);
    expect(countInRange(p, cum, [2, 5])).toBe(3);
    for (const r of [null, [2, 5], [0, 3], [5, 5]] as const) {
      const sel = selectInRanges(p, cum, r);
      expect(Array.from(sel).sort()).toEqual(Array.from(selectInRange(p, f.match, r)).sort());
      for (const mode of ['samples', 'events', 'duration'] as const) {
        expect(Array.from(weightsInRange(p, cum, r, mode))).toEqual(Array.from(weightPerStack(p, sel, mode)));
      }
    }
  });

  it('agrees with the brute-force histogram on random data', () => {
    let seed = 7;
    const rnd = () => (seed = (seed * 16807) % 2147483647) / 2147483647;
    const many: Ev[] = [];
    for (let i = 0; i < 3000; i++) {
      many.push({ type: rnd() < 0.8 ? 0 : 1, t: Math.round(rnd() * 100_000) / 100, thread: rnd() < 0.5 ? 0 : 1, stack: rnd() < 0.3 ? 'run;a' : 'run;b' });
    }
    const q = buildProfile(types, threads, many);
    const f = filterEvents(q, spec);
    const cum = typeLists(q, indexEvents(q), 0).parts.map((l) => cumulate(q, l, f.match, runningStates(q)));
    for (const [from, to, n] of [
      [0, 1000, 100],
      [0, 1000, 37],
      [123.4, 567.8, 250],
      [990, 1000, 64],
    ]) {
      const a = histogram(q, f.ofType, f.match, from, to, n);
      const b = histogramOf(q, cum, from, to, n);
      expect(b.matching.reduce((x, y) => x + y, 0)).toBe(a.matching.reduce((x, y) => x + y, 0));
      expect(b.other.reduce((x, y) => x + y, 0)).toBe(a.other.reduce((x, y) => x + y, 0));
      let differing = 0;
      for (let i = 0; i < n; i++) if (a.matching[i] !== b.matching[i] || a.other[i] !== b.other[i]) differing++;
      // Only an event exactly on a float boundary may land in the neighbouring column.
      expect(differing).toBeLessThanOrEqual(2);
    }
  });

  it('indexes events by type and thread, each group by start, against a sort of the whole', () => {
    // Events written in an order unlike their starts: a park written when it ends, after the
    // samples taken while it lasted; several types and threads; GC with no thread.
    let seed = 11;
    const rnd = () => (seed = (seed * 16807) % 2147483647) / 2147483647;
    const many: Ev[] = [];
    for (let i = 0; i < 3000; i++) {
      const type = i % 7 === 0 ? 1 : i % 11 === 0 ? 2 : 0;
      many.push({ type, t: type === 1 ? i - rnd() * 40 : i % 13 === 0 ? rnd() * 3000 : i, thread: type === 2 ? -1 : i % 3, stack: null, duration: type === 0 ? 0 : 1 + (i % 5) });
    }
    const kinds = [...types, { name: 'jdk.GarbageCollection', kind: 'gc' as const }];
    const q = buildProfile(kinds, ['a', 'b', 'c'], many);
    const x = indexEvents(q);
    const byStart = (a: number, b: number) => q.events.start[a] - q.events.start[b] || a - b;
    for (let ty = 0; ty < 3; ty++) {
      for (let row = 0; row <= 3; row++) {
        const want = many.flatMap((e, i) => (e.type === ty && (e.thread < 0 ? 3 : e.thread) === row ? [i] : [])).sort(byStart);
        expect(Array.from(eventsOf(x, ty, row))).toEqual(want);
      }
      expect(eventsOfType(x, ty)).toHaveLength(many.filter((e) => e.type === ty).length);
    }
    expect(Array.from(x.perThread)).toEqual([0, 1, 2].map((t) => many.filter((e) => e.thread === t).length));
    expect(eventsOf(x, 5, 0)).toHaveLength(0);
    expect(eventsOfType(x, -1)).toHaveLength(0);
    // Lock waits and GC marks come out in start order, across types.
    const gc = Array.from(gcEvents(q, x));
    expect(gc).toEqual(many.flatMap((e, i) => (e.type === 2 ? [i] : [])).sort(byStart));
    const iv = intervals(q, x);
    expect(iv.types).toEqual([1]);
    expect(walked(iv, 0)).toEqual(many.flatMap((e, i) => (e.type === 1 && e.thread === 0 ? [i] : [])).sort(byStart));
  });

  it('filters and counts in one pass as filterEvents then cumulate do, whatever the filters', () => {
    let seed = 17;
    const rnd = () => (seed = (seed * 16807) % 2147483647) / 2147483647;
    const stacks = ['run;a', 'run;b', 'run;a;c', null];
    const states = ['STATE_RUNNABLE', 'STATE_SLEEPING', undefined];
    const many: Ev[] = Array.from({ length: 3000 }, (_, i) => ({
      type: i % 5 === 0 ? 1 : 0,
      t: rnd() * 100,
      thread: i % 7 === 6 ? -1 : i % 2,
      stack: stacks[i % 4],
      state: states[i % 3],
      duration: 1,
      subject: i % 3 ? 'x.Lock' : undefined,
      value: i % 3 ? 16 + (i % 4) : undefined,
    }));
    const q = buildProfile(types, threads, many);
    const x = indexEvents(q);
    const hidden = (n: string[]) => new Set<string>(n);
    for (const type of [0, 1]) {
      const tl = typeLists(q, x, type);
      const ofType = flagsOf(q.events.length, eventsOfType(x, type));
      for (const over of [
        {},
        { stack: /a/ },
        { exclude: /c/, thread: /w-1/ },
        { state: 'STATE_RUNNABLE' },
        { hiddenThreads: hidden(['w-2']) },
        { subject: /@ 0x1[02]$/ },
        { subject: /Lock/, thread: /w-/ },
      ]) {
        const spec = { type, thread: null, stack: null, exclude: null, state: '', hiddenThreads: hidden([]), ...over };
        for (const running of [null, runningStates(q)]) {
          const one = filterLists(q, spec, tl.parts, ofType, running);
          const ref = filterEvents(q, spec);
          expect(Array.from(one.filtered.match), JSON.stringify(over)).toEqual(Array.from(ref.match));
          const cums = tl.parts.map((l) => cumulate(q, l, ref.match, running));
          expect(one.cums.map((c) => [Array.from(c.match), Array.from(c.running)])).toEqual(cums.map((c) => [Array.from(c.match), Array.from(c.running)]));
        }
      }
    }
  });

  it('sums each thread\'s waits in a range, overlapping waits of a kind once', () => {
    const kinds = [...types, { name: 'jdk.ThreadPark', kind: 'park' as const }];
    const q = buildProfile(kinds, threads, [
      { type: 1, t: 0, thread: 0, stack: null, duration: 10 }, // lock 0–10
      { type: 1, t: 5, thread: 0, stack: null, duration: 10 }, // lock 5–15: overlaps, 10–15 new
      { type: 2, t: 12, thread: 0, stack: null, duration: 20 }, // park 12–32
      { type: 1, t: 40, thread: 1, stack: null, duration: 5 }, // lock 40–45
      { type: 0, t: 20, thread: 0, stack: 'run;a' },
      { type: 0, t: 25, thread: 1, stack: 'run;a' },
    ]);
    const x = indexEvents(q);
    const waits = waitTracks(q, x, waitKinds(q));
    const f = filterEvents(q, { type: 0, thread: null, stack: null, exclude: null, state: '', hiddenThreads: new Set<string>() });
    const cums = typeLists(q, x, 0).byThread.map((l) => cumulate(q, l, f.match, null));
    const all = threadTimes(q, waits, cums, Uint8Array.from([1, 1]), 0, 100);
    expect(all.map((r) => [r.thread, r.ms.monitor, r.ms.park, r.blocked, r.matching])).toEqual([
      [0, 15, 20, 35, 1],
      [1, 5, 0, 5, 1],
    ]);
    // A range cuts the waits at its edges; a dropped thread is left out.
    const cut = threadTimes(q, waits, cums, Uint8Array.from([1, 0]), 8, 20);
    expect(cut.map((r) => [r.thread, r.ms.monitor, r.ms.park, r.matching])).toEqual([[0, 7, 8, 1]]);
  });

  it('merges sorted lists into one, ties by index', () => {
    const q = buildProfile(types, threads, [0, 5, 1, 5, 3, 9, 2].map((t) => ({ type: 0, t, thread: 0, stack: null })));
    const start = q.events.start;
    expect(Array.from(mergeByStart(start, [Int32Array.from([0, 1]), Int32Array.from([2, 4, 5]), Int32Array.from([6, 3])]))).toEqual([0, 2, 6, 4, 1, 3, 5]);
    expect(Array.from(mergeByStart(start, [Int32Array.from([3]), new Int32Array(0), Int32Array.from([1])]))).toEqual([1, 3]);
    expect(mergeByStart(start, [])).toHaveLength(0);
  });

  it('merges a long list with short ones, runs of either and equal times, as a comparator sort does', () => {
    let seed = 17;
    const rnd = () => (seed = (seed * 16807) % 2147483647) / 2147483647;
    // Times on a coarse grid (many ties); events dealt to lists in runs of random length, one
    // list taking most (a thread's reads beside its few parks).
    const n = 5000;
    const q = buildProfile(types, threads, Array.from({ length: n }, () => ({ type: 0, t: Math.floor(rnd() * 400), thread: 0, stack: null })));
    const start = q.events.start;
    const byTime = (l: number[]) => Int32Array.from(l.sort((x, y) => start[x] - start[y] || x - y));
    for (const lists of [3, 2, 5]) {
      const parts: number[][] = Array.from({ length: lists }, () => []);
      for (let i = 0; i < n; ) {
        const run = 1 + Math.floor(rnd() * rnd() * 200);
        const to = rnd() < 0.7 ? 0 : 1 + Math.floor(rnd() * (lists - 1));
        for (let k = 0; k < run && i < n; k++) parts[to].push(i++);
      }
      const expected = Array.from(byTime(Array.from({ length: n }, (_, i) => i)));
      expect(Array.from(mergeByStart(start, parts.map(byTime)))).toEqual(expected);
    }
  });

  it('finds intervals reaching into a window, including long ones that started before it', () => {
    const iv = intervals(p, idx);
    expect(walked(iv, 1)).toEqual([3, 6, 8]);
    // Passing the first two, the ends' maximum is the first's; all three, the last's.
    const w = new IntervalWalk(iv, 1, -Infinity);
    expect(w.skipBefore(p.events.start[8])).toBe(2);
    expect(w.reach).toBe(43);
    expect(w.skipBefore(Infinity)).toBe(1);
    expect(w.reach).toBe(61);
    expect(walked(iv, 1, 50)).toEqual([8]);
    expect(intervalsIn(p, iv, 1, 20, 30)).toEqual([3]);
    expect(intervalsIn(p, iv, 1, 11, 13)).toEqual([3, 6]);
    expect(intervalsIn(p, iv, 1, 44, 59)).toEqual([]);
    expect(walked(iv, 0)).toHaveLength(0);
    expect(iv.types).toEqual([1]);
  });
});
