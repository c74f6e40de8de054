/**
 * Time semantics: a range selects the waits that overlap it and weighs only their part inside;
 * threads waiting over time against a brute-force sweep; wait kinds kept apart; the spike finder
 * against synthetic bursts and against the scenario's own schedule of lock holds.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { decodeInNode } from '../../engine/node';
import type { Profile } from '../../columns/profile';
import { activitySpikes, matchTracks } from '../activity';
import { eventsOfType, indexEvents, reachOf, typeLists } from '../event-index';
import { filterLists, flagsOf, type FilterSpec } from '../filters';
import { countInRange, selectInRanges, weightsInRange } from '../ranges';
import type { Cumulative } from '../running-counts';
import { findSpikes } from '../spikes';
import { subjectsInRange } from '../subjects';
import { covered, threadsWaiting, trackOf, waitKindOf, waitKinds, waitTracks } from '../waits';
import { buildProfile, type Ev } from './build';
import { scheduleWindows } from './schedule';

const TYPES = [
  { name: 'jdk.ExecutionSample', kind: 'cpu' as const },
  { name: 'jdk.JavaMonitorEnter', kind: 'lock' as const },
  { name: 'jdk.JavaMonitorWait', kind: 'wait' as const },
  { name: 'jdk.ThreadPark', kind: 'park' as const },
  { name: 'jdk.SocketRead', kind: 'io' as const },
  { name: 'jdk.FileRead', kind: 'io' as const },
  { name: 'jdk.ThreadSleep', kind: 'sleep' as const },
];

/** The selector's pipeline for one type: lists, filters with running counts, reach of waits. */
function pass(profile: Profile, type: number, subject: RegExp | null = null): Cumulative[] {
  const index = indexEvents(profile);
  const lists = typeLists(profile, index, type);
  const spec: FilterSpec = { type, thread: null, stack: null, exclude: null, state: '', hiddenThreads: new Set(), subject };
  const p = filterLists(profile, spec, lists.parts, flagsOf(profile.events.length, eventsOfType(index, type)), null);
  return p.cums.map((c, k) => ({ ...c, reach: reachOf(profile, lists.parts[k]) }));
}

describe('a range and the waits in it', () => {
  // Thread 0 waits 0–400 ms (a long hold), thread 1 waits 90–110 and 300–320, thread 2 250–260.
  const evs: Ev[] = [
    { type: 1, t: 0, thread: 0, stack: 'run;enter', duration: 400, subject: 'Index' },
    { type: 1, t: 90, thread: 1, stack: 'run;enter', duration: 20, subject: 'Index' },
    { type: 1, t: 300, thread: 1, stack: 'run;enter', duration: 20, subject: 'Other' },
    { type: 1, t: 250, thread: 2, stack: 'run;other', duration: 10, subject: 'Index' },
    { type: 0, t: 150, thread: 1, stack: 'run;cpu' },
  ];
  const p = buildProfile(TYPES, ['a', 'b', 'c'], evs);
  const cums = pass(p, 1);

  it('selects a wait that began before the range and lasts past it', () => {
    // 150–200: only thread 0's wait, started at 0, covers it.
    expect(countInRange(p, cums, [150, 200])).toBe(1);
    expect(Array.from(selectInRanges(p, cums, [150, 200]))).toEqual([0]);
    // 95–105 overlaps thread 0's and thread 1's first wait; 320 exactly (an end) is not inside.
    expect(countInRange(p, cums, [95, 105])).toBe(2);
    expect(countInRange(p, cums, [320, 330])).toBe(1);
    expect(countInRange(p, cums, null)).toBe(4);
  });

  it('weighs only the part inside the range, clipped at both edges', () => {
    const w = weightsInRange(p, cums, [100, 200], 'duration');
    const total = w.reduce((a, b) => a + b, 0);
    // Thread 0: 100 of its 400 ms; thread 1: 10 of its 20 (100–110).
    expect(total).toBeCloseTo(110, 6);
    expect(weightsInRange(p, cums, null, 'duration').reduce((a, b) => a + b, 0)).toBeCloseTo(450, 6);
    const rows = subjectsInRange(p, cums, [100, 200], 'duration');
    expect(rows.map((r) => [p.strings[r.subject], r.events, r.weight, r.threads])).toEqual([['Index', 2, 110, 2]]);
  });

  it('agrees with a brute-force overlap test on random waits and ranges', () => {
    let seed = 7;
    const rnd = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
    const many: Ev[] = Array.from({ length: 400 }, () => ({ type: 1, t: rnd() * 1000, thread: Math.floor(rnd() * 4), stack: 'x', duration: rnd() < 0.1 ? rnd() * 500 : rnd() * 20 }));
    const q = buildProfile(TYPES, ['a', 'b', 'c', 'd'], many);
    const c = pass(q, 1);
    for (let k = 0; k < 50; k++) {
      const a = rnd() * 1000;
      const b = a + rnd() * 200;
      let n = 0;
      let ms = 0;
      for (let i = 0; i < q.events.length; i++) {
        const s = q.events.start[i];
        const e = s + q.events.duration[i];
        if (s <= b && e > a) {
          n++;
          ms += Math.min(e, b) - Math.max(s, a);
        }
      }
      expect(countInRange(q, c, [a, b])).toBe(n);
      expect(weightsInRange(q, c, [a, b], 'duration').reduce((x, y) => x + y, 0)).toBeCloseTo(ms, 3);
    }
  });
});

describe('threads waiting over time', () => {
  it('equals a brute-force sweep of the spans, overlapping waits of a thread once', () => {
    let seed = 3;
    const rnd = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
    const evs: Ev[] = Array.from({ length: 300 }, () => ({ type: 1, t: rnd() * 1000, thread: Math.floor(rnd() * 5), stack: null, duration: rnd() * 60 }));
    const q = buildProfile(TYPES, ['a', 'b', 'c', 'd', 'e'], evs);
    const idx = indexEvents(q);
    const tracks = typeLists(q, idx, 1).byThread.map((l) => trackOf(q, l, () => true));
    const cols = 37;
    const got = threadsWaiting(tracks, null, 100, 900, cols);
    // Brute force: sample each column at 400 points, count threads with any wait covering it.
    const w = 800 / cols;
    for (let c = 0; c < cols; c++) {
      let sum = 0;
      const steps = 400;
      for (let k = 0; k < steps; k++) {
        const t = 100 + c * w + ((k + 0.5) / steps) * w;
        const busy = new Set<number>();
        for (let i = 0; i < q.events.length; i++) if (q.events.start[i] <= t && t < q.events.start[i] + q.events.duration[i]) busy.add(q.events.thread[i]);
        sum += busy.size;
      }
      expect(got[c]).toBeCloseTo(sum / steps, 1);
    }
    // One thread's covered time never exceeds the window, however many waits overlap.
    for (const tr of tracks) expect(covered(tr, 0, 1000)).toBeLessThanOrEqual(1000);
  });

  it('reads each column as the time its window covers, however many spans a column holds or how few', () => {
    let seed = 11;
    const rnd = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
    // Disjoint spans of random lengths and gaps (a track is a union), from sparse to dense.
    const track = (n: number, gap: number) => {
      const start = new Float64Array(n);
      const end = new Float64Array(n);
      const cum = new Float64Array(n + 1);
      let t = rnd() * gap;
      for (let k = 0; k < n; k++) {
        start[k] = t;
        end[k] = t + rnd() * gap * (k % 7 === 0 ? 40 : 1);
        cum[k + 1] = cum[k] + (end[k] - start[k]);
        t = end[k] + rnd() * gap * (k % 5 === 0 ? 30 : 1);
      }
      return { length: n, start, end, cum, of: null };
    };
    const tracks = [track(20_000, 0.01), track(300, 1), track(3, 50), track(0, 1), track(5_000, 0.2)];
    for (const [from, to, cols] of [[0, 1000, 37], [100, 101, 600], [-50, 2000, 600], [450.5, 452.25, 7], [5000, 6000, 10]] as const) {
      const got = threadsWaiting(tracks, null, from, to, cols);
      const w = (to - from) / cols;
      for (let c = 0; c < cols; c++) {
        const want = tracks.reduce((sum, tr) => sum + covered(tr, from + c * w, from + (c + 1) * w) / w, 0);
        expect(got[c]).toBeCloseTo(want, 6);
      }
    }
    // Kept threads only.
    const some = threadsWaiting(tracks, new Uint8Array([0, 1, 0, 0, 0]), 0, 1000, 50);
    const one = threadsWaiting([tracks[1]], null, 0, 1000, 50);
    for (let c = 0; c < 50; c++) expect(some[c]).toBeCloseTo(one[c], 9);
  });

  it('keeps the wait kinds apart: contention, Object.wait, join, parks on locks and idle pools, sleep, files, sockets', () => {
    const q = buildProfile(TYPES, ['w', 'x'], [
      { type: 1, t: 0, thread: 0, stack: 'run;enter', duration: 5, subject: 'Index' },
      { type: 2, t: 0, thread: 0, stack: 'run;Object.wait', duration: 5, subject: 'java.lang.Object' },
      { type: 2, t: 0, thread: 0, stack: 'run;java.lang.Thread.join;Object.wait', duration: 5, subject: 'Worker' },
      { type: 2, t: 0, thread: 0, stack: 'run;Object.wait', duration: 5, subject: 'java.lang.Thread' },
      { type: 3, t: 0, thread: 1, stack: 'run;java.util.concurrent.ThreadPoolExecutor.getTask;park', duration: 5, subject: 'java.util.concurrent.locks.AbstractQueuedSynchronizer$ConditionObject' },
      { type: 3, t: 0, thread: 1, stack: 'run;lock;park', duration: 5, subject: 'java.util.concurrent.locks.ReentrantLock$NonfairSync' },
      { type: 3, t: 0, thread: 1, stack: 'run;take;park', duration: 5, subject: 'java.util.concurrent.SynchronousQueue$TransferStack' },
      { type: 3, t: 0, thread: 1, stack: 'run;java.util.concurrent.ArrayBlockingQueue.poll;awaitNanos;park', duration: 5, subject: 'java.util.concurrent.locks.AbstractQueuedSynchronizer$ConditionObject' },
      { type: 4, t: 0, thread: 1, stack: null, duration: 5 },
      { type: 5, t: 0, thread: 1, stack: null, duration: 5 },
      { type: 6, t: 0, thread: 1, stack: null, duration: 5 },
      { type: 0, t: 0, thread: 1, stack: 'run' },
    ]);
    const k = waitKinds(q);
    expect(Array.from({ length: q.events.length }, (_, i) => waitKindOf(k, i))).toEqual(['monitor', 'wait', 'join', 'join', 'idle', 'park', 'idle', 'idle', 'socket', 'file', 'sleep', null]);
    const tracks = waitTracks(q, indexEvents(q), k);
    expect(covered(tracks.join[0], 0, 10)).toBe(5);
    expect(covered(tracks.monitor[1], 0, 10)).toBe(0);
  });
});

describe('the spike finder', () => {
  it('finds every synthetic burst once, with its edges, over noise', () => {
    let seed = 11;
    const rnd = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
    const w = 5;
    const bins = 4000; // 20 s
    const bursts: [number, number][] = [];
    for (let t = 1000; t < 19000; t += 1500 + rnd() * 1500) bursts.push([t, t + 200 + rnd() * 400]);
    const y = new Float64Array(bins);
    for (let b = 0; b < bins; b++) {
      const t = b * w;
      // Calm: 0–1 thread now and then; bursts: 4–8 threads with dips.
      y[b] = rnd() < 0.2 ? 1 : 0;
      for (const [a, e] of bursts) if (t >= a && t < e) y[b] = 4 + Math.floor(rnd() * 5) - (rnd() < 0.1 ? 3 : 0);
    }
    const found = findSpikes(y, 0, w, { smooth: 9, bridge: 10 }).ranges;
    // Precision and recall: one found range per burst, edges within 50 ms.
    expect(found.length).toBe(bursts.length);
    bursts.forEach(([a, e], k) => {
      expect(Math.abs(found[k][0] - a)).toBeLessThan(50);
      expect(Math.abs(found[k][1] - e)).toBeLessThan(50);
    });
  });



  for (const name of ['example.jfr', 'jdk17-profile.jfr', 'jdk25-cputime.jfr', 'jdk21-profile.jfr', 'jdk11-profile.jfr']) {
    it(`finds each of ${name}'s monitor holds once, within 100 ms, and nothing else`, () => {
      const profile = decodeInNode(new Uint8Array(readFileSync(resolve(__dirname, `../../../../fixtures/${name}`))));
      const type = profile.eventTypes.findIndex((t) => t.name === 'jdk.JavaMonitorEnter');
      const cums = pass(profile, type, /Index/);
      const tracks = matchTracks(profile, cums.slice(0, profile.threads.length));
      const found = activitySpikes(profile, cums, tracks, null, 'threads');
      const holds = scheduleWindows(name, 'hold', profile.info.startMs);
      expect(holds.length).toBeGreaterThanOrEqual(2);
      expect(found.length).toBe(holds.length);
      holds.forEach(([a, e], k) => {
        expect(Math.abs(found[k][0] - a), `hold ${k} start`).toBeLessThan(100);
        expect(Math.abs(found[k][1] - e), `hold ${k} end`).toBeLessThan(100);
      });
    });
  }

  // Samples (counts, not time): the holder spins on the CPU while it holds the monitor, so its
  // samples crowd into each hold; the rest of the recording is a few samples a second, whose
  // clusters are chance (a steady rate's scatter), not spikes.
  for (const name of ['jdk17-profile.jfr', 'jdk21-profile.jfr', 'jdk11-profile.jfr']) {
    it(`finds each of ${name}'s holds in its CPU samples, and no spike outside the schedule`, () => {
      const profile = decodeInNode(new Uint8Array(readFileSync(resolve(__dirname, `../../../../fixtures/${name}`))));
      const type = profile.eventTypes.findIndex((t) => t.name === 'jdk.ExecutionSample');
      const found = activitySpikes(profile, pass(profile, type), null, null, 'count');
      const holds = scheduleWindows(name, 'hold', profile.info.startMs);
      const busy = [...holds, ...scheduleWindows(name, 'scan', profile.info.startMs)];
      expect(holds.length).toBeGreaterThanOrEqual(2);
      for (const [a, e] of holds) expect(found.some(([x, y]) => Math.abs(x - a) < 100 && Math.abs(y - e) < 100), `hold ${a}–${e} in ${JSON.stringify(found)}`).toBe(true);
      for (const [x, y] of found) expect(busy.some(([a, e]) => x > a - 100 && y < e + 100), `spike ${x}–${y}`).toBe(true);
    });
  }

  it("finds the example's scan windows, where short NativeThreadSet waits pile up, once each", () => {
    const profile = decodeInNode(new Uint8Array(readFileSync(resolve(__dirname, '../../../../fixtures/example.jfr'))));
    const type = profile.eventTypes.findIndex((t) => t.name === 'jdk.JavaMonitorEnter');
    const cums = pass(profile, type, /NativeThreadSet/);
    const found = activitySpikes(profile, cums, matchTracks(profile, cums.slice(0, profile.threads.length)), null, 'threads');
    const scans = scheduleWindows('example.jfr', 'scan', profile.info.startMs);
    expect(found.length).toBe(scans.length);
    scans.forEach(([a, b], k) => {
      // Each spike starts with its window and lies within it (a window's tail can be calm).
      expect(Math.abs(found[k][0] - a), `scan ${k} start`).toBeLessThan(100);
      expect(found[k][1]).toBeLessThan(b + 100);
      expect(found[k][1] - found[k][0]).toBeGreaterThan(200);
    });
  });
});
