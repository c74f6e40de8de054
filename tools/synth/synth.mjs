#!/usr/bin/env node
// Huge recordings for measuring, made of real chunks (nothing here is committed output):
//
//   node tools/synth/synth.mjs big OUT.jfr [--size-gb 6] [--from FILE]
//     one recording of SIZE GB: the chunks of FILE, over and over, each chunk's start time moved
//     so they follow one another (a recording of about SIZE / |FILE| times FILE's duration)
//   node tools/synth/synth.mjs day OUTDIR [--size-gb 20] [--hours 24] [--from FILE] [--gaps]
//     a JFR repository folder: one chunk a file, named as the JVM names them
//     (2026_11_24_00_00_00.jfr …), whose chunks tile HOURS of time. A chunk lasts a few seconds,
//     so the SIZE's worth of chunks does not fill a day: each chunk is stretched over its slot
//     (its ticks per second lowered: events keep their order and spacing in proportion, and
//     last longer), or with --gaps keeps its own duration at the start of its slot.
//
// FILE defaults to fixtures/large/mixed.jfr (fixtures/generate.sh) when there is one, else the
// committed fixtures/jdk17-profile.jfr. A chunk is self-contained and times its events by
// ticks from its header:
//
//   0 "FLR\0" | 4 major u16 | 6 minor u16 | 8 size i64 | 16 constant pool offset i64
//   24 metadata offset i64 | 32 startNanos i64 | 40 durationNanos i64 | 48 startTicks i64
//   56 ticksPerSecond i64 | 64 features u32
//
// so an event's time is startNanos + (ticks − startTicks) × 1e9 / ticksPerSecond, and moving
// startNanos (or scaling ticksPerSecond) moves every event of the chunk. The JDK reads the result
// (`jfr summary OUT.jfr`, `jfr print --events jdk.CPULoad DIR/<a chunk>.jfr`).
import { closeSync, existsSync, mkdirSync, openSync, readSync, statfsSync, statSync, writeSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(fileURLToPath(new URL('.', import.meta.url)), '../..');
const [mode, out, ...rest] = process.argv.slice(2);
const opt = (name, dflt) => {
  const i = rest.indexOf(`--${name}`);
  return i >= 0 ? rest[i + 1] : dflt;
};
if (!['big', 'day'].includes(mode) || !out) {
  console.error('usage: synth.mjs big OUT.jfr [--size-gb 6] [--from FILE]\n       synth.mjs day OUTDIR [--size-gb 20] [--hours 24] [--from FILE] [--gaps]');
  process.exit(2);
}
const mixed = join(root, 'fixtures/large/mixed.jfr');
const from = opt('from', existsSync(mixed) ? mixed : join(root, 'fixtures/jdk17-profile.jfr'));
const sizeBytes = Number(opt('size-gb', mode === 'big' ? 6 : 20)) * 1e9;
const hours = Number(opt('hours', 24));
const gaps = rest.includes('--gaps');

/** The source's chunks, each as its bytes (read once) and header fields. */
function readChunks(path) {
  const fd = openSync(path, 'r');
  const size = statSync(path).size;
  const chunks = [];
  for (let pos = 0; pos + 68 <= size; ) {
    const head = Buffer.alloc(68);
    readSync(fd, head, 0, 68, pos);
    if (head.toString('latin1', 0, 4) !== 'FLR\0') throw new Error(`${path}: no chunk header at ${pos}`);
    const n = Number(head.readBigInt64BE(8));
    if (n < 68 || pos + n > size) throw new Error(`${path}: the chunk at ${pos} (${n} bytes) runs past the end`);
    const bytes = Buffer.alloc(n);
    readSync(fd, bytes, 0, n, pos);
    chunks.push({ bytes, durationNs: bytes.readBigInt64BE(40), tps: bytes.readBigInt64BE(56) });
    pos += n;
  }
  closeSync(fd);
  if (chunks.length === 0) throw new Error(`${path} holds no chunk`);
  return chunks;
}

/** A chunk's bytes with its start (and, stretched, its duration and tick rate) set. */
function placed(c, startNs, durationNs) {
  c.bytes.writeBigInt64BE(startNs, 32);
  c.bytes.writeBigInt64BE(durationNs, 40);
  // Ticks over the same span of ticks now cover durationNs: the rate falls in proportion.
  const tps = (c.tps * c.durationNs) / (durationNs > 0n ? durationNs : 1n);
  c.bytes.writeBigInt64BE(tps > 0n ? tps : 1n, 56);
  return c.bytes;
}

const src = readChunks(from);
const srcBytes = src.reduce((a, c) => a + c.bytes.length, 0);
const free = (() => {
  try {
    const s = statfsSync(mode === 'big' ? resolve(out, '..') : resolve(out, existsSync(out) ? '.' : '..'));
    return s.bavail * s.bsize;
  } catch {
    return Infinity;
  }
})();
if (sizeBytes > free - 2e9) {
  console.error(`${(sizeBytes / 1e9).toFixed(1)} GB asked for, ${(free / 1e9).toFixed(1)} GB free there: use a smaller --size-gb.`);
  process.exit(1);
}
const count = Math.max(1, Math.round(sizeBytes / (srcBytes / src.length)));
// Start at midnight UTC of the source's day, so a day's files read as a calendar day.
const firstNs = src[0].bytes.readBigInt64BE(32);
const dayNs = 86_400_000_000_000n;
const t0 = mode === 'day' ? (firstNs / dayNs) * dayNs : firstNs;
const t = Date.now();
let written = 0;
if (mode === 'big') {
  const fd = openSync(out, 'w');
  let at = t0;
  for (let k = 0; k < count; k++) {
    const c = src[k % src.length];
    written += writeSync(fd, placed(c, at, c.durationNs));
    at += c.durationNs;
  }
  closeSync(fd);
  console.log(`${out}: ${count} chunks of ${from}, ${(written / 1e9).toFixed(2)} GB, ${((Number(at - t0) / 1e9) / 60).toFixed(1)} min of recording, in ${((Date.now() - t) / 1000).toFixed(0)} s`);
} else {
  mkdirSync(out, { recursive: true });
  const slot = BigInt(Math.floor((hours * 3600e9) / count));
  const name = (ns) => new Date(Number(ns / 1_000_000n)).toISOString().slice(0, 19).replace(/[-T:]/g, '_') + '.jfr';
  for (let k = 0; k < count; k++) {
    const c = src[k % src.length];
    const start = t0 + BigInt(k) * slot;
    const fd = openSync(join(out, name(start)), 'w');
    written += writeSync(fd, placed(c, start, gaps || c.durationNs > slot ? c.durationNs : slot));
    closeSync(fd);
  }
  console.log(
    `${out}: ${count} chunk files of ${from}, ${(written / 1e9).toFixed(2)} GB over ${hours} h (a chunk every ${(Number(slot) / 1e9).toFixed(1)} s, ` +
      `${gaps ? 'each its own duration' : 'each stretched over its slot'}), in ${((Date.now() - t) / 1000).toFixed(0)} s`,
  );
}
