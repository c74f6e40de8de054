/**
 * The same decoding paths without workers, for Node (Vitest, benchmarks): wasm Parsers called
 * directly, then the same merge and Profile building as the browser.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { gunzipSync } from 'node:zlib';
import { decodeEvent, initSync, Parser, TableReader } from './pkg/jfrscope_wasm.js';
import type { Table } from 'apache-arrow';
import { joinTableParts, tableGroup, type WasmTableReader } from './type-table';
import { chainThreads, countGroup, decodable, describeCounted, eventBuffers, EventBuffers, eventJson, mostRowsInAChunk, readPart, rowsGroup, setThreadChain, sourceOf, type Description, type PartColumns, type WasmParser } from './parts';
import { chunkLayout, originOf, partition } from './layout';
import { mergeDescriptions, mergeParts } from './merge';
import { toProfile } from './tables';
import { Session, type GroupDecoder } from './session';
import type { Profile } from '../columns/profile';
import { parseEventFields } from './fields';

let memory: WebAssembly.Memory | null = null;
export function initWasm(): WebAssembly.Memory {
  if (memory) return memory;
  const path = fileURLToPath(new URL('./pkg/jfrscope_wasm_bg.wasm', import.meta.url));
  memory = initSync({ module: readFileSync(path) }).memory;
  return memory;
}

function fileOf(input: Uint8Array): ArrayBuffer {
  const bytes = input[0] === 0x1f && input[1] === 0x8b ? new Uint8Array(gunzipSync(input)) : input;
  return bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer;
}

/**
 * Decode every type of `bytes`, as `parts` groups of chunks (to exercise the merge), the way the
 * page does: a count pass over every chunk first, then the rows of every type that has any,
 * asked for by name (so a type declared with a stack only in a later chunk has all its rows).
 */
export function decodeInNode(input: Uint8Array, parts = 1): Profile {
  initWasm();
  const buf = fileOf(input);
  const spans = chunkLayout(buf);
  const originMs = originOf(spans);
  const groups = spans.length ? partition(spans, parts) : [[]];
  const each = (g: (typeof groups)[number], f: (b: Uint8Array, o: number, i: number) => void) => {
    if (g.length === 0) f(new Uint8Array(buf), 0, 0);
    for (const s of g) f(new Uint8Array(buf, s.offset, s.size), s.offset, s.index);
  };
  const counted = groups.map((g) => {
    const p = new Parser(originMs) as unknown as WasmParser;
    each(g, (b, o, i) => p.countChunks(b, o, i));
    const d = describeCounted(p);
    p.free();
    return d;
  });
  const description = mergeDescriptions(counted);
  const names = description.types.filter(decodable).map((t) => t.name);
  const threads = chainThreads(counted);
  const cols: PartColumns[] = groups.map((g) => {
    const p = new Parser(originMs) as unknown as WasmParser;
    setThreadChain(p, threads);
    if (names.length && g.length) each(g, (b, o, i) => p.rowsChunks(b, o, i, names.join('\n')));
    const part = readPart(p);
    p.free();
    return part;
  });
  const merged = mergeParts(cols);
  // The count pass saw every chunk; decoding bodies finds what is wrong inside them too.
  const seen = new Set(description.errors.map((e) => `${e.chunk}@${e.offset}:${e.message}`));
  for (const c of cols) for (const e of c.description.errors) if (!seen.has(`${e.chunk}@${e.offset}:${e.message}`)) description.errors.push(e);
  return toProfile({ ...merged, description }, originMs, buf.byteLength, new Set(names));
}

/** How a session in Node is set up; every field as the page's when absent. */
export interface NodeSessionOptions {
  /** The first round's row budget (Session). */
  budget?: number;
  /** Rows per piece a decoder streams: small makes many pieces. */
  pieceRows?: number;
  /** The most rows the page holds (Session). */
  limit?: number;
  /** Files up to this size are decoded whole in the first round (Session). */
  wholeFirstBytes?: number;
  /** Rows written by the decoders into shared columns (a cross-origin isolated page). */
  shared?: boolean;
  /**
   * Each group read as a File is (a Blob this makes of its bytes), its chunks held from the count
   * pass as a worker holds them; else the group's bytes are read in memory.
   */
  blob?: (bytes: Uint8Array<ArrayBuffer>) => Blob;
  /**
   * With `shared` and `blob`: whether rows rounds share out their chunks (steal.ts; the whole
   * file is read as `blob` makes it, in its first call). Default on, as the page does.
   */
  steal?: boolean;
  /** Per group, what its rows rounds wait for before they begin (a decoder given less of a core). */
  start?: (group: number) => Promise<void>;
}

/** A lazy-load session over `parts` groups, each read by wasm directly (what a worker does). */
export function sessionInNode(input: Uint8Array, parts = 1, { budget, pieceRows, limit, wholeFirstBytes, shared = false, blob, steal = true, start }: NodeSessionOptions = {}): Session {
  const memory = initWasm();
  const buf = fileOf(input);
  const spans = chunkLayout(buf);
  const originMs = originOf(spans);
  const make = () => new Parser(originMs) as unknown as WasmParser;
  // The whole file, as a worker is given it beside its group's slice.
  const file = blob && shared && steal ? sourceOf(blob(new Uint8Array(buf)), 0, []) : null;
  const groups: (GroupDecoder & { buffers: EventBuffers })[] = (spans.length ? partition(spans, parts) : [[]]).map((g, k) => {
    const base = g.length ? g[0].offset : 0;
    const end = g.length ? g[g.length - 1].offset + g[g.length - 1].size : buf.byteLength;
    const source = sourceOf(blob ? blob(new Uint8Array(buf, base, end - base)) : buf.slice(base, end), base, g);
    // As the page hands a merged piece's buffers back to its worker: the next pieces overwrite
    // them (in place here, where nothing is transferred).
    const buffers = new EventBuffers();
    // What the count pass found, as a worker keeps it (the rows each chunk holds).
    let counted: Description | null = null;
    return {
      size: end - base,
      spans: g,
      readsWholeFile: file !== null,
      count: async (onProgress, onShape) => {
        if (blob) source.hold();
        return (counted = await countGroup(make, source, onProgress, onShape));
      },
      rows: async (types, expected, onProgress, onPiece, chunks, threads, into, keep, plan) => {
        await start?.(k);
        return rowsGroup(
          make,
          source,
          types,
          expected,
          onProgress,
          (piece, last) => {
            onPiece(piece, last);
            buffers.give(eventBuffers(piece));
          },
          {
            pieceRows,
            chunks,
            events: { buffers, memory, into: into && { ...into } },
            chunkRows: mostRowsInAChunk(counted, types, chunks),
            threads,
            keep,
            steal: plan && file ? { plan, file } : undefined,
          },
        );
      },
      buffers,
    };
  });
  const session = new Session(groups, originMs, buf.byteLength, budget, limit, wholeFirstBytes);
  session.sharedColumns = shared;
  session.stealChunks = steal;
  return session;
}

/**
 * Every event of `type` with every field, as the page's loadTypeTable makes it: `parts` groups
 * of chunks, each read by its own wasm TableReader chunk by chunk (threads named across chunks
 * from the count pass's thread pools), joined in file order.
 */
export async function typeTableInNode(input: Uint8Array, type: string, parts = 1): Promise<Table> {
  initWasm();
  const buf = fileOf(input);
  const spans = chunkLayout(buf);
  const originMs = originOf(spans);
  const make = () => new TableReader(type, originMs) as unknown as WasmTableReader;
  const groups = spans.length ? partition(spans, parts) : [[]];
  const sources = groups.map((g) => {
    const base = g.length ? g[0].offset : 0;
    const end = g.length ? g[g.length - 1].offset + g[g.length - 1].size : buf.byteLength;
    return sourceOf(buf.slice(base, end), base, g);
  });
  // The count pass first, as the page's: every chunk's thread pool, chained for the threads' names.
  const counted = await Promise.all(sources.map((src) => countGroup(() => new Parser(originMs) as unknown as WasmParser, src, () => {})));
  const threads = chainThreads(counted);
  const tables = await Promise.all(sources.map((src) => tableGroup(make, src, () => {}, threads)));
  return joinTableParts(type, tables);
}

/**
 * Every field of the event at absolute `offset` of `input`, opened as `session` (sessionInNode,
 * counted), as the page's event panel gets them (engine/index.ts decodeEventFields, the worker's
 * `event`): its threads named by the session's chain.
 */
export function eventFieldsInNode(session: Session, input: Uint8Array, offset: number): Record<string, unknown> {
  initWasm();
  const buf = fileOf(input);
  const span = chunkLayout(buf).find((s) => offset >= s.offset && offset < s.offset + s.size);
  if (!span) throw new Error(`No chunk of the file holds offset ${offset}.`);
  return parseEventFields(eventJson(decodeEvent, new Uint8Array(buf, span.offset, span.size), span, offset, session.originMs, session.threadsOf(span.index)));
}
