/**
 * The count pass over a File it does not keep reads each chunk in part, as the wasm asks (parts'
 * countGroup with SparseChunk): the description, counts per chunk and shape are those of the
 * same groups counted from their whole bytes (checked against the JDK by wasm.test.ts and
 * shape.test.ts), and the bytes read are fewer where a recording's stack traces are most of it
 * (fixtures/large/mixed.jfr, when fixtures/generate.sh made it).
 */
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { chunkLayout, originOf, partition } from '../layout';
import { initWasm } from '../node';
import { countGroup, sourceOf, type Description, type WasmParser, type WasmSparseChunk } from '../parts';
import { Parser, SparseChunk } from '../pkg/jfrscope_wasm.js';
import { Counting } from './counting-blob';

const root = resolve(__dirname, '../../../..');

const comparable = (d: Description) => JSON.stringify({ ...d, shape: d.shape && { ...d.shape, samples: [...d.shape.samples], allocs: [...d.shape.allocs], waiting: [...d.shape.waiting] } });

async function both(file: string, groups: number) {
  initWasm();
  const bytes = new Uint8Array(readFileSync(file));
  const buf = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer;
  const spans = chunkLayout(buf);
  const origin = originOf(spans);
  const make = () => new Parser(origin) as unknown as WasmParser;
  const sparse = (offset: number, size: number) => new SparseChunk(offset, size) as unknown as WasmSparseChunk;
  const blob = new Counting([bytes]);
  const out: { partly: Description; whole: Description }[] = [];
  for (const g of partition(spans, groups)) {
    const base = g[0].offset;
    const end = g[g.length - 1].offset + g[g.length - 1].size;
    const file = sourceOf(blob.slice(base, end), base, g);
    expect(file.readsInPart()).toBe(true);
    const partly = await countGroup(make, file, () => {}, undefined, sparse);
    const whole = await countGroup(make, sourceOf(buf.slice(base, end), base, g), () => {}, undefined, sparse);
    out.push({ partly, whole });
  }
  return { out, read: blob.read, size: bytes.length };
}

describe('the count pass reading a File in part', () => {
  it('counts what the whole bytes count, in each group of chunks', async () => {
    for (const name of ['jdk17-multichunk.jfr', 'jdk17-profile.jfr', 'ap-jfrsync.jfr']) {
      const { out } = await both(join(root, 'fixtures', name), 2);
      for (const { partly, whole } of out) {
        expect(whole.types.reduce((a, t) => a + t.count, 0)).toBeGreaterThan(0);
        expect(comparable(partly)).toBe(comparable(whole));
      }
    }
  });

  it.runIf(existsSync(join(root, 'fixtures/large/mixed.jfr')))('reads a tenth of a profile whose bytes are mostly stack traces', async () => {
    const { out, read, size } = await both(join(root, 'fixtures/large/mixed.jfr'), 2);
    for (const { partly, whole } of out) expect(comparable(partly)).toBe(comparable(whole));
    expect(read / size).toBeLessThan(0.25);
  }, 60_000);

  it('says the file could not be read when a read fails, and a File it keeps is read whole', async () => {
    initWasm();
    const bytes = new Uint8Array(readFileSync(join(root, 'fixtures/jdk17-multichunk.jfr')));
    const spans = chunkLayout(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer);
    const make = () => new Parser(0) as unknown as WasmParser;
    const sparse = (offset: number, size: number) => new SparseChunk(offset, size) as unknown as WasmSparseChunk;
    const blob = new Counting([bytes]);
    blob.failAt = 1;
    await expect(countGroup(make, sourceOf(blob, 0, spans), () => {}, undefined, sparse)).rejects.toThrow(/could not be read/);
    // Kept for the first round: read whole, once per chunk.
    const kept = new Counting([bytes]);
    const src = sourceOf(kept, 0, spans);
    src.hold();
    expect(src.readsInPart()).toBe(false);
    await countGroup(make, src, () => {}, undefined, sparse);
    expect([kept.reads, kept.read]).toEqual([spans.length, bytes.length]);
  });

  it('holds in wasm memory the chunks in flight within a budget of bytes, the next chunk always', async () => {
    initWasm();
    const bytes = new Uint8Array(readFileSync(join(root, 'fixtures/jdk17-multichunk.jfr')));
    const spans = chunkLayout(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer);
    expect(spans.length).toBeGreaterThan(2);
    const peakHeld = async (budget: number) => {
      const sizes = new Map<unknown, number>();
      let live = 0;
      let peak = 0;
      const sparse = (offset: number, size: number) => {
        const c = new SparseChunk(offset, size) as unknown as WasmSparseChunk;
        sizes.set(c, size);
        peak = Math.max(peak, (live += size));
        return c;
      };
      const make = () => {
        const p = new Parser(0) as unknown as WasmParser;
        const count = p.countSparse.bind(p);
        p.countSparse = (c, i) => {
          live -= sizes.get(c)!;
          count(c, i);
        };
        return p;
      };
      const d = await countGroup(make, sourceOf(new Counting([bytes]), 0, spans), () => {}, undefined, sparse, budget);
      return { peak, events: d.types.reduce((a, t) => a + t.count, 0) };
    };
    const sorted = spans.map((s) => s.size).sort((a, b) => b - a);
    // A budget under any chunk: the one counted and the next, no more.
    const tight = await peakHeld(1);
    expect(tight.peak).toBeLessThanOrEqual(sorted[0] + sorted[1]);
    // A budget over all of them: up to five at once (the one counted and four ahead).
    const loose = await peakHeld(1 << 30);
    expect(loose.peak).toBeGreaterThan(tight.peak);
    expect(loose.events).toBe(tight.events);
  });
});
