/**
 * Chunk layout of a recording, read from the 68-byte chunk headers without the parser:
 *
 *   0 "FLR\0" | 4 major u16 | 6 minor u16 | 8 size i64 | … | 32 startNanos i64 | 40 durationNanos i64
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
}

/** The header at `pos`: its chunk's full size (from the header) and times; null if none. */
export function chunkHeaderAt(buf: ArrayBuffer, pos: number): { size: number; startMs: number; durationMs: number } | null {
  if (pos + 68 > buf.byteLength) return null;
  const view = new DataView(buf);
  if (view.getUint32(pos) !== 0x464c5200) return null;
  const size = Number(view.getBigInt64(pos + 8));
  if (!(size >= 68)) return null;
  return { size, startMs: Number(view.getBigInt64(pos + 32)) / 1e6, durationMs: Number(view.getBigInt64(pos + 40)) / 1e6 };
}

export function chunkLayout(buf: ArrayBuffer): ChunkSpan[] {
  const spans: ChunkSpan[] = [];
  for (let pos = 0, h = chunkHeaderAt(buf, 0); h; pos += h.size, h = chunkHeaderAt(buf, pos)) {
    spans.push({ index: spans.length, offset: pos, size: Math.min(h.size, buf.byteLength - pos), startMs: h.startMs, durationMs: h.durationMs });
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
