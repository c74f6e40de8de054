/**
 * The analyses on the LedgerService recordings (fixtures/scenarios/LedgerService.java), against
 * the schedule the scenario wrote as it ran and the JDK's own reading of the samples
 * (expected/NAME.samples.tsv.gz, by RecordingFile): bursts on one monitor held by two different
 * threads in turn and on a ReentrantLock, six workers piling up in each, six feed readers in
 * socket reads all along. JDK 17 names each monitor burst's holder (previous owner);
 * async-profiler's lock events name none, so there the holder is whoever ran meanwhile.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { decodeInNode } from '../../engine/node';
import type { Profile } from '../../columns/profile';
import { activitySpikes, matchTracks } from '../activity';
import { compareMethods, direction } from '../compare';
import { eventsOfType, indexEvents, reachOf, typeLists } from '../event-index';
import { filterLists, flagsOf, type FilterSpec } from '../filters';
import { findings } from '../findings';
import { gcEvents } from '../intervals';
import { lockBursts, onCpuDuring, sampleTypesOf } from '../locks';
import { countInRange, selectInRanges, weightsInRange } from '../ranges';
import type { Cumulative } from '../running-counts';
import { threadsWaiting, waitKinds, waitTracks } from '../waits';
import { schedule } from './schedule';

const fixture = (name: string) => resolve(__dirname, '../../../../fixtures', name);
/** Each burst's own method: what its holder runs while it holds the lock (the scenario's code). */
const METHOD: Record<string, string> = {
  'ledger-auditor': 'LedgerService.auditLedger',
  'ledger-compactor': 'LedgerService.compactLedger',
  'stock-refresher': 'LedgerService.refreshStock',
};
const WORKERS = ['order-worker-1', 'order-worker-2', 'order-worker-3', 'order-worker-4', 'order-worker-5', 'order-worker-6'];

/** The selector's pipeline for one type, as the view runs it: lists, filters, reach of waits. */
function pass(profile: Profile, type: number): Cumulative[] {
  const index = indexEvents(profile);
  const lists = typeLists(profile, index, type);
  const spec: FilterSpec = { type, thread: null, stack: null, exclude: null, state: '', hiddenThreads: new Set(), subject: null };
  const p = filterLists(profile, spec, lists.parts, flagsOf(profile.events.length, eventsOfType(index, type)), null);
  return p.cums.map((c, k) => ({ ...c, reach: reachOf(profile, lists.parts[k]) }));
}

/** The JDK's samples (epoch ns, thread, frames root first) in ms since the recording's start. */
function jdkSamples(name: string, startMs: number): { t: number; thread: string; frames: string[] }[] {
  return gunzipSync(readFileSync(resolve(__dirname, `../../../../fixtures/expected/${name}.samples.tsv.gz`)))
    .toString('utf8')
    .trim()
    .split('\n')
    .map((l) => l.split('\t'))
    .map((r) => ({ t: Number(BigInt(r[0]) / 1000n) / 1000 - startMs, thread: r[1], frames: r[2] ? r[2].split(';') : [] }));
}

/** P(X = k) for X ~ Binomial(n, p), by logs of the product formula. */
function pmf(k: number, n: number, p: number): number {
  let log = 0;
  for (let j = 0; j < k; j++) log += Math.log(n - j) - Math.log(j + 1);
  return Math.exp(log + k * Math.log(p) + (n - k) * Math.log1p(-p));
}

for (const name of ['jdk17-ledger.jfr', 'ap-ledger.jfr']) {
  describe(`${name} against its schedule`, () => {
    const p = decodeInNode(new Uint8Array(readFileSync(fixture(name))));
    const index = indexEvents(p);
    const kinds = waitKinds(p);
    const bursts = schedule(name, p.info.startMs);
    const typeOf = (t: string) => p.eventTypes.findIndex((x) => x.name === t);
    const threadName = (t: number) => p.strings[p.threads.name[t]];
    const ledger = bursts.filter((b) => b.kind === 'ledger');
    const stock = bursts.filter((b) => b.kind === 'stock');
    const jdk = name.startsWith('jdk');

    it('has the bursts the scenario makes: the monitor held by two threads in turn, the lock by a third', () => {
      expect(ledger.map((b) => b.thread)).toEqual(['ledger-auditor', 'ledger-compactor']);
      expect(stock.map((b) => b.thread)).toEqual(['stock-refresher']);
    });

    it('the spike finder marks each burst once, within 100 ms, and nothing in the calm', () => {
      for (const [type, want] of [
        ['jdk.JavaMonitorEnter', ledger],
        ['jdk.ThreadPark', stock],
      ] as const) {
        const cums = pass(p, typeOf(type));
        const found = activitySpikes(p, cums, matchTracks(p, cums.slice(0, p.threads.length)), null, 'threads');
        expect(found.length, type).toBe(want.length);
        want.forEach(({ window: [a, b] }, k) => {
          expect(Math.abs(found[k][0] - a), `${type} burst ${k} start`).toBeLessThan(100);
          expect(Math.abs(found[k][1] - b), `${type} burst ${k} end`).toBeLessThan(100);
        });
      }
    });

    it('a range inside a burst selects the six workers’ waits, six threads waiting all along', () => {
      for (const [type, want] of [
        ['jdk.JavaMonitorEnter', ledger],
        ['jdk.ThreadPark', stock],
      ] as const) {
        const cums = pass(p, typeOf(type));
        const tracks = matchTracks(p, cums.slice(0, p.threads.length));
        for (const {
          window: [a, b],
        } of want) {
          const range: [number, number] = [a + 100, b - 100];
          // On the lock: the workers' waits, each begun before the range and lasting past it.
          const waits = Array.from(selectInRanges(p, cums, range)).filter((i) => {
            const s = p.events.subject[i];
            return s >= 0 && /Ledger|ReentrantLock/.test(p.strings[s]);
          });
          expect(waits.map((i) => threadName(p.events.thread[i])).sort(), type).toEqual(WORKERS);
          for (const i of waits) expect(p.events.start[i] <= range[0] && p.events.start[i] + p.events.duration[i] >= range[1]).toBe(true);
          // The JDK's recording also parks idle threads on SynchronousQueues: counted, but not on the lock.
          expect(countInRange(p, cums, range)).toBeGreaterThanOrEqual(6);
          const onLock = tracks.filter((_, t) => WORKERS.includes(threadName(t)));
          expect(threadsWaiting(onLock, null, range[0], range[1], 1)[0]).toBeCloseTo(6, 2);
        }
      }
    });

    it('Locks names each burst’s scheduled holder (JDK) or finds it on CPU meanwhile (async-profiler)', () => {
      const all = lockBursts(p, index, kinds, null);
      for (const { kind, thread, window } of bursts) {
        const [b, ...others] = all.filter((x) => x.start < window[1] && x.end > window[0] && x.waiters >= 6);
        expect(others, `one pile-up in the ${kind} burst at ${window[0]}`).toEqual([]);
        expect(Math.abs(b.start - window[0])).toBeLessThan(50);
        expect(Math.abs(b.end - window[1])).toBeLessThan(100);
        expect(p.strings[b.cls]).toMatch(kind === 'ledger' ? /LedgerService\$Ledger$/ : /ReentrantLock\$NonfairSync$/);
        if (kind === 'ledger' && jdk) {
          expect(threadName(b.holder)).toBe(thread);
          expect(b.chainOk).toBeGreaterThan(b.chainBroken);
        } else {
          expect(b.holder).toBe(-1);
          expect(threadName(onCpuDuring(p, index, b, sampleTypesOf(p))[0].thread)).toBe(thread);
        }
      }
    });

    it('Findings name the holder and the pile-up of each burst, beside the feed readers’ steady socket reads', () => {
      const waits = waitTracks(p, index, kinds);
      const threads = new Uint8Array(p.threads.length).fill(1);
      for (const { kind, thread, window } of bursts) {
        const range: [number, number] = [window[0] + 100, window[1] - 100];
        const f = findings(p, range, { index, bursts: lockBursts(p, index, kinds, range), waits, threads, gc: gcEvents(p, index) }).map((x) => x.text);
        const lock = f.find((x) => / threads waited /.test(x));
        expect(lock, f.join('\n')).toBeDefined();
        expect(lock).toMatch(/^6 threads waited/);
        if (kind === 'ledger' && jdk) expect(lock).toContain(`monitor held by ${thread}, which ran`);
        else expect(lock).toContain(`on CPU meanwhile: ${thread}`);
        // Six workers held up on the lock in the range, against well under one elsewhere: a rise
        // the steady socket reads of the six feed readers must not hide.
        const label = kind === 'ledger' ? 'monitor' : 'park \\(locks\\)';
        const held = f.find((x) => /held up on average/.test(x));
        expect(held, f.join('\n')).toBeDefined();
        expect(held).toMatch(new RegExp(`^6\\.0 threads were held up on average in the range \\((mostly )?${label}\\), against 0\\.\\d in the rest`));
      }
    });

    it('Compare of a burst against a calm stretch puts the burst’s method on top, with the exact p-value', () => {
      const cpu = typeOf('jdk.ExecutionSample');
      const cums = pass(p, cpu);
      const truth = jdkSamples(name, p.info.startMs);
      const calm: [number, number] = [bursts[0].window[1] + 500, bursts[1].window[0] - 500];
      for (const { thread, window } of bursts) {
        const method = METHOD[thread];
        const sel = weightsInRange(p, cums, window, 'samples');
        const base = weightsInRange(p, cums, calm, 'samples');
        const c = compareMethods(p, sel, base);
        // The JDK's samples in each range, and those with the method on the stack.
        const inSel = truth.filter((s) => s.t >= window[0] && s.t <= window[1]);
        const inCalm = truth.filter((s) => s.t >= calm[0] && s.t <= calm[1]);
        expect([c.totals.na, c.totals.nb]).toEqual([inSel.length, inCalm.length]);
        const row = c.rows.find((r) => p.strings[r.name] === method)!;
        const a = inSel.filter((s) => s.frames.includes(method)).length;
        const b = inCalm.filter((s) => s.frames.includes(method)).length;
        expect([row.total.na, row.total.nb]).toEqual([a, b]);
        expect(b).toBe(0);
        expect(a / inSel.length).toBeGreaterThan(0.8);
        // Nothing rose more: the holder's callers rise with it, by as much at most.
        expect(row.total.score).toBe(Math.max(...c.rows.map((r) => r.total.score)));
        expect(direction(row.total, 0.001)).toBe(1);
        // Exact two-sided binomial test of a of a + b in the selection, share NA / (NA + NB).
        const share = inSel.length / (inSel.length + inCalm.length);
        let above = 0;
        for (let k = a; k <= a + b; k++) above += pmf(k, a + b, share);
        expect(row.total.p / Math.min(1, 2 * above)).toBeCloseTo(1, 6);
        // Still sure once every method compared is accounted for: its q-value (Benjamini–
        // Hochberg over the rows' p-values, by hand) under 0.001.
        const ps = c.rows.map((r) => r.total.p).filter((x) => !Number.isNaN(x));
        const q = Math.min(...ps.filter((x) => x >= row.total.p).map((x) => (ps.length * x) / ps.filter((y) => y <= x).length));
        expect(row.total.q).toBeCloseTo(Math.max(row.total.p, q), 12);
        expect(row.total.q).toBeLessThan(0.001);
        // The calm phases' method falls.
        const quote = c.rows.find((r) => p.strings[r.name] === 'LedgerService.priceQuote')!;
        expect(direction(quote.total, 0.001)).toBe(-1);
      }
    });
  });
}
