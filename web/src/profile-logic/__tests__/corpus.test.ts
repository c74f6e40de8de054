/**
 * The analyses on recordings nobody here made (../shared/corpus: async-profiler, Datadog, JDK 11
 * and 17, multi-chunk, damaged) and on every fixture: each runs, and what it reports keeps the
 * invariants the truth imposes, checked against the events themselves by brute force:
 * threads waiting never exceed the threads that wait, a burst's waits overlap and its clipped
 * wait is within its total, a holder is the previous owner that held the monitor longest, a range's
 * count of waits equals a direct overlap count, wait kinds cover exactly the interval events.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import type { Profile } from '../../columns/profile';
import { decodeInNode } from '../../engine/node';
import { activitySpikes, matchTracks } from '../activity';
import { eventsOfType, indexEvents, reachOf, typeLists, type ThreadIndex } from '../event-index';
import { filterLists, flagsOf } from '../filters';
import { findings } from '../findings';
import { gcEvents } from '../intervals';
import { KINDS, nounOf, weightModeOf } from '../kinds';
import { lockBursts } from '../locks';
import { countInRange, timeBeforeStart, weightsInRange } from '../ranges';
import type { Cumulative } from '../running-counts';
import { totalWeight } from '../calltree';
import { subjectText } from '../subjects';
import { covered, isWaitKind, threadsWaiting, waitKinds, waitTracks, WAIT_KINDS } from '../waits';

const root = resolve(__dirname, '../../../..');
const corpus = resolve(root, '../shared/corpus');
const list = (dir: string) => (existsSync(dir) ? readdirSync(dir).filter((f) => /\.jfr(\.gz)?$/.test(f) && !/invalid/.test(f)).map((f) => join(dir, f)) : []);
const files = [...list(join(root, 'fixtures')), ...list(join(corpus, 'jfrs')), ...list(join(corpus, 'grafana-jfr-parser'))];
if (!existsSync(corpus)) console.warn(`skipped: ${corpus} is absent; the analyses run on the fixtures only`);

/** The matching lists of type `ty`'s events, filtered on `thread` alone (none: every event). */
function typeCums(p: Profile, idx: ThreadIndex, ty: number, thread: RegExp | null = null): Cumulative[] {
  const lists = typeLists(p, idx, ty);
  return filterLists(p, { type: ty, thread, stack: null, exclude: null, state: '', hiddenThreads: new Set() }, lists.parts, flagsOf(p.events.length, eventsOfType(idx, ty)), null).cums;
}

describe('the analyses on every recording', () => {
  it('has recordings', () => expect(files.length).toBeGreaterThanOrEqual(8));
  for (const file of files) {
    it(file.slice(root.length - 4), () => {
      const p = decodeInNode(new Uint8Array(readFileSync(file)));
      const e = p.events;
      const idx = indexEvents(p);
      const kinds = waitKinds(p);
      // Wait kinds: exactly the events of interval kinds that are waits (not method traces or spans).
      for (let i = 0; i < e.length; i++) expect(kinds[i] > 0, `event ${i} of ${p.eventTypes[e.type[i]].name}`).toBe(isWaitKind(p.eventTypes[e.type[i]].kind));
      const waits = waitTracks(p, idx, kinds);
      const dur = Math.max(p.info.durationMs, 1);
      const waiting = new Set<number>();
      for (let i = 0; i < e.length; i++) if (kinds[i] && e.thread[i] >= 0) waiting.add(e.thread[i]);
      let sum = new Float64Array(50);
      for (const k of WAIT_KINDS) {
        const y = threadsWaiting(waits[k], null, 0, dur, 50);
        sum = sum.map((v, c) => v + y[c]);
      }
      // Each thread is in at most one wait at a time per kind, and there are 8 kinds.
      for (const v of sum) expect(v).toBeLessThanOrEqual(8 * waiting.size + 1e-6);
      for (const k of WAIT_KINDS) for (const tr of waits[k]) expect(covered(tr, 0, dur + 1)).toBeLessThanOrEqual(dur + 1 + 1e-6);

      // Bursts: waits overlap in a chain, clipped within total, holder the previous owner that held it longest.
      const range: [number, number] = [dur * 0.25, dur * 0.75];
      for (const b of lockBursts(p, idx, kinds, range)) {
        expect(b.clipped).toBeLessThanOrEqual(b.total + 1e-6);
        expect(b.start).toBeLessThanOrEqual(range[1]);
        expect(b.end).toBeGreaterThan(range[0]);
        // The holder held the monitor longest: each grant's previous owner since the grant before.
        const held = new Map<number, number>();
        let since = b.start;
        for (const i of b.waits) {
          if (e.peer[i] >= 0) held.set(e.peer[i], (held.get(e.peer[i]) ?? 0) + e.start[i] + e.duration[i] - since);
          since = e.start[i] + e.duration[i];
        }
        if (b.kind !== 'monitor' || held.size === 0) expect(b.holder).toBe(-1);
        else expect(held.get(b.holder)).toBe(Math.max(...held.values()));
        for (let k = 1; k < b.waits.length; k++) {
          const end = (i: number) => e.start[i] + e.duration[i];
          expect(end(b.waits[k])).toBeGreaterThanOrEqual(end(b.waits[k - 1]));
        }
      }
      expect(() => findings(p, range, { index: idx, bursts: lockBursts(p, idx, kinds, range), waits, threads: new Uint8Array(p.threads.length).fill(1), gc: gcEvents(p, idx) })).not.toThrow();

      // The largest wait type: a range's count equals a direct overlap count; spikes lie inside the recording.
      const ty = p.eventTypes.map((t, i) => ({ t, i })).filter(({ t }) => KINDS[t.kind].interval && t.count > 0 && !t.deferred).sort((a, b) => b.t.count - a.t.count)[0]?.i;
      if (ty === undefined) return;
      const lists = typeLists(p, idx, ty);
      const cums = typeCums(p, idx, ty).map((c, k) => ({ ...c, reach: reachOf(p, lists.parts[k]) }));
      let direct = 0;
      for (let i = 0; i < e.length; i++) if (e.type[i] === ty && e.start[i] <= range[1] && e.start[i] + e.duration[i] > range[0]) direct++;
      expect(countInRange(p, cums, range)).toBe(direct);
      for (const [a, b] of activitySpikes(p, cums, matchTracks(p, cums.slice(0, p.threads.length)), null, 'threads')) {
        expect(a).toBeGreaterThanOrEqual(0);
        expect(b).toBeGreaterThan(a);
        expect(b).toBeLessThanOrEqual(dur + 1000);
      }
    });
  }
});

/**
 * A JDK 11 recording's forced writes (jdk.FileForce, an fsync with its duration) are I/O waits,
 * weighed by time as file reads are. Truth: `jfr print --json --events jdk.FileForce` of
 * corpus/jfrs/recording.jfr (JDK 17's reader): 60 events lasting 9,963.83 ms in all, 30 on each
 * of /data_ext4/out/out0 and out1, 30 on each of the threads writer-0 and writer-1.
 */
describe('forced writes of a JDK 11 recording', () => {
  const file = join(corpus, 'jfrs/recording.jfr');
  it.skipIf(!existsSync(file))('are I/O waits weighed by their durations, on their files and threads', () => {
    const p = decodeInNode(new Uint8Array(readFileSync(file)));
    const ty = p.eventTypes.findIndex((t) => t.name === 'jdk.FileForce');
    expect(ty).toBeGreaterThanOrEqual(0);
    expect(p.eventTypes[ty].kind).toBe('io');
    expect(weightModeOf(p, ty)).toBe('duration');
    const idx = indexEvents(p);
    const events = eventsOfType(idx, ty);
    expect(events.length).toBe(60);
    const kinds = waitKinds(p);
    let total = 0;
    const byPath = new Map<string, number>();
    const byThread = new Map<string, number>();
    for (const i of events) {
      expect(kinds[i]).toBeGreaterThan(0);
      total += p.events.duration[i];
      const path = subjectText(p, i) ?? '';
      byPath.set(path, (byPath.get(path) ?? 0) + 1);
      const name = p.strings[p.threads.name[p.events.thread[i]]];
      byThread.set(name, (byThread.get(name) ?? 0) + 1);
    }
    expect(total).toBeCloseTo(9963.83, 1);
    expect(Object.fromEntries(byPath)).toEqual({ '/data_ext4/out/out0': 30, '/data_ext4/out/out1': 30 });
    expect(Object.fromEntries(byThread)).toEqual({ 'writer-0': 30, 'writer-1': 30 });
  });
});

/**
 * async-profiler sampling wall-clock time alone writes jdk.ExecutionSample events, and says so in
 * its own settings (event=wall, grafana-jfr-parser's FastSlow recording); sampling CPU time (the
 * cortex recordings: event=cpu) they stay CPU samples.
 */
describe('async-profiler wall-clock samples written as jdk.ExecutionSample', () => {
  const wall = join(corpus, 'grafana-jfr-parser/FastSlow_2024_01_16_180855.jfr.gz');
  const cpu = join(corpus, 'grafana-jfr-parser/cortex-dev-01__kafka-0__cpu__0.jfr.gz');
  const open = (f: string) => decodeInNode(new Uint8Array(gunzipSync(readFileSync(f))));
  it.skipIf(!existsSync(wall) || !existsSync(cpu))('are wall-clock samples where the profiler sampled wall-clock time', () => {
    const w = open(wall);
    expect(w.info.settings).toContainEqual({ type: 'jdk.ActiveRecording', name: 'event', value: 'wall' });
    const tw = w.eventTypes.findIndex((t) => t.name === 'jdk.ExecutionSample');
    expect(w.eventTypes[tw].kind).toBe('wall');
    expect(nounOf(w, tw)).toBe('wall-clock samples');
    // Each weighs one sample, as JDK Mission Control counts them (corpus/expected jmc-counts.tsv).
    const jmc = Number(/^jdk\.ExecutionSample\t(\d+)/m.exec(readFileSync(join(corpus, 'expected/FastSlow_2024_01_16_180855.jfr.jmc-counts.tsv'), 'utf8'))![1]);
    expect(weightModeOf(w, tw)).toBe('samples');
    expect(totalWeight(w, weightsInRange(w, typeCums(w, indexEvents(w), tw), null, 'samples'))).toBe(jmc);
    const c = open(cpu);
    expect(c.info.settings.find((s) => s.name === 'event')?.value).toBe('cpu');
    const tc = c.eventTypes.findIndex((t) => t.name === 'jdk.ExecutionSample');
    expect(c.eventTypes[tc].kind).toBe('cpu');
    expect(nounOf(c, tc)).toBe('CPU samples');
  });
});

/**
 * Waits going on when recording began: the JDK writes each with its own start, before the
 * recording's. Truth: `jfr print --json --events jdk.JavaMonitorWait` of grafana-jfr-parser's
 * dd-trace-java recording (JDK 17's reader) against its chunk's start (1723014521604 ms since the
 * epoch, from its header): 25 waits lasting 140,791.66 ms in all, 6 of them begun before it, with
 * 97,296.7 ms of their time before it.
 */
describe('waits begun before the recording', () => {
  const file = join(corpus, 'grafana-jfr-parser/dd-trace-java.jfr.gz');
  it.skipIf(!existsSync(file))('count whole without a range, and the time of them before it is told apart', () => {
    const p = decodeInNode(new Uint8Array(gunzipSync(readFileSync(file))));
    expect(p.info.startMs).toBe(1723014521604);
    const ty = p.eventTypes.findIndex((t) => t.name === 'jdk.JavaMonitorWait');
    const idx = indexEvents(p);
    const events = eventsOfType(idx, ty);
    expect(events.length).toBe(25);
    expect(events.reduce((s, i) => s + p.events.duration[i], 0)).toBeCloseTo(140791.66, 0);
    expect(timeBeforeStart(p, typeCums(p, idx, ty))).toBeCloseTo(97296.7, 0);
    // A thread filter that keeps none of them: nothing before it either.
    expect(timeBeforeStart(p, typeCums(p, idx, ty, /^no such thread$/))).toBe(0);
  });
});

describe('parks: waiting for a java.util.concurrent lock or for work, by the JDK’s stacks', () => {
  // Each recording with the JDK's collapsed ThreadPark stacks (tools/golden, or the corpus's).
  const cases = [
    [join(corpus, 'grafana-jfr-parser/cortex-dev-01__kafka-0__cpu_lock0_alloc0__0.jfr.gz'), join(corpus, 'expected/cortex-dev-01__kafka-0__cpu_lock0_alloc0__0.jfr.jdk.ThreadPark.collapsed.gz')],
    [join(corpus, 'jfrs/dd-trace-java.jfr'), join(corpus, 'expected/dd-trace-java.jfr.jdk.ThreadPark.collapsed.gz')],
    [join(root, 'fixtures/ap-alloc-lock.jfr'), join(root, 'fixtures/expected/ap-alloc-lock.jfr.jdk.ThreadPark.collapsed.gz')],
    [join(root, 'fixtures/jdk17-profile.jfr'), join(root, 'fixtures/expected/jdk17-profile.jfr.jdk.ThreadPark.collapsed.gz')],
    [join(root, 'fixtures/jdk11-profile.jfr'), join(root, 'fixtures/expected/jdk11-profile.jfr.jdk.ThreadPark.collapsed.gz')],
  ].filter(([f, g]) => existsSync(f) && existsSync(g));
  // A pool's or a queue's wait for work, and a lock's acquisition (JDK 17's acquire, JDK 11's
  // acquireQueued and doAcquire…, a ReentrantLock's lock…): the one nearer the park decides.
  const work = /(ThreadPoolExecutor\.getTask|ForkJoinPool\.(awaitWork|runWorker)|Queue\.(take|poll)|Deque\.(takeFirst|pollFirst))$/;
  const acquire = /locks\.(AbstractQueued(Long)?Synchronizer\.(acquire\w*|doAcquire\w*)|ReentrantLock\.(lock|lockInterruptibly|tryLock))$/;

  it('has recordings', () => expect(cases.length).toBeGreaterThanOrEqual(3));
  for (const [file, golden] of cases) {
    it(`${file.slice(root.length - 4)}: a park acquiring a queue's lock is contention, a park awaiting its elements is idle`, () => {
      let idleWant = 0;
      let lockUnderWork = 0;
      let all = 0;
      for (const line of gunzipSync(readFileSync(golden)).toString('utf8').split('\n')) {
        if (!line.trim()) continue;
        const cut = line.lastIndexOf(' ');
        const frames = line.slice(0, cut).split(';');
        const w = Number(line.slice(cut + 1));
        all += w;
        const lastWork = frames.findLastIndex((f) => work.test(f));
        const lastAcquire = frames.findLastIndex((f) => acquire.test(f));
        if (lastWork >= 0 && lastAcquire < lastWork) idleWant += w;
        if (lastWork >= 0 && lastAcquire > lastWork) lockUnderWork += w;
      }
      const p = decodeInNode(new Uint8Array(readFileSync(file)));
      const ty = p.eventTypes.findIndex((t) => t.name === 'jdk.ThreadPark');
      const kinds = waitKinds(p);
      let idle = 0;
      let park = 0;
      for (let i = 0; i < p.events.length; i++) {
        if (p.events.type[i] !== ty) continue;
        const k = WAIT_KINDS[kinds[i] - 1];
        // Hand-off queues' parks are idle by their parked-on class too (SynchronousQueue, ForkJoinPool).
        if (k === 'idle') idle++;
        else if (k === 'park') park++;
      }
      expect(idle + park).toBe(all);
      // Idle: the parks whose nearest such frame is a wait for work, and hand-off queues' parks
      // (counted by their stacks' frames too, so none here is idle by its class alone).
      expect(idle).toBe(idleWant);
      if (file.includes('cortex')) {
        // Every park of this Kafka broker acquires a lock: 115 of them inside ArrayBlockingQueue.poll or DelayedWorkQueue.take.
        expect(lockUnderWork).toBe(115);
        expect(idle).toBe(0);
      }
    });
  }
});
