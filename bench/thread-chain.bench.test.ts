/**
 * What the thread chain costs on a repository of many chunks: the bytes of threads the count
 * pass hands the page (each decoder's description), and what every rows pass and type table is
 * handed for the chain, measured as a worker's message would carry them (v8.serialize: the
 * structured clone postMessage makes), with the time the page and the decoders spend on it.
 *
 *   DIR    a folder of chunk files (a JFR repository), joined as the page joins them; default: a
 *          day of 800 chunk files made from fixtures/jdk17-renamed.jfr by tools/synth/synth.mjs
 *          (its chunks over and over: threads renamed within the fixture, and back again where
 *          its last chunk is followed by its first)
 *   PARTS  decoders (default 2)
 *
 *   JFRSCOPE_BENCH=1 npx vitest run bench/thread-chain.bench.test.ts
 *   JFRSCOPE_BENCH=1 DIR=/path/repository npx vitest run bench/thread-chain.bench.test.ts
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { serialize } from 'node:v8';
import { expect, it } from 'vitest';
import { chunkLayout, fileKind, joinLayouts } from '../web/src/engine/layout';
import { sessionInNode } from '../web/src/engine/node';
import type { Description } from '../web/src/engine/parts';
import type { GroupDecoder } from '../web/src/engine/session';

const root = resolve(__dirname, '..');

function folder(): string {
  if (process.env.DIR) return process.env.DIR;
  const dir = mkdtempSync(join(tmpdir(), 'thread-chain-'));
  const from = join(root, 'fixtures/jdk17-renamed.jfr');
  // 800 chunks of the fixture's (its size over its three chunks, 800 times).
  const gb = ((readFileSync(from).byteLength / 3) * 800) / 1e9;
  execFileSync('node', [join(root, 'tools/synth/synth.mjs'), 'day', dir, '--size-gb', String(gb), '--hours', '24', '--from', from]);
  return dir;
}

function joined(dir: string): Uint8Array {
  const files = readdirSync(dir)
    .sort()
    .map((n) => new Uint8Array(readFileSync(join(dir, n))))
    .filter((b) => fileKind(b.subarray(0, 4)) === 'jfr');
  const all = files.map((b) => ({ b, spans: chunkLayout(b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength) as ArrayBuffer) })).filter((f) => f.spans.length);
  const j = joinLayouts(all.map((f) => f.spans));
  const out = new Uint8Array(j.size);
  for (const p of j.pieces) out.set(all[p.file].b.subarray(p.from, p.from + p.size), p.at);
  return out;
}

it('the thread chain on a repository of many chunks', { timeout: 3_600_000 }, async () => {
  const dir = folder();
  expect(existsSync(dir)).toBe(true);
  const bytes = joined(dir);
  const s = sessionInNode(bytes, Number(process.env.PARTS ?? 2), { budget: 0, wholeFirstBytes: 0 });
  // What each rows pass and type table is handed for the chain (its last argument).
  const sent: number[] = [];
  for (const g of s.groups as GroupDecoder[]) {
    const rows = g.rows.bind(g);
    (g as { rows: GroupDecoder['rows'] }).rows = (...a) => {
      sent.push(serialize(a[5] ?? null).byteLength);
      return rows(...a);
    };
  }
  const t0 = performance.now();
  await s.open(['jdk.ExecutionSample'], () => {});
  const opened = performance.now() - t0;
  const counted = (s as unknown as { counted: Description[] }).counted;
  const threadBytes = counted.reduce((a, d) => a + serialize(d.chunkThreads ?? []).byteLength, 0);
  const descBytes = counted.reduce((a, d) => a + serialize(d).byteLength, 0);
  const t1 = performance.now();
  await s.load(['jdk.ThreadStart'], () => {});
  const picked = performance.now() - t1;
  const chunks = counted.reduce((a, d) => a + d.chunks.length, 0);
  const kb = (n: number) => `${(n / 1024).toFixed(1)} KiB`;
  console.log(
    `${dir}: ${chunks} chunks, ${(bytes.byteLength / 1e6).toFixed(0)} MB\n` +
      `  count pass: descriptions ${kb(descBytes)}, of which threads ${kb(threadBytes)}\n` +
      `  handed to each rows pass for the chain: ${sent.map(kb).join(', ')} (${sent.length} passes)\n` +
      `  opened in ${opened.toFixed(0)} ms; jdk.ThreadStart picked in ${picked.toFixed(0)} ms`,
  );
  expect(sent.length).toBeGreaterThan(0);
});
