/**
 * The origin, the recording's zero: its first chunk's start as the JDK counts times from it, to
 * within half a µs and never after it, so an event written at a chunk's start never reads a hair
 * before zero (async-profiler writes its settings there: with the start itself as the origin, an
 * f64 off by up to 0.1 µs, they read -1e-4 ms and fell out of the first bin of the histogram),
 * and a time since the start reads as the JDK's offset from the chunk's start (the whole ms the
 * start fell in put every time up to 1 ms late).
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { chunkLayout, msOfNanos, nanosOfMs, originOf } from '../layout';
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
      const originNs = nanosOfMs(origin);
      const view = new DataView(bytes.buffer, bytes.byteOffset);
      const first = spans.reduce((a, s) => (a === null || s.startMs < a.startMs ? s : a), null as (typeof spans)[number] | null);
      if (!first) return;
      // At or before the first chunk's start (ns, from its header), by less than half a µs (an
      // f64 epoch ms steps by 0.24 µs from 2004 to 2039).
      const startNs = view.getBigInt64(first.offset + 32);
      expect(originNs <= startNs).toBe(true);
      expect(startNs - originNs < 500n).toBe(true);
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

describe("times since the start are the JDK's offsets from the first chunk's start", () => {
  // RecordingFile's start of each jdk.ExecutionSample (epoch ns, tools/golden/Golden.java).
  const withSamples = list(join(root, 'fixtures')).filter((f) => existsSync(join(root, 'fixtures/expected', `${f.split('/').pop()!.replace(/\.gz$/, '')}.samples.tsv.gz`)));
  it('has recordings with the JDK\'s sample times', () => expect(withSamples.length).toBeGreaterThanOrEqual(6));
  for (const file of withSamples) {
    it(file.slice(root.length - 4), () => {
      const bytes = read(file);
      const spans = chunkLayout(bytes.buffer as ArrayBuffer);
      const view = new DataView(bytes.buffer, bytes.byteOffset);
      const startNs = spans.map((s) => view.getBigInt64(s.offset + 32)).reduce((a, b) => (b < a ? b : a));
      // RecordingFile reads a later chunk whose metadata is the one before's with the earlier
      // chunk's parsers, and so with its clock (start ticks and ns): its times there differ from
      // the chunk's own header by how far the two clocks drifted apart between the chunks'
      // starts (async-profiler's ap-unusual.jfr: 2.9 µs). The page reads each chunk by its own.
      const head = (s: (typeof spans)[number]) => ({ ns: view.getBigInt64(s.offset + 32), ticks: view.getBigInt64(s.offset + 48), tps: view.getBigInt64(s.offset + 56) });
      const h0 = head(spans[0]);
      const drift = Math.max(
        0,
        ...spans.map(head).map((h) => Math.abs(Number(h.ns - h0.ns - ((h.ticks - h0.ticks) * 1_000_000_000n) / h0.tps)) / 1e6),
      );
      const tsv = gunzipSync(readFileSync(join(root, 'fixtures/expected', `${file.split('/').pop()!.replace(/\.gz$/, '')}.samples.tsv.gz`))).toString('utf8');
      const jdk = tsv
        .split('\n')
        .filter(Boolean)
        .map((l) => Number(BigInt(l.slice(0, l.indexOf('\t'))) - startNs) / 1e6)
        .sort((a, b) => a - b);
      const p = decodeInNode(bytes);
      const ty = p.eventTypes.findIndex((t) => t.name === 'jdk.ExecutionSample');
      const page: number[] = [];
      for (let i = 0; i < p.events.length; i++) if (p.events.type[i] === ty) page.push(p.events.start[i]);
      page.sort((a, b) => a - b);
      expect(page.length).toBe(jdk.length);
      // Each to within a µs (the origin is at most half a µs before the start), and twice the
      // largest drift (a chunk read with another's clock, each off the first by at most that).
      let worst = 0;
      for (let k = 0; k < jdk.length; k++) worst = Math.max(worst, Math.abs(page[k] - jdk[k]));
      expect(worst).toBeLessThan(1e-3 + 2 * drift);
    });
  }
});
