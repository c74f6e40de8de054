/**
 * Virtual threads on jdk25-virtual.jfr against the JDK's reading (RecordingFile, through
 * tools/golden/Golden.java's kinds.tsv: each virtual event thread by name; each pinned thread,
 * carrier and reason with its count of jdk.VirtualThreadPinned and their total nanoseconds):
 * the lanes group exactly the virtual threads, the pinned intervals cover what the JDK's
 * durations add up to, and the carrier named at each pinned moment is the one the JDK read.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { decodeInNode } from '../../engine/node';
import { indexEvents } from '../event-index';
import { intervals } from '../intervals';
import { buildLanes } from '../lanes';
import { covered, waitKinds, waitTracks } from '../waits';
import { carrierText, pinnedByThread } from '../virtual';
import { walked } from './walk';

const root = resolve(__dirname, '../../../..');
const profile = decodeInNode(new Uint8Array(readFileSync(resolve(root, 'fixtures/jdk25-virtual.jfr'))));
const kinds = readFileSync(resolve(root, 'fixtures/expected/jdk25-virtual.jfr.kinds.tsv'), 'utf8')
  .trimEnd()
  .split('\n')
  .map((l) => l.split('\t'));
const index = indexEvents(profile);
const name = (t: number) => profile.strings[profile.threads.name[t]];
const zero = { count: new Float64Array(profile.threads.length), matching: new Float64Array(profile.threads.length) };

describe('virtual threads', () => {
  const jdkVirtual = new Set(kinds.filter((f) => f[0] === 'virtual').map((f) => f[1]));
  const pinnedLines = kinds.filter((f) => f[0] === 'pinned');

  it('has the scenario: 244 virtual threads, four of them pinned', () => {
    expect(jdkVirtual.size).toBe(244);
    expect(new Set(pinnedLines.map((f) => f[1]))).toEqual(new Set(['pinned-0', 'pinned-1', 'pinned-2', 'pinned-3']));
  });

  it('groups exactly the virtual threads under one lane, closed or open', () => {
    const closed = buildLanes(profile, index, zero, { group: false, sort: 'name', hidden: new Set() });
    const groups = closed.filter((l) => l.group);
    expect(groups).toHaveLength(1);
    expect(groups[0].group).toBe('closed');
    expect(new Set(groups[0].threads.map(name))).toEqual(jdkVirtual);
    // No virtual thread has a lane of its own while the group is closed, and no platform thread is in it.
    for (const l of closed.filter((x) => !x.group)) for (const t of l.threads) expect([name(t), jdkVirtual.has(name(t))]).toEqual([name(t), false]);
    const open = buildLanes(profile, index, zero, { group: false, sort: 'name', hidden: new Set(), virtualOpen: true });
    const at = open.findIndex((l) => l.group === 'open');
    const members = open.slice(at + 1, at + 1 + jdkVirtual.size);
    expect(members.every((l) => l.virtual && l.threads.length === 1)).toBe(true);
    expect(new Set(members.map((l) => name(l.threads[0])))).toEqual(jdkVirtual);
    expect(open).toHaveLength(closed.length + jdkVirtual.size);
  });

  it('draws pinned intervals that cover the JDK durations, thread by thread', () => {
    const tracks = waitTracks(profile, index, waitKinds(profile)).pinned;
    const want = new Map<string, { n: number; ms: number }>();
    for (const f of pinnedLines) {
      const cur = want.get(f[1]) ?? { n: 0, ms: 0 };
      cur.n += Number(f[4]);
      cur.ms += Number(f[5]) / 1e6;
      want.set(f[1], cur);
    }
    for (const [thread, { n, ms }] of want) {
      const t = [...Array(profile.threads.length).keys()].find((x) => name(x) === thread)!;
      expect(tracks[t].length).toBe(n); // pins of one thread never overlap
      // Durations are stored in float32 milliseconds: a microsecond per event is plenty.
      expect(Math.abs(covered(tracks[t], -Infinity, Infinity) - ms)).toBeLessThan(n * 1e-3);
    }
    // No platform thread has pinned intervals.
    for (let t = 0; t < profile.threads.length; t++) if (!profile.threads.virtual[t]) expect(tracks[t].length).toBe(0);
  });

  it('draws jdk.MethodTrace as intervals on the tracing thread, with the method the JDK read', () => {
    const [, method, n, ns] = kinds.find((f) => f[0] === 'method')!;
    expect(method).toBe('VirtualThreads.checkpoint');
    const iv = intervals(profile, index);
    const ty = profile.eventTypes.findIndex((x) => x.name === 'jdk.MethodTrace');
    const tracer = [...Array(profile.threads.length).keys()].find((x) => name(x) === 'tracer')!;
    const bars = walked(iv, tracer).filter((i) => profile.events.type[i] === ty);
    expect(bars).toHaveLength(Number(n));
    expect(new Set(bars.map((i) => profile.strings[profile.events.subject[i]]))).toEqual(new Set([method]));
    const ms = bars.reduce((s, i) => s + profile.events.duration[i], 0);
    expect(Math.abs(ms - Number(ns) / 1e6)).toBeLessThan(Number(n) * 1e-3);
    // No other thread traced it.
    for (let t = 0; t < profile.threads.length; t++) if (t !== tracer) expect(walked(iv, t).some((i) => profile.events.type[i] === ty)).toBe(false);
  });

  it('names the carrier the JDK read at each pinned moment, and says when none is recorded', () => {
    const pinned = pinnedByThread(profile, index);
    const got = new Map<string, number>();
    const e = profile.events;
    for (let t = 0; t < profile.threads.length; t++) {
      for (const i of pinned[t]) {
        const text = carrierText(profile, pinned, t, e.start[i] + e.duration[i] / 2)!;
        const carrier = /^carrier (\S+) \(recorded by a pinned event\)$/.exec(text)?.[1] ?? text;
        const key = `${name(t)}\t${carrier}\t${profile.strings[e.subject[i]]}`;
        got.set(key, (got.get(key) ?? 0) + 1);
      }
    }
    expect(got).toEqual(new Map(pinnedLines.map((f) => [`${f[1]}\t${f[2]}\t${f[3]}`, Number(f[4])])));
    // A thread that never pinned: its carrier is never recorded; a platform thread has none.
    const vt = [...Array(profile.threads.length).keys()].find((x) => name(x) === 'vt-7')!;
    const sleep = profile.eventTypes.findIndex((x) => x.name === 'jdk.ThreadSleep');
    const i = [...Array(e.length).keys()].find((k) => e.thread[k] === vt && e.type[k] === sleep)!;
    expect(carrierText(profile, pinned, vt, e.start[i])).toBe('carrier not recorded');
    const tracer = [...Array(profile.threads.length).keys()].find((x) => name(x) === 'tracer')!;
    expect(carrierText(profile, pinned, tracer, 1000)).toBeNull();
  });
});
