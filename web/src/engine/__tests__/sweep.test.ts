/**
 * The damage sweep through the wasm module: every recording in fixtures/ (example.jfr.gz
 * decompressed) cut at its chunk boundaries and inside its headers, metadata, checkpoints and
 * events, and mutated 60 times (seeded), each decoded as the browser does (whole, or split in
 * two parts and merged). Like parser/tests/sweep.rs, it asserts for each input:
 *
 *   - nothing is thrown but the engine's error, and every error names its chunk and offset;
 *   - each decode ends within 5 s;
 *   - a cut at a chunk boundary keeps exactly the chunks before it, other damage at least the
 *     events of the chunks before the damaged one (golden: each chunk decoded alone).
 *
 * Figures are printed: npx vitest run web/src/engine/__tests__/sweep.test.ts
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { decodeInNode } from '../node';

const root = resolve(__dirname, '../../../..');
const LIMIT_MS = 5000;
const MUTATIONS_PER_FILE = 60;

type Decoded = ReturnType<typeof decodeInNode>;
type Counts = Map<string, number>;

interface Chunk {
  start: number;
  end: number;
  meta: [number, number];
  checkpoints: [number, number][];
  events: [number, number][];
}

function fixtures(): [string, Uint8Array][] {
  const dir = join(root, 'fixtures');
  return readdirSync(dir)
    .filter((f) => f.endsWith('.jfr') || f.endsWith('.jfr.gz'))
    .sort()
    .map((f) => {
      const raw = new Uint8Array(readFileSync(join(dir, f)));
      return [f, f.endsWith('.gz') ? new Uint8Array(gunzipSync(raw)) : raw];
    });
}

function varint(b: Uint8Array, p: number): [number, number] {
  let v = 0;
  for (let i = 0; i < 8; i++) {
    const x = b[p++];
    v += (x & 0x7f) * 2 ** (7 * i);
    if (x < 0x80) return [v, p];
  }
  return [v + b[p] * 2 ** 56, p + 1];
}

/** Chunks of an intact recording: size at 8..16, pool offset at 16..24, metadata at 24..32. */
function chunkMaps(b: Uint8Array): Chunk[] {
  const view = new DataView(b.buffer, b.byteOffset, b.byteLength);
  const out: Chunk[] = [];
  for (let start = 0; start + 68 <= b.length; ) {
    const size = Number(view.getBigUint64(start + 8));
    const metaAt = start + Number(view.getBigUint64(start + 24));
    const c: Chunk = { start, end: start + size, meta: [metaAt, 0], checkpoints: [], events: [] };
    for (let p = start + 68; p < c.end; ) {
      const [n, q] = varint(b, p);
      const [ty] = varint(b, q);
      if (ty === 0) c.meta = [p, n];
      else if (ty === 1) c.checkpoints.push([p, n]);
      else c.events.push([p, n]);
      p += n;
    }
    out.push(c);
    start += size;
  }
  return out;
}

function cutPoints(maps: Chunk[], len: number): number[] {
  const at = [0];
  const every = <T>(xs: T[], n: number) => xs.filter((_, i) => i % Math.max(1, Math.ceil(xs.length / n)) === 0);
  for (const m of maps) {
    at.push(m.start, ...[1, 8, 16, 24, 40, 67, 68].map((d) => m.start + d));
    const [ms, mn] = m.meta;
    at.push(ms, ms + 1, ms + (mn >> 1), ms + mn - 1);
    for (const [s, n] of every(m.checkpoints, 4)) at.push(s, s + (n >> 1));
    for (const [s, n] of every(m.events, 6)) at.push(s + 1, s + (n >> 1));
  }
  for (let i = 1; i < 10; i++) at.push(Math.floor((len * i) / 10));
  return [...new Set(at.filter((p) => p < len))].sort((a, b) => a - b);
}

/** SplitMix64 on BigInts: the same sequence as the Rust sweeps' generator. */
function rng(seed: bigint) {
  let s = seed;
  const M = (1n << 64n) - 1n;
  const next = () => {
    s = (s + 0x9e3779b97f4a7c15n) & M;
    let z = s;
    z = ((z ^ (z >> 30n)) * 0xbf58476d1ce4e5b9n) & M;
    z = ((z ^ (z >> 27n)) * 0x94d049bb133111ebn) & M;
    return z ^ (z >> 31n);
  };
  return { next, below: (n: number) => Number(next() % BigInt(Math.max(1, n))) };
}

function varintBytes(v: bigint): number[] {
  const out: number[] = [];
  for (let i = 0; i < 8; i++) {
    if (v < 0x80n) return [...out, Number(v)];
    out.push(Number(v & 0x7fn) | 0x80);
    v >>= 7n;
  }
  return [...out, Number(v & 0xffn)];
}

/** One mutated copy, its kind, and the lowest position it touched. */
function mutate(r: ReturnType<typeof rng>, data: Uint8Array, maps: Chunk[]): [Uint8Array, string, number] {
  const d = data.slice();
  const m = maps[r.below(maps.length)];
  const where = () => {
    switch (r.below(5)) {
      case 0: return m.start + r.below(68);
      case 1: return m.meta[0] + r.below(Math.min(64, m.meta[1]));
      case 2: if (m.checkpoints.length) { const [s, n] = m.checkpoints[r.below(m.checkpoints.length)]; return s + r.below(Math.min(64, n)); } return r.below(d.length);
      case 3: if (m.events.length) return m.events[r.below(m.events.length)][0]; return r.below(d.length);
      default: return r.below(d.length);
    }
  };
  switch (r.below(4)) {
    case 0: {
      let lowest = d.length;
      for (let i = 0, n = 1 + r.below(4); i < n; i++) {
        const p = where();
        d[p] ^= 1 << r.below(8);
        lowest = Math.min(lowest, p);
      }
      return [d, 'bit flip', lowest];
    }
    case 1: {
      const p = where();
      const v = [0n, 0x80n, r.next() & 0xffffffffn, (1n << 64n) - 1n, BigInt(d.length + 1), r.next()][r.below(6)];
      varintBytes(v).forEach((b, i) => { if (p + i < d.length) d[p + i] = b; });
      return [d, 'varint', p];
    }
    case 2: {
      const field = m.start + 8 + 8 * r.below(7);
      const size = BigInt(m.end - m.start);
      const v = [0n, 1n, 68n, size - 1n, size + 1n, (1n << 64n) - 1n, (1n << 63n) - 1n, r.next()][r.below(8)];
      new DataView(d.buffer).setBigUint64(field, v);
      return [d, 'header field', field];
    }
    default: {
      const p = where();
      const fill = r.below(3);
      for (let i = p, end = Math.min(d.length, p + 1 + r.below(16)); i < end; i++) d[i] = [0, 0xff, Number(r.next() & 0xffn)][fill];
      return [d, 'bytes', p];
    }
  }
}

function counts(p: Decoded): Counts {
  return new Map(p.eventTypes.filter((t) => t.count > 0).map((t) => [t.name, t.count]));
}

function sum(cs: Counts[]): Counts {
  const out: Counts = new Map();
  for (const c of cs) for (const [k, v] of c) out.set(k, (out.get(k) ?? 0) + v);
  return out;
}

const named = /\(chunk (\d+), at offset 0x([0-9a-f]+)\)/;

const tally = { inputs: 0, thrown: 0, errors: new Map<string, number>(), maxMs: 0, slowest: '', problems: [] as string[] };

/** Decode, check the errors and the time; the counts, or null when the engine refused it. */
function check(what: string, bytes: Uint8Array, parts: number): Counts | null {
  tally.inputs++;
  const t = performance.now();
  let p: Decoded | null = null;
  try {
    p = decodeInNode(bytes, parts);
  } catch (e) {
    tally.thrown++;
    const msg = e instanceof Error ? e.message : String(e);
    if (!named.test(msg)) tally.problems.push(`${what}: threw ${msg}`);
  }
  const ms = performance.now() - t;
  if (ms > tally.maxMs) [tally.maxMs, tally.slowest] = [ms, what];
  if (ms > LIMIT_MS) tally.problems.push(`${what}: took ${ms.toFixed(0)} ms`);
  if (!p) return null;
  for (const e of p.info.errors) {
    const m = named.exec(e.message);
    if (!m || Number(m[1]) !== e.chunk || parseInt(m[2], 16) !== e.offset) tally.problems.push(`${what}: the error does not name its chunk and offset: ${JSON.stringify(e)}`);
    const kind = e.message.split(' (chunk')[0].replace(/[0-9a-f]{2}( [0-9a-f]{2})+|\d+/g, 'N');
    tally.errors.set(kind, (tally.errors.get(kind) ?? 0) + 1);
  }
  return counts(p);
}

function atLeast(what: string, got: Counts, want: Counts) {
  for (const [k, v] of want) if ((got.get(k) ?? 0) < v) tally.problems.push(`${what}: ${k} has ${got.get(k) ?? 0} events, the chunks before the damage ${v}`);
}

describe('the damage sweep through wasm', () => {
  it('cuts and mutations decode within limits and keep the chunks before the damage', () => {
    let cuts = 0;
    let mutations = 0;
    const r = rng(0x5eed0f12n);
    for (const [name, data] of fixtures()) {
      const maps = chunkMaps(data);
      const golden = maps.map((m) => counts(decodeInNode(data.subarray(m.start, m.end))));
      expect(counts(decodeInNode(data))).toEqual(sum(golden));
      for (const p of cutPoints(maps, data.length)) {
        cuts++;
        const what = `${name} cut at ${p}`;
        const got = check(what, data.subarray(0, p), 1);
        const whole = maps.filter((m) => m.end <= p).length;
        const want = sum(golden.slice(0, whole));
        if (!got) continue;
        if (p === 0 || maps.some((m) => m.end === p)) {
          const text = (c: Counts) => JSON.stringify([...c].sort());
          if (text(got) !== text(want)) tally.problems.push(`${what}: a cut at a chunk boundary decodes ${text(got)}, its chunks alone ${text(want)}`);
        } else atLeast(what, got, want);
      }
      for (let i = 0; i < MUTATIONS_PER_FILE; i++) {
        mutations++;
        const [bytes, kind, lowest] = mutate(r, data, maps);
        const what = `${name} mutation ${i} (${kind} at ${lowest})`;
        const got = check(what, bytes, 1 + (i % 2));
        if (got) atLeast(what, got, sum(golden.slice(0, maps.filter((m) => m.end <= lowest).length)));
      }
    }
    console.log(
      `sweep (wasm): ${cuts} cuts, ${mutations} mutations, ${tally.inputs} inputs, ${tally.thrown} thrown, ` +
        `errors by kind ${JSON.stringify(Object.fromEntries([...tally.errors].sort((a, b) => b[1] - a[1]).slice(0, 12)))} (top 12 of ${tally.errors.size}), ` +
        `slowest ${tally.maxMs.toFixed(1)} ms (${tally.slowest})`,
    );
    expect(cuts).toBeGreaterThanOrEqual(50);
    expect(mutations).toBeGreaterThanOrEqual(500);
    expect(tally.problems.slice(0, 40)).toEqual([]);
  });
});
