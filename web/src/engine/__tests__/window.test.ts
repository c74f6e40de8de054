/**
 * Windowed decoding of a type too large to hold whole: which chunks a view decodes and what the
 * counts say, against the JDK's per-chunk counts (fixtures/expected/NAME.chunk-counts.tsv, each
 * chunk read alone by RecordingFile) and the chunk headers' times.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Profile } from '../../columns/profile';
import { chunkLayout, originOf } from '../layout';
import { sessionInNode } from '../node';
import { mostRowsInAChunk, type Description } from '../parts';

const root = resolve(__dirname, '../../../..');
const bytes = new Uint8Array(readFileSync(resolve(root, 'fixtures/jdk17-multichunk.jfr')));
const spans = chunkLayout(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer);
const origin = originOf(spans);
/** [chunk][type] → the JDK's count. */
const jdk: Map<string, number>[] = [];
for (const line of readFileSync(resolve(root, 'fixtures/expected/jdk17-multichunk.jfr.chunk-counts.tsv'), 'utf8').trim().split('\n')) {
  const [k, type, n] = line.split('\t');
  (jdk[Number(k)] ??= new Map()).set(type, Number(n));
}
const TYPE = 'jdk.ObjectAllocationSample';
const inChunk = (k: number) => jdk[k].get(TYPE) ?? 0;
const total = jdk.reduce((a, m) => a + (m.get(TYPE) ?? 0), 0);
/** A view strictly inside chunk k, ms since the start. */
const inside = (k: number): [number, number] => {
  const s = spans[k].startMs - origin;
  return [s + spans[k].durationMs * 0.4, s + spans[k].durationMs * 0.6];
};

function rowsOf(p: Profile, type: string): number[] {
  const t = p.eventTypes.findIndex((x) => x.name === type);
  const out: number[] = [];
  for (let i = 0; i < p.events.length; i++) if (p.events.type[i] === t) out.push(i);
  return out;
}

describe('a type too large to hold whole is decoded a time window at a time', () => {
  it('the fixture has chunks with the type in each, more than one chunk holds', () => {
    expect(spans.length).toBe(jdk.length);
    expect(spans.length).toBeGreaterThanOrEqual(3);
    expect([0, 1, 2].every((k) => inChunk(k) > 0)).toBe(true);
  });

  it('knows from the count pass the most rows of the types one chunk holds (what a decoder makes room for)', async () => {
    const session = sessionInNode(bytes, 1, { budget: 0 });
    await session.open([], () => {});
    const [d] = (session as unknown as { counted: Description[] }).counted;
    const small = 'jdk.ExecutionSample';
    const most = (f: (k: number) => number) => Math.max(...jdk.map((_, k) => f(k)));
    expect(mostRowsInAChunk(d, [TYPE])).toBe(most(inChunk));
    expect(mostRowsInAChunk(d, [TYPE, small])).toBe(most((k) => inChunk(k) + (jdk[k].get(small) ?? 0)));
    expect(mostRowsInAChunk(d, [TYPE], [spans[1].offset])).toBe(inChunk(1));
    expect(mostRowsInAChunk(d, ['jdk.NoSuchType'])).toBe(0);
  });

  // (Two decoders writing into shared columns too: a new window's round copies the rows kept;
  // and with a File's chunks shared out as they go, the second decoder late, so the first
  // decodes the window's chunks of the second's group.)
  for (const [parts, shared, steal] of [[1, false, false], [2, false, false], [2, true, false], [2, true, true]] as const) {
    it(`decodes the chunks overlapping the view, then replaces them on zoom (${parts} decoder${parts > 1 ? 's' : ''}${shared ? ', shared columns' : ''}${steal ? ', chunks shared out' : ''})`, async () => {
      // Room for the largest chunk's rows and a small type's, not for the whole type.
      const small = 'jdk.ExecutionSample';
      const smallRows = jdk.reduce((a, m) => a + (m.get(small) ?? 0), 0);
      expect(smallRows).toBeGreaterThan(0);
      const limit = Math.max(inChunk(0), inChunk(1), inChunk(2)) + smallRows + 10;
      expect(total).toBeGreaterThan(limit);
      const late = { blob: (b: Uint8Array<ArrayBuffer>) => new Blob([b]), start: (g: number) => new Promise<void>((r) => setTimeout(r, g === 1 ? 100 : 0)) };
      const session = sessionInNode(bytes, parts, { budget: 0, pieceRows: 1000, limit, shared, ...(steal ? late : {}) });
      const first = await session.open([], () => {});
      expect(first.events.length).toBe(0);
      expect(first.eventTypes.find((t) => t.name === TYPE)!.deferred).toBe(true);

      const one = await session.load([TYPE], () => {}, inside(1));
      const t1 = one.eventTypes.find((t) => t.name === TYPE)!;
      expect(t1.count).toBe(total);
      expect(t1.deferred).toBe(false);
      expect(t1.window).toEqual({ fromMs: spans[1].startMs - origin, toMs: spans[1].startMs - origin + spans[1].durationMs, rows: inChunk(1) });
      const r1 = rowsOf(one, TYPE);
      expect(r1.length).toBe(inChunk(1));
      for (const i of r1) expect(one.events.offset[i] >= spans[1].offset && one.events.offset[i] < spans[1].offset + spans[1].size).toBe(true);

      // A small type decoded whole meanwhile stays whole through the next window.
      const withSmall = await session.load([small], () => {});
      expect(rowsOf(withSmall, small).length).toBe(smallRows);
      expect(rowsOf(withSmall, TYPE).length).toBe(inChunk(1));
      const zoomed = await session.loadWindow(TYPE, inside(2), () => {});
      const t2 = zoomed.eventTypes.find((t) => t.name === TYPE)!;
      expect(t2.window!.rows).toBe(inChunk(2));
      const r2 = rowsOf(zoomed, TYPE);
      expect(r2.length).toBe(inChunk(2));
      for (const i of r2) expect(zoomed.events.offset[i] >= spans[2].offset).toBe(true);
      expect(rowsOf(zoomed, small).length).toBe(smallRows);
      expect(zoomed.eventTypes.find((t) => t.name === small)!.window).toBeUndefined();

      // The same view again decodes nothing new.
      const again = await session.loadWindow(TYPE, inside(2), () => {});
      expect(rowsOf(again, TYPE).length).toBe(inChunk(2));
    });
  }

  it('a view wider than fits takes its chunks from the view’s start while they fit', async () => {
    const limit = inChunk(0) + inChunk(1);
    expect(total).toBeGreaterThan(limit);
    const session = sessionInNode(bytes, 2, { budget: 0, pieceRows: 1000, limit });
    await session.open([], () => {});
    const all = await session.load([TYPE], () => {}, [0, 1e12]);
    const w = all.eventTypes.find((t) => t.name === TYPE)!.window!;
    expect(w.rows).toBe(inChunk(0) + inChunk(1));
    expect(w.fromMs).toBe(spans[0].startMs - origin);
    expect(w.toMs).toBe(spans[1].startMs - origin + spans[1].durationMs);
    expect(rowsOf(all, TYPE).length).toBe(w.rows);
  });

  it('without a view, or when not one chunk fits, it says to zoom in', async () => {
    const session = sessionInNode(bytes, 1, { budget: 0, pieceRows: 1000, limit: Math.min(inChunk(0), inChunk(1), inChunk(2)) - 1 });
    await session.open([], () => {});
    await expect(session.load([TYPE], () => {})).rejects.toThrow(/Zoom in to a shorter time range/);
    await expect(session.load([TYPE], () => {}, inside(1))).rejects.toThrow(/Zoom in/);
  });
});

describe('planWindow', () => {
  it('says whether every chunk overlapping the view fits', async () => {
    const session = sessionInNode(bytes, 2, { budget: 0, pieceRows: 1000, limit: inChunk(0) + inChunk(1) });
    await session.open([], () => {});
    expect(session.planWindow(TYPE, inside(1))).toMatchObject({ complete: true, rows: [expect.any(Number), expect.any(Number)] });
    expect(session.planWindow(TYPE, inside(1))!.rows.reduce((a, b) => a + b, 0)).toBe(inChunk(1));
    expect(session.planWindow(TYPE, [0, 1e12])!.complete).toBe(false);
  });
});
