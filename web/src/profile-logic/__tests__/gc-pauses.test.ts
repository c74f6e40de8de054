/**
 * The timeline's GC marks and band are the collections' stop-the-world pauses, against the JDK's
 * reading of fixtures/jdk25-zgc.jfr (ZGC under Temurin 25, scenarios/Unusual.java `alloc`):
 * expected/jdk25-zgc.jfr.per-type.detail.tsv holds, per type, the events and the sum of their
 * durations as jdk.jfr.consumer.RecordingFile reads them (tools/golden/PerType.java). ZGC collects
 * concurrently: its jdk.GarbageCollection events last about 170 times as long as its pauses
 * (jdk.GCPhasePause), while the application runs.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { decodeInNode, sessionInNode } from '../../engine/node';
import { indexEvents } from '../event-index';
import { gcEvents, GC_PAUSE_TYPE } from '../intervals';
import { firstView } from '../kinds';
import type { Profile } from '../../columns/profile';

const root = resolve(__dirname, '../../../..');
const bytes = new Uint8Array(readFileSync(resolve(root, 'fixtures/jdk25-zgc.jfr')));
const jdk = new Map(
  readFileSync(resolve(root, 'fixtures/expected/jdk25-zgc.jfr.per-type.detail.tsv'), 'utf8')
    .trim()
    .split('\n')
    .map((l) => l.split('\t'))
    .map(([type, events, , ns]) => [type, { events: Number(events), ms: Number(ns) / 1e6 }] as const),
);

function pausesOf(p: Profile): { marks: Int32Array; ms: number } {
  const marks = gcEvents(p, indexEvents(p));
  let ms = 0;
  for (const i of marks) ms += p.events.duration[i];
  return { marks, ms };
}

describe('GC marks are the pauses, not the collections', () => {
  const pauses = jdk.get(GC_PAUSE_TYPE)!;
  const collections = jdk.get('jdk.GarbageCollection')!;

  it('the recording is one where they differ: collections far longer than pauses (the JDK’s reading)', () => {
    expect(pauses.events).toBeGreaterThan(50);
    expect(collections.ms).toBeGreaterThan(50 * pauses.ms);
  });

  it('marks every pause the JDK reads, each as long as the JDK says, and nothing else', () => {
    const p = decodeInNode(bytes);
    const { marks, ms } = pausesOf(p);
    expect(new Set(Array.from(marks, (i) => p.eventTypes[p.events.type[i]].name))).toEqual(new Set([GC_PAUSE_TYPE]));
    expect(marks.length).toBe(pauses.events);
    expect(Math.abs(ms - pauses.ms)).toBeLessThan(1e-6 * pauses.events);
    // In start order, as the band and the hover walk them.
    for (let k = 1; k < marks.length; k++) expect(p.events.start[marks[k]]).toBeGreaterThanOrEqual(p.events.start[marks[k - 1]]);
    // The share of the recording in GC is the pauses' (about 0.1%), not the collections' (about 17%).
    expect(ms / p.info.durationMs).toBeLessThan(0.01);
  });

  it('the first view of a lazily opened recording decodes the pauses', async () => {
    const s = sessionInNode(bytes, 2);
    const p = await s.open((types) => firstView(types, ''), () => {});
    expect(s.deferred()).not.toContain(GC_PAUSE_TYPE);
    expect(pausesOf(p).marks.length).toBe(pauses.events);
  });
});
