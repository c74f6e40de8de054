/**
 * Unfreed native memory on ap-nativemem.jfr against the JDK's reading of the same events
 * (RecordingFile, through tools/golden/Golden.java: every profiler.Malloc with its address,
 * size and stack, every profiler.Free with its address, in file order), matched here by a plain
 * pass over them, and against the scenario's known leak (64 blocks of 64 KiB from
 * NativeMemory.leak, never freed).
 */
import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { decodeInNode } from '../../engine/node';
import { stackNames } from '../collapsed';
import { eventsOfType, indexEvents, typeLists } from '../event-index';
import { compileRegex, filterLists, flagsOf } from '../filters';
import { totalWeight } from '../calltree';
import { KINDS, nounOf, weightModeOf } from '../kinds';
import { lockBursts, lockRows } from '../locks';
import { nativeMemory, unfreedByStack, unfreedIn } from '../nativemem';
import { weightsInRange } from '../ranges';
import { waitKinds } from '../waits';

const root = resolve(__dirname, '../../../..');
const profile = decodeInNode(new Uint8Array(readFileSync(resolve(root, 'fixtures/ap-nativemem.jfr'))));
const nm = nativeMemory(profile)!;

/** The JDK's events, matched by address in time order (file order among equal times). */
function jdkUnfreed(): { byStack: Map<string, { bytes: number; count: number }>; allocations: number; bytes: number } {
  const lines = gunzipSync(readFileSync(resolve(root, 'fixtures/expected/ap-nativemem.jfr.nativemem.tsv.gz')))
    .toString('utf8')
    .trimEnd()
    .split('\n')
    .map((l, k) => ({ f: l.split('\t'), k }));
  lines.sort((a, b) => {
    const ta = BigInt(a.f[1]);
    const tb = BigInt(b.f[1]);
    return ta < tb ? -1 : ta > tb ? 1 : a.k - b.k;
  });
  const live = new Map<string, { size: number; stack: string }>();
  let allocations = 0;
  let bytes = 0;
  for (const { f } of lines) {
    if (f[0] === 'M') {
      live.set(f[2], { size: Number(f[3]), stack: f[4] ?? '' });
      allocations++;
      bytes += Number(f[3]);
    } else live.delete(f[2]);
  }
  const byStack = new Map<string, { bytes: number; count: number }>();
  for (const { size, stack } of live.values()) {
    const cur = byStack.get(stack) ?? { bytes: 0, count: 0 };
    cur.bytes += size;
    cur.count++;
    byStack.set(stack, cur);
  }
  return { byStack, allocations, bytes };
}

describe('native memory: allocations never freed', () => {
  const jdk = jdkUnfreed();

  it('matches the JDK reading, stack by stack', () => {
    expect(nm.allocations).toBe(jdk.allocations);
    expect(nm.allocatedBytes).toBe(jdk.bytes);
    const ours = new Map<string, { bytes: number; count: number }>();
    const e = profile.events;
    for (let i = 0; i < e.length; i++) {
      if (!nm.unfreed[i]) continue;
      const key = e.stack[i] >= 0 ? stackNames(profile, e.stack[i]).join(';') : '';
      const cur = ours.get(key) ?? { bytes: 0, count: 0 };
      cur.bytes += e.weight[i];
      cur.count++;
      ours.set(key, cur);
    }
    expect(ours.size).toBe(jdk.byStack.size);
    for (const [stack, v] of jdk.byStack) expect([stack, ours.get(stack)]).toEqual([stack, v]);
    const total = [...jdk.byStack.values()].reduce((s, v) => s + v.bytes, 0);
    expect(nm.unfreedBytes).toBe(total);
    // The flame graph's weights hold the same bytes.
    expect(nm.unfreedWeights.reduce((s, w) => s + w, 0)).toBe(total);
  });

  it('puts the known leak first: 64 blocks of 64 KiB from NativeMemory.leak', () => {
    const sites = unfreedByStack(profile, nm);
    expect(sites[0].site).toBe('NativeMemory.leak');
    expect([sites[0].bytes, sites[0].count]).toEqual([64 * 65536, 64]);
    // holder keeps its last 64 blocks of 8 KiB; churner frees all it allocates.
    const hold = sites.filter((s) => s.site === 'NativeMemory.hold');
    expect(hold.reduce((s, x) => s + x.bytes, 0)).toBe(64 * 8192);
    expect(sites.some((s) => s.site === 'NativeMemory.churn')).toBe(false);
  });

  it('keeps the mallocs inside spans of a tag: each leak in a "leak" span, each churn in a "churn" span', () => {
    // The JDK's reading: how many mallocs each of the scenario's methods made.
    const mallocs = gunzipSync(readFileSync(resolve(root, 'fixtures/expected/ap-nativemem.jfr.nativemem.tsv.gz')))
      .toString('utf8')
      .split('\n')
      .filter((l) => l.startsWith('M\t'));
    const jdkCount = (method: string) => mallocs.filter((l) => l.split('\t')[4].split(';').includes(method)).length;
    const index = indexEvents(profile);
    const type = profile.eventTypes.findIndex((t) => t.name === 'profiler.Malloc');
    const kept = (tag: string, method: string) => {
      const re = compileRegex(tag);
      const spec = { type, thread: null, stack: null, exclude: null, state: '', hiddenThreads: new Set<string>(), span: re.ok ? re.re : null };
      const { filtered } = filterLists(profile, spec, typeLists(profile, index, type).parts, flagsOf(profile.events.length, eventsOfType(index, type)), null);
      let all = 0;
      let of = 0;
      for (let i = 0; i < profile.events.length; i++) {
        if (!filtered.match[i]) continue;
        all++;
        if (profile.events.stack[i] >= 0 && stackNames(profile, profile.events.stack[i]).includes(method)) of++;
      }
      return { all, of };
    };
    expect(jdkCount('NativeMemory.leak')).toBe(64);
    const leak = kept('^leak$', 'NativeMemory.leak');
    expect(leak.of).toBe(64);
    const churn = kept('^churn$', 'NativeMemory.churn');
    expect(churn.of).toBe(jdkCount('NativeMemory.churn'));
    // The other method's mallocs never fall inside: spans belong to their own thread.
    expect(kept('^leak$', 'NativeMemory.churn').of).toBe(0);
    expect(kept('^churn$', 'NativeMemory.leak').of).toBe(0);
    expect(kept('^churn$', 'NativeMemory.hold').of).toBe(0);
    expect(leak.all).toBeLessThan(churn.all);
  });

  it('counts native lock waits (profiler.NativeLock) in the locks, by mutex address, as the JDK read them', () => {
    const [, n, ns] = readFileSync(resolve(root, 'fixtures/expected/ap-nativemem.jfr.kinds.tsv'), 'utf8')
      .split('\n')
      .map((l) => l.split('\t'))
      .find((f) => f[0] === 'nativelock')!;
    const rows = lockRows(profile, lockBursts(profile, indexEvents(profile), waitKinds(profile), null)).filter((r) => r.kind === 'mutex');
    expect(rows.reduce((s, r) => s + r.waits, 0)).toBe(Number(n));
    expect(Math.abs(rows.reduce((s, r) => s + r.total, 0) - Number(ns) / 1e6)).toBeLessThan(Number(n) * 1e-3);
    for (const r of rows) expect(r.label).toMatch(/^native mutex @ 0x[0-9a-f]+$/);
  });

  it('in a range, keeps what was allocated there and never freed, as the JDK reads the events', () => {
    // The JDK's mallocs and frees, matched by address in time order, each malloc with its time.
    const lines = gunzipSync(readFileSync(resolve(root, 'fixtures/expected/ap-nativemem.jfr.nativemem.tsv.gz')))
      .toString('utf8')
      .trimEnd()
      .split('\n')
      .map((l, k) => ({ f: l.split('\t'), k, ms: Number(BigInt(l.split('\t')[1]) - BigInt(Math.round(profile.info.startMs * 1e6))) / 1e6 }))
      .sort((a, b) => a.ms - b.ms || a.k - b.k);
    const live = new Map<string, { size: number; ms: number }>();
    for (const { f, ms } of lines) {
      if (f[0] === 'M') live.set(f[2], { size: Number(f[3]), ms });
      else live.delete(f[2]);
    }
    const times = [...new Set(lines.filter((l) => l.f[0] === 'M').map((l) => l.ms))].sort((a, b) => a - b);
    // Bounds halfway between two mallocs' times, a third and two thirds of the way through.
    const between = (q: number) => (times[Math.floor(times.length * q)] + times[Math.floor(times.length * q) + 1]) / 2;
    const range: [number, number] = [between(1 / 3), between(2 / 3)];
    const inside = (ms: number) => ms >= range[0] && ms <= range[1];
    const kept = [...live.values()].filter((v) => inside(v.ms));
    const part = unfreedIn(profile, nm, range);
    expect(part.count).toBe(kept.length);
    expect(part.bytes).toBe(kept.reduce((s, v) => s + v.size, 0));
    const made = lines.filter((l) => l.f[0] === 'M' && inside(l.ms));
    expect(part.allocations).toBe(made.length);
    expect(part.allocatedBytes).toBe(made.reduce((s, l) => s + Number(l.f[3]), 0));
    expect(part.weights.reduce((s, w) => s + w, 0)).toBe(part.bytes);
    // Neither everything nor nothing: the range says something of its own.
    expect(kept.length).toBeGreaterThan(0);
    expect(kept.length).toBeLessThan(nm.unfreedCount);
    expect(unfreedByStack(profile, part).reduce((s, x) => s + x.count, 0)).toBeLessThanOrEqual(part.count);
    expect(unfreedIn(profile, nm, null).count).toBe(nm.unfreedCount);
  });

  it('ends the outstanding line at what was never freed, never below zero', () => {
    expect(nm.bytes[nm.bytes.length - 1]).toBe(nm.unfreedBytes);
    expect(Math.min(...nm.bytes)).toBeGreaterThanOrEqual(0);
    for (let k = 1; k < nm.t.length; k++) expect(nm.t[k]).toBeGreaterThanOrEqual(nm.t[k - 1]);
  });
});

describe('native frees (profiler.Free: an address, no size, no stack)', () => {
  it('weigh as events, so their view shows them as the JDK collapses them: every free under no stack', () => {
    const ty = profile.eventTypes.findIndex((t) => t.name === 'profiler.Free');
    expect(ty).toBeGreaterThanOrEqual(0);
    // Their kind weighs bytes (the mallocs'); a free has none, which left the flame graph empty.
    expect(KINDS[profile.eventTypes[ty].kind].weight).toBe('bytes');
    expect(weightModeOf(profile, ty)).toBe('events');
    expect(nounOf(profile, ty)).toBe('native frees');
    // The JDK's collapsed frees: "<stack> <count>" per line.
    const golden = gunzipSync(readFileSync(resolve(root, 'fixtures/expected/ap-nativemem.jfr.profiler.Free.collapsed.gz')))
      .toString('utf8')
      .split('\n')
      .filter((l) => l.trim() !== '')
      .reduce((s, l) => s + Number(l.slice(l.lastIndexOf(' ') + 1)), 0);
    expect(golden).toBeGreaterThan(0);
    const index = indexEvents(profile);
    const lists = typeLists(profile, index, ty);
    const pass = filterLists(profile, { type: ty, thread: null, stack: null, exclude: null, state: '', hiddenThreads: new Set() }, lists.parts, flagsOf(profile.events.length, eventsOfType(index, ty)), null);
    expect(totalWeight(profile, weightsInRange(profile, pass.cums, null, weightModeOf(profile, ty)))).toBe(golden);
  });
});

describe('native memory of a recording made elsewhere (grafana-jfr-parser nativemem.jfr)', () => {
  const file = resolve(root, '../shared/corpus/grafana-jfr-parser/nativemem.jfr.gz');
  it.skipIf(!existsSync(file))('tells rows of one allocation site apart by its caller', () => {
    const p = decodeInNode(new Uint8Array(gunzipSync(readFileSync(file))));
    const sites = unfreedByStack(p, nativeMemory(p)!);
    const count = new Map<string, number>();
    for (const s of sites) count.set(s.site, (count.get(s.site) ?? 0) + 1);
    // Several rows (distinct stacks) name one site here: each says its caller.
    expect([...count.values()].some((n) => n > 1)).toBe(true);
    for (const s of sites) {
      if (count.get(s.site)! > 1) expect(s.via).toBe(s.frames[s.frames.indexOf(s.site) + 1] ?? null);
      else expect(s.via).toBeNull();
    }
    const labels = new Set(sites.map((s) => `${s.site} ← ${s.via}`));
    expect(labels.size).toBeGreaterThan(count.size);
  });
});
