/**
 * Chunk layout of a recording, read from the 68-byte chunk headers without the parser:
 *
 *   0 "FLR\0" | 4 major u16 | 6 minor u16 | 8 size i64 | … | 32 startNanos i64 | 40 durationNanos i64
 *   | … | 64 file state u8 (0 once the chunk is finished)
 *
 * Chunks are self-contained, so a file splits at these boundaries for parallel decoding.
 */

export interface ChunkSpan {
  index: number;
  offset: number;
  /** Bytes present (less than the header's size when the file is truncated). */
  size: number;
  startMs: number;
  durationMs: number;
  /** The header says the chunk is still being written (the newest file of a live repository):
   * the bytes after what its header names are its writes since the last flush, not garbage. */
  writing?: true;
  /** Of several files joined (joinLayouts): the index of the file the chunk comes from. */
  file?: number;
}

/** The header at `pos`: its chunk's full size (from the header) and times; null if none. */
export function chunkHeaderAt(buf: ArrayBuffer, pos: number): { size: number; startMs: number; durationMs: number; writing: boolean } | null {
  if (pos + 68 > buf.byteLength) return null;
  const view = new DataView(buf);
  if (view.getUint32(pos) !== 0x464c5200) return null;
  const size = Number(view.getBigInt64(pos + 8));
  if (!(size >= 68)) return null;
  return { size, startMs: msOfNanos(view.getBigInt64(pos + 32)), durationMs: Number(view.getBigInt64(pos + 40)) / 1e6, writing: view.getUint8(pos + 64) !== 0 };
}

/**
 * Epoch ns as epoch ms, never rounded up past a whole ms (an epoch time in ms has ~0.2 µs of
 * f64 precision left): so `Math.floor` of it is the whole ms the time falls in (originOf).
 */
export function msOfNanos(ns: bigint): number {
  const whole = Number(ns / 1_000_000n);
  const ms = whole + Number(ns % 1_000_000n) / 1e6;
  // (Rounded up to the next whole ms: a hair below it instead, 2^-10 ms being more than an ulp there.)
  return ms >= whole + 1 ? whole + 1 - 2 ** -10 : ms;
}

/**
 * The recording's origin, its times' zero: its first chunk's start, as the JDK counts a
 * recording's times, to within half a µs. As an f64 an epoch time is off by up to 0.1 µs either
 * way, so an event written at a chunk's start could read a hair before zero (async-profiler
 * writes its settings there: they read -1e-4 ms and fell out of the first bin of the
 * histogram); the origin is therefore the f64 one step below the nearest to the start (a whole
 * ms stays as it is), and the decoders count times from the whole ns it holds (`nanosOfMs`), so no time at or
 * after the start reads below zero, and times plus the origin are the clock's times. (It was
 * the whole ms the start falls in, which put every time up to 1 ms later than the JDK's
 * offsets: a range typed in seconds from the start selected other events than the JDK's.)
 */
export function originOf(spans: readonly Pick<ChunkSpan, 'startMs'>[]): number {
  if (!spans.length) return 0;
  const first = spans.reduce((a, s) => Math.min(a, s.startMs), Infinity);
  return Number.isInteger(first) ? first : stepDown(first);
}

/** The next f64 below `x` (finite and not zero). */
function stepDown(x: number): number {
  const f = new Float64Array([x]);
  const bits = new BigInt64Array(f.buffer);
  bits[0] += x > 0 ? -1n : 1n;
  return f[0];
}

/**
 * The whole ns an origin in epoch ms holds, as the decoders read it (wasm `nanos_of_ms`): its
 * whole ms exactly, and the ns of the rest rounded down (exact where the rest has few bits, as an
 * epoch time's does).
 */
export function nanosOfMs(ms: number): bigint {
  const whole = Math.floor(ms);
  return BigInt(whole) * 1_000_000n + BigInt(Math.floor((ms - whole) * 1e6));
}

/** The span of the chunk at `offset` whose header is `h`. */
export function spanOf(index: number, offset: number, size: number, h: NonNullable<ReturnType<typeof chunkHeaderAt>>): ChunkSpan {
  const s: ChunkSpan = { index, offset, size, startMs: h.startMs, durationMs: h.durationMs };
  if (h.writing) s.writing = true;
  return s;
}

export function chunkLayout(buf: ArrayBuffer): ChunkSpan[] {
  const spans: ChunkSpan[] = [];
  for (let pos = 0, h = chunkHeaderAt(buf, 0); h; pos += h.size, h = chunkHeaderAt(buf, pos)) {
    spans.push(spanOf(spans.length, pos, Math.min(h.size, buf.byteLength - pos), h));
  }
  return spans;
}

/** Split spans into at most `n` contiguous groups of similar byte size. */
export function partition(spans: ChunkSpan[], n: number): ChunkSpan[][] {
  if (spans.length === 0) return [];
  const total = spans.reduce((a, s) => a + s.size, 0);
  const groups: ChunkSpan[][] = [];
  const target = total / Math.max(1, Math.min(n, spans.length));
  let cur: ChunkSpan[] = [];
  let acc = 0;
  for (const s of spans) {
    cur.push(s);
    acc += s.size;
    if (acc >= target * (groups.length + 1) && groups.length < n - 1) {
      groups.push(cur);
      cur = [];
    }
  }
  if (cur.length) groups.push(cur);
  return groups;
}

/**
 * Several files as one recording (a JFR repository folder, a list of chunk files): every chunk
 * of every file in time order, laid end to end in a virtual file.
 *
 *   a.jfr [c0 10:00][c1 10:05]   b.jfr [c0 09:55]
 *     → virtual  [b.c0 09:55][a.c0 10:00][a.c1 10:05]
 *        pieces  {file b, 0…|b.c0|, at 0}, {file a, 0…|a|, at |b.c0|}   (neighbours in one file join)
 *
 * A span's offset is its place in the virtual file; a piece says which file's bytes lie there,
 * so a virtual offset names (file, offset) again (`locate`).
 */
export interface Piece {
  /** Index of the file in the list given. */
  file: number;
  /** Offset in that file. */
  from: number;
  size: number;
  /** Offset in the virtual file. */
  at: number;
}

export interface JoinedLayout {
  spans: ChunkSpan[];
  pieces: Piece[];
  size: number;
}

/**
 * The chunks of files (each file's own layout) in time order (ties: file order, then offset),
 * each file's chunks kept in that file's order (a file whose chunk starts go back in time keeps
 * its order: its chunks take the places time order gives the file, first chunk first).
 */
export function joinLayouts(layouts: ChunkSpan[][]): JoinedLayout {
  const all = layouts.flatMap((spans, file) => spans.map((s) => ({ file, s })));
  all.sort((a, b) => a.s.startMs - b.s.startMs || a.file - b.file || a.s.offset - b.s.offset);
  const next = layouts.map(() => 0);
  const spans: ChunkSpan[] = [];
  const pieces: Piece[] = [];
  let at = 0;
  for (const { file } of all) {
    const s = layouts[file][next[file]++];
    spans.push({ ...s, index: spans.length, offset: at, file });
    const last = pieces[pieces.length - 1];
    if (last && last.file === file && last.from + last.size === s.offset) last.size += s.size;
    else pieces.push({ file, from: s.offset, size: s.size, at });
    at += s.size;
  }
  return { spans, pieces, size: at };
}

/**
 * Which chunks the JDK's reader reads as one run, chaining threads from chunk to chunk
 * (engine/parts.ts chainThreads): per chunk of the joined layout, its run. A file's chunks are one
 * run, in the file's order; a file carries on the run of the file before it when they are one
 * JVM's chunk files (a repository folder: the file's first chunk comes right after the other
 * file's last, no other file's chunk between them, and, where both chunks name the JVM that wrote
 * them (`jvms`, chunk → identity from jdk.JVMInformation: pid and JVM start), the same JVM).
 * Files whose chunks interleave, or of different JVMs, are read each alone, as the JDK reads
 * each file:
 *
 *   chunk-1.jfr [c0] chunk-2.jfr [c0]        → runs 0 0      (one JVM's repository)
 *   a.jfr [c0 10:00][c1 10:05] b.jfr [c0 10:02] → a.c0 a.c1 / b.c0 in time order: a.c0 b.c0 a.c1 → runs 0 1 0
 *
 * Without files (one recording) every chunk is one run.
 */
export function chainRuns(spans: ChunkSpan[], jvms?: Map<number, string>): number[] {
  const first = new Map<number, number>();
  const last = new Map<number, number>();
  spans.forEach((s, k) => {
    const f = s.file ?? 0;
    if (!first.has(f)) first.set(f, k);
    last.set(f, k);
  });
  const run = new Map<number, number>();
  let runs = 0;
  for (const [f, k] of [...first.entries()].sort((a, b) => a[1] - b[1])) {
    const before = k > 0 ? (spans[k - 1].file ?? 0) : -1;
    const a = jvms?.get(k - 1);
    const b = jvms?.get(k);
    const joins = before >= 0 && before !== f && last.get(before) === k - 1 && (a === undefined || b === undefined || a === b);
    run.set(f, joins ? run.get(before)! : runs++);
  }
  return spans.map((s) => run.get(s.file ?? 0)!);
}

/** Which file, and where in it, a virtual offset is; null past the end. */
export function locate(pieces: Piece[], offset: number): { file: number; offset: number } | null {
  let lo = 0;
  let hi = pieces.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (pieces[mid].at <= offset) lo = mid;
    else hi = mid - 1;
  }
  const p = pieces[lo];
  if (!p || offset < p.at || offset >= p.at + p.size) return null;
  return { file: p.file, offset: p.from + offset - p.at };
}

/** What a file's first bytes say it is: a recording's chunk, gzip, or something else. */
export function fileKind(head: Uint8Array): 'jfr' | 'gzip' | 'other' {
  if (head.length >= 4 && head[0] === 0x46 && head[1] === 0x4c && head[2] === 0x52 && head[3] === 0) return 'jfr';
  if (head.length >= 2 && head[0] === 0x1f && head[1] === 0x8b) return 'gzip';
  return 'other';
}
