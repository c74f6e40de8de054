/**
 * Findings in words: each sentence's numbers from hand-built events, and on a JDK recording the
 * sentence for a scheduled hold names the monitor, its holder and what the holder ran.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { decodeInNode } from '../../engine/node';
import { indexEvents } from '../event-index';
import { contentionFinding, findings, gcFinding, ioFindings, quantile } from '../findings';
import { gcEvents } from '../intervals';
import { lockBursts } from '../locks';
import { waitKinds, waitTracks } from '../waits';
import { buildProfile, type Ev } from './build';
import { scheduleWindows } from './schedule';

describe('findings from hand-built events', () => {
  it('quantiles by nearest rank', () => {
    expect(quantile([5, 1, 4, 2, 3], 0.95)).toBe(5);
    expect(quantile([5, 1, 4, 2, 3], 0.5)).toBe(3);
    expect(quantile([], 0.5)).toBeNaN();
  });

  it('says file reads got slower only when p95 at least doubles with 20 events a side', () => {
    const types = [{ name: 'jdk.FileRead', kind: 'io' as const }];
    const evs: Ev[] = [];
    for (let k = 0; k < 40; k++) evs.push({ type: 0, t: k * 10, thread: 0, stack: null, duration: 2 }); // 0–400 ms: 2 ms reads
    for (let k = 0; k < 30; k++) evs.push({ type: 0, t: 1000 + k * 10, thread: 0, stack: null, duration: 9 }); // 1000–1300: 9 ms
    const p = buildProfile(types, ['io'], evs);
    const f = ioFindings(p, indexEvents(p), [1000, 1400], Uint8Array.from([1]));
    expect(f.map((x) => x.text)).toEqual(['jdk.FileRead took 4.5× longer than in the rest of the recording (p95 9.0 ms vs 2.0 ms, 30 against 40 events).']);
    expect(ioFindings(p, indexEvents(p), [0, 400], Uint8Array.from([1]))).toEqual([]);
  });

  it('says which kind of wait rose, however many threads another kind holds up all along', () => {
    const types = [
      { name: 'jdk.JavaMonitorEnter', kind: 'lock' as const },
      { name: 'jdk.SocketRead', kind: 'io' as const },
    ];
    // 0–10 s: threads 0–5 read a socket all along; threads 6–9 wait on a monitor in 4–5 s only.
    const evs: Ev[] = [];
    for (let t = 0; t < 6; t++) evs.push({ type: 1, t: 0, thread: t, stack: null, duration: 10_000 });
    for (let t = 6; t < 10; t++) evs.push({ type: 0, t: 4000, thread: t, stack: 'run;enter', duration: 1000, subject: 'Ledger' });
    const p = buildProfile(types, Array.from({ length: 10 }, (_, t) => `t${t}`), evs);
    p.info.durationMs = 10_000;
    const keep = new Uint8Array(10).fill(1);
    const tracks = waitTracks(p, indexEvents(p), waitKinds(p));
    // In 4.2–4.8 s: 4 threads on the monitor against none elsewhere (10 in all against 6: no doubling).
    expect(contentionFinding(p, tracks, keep, [4200, 4800])?.text).toBe('4.0 threads were held up on average in the range (monitor), against 0.2 in the rest of the recording.');
    expect(contentionFinding(p, tracks, keep, [7000, 8000])).toBeNull();
    // A rise spread over kinds, neither clear alone (0.9 and 0.7 threads, under one each), 1.6
    // together: all the kinds together, the largest named.
    const spread: Ev[] = [
      { type: 0, t: 4000, thread: 0, stack: 'run;enter', duration: 900, subject: 'Ledger' },
      { type: 1, t: 4000, thread: 1, stack: null, duration: 700 },
    ];
    const q = buildProfile(types, ['a', 'b'], spread);
    q.info.durationMs = 10_000;
    const qt = waitTracks(q, indexEvents(q), waitKinds(q));
    expect(contentionFinding(q, qt, new Uint8Array(2).fill(1), [4000, 5000])?.text).toBe('1.6 threads were held up on average in the range (mostly monitor), against 0.0 in the rest of the recording.');
  });

  it('gives the share of the range GC pauses cover, overlapping pauses once', () => {
    const types = [{ name: 'jdk.GarbageCollection', kind: 'gc' as const }];
    const p = buildProfile(types, ['x'], [
      { type: 0, t: 100, thread: -1, stack: null, duration: 50 },
      { type: 0, t: 120, thread: -1, stack: null, duration: 50 },
      { type: 0, t: 900, thread: -1, stack: null, duration: 5 },
    ]);
    const gc = gcEvents(p, indexEvents(p));
    expect(gcFinding(p, gc, [0, 1000])?.text).toBe('GC pauses cover 8% of the range (75.0 ms).');
    expect(gcFinding(p, gc, [500, 1000])).toBeNull();
  });
});


describe('findings on a JDK recording', () => {
  const name = 'jdk17-profile.jfr';
  const p = decodeInNode(new Uint8Array(readFileSync(resolve(__dirname, `../../../../fixtures/${name}`))));
  const index = indexEvents(p);
  const kinds = waitKinds(p);
  const inputs = (range: [number, number]) => ({
    index,
    bursts: lockBursts(p, index, kinds, range),
    waits: waitTracks(p, index, kinds),
    threads: new Uint8Array(p.threads.length).fill(1),
    gc: gcEvents(p, index),
  });

  it('names the monitor, its holder and what it ran during a scheduled hold', () => {
    const [a, b] = scheduleWindows(name, 'hold', p.info.startMs)[1];
    const f = findings(p, [a + 50, b - 50], inputs([a + 50, b - 50]));
    const lock = f.find((x) => x.view === 'locks');
    expect(lock?.text).toMatch(/^[678] threads waited .* on one SearchService\$Index @ 0x[0-9a-f]+ monitor held by index-merger, which ran SearchService\$Index\.mergeSegments \((\d+)% of its samples\) meanwhile\.$/);
    expect(Number(/\((\d+)% of its samples/.exec(lock!.text)![1])).toBeGreaterThan(50);
    expect(lock?.pin).toBe('index-merger');
    expect(f.some((x) => /threads were held up on average in the range \((mostly )?monitor\)/.test(x.text))).toBe(true);
  });

  it('finds no pile-up in a calm stretch', () => {
    const [, b] = scheduleWindows(name, 'hold', p.info.startMs)[0];
    const calm: [number, number] = [b + 200, b + 700];
    const f = findings(p, calm, inputs(calm));
    expect(f.filter((x) => /held up on average/.test(x.text))).toEqual([]);
  });
});
