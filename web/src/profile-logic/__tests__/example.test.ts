/**
 * profile-logic on the columns of the example recording (decoded by the wasm parser in Node):
 * the story's answers come out of the pure functions alone.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { decodeInNode } from '../../engine/node';
import { compareMethods } from '../compare';
import { eventsOfType, indexEvents, typeLists } from '../event-index';
import { filterLists, flagsOf, type FilterSpec } from '../filters';
import { topMethods } from '../methods';
import { histogramOf } from '../pixel-columns';
import { weightsInRange } from '../ranges';
import { filterEvents } from './reference';

const profile = decodeInNode(new Uint8Array(readFileSync(resolve(__dirname, '../../../../fixtures/example.jfr'))));
const typeOf = (name: string) => profile.eventTypes.findIndex((t) => t.name === name);
const spec = (type: number, stack: RegExp | null): FilterSpec => ({ type, thread: null, stack, exclude: null, state: '', hiddenThreads: new Set<string>() });
const index = indexEvents(profile);
/** What the view's selector computes for these filters: the filter pass with its running counts. */
function view(type: number, stack: RegExp | null) {
  const lists = typeLists(profile, index, type);
  const pass = filterLists(profile, spec(type, stack), lists.parts, flagsOf(profile.events.length, eventsOfType(index, type)), null);
  // The per-event reference agrees with the one-pass filter.
  expect(pass.filtered.match).toEqual(filterEvents(profile, spec(type, stack)).match);
  return pass;
}
const seconds = Math.ceil(profile.info.durationMs / 1000);

describe('the example recording', () => {
  const lock = typeOf('jdk.JavaMonitorEnter');
  const cpu = typeOf('jdk.ExecutionSample');

  it('has NativeThreadSet lock waits on many search workers', () => {
    const f = view(lock, /NativeThreadSet/).filtered;
    const threads = new Set<string>();
    for (let i = 0; i < profile.events.length; i++) {
      if (f.match[i]) threads.add(profile.strings[profile.threads.name[profile.events.thread[i]]]);
    }
    expect([...threads].filter((t) => t.startsWith('search-worker-')).length).toBeGreaterThanOrEqual(6);
  });

  it('puts those waits in a few one-second windows, not spread evenly', () => {
    const h = histogramOf(profile, view(lock, /NativeThreadSet/).cums, 0, seconds * 1000, seconds);
    const sorted = [...h.matching].sort((a, b) => b - a);
    const total = sorted.reduce((a, b) => a + b, 0);
    // The three busiest seconds (the compactor's scans) hold most of the waits.
    expect((sorted[0] + sorted[1] + sorted[2]) / total).toBeGreaterThan(0.6);
  });

  it('finds skipBytes among what rose in the busiest second against the rest', () => {
    const h = histogramOf(profile, view(lock, /NativeThreadSet/).cums, 0, seconds * 1000, seconds);
    const busiest = h.matching.indexOf(Math.max(...h.matching));
    const range: [number, number] = [busiest * 1000 - 200, busiest * 1000 + 1200];
    const cums = view(cpu, null).cums;
    // The comparison's baseline is everything outside the selection, as the view computes it.
    const inSpike = weightsInRange(profile, cums, range, 'samples');
    const rest = weightsInRange(profile, cums, null, 'samples').map((w, k) => w - inSpike[k]);
    const rises = compareMethods(profile, inSpike, rest).rows;
    // Callers of the hot path rise with it; parseRecords is among the first few, and significant.
    const top = rises.slice(0, 8).map((r) => profile.strings[r.name]);
    expect(top).toContain('SearchService.parseRecords');
    expect(rises.find((r) => profile.strings[r.name] === 'SearchService.parseRecords')!.total.p).toBeLessThan(0.01);
    const methods = topMethods(profile, inSpike).slice(0, 15).map((r) => profile.strings[r.name]);
    expect(methods).toContain('java.io.DataInputStream.skipBytes');
  });
});
