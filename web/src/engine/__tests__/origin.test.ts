/**
 * The origin, the recording's zero: a whole epoch ms at or before its first chunk's start, so an
 * event written at a chunk's start never reads a hair before zero (async-profiler writes its
 * settings there: with the start itself as the origin, an f64 off by up to 0.1 µs, they read
 * -1e-4 ms and fell out of the first bin of the histogram).
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { chunkLayout, msOfNanos, originOf } from '../layout';
import { decodeInNode } from '../node';

const root = resolve(__dirname, '../../../..');
const corpus = resolve(root, '../shared/corpus');
const list = (dir: string) => (existsSync(dir) ? readdirSync(dir).filter((f) => /\.jfr(\.gz)?$/.test(f) && !/invalid/.test(f)).map((f) => join(dir, f)) : []);
const files = [...list(join(root, 'fixtures')), ...list(join(corpus, 'jfrs')), ...list(join(corpus, 'grafana-jfr-parser'))];
const read = (f: string) => {
  const b = new Uint8Array(readFileSync(f));
  return f.endsWith('.gz') ? new Uint8Array(gunzipSync(b)) : b;
};

describe('msOfNanos', () => {
  it('keeps the whole ms an epoch time falls in, even where the f64 sum would round up to the next', () => {
    const base = 1_661_595_193_000n * 1_000_000n;
    for (const frac of [0n, 1n, 999n, 500_000n, 999_880n, 999_900n, 999_999n]) {
      const ns = base + frac;
      const ms = msOfNanos(ns);
      expect(Math.floor(ms), `frac ${frac}`).toBe(1_661_595_193_000);
      expect(Math.abs(ms - 1_661_595_193_000 - Number(frac) / 1e6)).toBeLessThanOrEqual(2 ** -10);
    }
    // (Without the guard the last of these reads as the next whole ms.)
    expect(Number(base + 999_999n) / 1e6).toBe(1_661_595_193_001);
  });
});

describe('the origin on every recording', () => {
  it('has recordings', () => expect(files.length).toBeGreaterThanOrEqual(8));
  for (const file of files) {
    it(file.slice(root.length - 4), () => {
      const bytes = read(file);
      const spans = chunkLayout(bytes.buffer as ArrayBuffer);
      const origin = originOf(spans);
      expect(Number.isInteger(origin)).toBe(true);
      const view = new DataView(bytes.buffer, bytes.byteOffset);
      const first = spans.reduce((a, s) => (a === null || s.startMs < a.startMs ? s : a), null as (typeof spans)[number] | null);
      if (!first) return;
      // At or before the first chunk's start (ns, from its header), by less than a ms.
      const startNs = view.getBigInt64(first.offset + 32);
      expect(BigInt(origin) * 1_000_000n <= startNs).toBe(true);
      expect(startNs - BigInt(origin) * 1_000_000n < 1_000_000n).toBe(true);
      // No start a hair before zero: an event before the origin is before it by more than a µs
      // (JDK settings dated from before the chunk, as in recording-2_1.jfr: 141 s before).
      const p = decodeInNode(bytes);
      expect(p.info.startMs).toBe(origin);
      for (let i = 0; i < p.events.length; i++) {
        const s = p.events.start[i];
        if (s < 0) expect(s, `event ${i} of ${p.eventTypes[p.events.type[i]].name}`).toBeLessThan(-1e-3);
      }
    });
  }
});
