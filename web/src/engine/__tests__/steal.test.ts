/**
 * Rows rounds whose decoders share out the chunks (steal.ts): whichever decoder reads a chunk,
 * its rows land in file order, and every event and stack is what the native CLI reads of the
 * file. A decoder that starts late (given less of a core) finds its chunks taken by the others,
 * which read them from the whole file.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Profile } from '../../columns/profile';
import { collapsedStacks } from '../../profile-logic/collapsed';
import { sessionInNode } from '../node';
import { claim, shareQueues, type ChunkTask } from '../steal';
import { countingBlobs } from './counting-blob';

const root = resolve(__dirname, '../../../..');
const cli = join(root, 'target/release/jfrscope');
const corpus = resolve(root, '../shared/corpus');

describe('claim', () => {
  const tasks = (n: number): ChunkTask[] => Array.from({ length: n }, (_, k) => ({ offset: k, size: 1, index: k, at: k, rows: 1 }));

  it('hands each chunk out once: the own queue from its front, then the back of the longest other', () => {
    const q = shareQueues([tasks(3), tasks(5), tasks(1)]);
    const got: string[] = [];
    // Decoder 0 alone: its own three in order, then decoder 1's from the back while it has
    // most left, then whichever is longest.
    for (let c = claim(q, 0); c; c = claim(q, 0)) got.push(`${c.group}:${c.k}`);
    expect(got).toEqual(['0:0', '0:1', '0:2', '1:4', '1:3', '1:2', '1:1', '1:0', '2:0']);
    expect(claim(q, 1)).toBeNull();
  });

  it('lets owner and thief meet in the middle without a chunk twice or left out', () => {
    const q = shareQueues([tasks(4), tasks(7)]);
    const seen = new Set<string>();
    // Turns alternate: decoder 1 takes its front while decoder 0 (done with its own) takes 1's back.
    for (let turn = 0; ; turn++) {
      const c = claim(q, turn % 2);
      if (!c) break;
      const key = `${c.group}:${c.k}`;
      expect(seen.has(key)).toBe(false);
      seen.add(key);
    }
    expect(seen.size).toBe(11);
  });
});

/** Rows of each type that came with round `from`…: their offsets ascend (file order). */
function inFileOrder(p: Profile, from: number): boolean {
  const off = p.events.offset;
  for (let i = from + 1; i < p.events.length; i++) if (off[i] < off[i - 1]) return false;
  return true;
}

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

describe.skipIf(!existsSync(cli))('a rows round that shares out its chunks', () => {
  // Three chunks of a JDK 17 recording; six of a recording made elsewhere, and three of async-profiler's.
  const files = [join(root, 'fixtures/jdk17-multichunk.jfr'), join(corpus, 'grafana-jfr-parser/goland-multichunk.jfr.gz'), join(corpus, 'jfrs/profiler-multichunk.jfr')].filter(existsSync);

  it.each(
    files.flatMap((f) => [
      [f, 'the second decoder late: the first decodes its chunks too', [0, 100]],
      [f, 'both at once', [0, 0]],
      [f, 'three decoders, the first and last late', [100, 0, 100]],
    ]),
  )('%s, %s: every event and stack where and as the CLI reads it', async (file, _, delays) => {
    const bytes = new Uint8Array(readFileSync(file));
    const { blobs, blob } = countingBlobs();
    const session = sessionInNode(bytes, delays.length, { pieceRows: 64, wholeFirstBytes: 0, shared: true, blob, start: (g) => sleep(delays[g]) });
    const d = await session.open([], () => {});
    expect(d.events.length).toBe(0);
    // The types with stacks, picked one round each, the largest first.
    const types = session.description!.types.filter((t) => t.hasStack && t.count > 0).sort((a, b) => b.count - a.count);
    expect(types.length).toBeGreaterThan(1);
    let p = d;
    for (const t of types) {
      const before = p.events.length;
      p = await session.load([t.name], () => {});
      expect([t.name, p.events.length - before]).toEqual([t.name, t.count]);
      expect(inFileOrder(p, before)).toBe(true);
    }
    for (const t of types) {
      const ty = p.eventTypes.findIndex((x) => x.name === t.name);
      const want = execFileSync(cli, ['collapse', file, '--event', t.name], { encoding: 'utf8', maxBuffer: 1 << 30 }).split('\n').filter((l) => l.length > 0).sort();
      expect([t.name, collapsedStacks(p, ty, 'events').sort()]).toEqual([t.name, want]);
    }
    // A late decoder's chunks were taken by another, read from the whole file (the first Blob made).
    if (delays.some((x) => x > 0) && session.description!.chunks.length > delays.length) expect(blobs[0].read).toBeGreaterThan(0);
  });

  it('is not used without shared columns: each decoder reads its own group, rows as before', async () => {
    const file = files[0];
    const bytes = new Uint8Array(readFileSync(file));
    const { blobs, blob } = countingBlobs();
    const session = sessionInNode(bytes, 2, { wholeFirstBytes: 0, blob, start: (g) => sleep(g === 1 ? 100 : 0) });
    await session.open([], () => {});
    const p = await session.load(['jdk.ExecutionSample'], () => {});
    expect(p.events.length).toBeGreaterThan(0);
    expect(inFileOrder(p, 0)).toBe(true);
    // Each group's own Blob was read; none holds the whole file.
    expect(blobs.every((b) => b.size < bytes.length)).toBe(true);
  });
});
