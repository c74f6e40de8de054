/**
 * The same decoding path without workers, for Node (Vitest, benchmarks): one wasm Parser over
 * every chunk, then the same merge and Profile building as the browser.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { gunzipSync } from 'node:zlib';
import { initSync, Parser } from './pkg/jfrscope_wasm.js';
import { readPart, type PartColumns, type WasmParser } from './columns';
import { chunkLayout, partition } from './layout';
import { mergeParts } from './merge';
import { toProfile } from './profile';
import type { Profile } from '../profile-logic/profile';

let initialised = false;
export function initWasm(): void {
  if (initialised) return;
  const path = fileURLToPath(new URL('./pkg/jfrscope_wasm_bg.wasm', import.meta.url));
  initSync({ module: readFileSync(path) });
  initialised = true;
}

/** Decode `bytes` as `parts` groups of chunks (to exercise the merge), single-threaded. */
export function decodeInNode(input: Uint8Array, parts = 1): Profile {
  initWasm();
  const bytes = input[0] === 0x1f && input[1] === 0x8b ? new Uint8Array(gunzipSync(input)) : input;
  const buf = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer;
  const spans = chunkLayout(buf);
  const originMs = spans.length ? Math.min(...spans.map((s) => s.startMs)) : 0;
  const groups = spans.length ? partition(spans, parts) : [[]];
  const cols: PartColumns[] = groups.map((g) => {
    const p = new Parser(originMs) as unknown as WasmParser;
    if (g.length === 0) p.addChunks(new Uint8Array(buf), 0, 0);
    for (const s of g) p.addChunks(new Uint8Array(buf, s.offset, s.size), s.offset, s.index);
    const part = readPart(p);
    p.free();
    return part;
  });
  return toProfile(mergeParts(cols), originMs, buf.byteLength);
}
