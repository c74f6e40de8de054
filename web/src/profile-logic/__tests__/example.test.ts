/**
 * profile-logic on the columns of the example recording (decoded by the wasm parser in Node):
 * the story's answers come out of the pure functions alone.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { decodeInNode } from '../../engine/node';
import { filterEvents, selectInRange, weightPerStack } from '../filters';
import { histogram } from '../histogram';
import { compareMethods, topMethods } from '../methods';

const profile = decodeInNode(new Uint8Array(readFileSync(resolve(__dirname, '../../../../fixtures/example.jfr'))));
const typeOf = (name: string) => profile.eventTypes.findIndex((t) => t.name === name);
const spec = (type: number, stack: RegExp | null) => ({ type, thread: null, stack, exclude: null, state: '', hiddenThreads: new Set<string>() });

describe('the example recording', () => {
  const lock = typeOf('jdk.JavaMonitorEnter');
  const cpu = typeOf('jdk.ExecutionSample');

  it('has NativeThreadSet lock waits on many search workers', () => {
    const f = filterEvents(profile, spec(lock, /NativeThreadSet/));
    const threads = new Set<string>();
    for (let i = 0; i < profile.events.length; i++) {
      if (f.match[i]) threads.add(profile.strings[profile.threads.name[profile.events.thread[i]]]);
    }
    expect([...threads].filter((t) => t.startsWith('search-worker-')).length).toBeGreaterThanOrEqual(6);
  });

  it('puts those waits in a few one-second windows, not spread evenly', () => {
    const f = filterEvents(profile, spec(lock, /NativeThreadSet/));
    const h = histogram(profile, f.ofType, f.match, 0, profile.info.durationMs, Math.ceil(profile.info.durationMs / 1000));
    const sorted = [...h.matching].sort((a, b) => b - a);
    const total = sorted.reduce((a, b) => a + b, 0);
    // The three busiest seconds (the compactor's scans) hold most of the waits.
    expect((sorted[0] + sorted[1] + sorted[2]) / total).toBeGreaterThan(0.6);
  });

  it('finds skipBytes among what rose in the busiest second against the rest', () => {
    const lf = filterEvents(profile, spec(lock, /NativeThreadSet/));
    const h = histogram(profile, lf.ofType, lf.match, 0, profile.info.durationMs, Math.ceil(profile.info.durationMs / 1000));
    const busiest = h.matching.indexOf(Math.max(...h.matching));
    const range: [number, number] = [busiest * 1000 - 200, busiest * 1000 + 1200];
    const f = filterEvents(profile, spec(cpu, null));
    const inSpike = selectInRange(profile, f.match, range);
    const rest = Int32Array.from(selectInRange(profile, f.match, null)).filter((i) => profile.events.start[i] < range[0] || profile.events.start[i] > range[1]);
    const rises = compareMethods(profile, weightPerStack(profile, inSpike, 'samples'), weightPerStack(profile, rest, 'samples'));
        // Callers of the hot path rise with it; skipBytes is among the first few.
    const top = rises.slice(0, 8).map((r) => profile.strings[r.name]);
    expect(top).toContain('java.io.DataInputStream.skipBytes');
    const methods = topMethods(profile, weightPerStack(profile, inSpike, 'samples')).slice(0, 15).map((r) => profile.strings[r.name]);
    expect(methods).toContain('java.io.DataInputStream.skipBytes');
  });
});
