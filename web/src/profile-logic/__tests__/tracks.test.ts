/**
 * A thread's waits as one track (the union of their spans, with prefix sums) and a list's reach
 * (running maximum of ends), against a brute force: every event's [start, start + duration)
 * sorted by start and merged by hand, the reach as a plain running maximum, and the time covered
 * in a window as the sum of each merged span's overlap with it. Lists long enough to be kept
 * per list (1024 events and more) and short ones; disjoint waits (where the track's ends are the
 * reach itself) and overlapping, nested, touching and zero-length ones.
 */
import { describe, expect, it } from 'vitest';
import { eventsOf, firstEndPast, firstPast, firstSpanPast, indexEvents, reachAt, reachOf } from '../event-index';
import { intervals } from '../intervals';
import { checkWalk } from './walk';
import { covered, spanCum, spanEnd, spanStart, threadsWaiting, trackOf, waitKinds, waitTracks, type Track } from '../waits';
import { buildProfile, type Ev } from './build';
import { rng } from './rng';

type Shape = 'disjoint' | 'overlapping' | 'zero' | 'touching' | 'nested';

function events(r: () => number, n: number, shape: Shape): Ev[] {
  const out: Ev[] = [];
  let t = 1;
  for (let k = 0; k < n; k++) {
    // Float32 durations (as the columns hold them), so a + d is what the app computes too.
    const d = Math.fround(0.25 + Math.floor(r() * 8) / 4);
    let duration = d;
    if (shape === 'zero' && r() < 0.1) duration = 0;
    if (shape === 'overlapping' && r() < 0.2) duration = Math.fround(d * 6);
    // A few reads that outlast the next (a read nested in another), or end where it starts.
    if (shape === 'nested' && r() < 0.008) duration = Math.fround(r() < 0.5 ? d * 6 : d + 0.5);
    out.push({ type: 0, t, thread: k % 3 === 0 ? 1 : 0, stack: 'a;b', duration });
    t += shape === 'touching' && r() < 0.3 ? duration : d + 0.5 + Math.floor(r() * 4) / 4;
  }
  // Written out of order now and then (a read written when it ends): the index sorts them.
  for (let k = 0; k + 1 < out.length; k += 7) [out[k], out[k + 1]] = [out[k + 1], out[k]];
  return out;
}

/** The events' spans with a duration above zero, sorted by start, merged where they overlap or touch. */
function union(starts: number[], durations: number[]): [number, number][] {
  const spans = starts.map((a, k) => [a, a + durations[k]] as [number, number]).filter((_, k) => durations[k] > 0);
  spans.sort((x, y) => x[0] - y[0]);
  const out: [number, number][] = [];
  for (const [a, b] of spans) {
    const last = out[out.length - 1];
    if (last && a <= last[1]) last[1] = Math.max(last[1], b);
    else out.push([a, b]);
  }
  return out;
}

/** A track's spans as [start, end] pairs, read through whichever form it has. */
function spansIn(tr: Track): [number, number][] {
  return Array.from({ length: tr.length }, (_, k) => [spanStart(tr, k), spanEnd(tr, k)]);
}

function coveredBrute(spans: [number, number][], a: number, b: number): number {
  return spans.reduce((sum, [x, y]) => sum + Math.max(0, Math.min(y, b) - Math.max(x, a)), 0);
}

describe('a whole list’s track and reach', () => {
  for (const shape of ['disjoint', 'overlapping', 'zero', 'touching', 'nested'] as Shape[]) {
    for (const n of [40, 3000]) {
      it(`match the brute force: ${shape} waits, ${n} events`, () => {
        const r = rng(n + shape.length);
        const p = buildProfile([{ name: 'jdk.FileRead', kind: 'io' }], ['main', 'worker'], events(r, n, shape));
        const index = indexEvents(p);
        for (const thread of [0, 1]) {
          const list = eventsOf(index, 0, thread);
          const starts = Array.from(list, (i) => p.events.start[i]);
          const durations = Array.from(list, (i) => p.events.duration[i]);
          // The list is by start; the reach is the running maximum of ends along it.
          for (let k = 1; k < starts.length; k++) expect(starts[k]).toBeGreaterThanOrEqual(starts[k - 1]);
          let max = -Infinity;
          const reach = starts.map((a, k) => (max = Math.max(max, a + durations[k])));
          const ra = reachOf(p, list);
          expect(starts.map((_, k) => reachAt(ra, k))).toEqual(reach);
          const disjoint = starts.every((a, k) => durations[k] > 0 && (k === 0 || a > reach[k - 1]));
          expect(ra.disjoint).toBe(disjoint);
          // Events that start by the reach before them (overlap or touch it) merge into the span
          // before; the list is its own track while all last and few merge (one in 64 at most).
          const merging = starts.flatMap((a, k) => (k > 0 && a <= reach[k - 1] ? [k] : []));
          const own = durations.every((d) => d > 0) && merging.length <= Math.floor(starts.length / 64);
          expect(ra.merged === null ? null : Array.from(ra.merged)).toEqual(own ? merging : null);
          // Stored per block of 16 positions only: the reach at each block's last.
          expect(Array.from(ra.ends)).toEqual(reach.filter((_, k) => k % 16 === 15 || k === reach.length - 1));
          // The first position reaching past a time (a range's first overlapping event), at ends and between.
          for (const t0 of [-1, ...reach.slice(0, 200).flatMap((x) => [x, x - 0.125, x + 0.125]), 1e9]) {
            const k = reach.findIndex((x) => x > t0);
            expect(firstPast(ra, t0)).toBe(k < 0 ? reach.length : k);
          }
          // A disjoint list's ends ascend: the first ending after a time from any position on.
          if (ra.disjoint) {
            for (let w = 0; w < 300; w++) {
              const from = Math.floor(r() * (reach.length + 2));
              const t0 = r() * (reach[reach.length - 1] + 5);
              let k = from;
              while (k < reach.length && !(reach[k] > t0)) k++;
              expect(firstEndPast(ra, t0, from)).toBe(Math.min(k, reach.length));
            }
          }
          // The data do hold both cases (thread 1's every third event never touches its next).
          if (shape === 'disjoint' || (n > 1000 && thread === 0)) expect(disjoint).toBe(shape === 'disjoint');
          // And the nested reads make a long list that is its own track with events merged.
          if (shape === 'nested' && n > 1000 && thread === 0) expect([own, merging.length > 0, list.length >= 1024]).toEqual([true, true, true]);

          const want = union(starts, durations);
          const track = trackOf(p, list, null);
          expect(spansIn(track)).toEqual(want);
          // A long list of nearly disjoint events is its own track: starts read through it, a sum kept in 16.
          expect(track.of !== null).toBe(own && list.length >= 1024);
          // Its first span from any span on that ends after a time, in spans, not positions.
          if (ra.merged !== null) {
            for (let w = 0; w < 300; w++) {
              const from = Math.floor(r() * (want.length + 2));
              const t0 = r() * (want[want.length - 1][1] + 5);
              let k = from;
              while (k < want.length && !(want[k][1] > t0)) k++;
              expect(firstSpanPast(ra, t0, from)).toBe(Math.min(k, want.length));
            }
          }
          // The covered time before each span: the lengths added in order, to the last bit.
          let sum = 0;
          for (let k = 0; k <= want.length; k++) {
            expect(spanCum(track, k)).toBe(sum);
            if (k < want.length) sum += want[k][1] - want[k][0];
          }
          // Asked twice: the same track (kept per list when long), unchanged.
          expect(spansIn(trackOf(p, list, null))).toEqual(want);
          const last = starts[starts.length - 1] + 10;
          for (let w = 0; w < 50; w++) {
            const a = r() * last;
            const b = a + r() * (last / 4);
            expect(covered(track, a, b)).toBeCloseTo(coveredBrute(want, a, b), 6);
          }
          expect(covered(track, 0, last)).toBeCloseTo(coveredBrute(want, 0, last), 6);
          // The curve of threads waiting: each column the time covered in it over its width.
          for (const [from, to, cols] of [[0, last, 37], [last / 3, last / 3 + 2, 300]]) {
            const got = threadsWaiting([track], null, from, to, cols);
            const w = (to - from) / cols;
            for (let c = 0; c < cols; c++) expect(got[c]).toBeCloseTo(coveredBrute(want, from + c * w, from + (c + 1) * w) / w, 6);
          }
        }
      });
    }
  }
});

describe('the timeline’s interval lists', () => {
  it('walk a thread’s types in start order, with the running maximum of ends along the walk', () => {
    const r = rng(99);
    const types = [
      { name: 'jdk.FileRead', kind: 'io' as const },
      { name: 'jdk.ThreadPark', kind: 'park' as const },
      { name: 'jdk.JavaMonitorEnter', kind: 'lock' as const },
      { name: 'jdk.ExecutionSample', kind: 'cpu' as const },
    ];
    // Thread 0: many disjoint reads (kept per list), parks that overlap them, a few long
    // monitor waits, zero-length events (no bar), samples (no interval); ties of start across
    // types. Thread 1: reads only, a few of no length. Thread 2: nothing of an interval type.
    const evs: Ev[] = [];
    let t = 0;
    for (let k = 0; k < 5000; k++) {
      t += 1 + Math.floor(r() * 4) / 2;
      evs.push({ type: 0, t, thread: 0, stack: 'a', duration: 0.5 });
      evs.push({ type: 0, t: t + 0.25, thread: 1, stack: 'a', duration: r() < 0.05 ? 0 : 0.5 });
      if (k % 9 === 0) evs.push({ type: 1, t: r() < 0.3 ? t : t + r() * 3, thread: 0, stack: 'a', duration: r() < 0.1 ? 0 : r() * 6 });
      if (k % 400 === 0) evs.push({ type: 2, t: t - r() * 10, thread: 0, stack: 'a', duration: 50 + r() * 100 });
      if (k % 3 === 0) evs.push({ type: 3, t, thread: 2, stack: 'a' });
    }
    const p = buildProfile(types, ['io', 'reader', 'cpu'], evs);
    const index = indexEvents(p);
    // As the view asks: the reads' reach first (the selected type), then the timeline's lists.
    reachOf(p, eventsOf(index, 0, 0));
    reachOf(p, eventsOf(index, 0, 1));
    const iv = intervals(p, index);
    for (let thread = 0; thread < 3; thread++) {
      const want = evs
        .map((e, i) => ({ e, i }))
        .filter(({ e }) => e.thread === thread && e.type !== 3 && (e.duration ?? 0) > 0)
        .map(({ i }) => i)
        .sort((a, b) => p.events.start[a] - p.events.start[b] || a - b);
      // At event starts and ends, between, and beyond.
      const times = [-1, ...want.filter((_, k) => k % 40 === 0).flatMap((i) => [p.events.start[i], p.events.start[i] + p.events.duration[i], p.events.start[i] + 0.1]), 1e9];
      checkWalk(p, iv, thread, want, times);
      if (thread === 0) expect(want.length).toBeGreaterThan(5000);
    }
    expect(iv.types).toEqual([0, 1, 2]);
  });
});

describe('the wait kinds’ tracks', () => {
  it('hold each thread’s waits of each kind: reads, parks on locks and idle parks told apart by stack, monitors', () => {
    const r = rng(5);
    const types = [
      { name: 'jdk.FileRead', kind: 'io' as const },
      { name: 'jdk.ThreadPark', kind: 'park' as const },
      { name: 'jdk.JavaMonitorEnter', kind: 'lock' as const },
      { name: 'jdk.SocketRead', kind: 'io' as const },
    ];
    const idle = 'java.lang.Thread.run;java.util.concurrent.ThreadPoolExecutor.getTask;java.util.concurrent.locks.LockSupport.park';
    const lock = 'java.lang.Thread.run;app.Work.step;java.util.concurrent.locks.LockSupport.park';
    // Per event, the kind it is by construction (the brute force's answer), per thread.
    const evs: Ev[] = [];
    const kindOf: string[] = [];
    let t = 0;
    for (let k = 0; k < 3000; k++) {
      t += 1 + r() * 2;
      const thread = k % 2;
      const roll = r();
      if (roll < 0.6) {
        evs.push({ type: 0, t, thread, stack: 'read', duration: 0.5 + r() });
        kindOf.push('file');
      } else if (roll < 0.75) {
        evs.push({ type: 1, t, thread, stack: idle, duration: r() * 5 });
        kindOf.push('idle');
      } else if (roll < 0.9) {
        evs.push({ type: 1, t, thread, stack: lock, duration: r() * 5 });
        kindOf.push('park');
      } else if (roll < 0.97) {
        evs.push({ type: 2, t: t - r() * 3, thread, stack: 'sync', duration: r() * 8 });
        kindOf.push('monitor');
      } else {
        evs.push({ type: 3, t, thread, stack: 'net', duration: r() * 8 });
        kindOf.push('socket');
      }
    }
    const p = buildProfile(types, ['a', 'b'], evs);
    const tracks = waitTracks(p, indexEvents(p), waitKinds(p));
    for (const kind of ['file', 'idle', 'park', 'monitor', 'socket'] as const) {
      for (const thread of [0, 1]) {
        const mine = evs.map((e, i) => ({ e, i })).filter(({ e, i }) => e.thread === thread && kindOf[i] === kind);
        const want = union(
          mine.map(({ i }) => p.events.start[i]),
          mine.map(({ i }) => p.events.duration[i]),
        );
        const track = tracks[kind][thread];
        expect(want.length).toBeGreaterThan(0);
        expect(spansIn(track)).toEqual(want);
      }
    }
  });
});
