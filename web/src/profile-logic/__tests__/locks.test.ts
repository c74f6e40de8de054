/**
 * Lock blame on hand-built waits (a clean chain, a broken one, two monitors) and on the
 * scenario's recordings, whose schedule says when index-merger held the Index monitor and whose
 * code says what it ran meanwhile (SearchService$Index.mergeSegments).
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { decodeInNode } from '../../engine/node';
import { callTree } from '../calltree';
import { indexEvents } from '../event-index';
import { lockBursts, lockRows, onCpuDuring, sampleTypesOf, threadWeights, waiterWeights } from '../locks';
import { topMethods } from '../methods';
import { waitKinds } from '../waits';
import { buildProfile, type Ev } from './build';
import { scheduleWindows } from './schedule';

const TYPES = [
  { name: 'jdk.ExecutionSample', kind: 'cpu' as const },
  { name: 'jdk.JavaMonitorEnter', kind: 'lock' as const },
  { name: 'jdk.ThreadPark', kind: 'park' as const },
];
const THREADS = ['holder', 'w1', 'w2', 'w3', 'other'];
const wait = (t: number, thread: number, d: number, peer: number, subject = 'Index', value = 0x10): Ev => ({ type: 1, t, thread, stack: 'run;enter', duration: d, subject, value, peer });

describe('lock blame', () => {
  it('names the holder of a clean chain and checks every grant', () => {
    // holder holds 0–400; w1, w2, w3 granted at 400, 401, 402 one after another.
    const p = buildProfile(TYPES, THREADS, [wait(10, 1, 390, 0), wait(20, 2, 381, 1), wait(30, 3, 372, 2), { type: 0, t: 100, thread: 0, stack: 'run;merge' }]);
    const bursts = lockBursts(p, indexEvents(p), waitKinds(p), null);
    expect(bursts).toHaveLength(1);
    const b = bursts[0];
    expect([b.holder, b.chainOk, b.chainBroken, b.waiters, b.start, b.end]).toEqual([0, 2, 0, 3, 10, 402]);
    const rows = lockRows(p, bursts);
    expect(rows.map((r) => [r.label, r.waits, r.holders])).toEqual([['Index @ 0x10', 3, [{ thread: 0, bursts: 1, wait: 390 + 381 + 372 }]]]);
    // What the holder ran meanwhile.
    const w = threadWeights(p, indexEvents(p), b.holder, b.start, b.end, sampleTypesOf(p));
    expect(topMethods(p, w).map((m) => p.strings[m.name]).sort()).toEqual(['merge', 'run']);
    expect(callTree(p, waiterWeights(p, b)).value).toBeCloseTo(390 + 381 + 372, 6);
  });

  it('names the thread that held the monitor longest while others waited, when the holder itself waited to enter', () => {
    // 'other' holds the monitor briefly (0–2); 'holder' waits for it from 1 and enters at 2; w1,
    // already waiting since 1.5, is granted only when the holder lets go at 500; w2 and w3, who
    // came at 100, after it. The first grant (the holder's, at 2) names 'other', who held it 2 ms;
    // 'holder' held it 498 ms while three threads waited.
    const p = buildProfile(TYPES, THREADS, [wait(1, 0, 1, 4), wait(1.5, 1, 498.5, 0), wait(100, 2, 401, 1), wait(100, 3, 402, 2)]);
    const [b] = lockBursts(p, indexEvents(p), waitKinds(p), null);
    expect([b.start, b.end, b.waiters]).toEqual([1, 502, 4]);
    expect(p.strings[p.threads.name[b.holder]]).toBe('holder');
    expect([b.chainOk, b.chainBroken]).toEqual([3, 0]);
  });

  it('says when the chain does not hold', () => {
    // w2's previous owner is 'other', neither w1 (granted before it) nor the holder.
    const p = buildProfile(TYPES, THREADS, [wait(10, 1, 390, 0), wait(20, 2, 381, 4), wait(30, 3, 372, 2)]);
    const [b] = lockBursts(p, indexEvents(p), waitKinds(p), null);
    expect([b.holder, b.chainOk, b.chainBroken]).toEqual([0, 1, 1]);
  });

  it('keeps two monitors and two bursts of one monitor apart, and clips to the range', () => {
    const p = buildProfile(TYPES, THREADS, [
      wait(10, 1, 100, 0),
      wait(20, 2, 91, 1),
      wait(10, 3, 50, 4, 'Cache', 0x20),
      wait(500, 1, 100, 4),
      wait(505, 2, 96, 1),
    ]);
    const bursts = lockBursts(p, indexEvents(p), waitKinds(p), null);
    expect(bursts.map((b) => [p.strings[b.cls], b.start, b.holder])).toEqual([
      ['Index', 10, 0],
      ['Cache', 10, 4],
      ['Index', 500, 4],
    ]);
    const inRange = lockBursts(p, indexEvents(p), waitKinds(p), [50, 60]);
    expect(inRange.map((b) => [p.strings[b.cls], b.clipped])).toEqual([
      ['Index', 20],
      ['Cache', 10],
    ]);
    const rows = lockRows(p, bursts);
    expect(rows[0].label).toBe('Index @ 0x10');
    // Holders by the wait of the bursts they held: thread 4's (100 + 96 ms) before thread 0's (100 + 91).
    expect(rows[0].holders).toEqual([
      { thread: 4, bursts: 1, wait: 196 },
      { thread: 0, bursts: 1, wait: 191 },
    ]);
    // In a range, by the wait inside it.
    expect(lockRows(p, inRange)[0].holders).toEqual([{ thread: 0, bursts: 1, wait: 20 }]);
  });

  it('ranks a holder of one long burst above a holder of many short ones', () => {
    const p = buildProfile(TYPES, THREADS, [
      wait(10, 1, 5, 0),
      wait(100, 1, 5, 0),
      wait(200, 1, 5, 0),
      wait(300, 2, 900, 4),
      wait(310, 1, 890, 4),
    ]);
    const rows = lockRows(p, lockBursts(p, indexEvents(p), waitKinds(p), null));
    expect(rows[0].holders.map((h) => [h.thread, h.bursts])).toEqual([
      [4, 1],
      [0, 3],
    ]);
  });

  it('names no holder for parks, and shows who was on CPU meanwhile', () => {
    const park = (t: number, thread: number): Ev => ({ type: 2, t, thread, stack: 'run;lock;park', duration: 300, subject: 'java.util.concurrent.locks.ReentrantLock$NonfairSync', value: 0x30 });
    const p = buildProfile(TYPES, THREADS, [park(10, 1), park(15, 2), { type: 0, t: 100, thread: 4, stack: 'run;load' }, { type: 0, t: 120, thread: 4, stack: 'run;load' }, { type: 0, t: 130, thread: 1, stack: 'run' }]);
    const idx = indexEvents(p);
    const [b] = lockBursts(p, idx, waitKinds(p), null);
    expect([b.kind, b.holder, b.chainOk]).toEqual(['park', -1, 0]);
    expect(onCpuDuring(p, idx, b, sampleTypesOf(p))).toEqual([{ thread: 4, samples: 2 }]);
  });
});


describe('lock blame on the JDK recordings', () => {
  for (const name of ['jdk17-profile.jfr', 'jdk25-cputime.jfr', 'jdk21-profile.jfr', 'jdk11-profile.jfr']) {
    it(`${name}: each Index burst is one scheduled hold, held by index-merger running mergeSegments`, () => {
      const p = decodeInNode(new Uint8Array(readFileSync(resolve(__dirname, `../../../../fixtures/${name}`))));
      const idx = indexEvents(p);
      const all = lockBursts(p, idx, waitKinds(p), null).filter((b) => /Index$/.test(p.strings[b.cls]));
      const merger = p.threads.name.findIndex((n) => p.strings[n] === 'index-merger');
      // Index-merger is named as holder of exactly the scheduled holds (other short pile-ups,
      // where a worker held the index, name someone else).
      const bursts = all.filter((b) => b.holder === merger);
      const truth = scheduleWindows(name, 'hold', p.info.startMs);
      expect(bursts.length).toBe(truth.length);
      bursts.forEach((b, k) => {
        expect(Math.abs(b.start - truth[k][0]), `burst ${k} start`).toBeLessThan(100);
        expect(Math.abs(b.end - truth[k][1]), `burst ${k} end`).toBeLessThan(100);
        expect(p.strings[p.threads.name[b.holder]]).toBe('index-merger');
        expect(b.chainOk).toBeGreaterThan(b.chainBroken);
        expect(b.waiters).toBeGreaterThanOrEqual(6);
        const w = threadWeights(p, idx, b.holder, b.start, b.end, sampleTypesOf(p));
        const total = w.reduce((x, y) => x + y, 0);
        const merge = topMethods(p, w).find((m) => p.strings[m.name] === 'SearchService$Index.mergeSegments');
        expect(merge, 'mergeSegments among what the holder ran').toBeDefined();
        expect(merge!.total / total).toBeGreaterThan(0.5);
      });
    });
  }
});
