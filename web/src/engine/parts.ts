/**
 * What one decoding pass (one worker, one group of chunks) hands back: plain typed arrays and
 * a JSON description, ready to be transferred between threads without copying.
 */
import type { CallNodeColumns } from '../columns/ids';
import { STACK_LOST, type EventKind } from '../columns/profile';
import type { ChunkSpan } from './layout';
import type { PendingFills } from './merge';
import { claim, type StealPlan } from './steal';

export interface TypeRow {
  name: string;
  label: string;
  kind: EventKind;
  count: number;
  hasStack: boolean;
  decoded: boolean;
}

/** Whether a type's events become rows at all (the parser's rule: known kinds and stacks). */
export function decodable(t: TypeRow): boolean {
  return t.count > 0 && (t.kind !== 'other' || t.hasStack);
}

/** The count pass's shape over time: per second from `first` (seconds since the epoch). */
export interface ShapeBins {
  first: number;
  samples: Uint32Array;
  allocs: Uint32Array;
  waiting: Float64Array;
}

export interface Description {
  types: TypeRow[];
  chunks: { offset: number; size: number; startNs: string; durationNs: string; version: string }[];
  /**
   * Per chunk of `chunks`, events per type as flat pairs [index into this description's `types`,
   * count, …]. Only in one decoder's own description (merging renumbers the types).
   */
  chunkCounts?: number[][];
  /** From the count pass. */
  shape?: ShapeBins;
  /** Per chunk the count pass read, its thread pool as the chunk writes it, whole or as a change (one decoder's own description only). */
  chunkThreads?: ChunkThreads[];
  /** Per chunk the count pass read whose jdk.JVMInformation names the JVM that wrote it: [chunk, pid, jvmStartTime ms] (one decoder's own description only). */
  chunkJvms?: [number, number | null, number | null][];
  errors: { message: string; chunk: number; offset: number }[];
  info: {
    jvm: { name: string; version: string; args: string; flags: string } | null;
    os: string | null;
    cpu: string | null;
    settings: { type: string; name: string; value: string }[];
    properties: { key: string; value: string }[];
    /** The jdk.*Flag events' flags (jdk.BooleanFlag, jdk.IntFlag…), deduplicated. */
    flags?: { name: string; value: string; origin: string }[];
    /** Latest start + duration of the rows decoded (ns since the epoch, as text); null before any row. */
    dataEndNs?: string | null;
    /** Rows whose stack was lost (stack -2). */
    stacksLost?: number;
  };
}

/**
 * One chunk's thread pool as the count pass hands it over: `chunk` its index in the file (in the
 * virtual file of several), `threads` entries [pool id, name, OS thread id, Java thread id (null
 * when absent), 1 for a virtual thread]: the whole pool when `whole`, else those new or changed
 * since the pool of chunk `chunk - 1` (which the same decoder counted), with the ids `gone` from
 * it (the parser's PoolChange: a day of chunks lists the same threads in every pool).
 */
export interface ChunkThreads {
  chunk: number;
  whole: boolean;
  threads: ThreadEntry[];
  gone: number[];
}

/** [pool id, name, OS thread id, Java thread id (null when absent), 1 for a virtual thread]. */
export type ThreadEntry = [number, string, number | null, number | null, number];

/**
 * Thread pool ids whose thread the JDK's reader carries over from an earlier chunk, one entry
 * each (columns): its chunk, pool id, and the thread carried over. Every other id of a chunk reads
 * as the chunk's own entry. What each rows pass, type table and event shown is handed
 * (setThreadChain), each decoder only its own chunks' (overridesIn).
 */
export interface ThreadOverrides {
  chunk: Uint32Array;
  id: Float64Array;
  name: string[];
  os: Float64Array;
  java: Float64Array;
  virt: Uint8Array;
}

const sameEntry = (a: ThreadEntry, b: ThreadEntry) => a[1] === b[1] && a[2] === b[2] && a[3] === b[3] && a[4] === b[4];

/**
 * Whether pool entry `t` is the thread `b` an earlier chunk had under the same id (the parser's
 * chain_step): the same OS thread, under the same Java id unless that OS thread is a real one,
 * which may attach again under a new java.lang.Thread (async-profiler keys its pool by OS id, and
 * `main` comes back as `DestroyJavaVM`); threads without an OS id (absent or 0: virtual threads)
 * are told apart by Java id. __tests__/thread-rule.test.ts checks it against the parser's chain.
 */
const sameThread = (b: ThreadEntry, t: ThreadEntry) => b[2] === t[2] && (b[3] === t[3] || (t[2] !== null && t[2] !== 0));

/**
 * Chain every chunk's thread pool from the decoders' count passes, once, as the JDK's reader goes
 * from chunk to chunk (jdk.jfr's ChunkParser reuses the previous chunk's resolved constant for
 * every key the next chunk's pool also holds; the parser's chain_step): a pool id keeps the thread
 * the previous chunk ended with while it is the same thread (sameThread), so a thread
 * renamed while recording keeps the name of the first chunk of the unbroken run of chunks listing
 * it. The chunks chain within their run (`runs`, per chunk: layout.ts chainRuns; one run without
 * it): several files opened together are each read alone unless they are one JVM's chunk files,
 * so a chunk follows the run's chunk before it, whatever other files' chunks lie between. A chunk
 * missing from the counts (not read: damaged) breaks its run's chain. Returns the overrides:
 * per chunk, the ids whose chained thread differs from the chunk's own entry, nearly always few.
 * The pools change little from chunk to chunk, and so does the chain: only the ids a change
 * names are looked at again, while one run's chunks follow one another.
 */
export function chainThreads(counted: Description[], runs?: ArrayLike<number>): ThreadOverrides {
  const pools = counted.flatMap((d) => d.chunkThreads ?? []).sort((a, b) => a.chunk - b.chunk);
  const runOf = (c: number) => (runs && c < runs.length ? runs[c] : 0);
  /** Per chunk, the chunk before it in its run (-2 for none). */
  const before: number[] = [];
  if (runs) {
    const at = new Map<number, number>();
    for (let c = 0; c < runs.length; c++) {
      before.push(at.get(runs[c]) ?? -2);
      at.set(runs[c], c);
    }
  }
  const beforeOf = (c: number) => (c < before.length ? before[c] : c - 1);
  /** The pool of the chunk before in the file (id → its own entry): what a change applies to. */
  let own = new Map<number, ThreadEntry>();
  /** Per run: its last chunk chained, the thread each id ended with there, and the ids whose thread is not their own entry. */
  const state = new Map<number, { chunk: number; last: Map<number, ThreadEntry>; over: Set<number> }>();
  const out: { chunk: number; t: ThreadEntry }[] = [];
  for (const p of pools) {
    if (p.whole) own = new Map(p.threads.map((t) => [t[0], t]));
    else {
      // A change since the chunk before, counted by the same decoder.
      for (const id of p.gone) own.delete(id);
      for (const t of p.threads) own.set(t[0], t);
    }
    const run = runOf(p.chunk);
    const st = state.get(run);
    const follows = st !== undefined && st.chunk === beforeOf(p.chunk);
    let last: Map<number, ThreadEntry>;
    let over: Set<number>;
    if (follows && !p.whole && st.chunk === p.chunk - 1) {
      // The run's chunk before is the one the change is from: only the ids it names.
      ({ last, over } = st);
      for (const id of p.gone) {
        last.delete(id);
        over.delete(id);
      }
      for (const t of p.threads) {
        const b = last.get(t[0]);
        const kept = b && sameThread(b, t) ? b : t;
        last.set(t[0], kept);
        if (sameEntry(kept, t)) over.delete(t[0]);
        else over.add(t[0]);
      }
    } else {
      const prev = follows ? st.last : new Map<number, ThreadEntry>();
      last = new Map();
      over = new Set();
      for (const t of own.values()) {
        const b = prev.get(t[0]);
        // The same thread keeps what it was; another's id is its own entry.
        const kept = b && sameThread(b, t) ? b : t;
        last.set(t[0], kept);
        if (!sameEntry(kept, t)) over.add(t[0]);
      }
    }
    state.set(run, { chunk: p.chunk, last, over });
    for (const id of over) out.push({ chunk: p.chunk, t: last.get(id)! });
  }
  return {
    chunk: Uint32Array.from(out, (o) => o.chunk),
    id: Float64Array.from(out, (o) => o.t[0]),
    name: out.map((o) => o.t[1]),
    os: Float64Array.from(out, (o) => o.t[2] ?? NaN),
    java: Float64Array.from(out, (o) => o.t[3] ?? NaN),
    virt: Uint8Array.from(out, (o) => o.t[4]),
  };
}

/** No thread overrides: every chunk's threads as the chunk writes them. */
export function noThreadOverrides(): ThreadOverrides {
  return { chunk: new Uint32Array(0), id: new Float64Array(0), name: [], os: new Float64Array(0), java: new Float64Array(0), virt: new Uint8Array(0) };
}

/** Overrides of several groups' chunks, as one. */
export function joinOverrides(list: ThreadOverrides[]): ThreadOverrides {
  const cat = <A extends Uint32Array | Float64Array | Uint8Array>(parts: A[], make: (n: number) => A): A => {
    const out = make(parts.reduce((a, p) => a + p.length, 0));
    let at = 0;
    for (const p of parts) {
      out.set(p, at);
      at += p.length;
    }
    return out;
  };
  return {
    chunk: cat(list.map((o) => o.chunk), (n) => new Uint32Array(n)),
    id: cat(list.map((o) => o.id), (n) => new Float64Array(n)),
    name: list.flatMap((o) => o.name),
    os: cat(list.map((o) => o.os), (n) => new Float64Array(n)),
    java: cat(list.map((o) => o.java), (n) => new Float64Array(n)),
    virt: cat(list.map((o) => o.virt), (n) => new Uint8Array(n)),
  };
}

/** The overrides of the chunks `has` keeps. */
export function overridesIn(o: ThreadOverrides, has: (chunk: number) => boolean): ThreadOverrides {
  const k: number[] = [];
  for (let i = 0; i < o.chunk.length; i++) if (has(o.chunk[i])) k.push(i);
  return {
    chunk: Uint32Array.from(k, (i) => o.chunk[i]),
    id: Float64Array.from(k, (i) => o.id[i]),
    name: k.map((i) => o.name[i]),
    os: Float64Array.from(k, (i) => o.os[i]),
    java: Float64Array.from(k, (i) => o.java[i]),
    virt: Uint8Array.from(k, (i) => o.virt[i]),
  };
}

/** Per chunk whose count pass found jdk.JVMInformation: which JVM wrote it ("pid@jvmStartTime"), for layout.ts chainRuns. */
export function chunkJvms(counted: Description[]): Map<number, string> {
  const out = new Map<number, string>();
  for (const d of counted) for (const [c, pid, start] of d.chunkJvms ?? []) out.set(c, `${pid}@${start}`);
  return out;
}

/**
 * The thread overrides each decoder is handed (its rows passes, type tables and events shown):
 * those of the chunks its count pass read, from the chain of every decoder's chunks.
 */
export function groupOverrides(counted: Description[], runs?: ArrayLike<number>): ThreadOverrides[] {
  const chained = chainThreads(counted, runs);
  return counted.map((d) => {
    const mine = new Set((d.chunkThreads ?? []).map((c) => c.chunk));
    return overridesIn(chained, (c) => mine.has(c));
  });
}

/** The wasm `decodeEvent` (keeps this module free of the glue). */
export type WasmDecodeEvent = (
  chunkBytes: Uint8Array,
  chunkOffset: number,
  chunk: number,
  offset: number,
  originMs: number,
  threadChunk: Uint32Array,
  threadIds: Float64Array,
  threadNames: string[],
  threadOs: Float64Array,
  threadJava: Float64Array,
  threadVirt: Uint8Array,
) => string;

/**
 * Every field of the event at absolute `offset` of the chunk `span` (its bytes `bytes`), as the
 * wasm gives them (fields.ts): its threads named by the chunk's overrides (`threads`, the
 * session's threadsOf), as its row names them.
 */
export function eventJson(decode: WasmDecodeEvent, bytes: Uint8Array, span: ChunkSpan, offset: number, originMs: number, threads?: ThreadOverrides): string {
  const t = threads ?? noThreadOverrides();
  return decode(bytes, span.offset, span.index, offset, originMs, t.chunk, t.id, t.name, t.os, t.java, t.virt);
}

/** Hand a parser (or a table reader) the thread overrides (chainThreads), so its rows resolve threads as the JDK does across chunks. */
export function setThreadChain(p: Pick<WasmParser, 'setThreadChain'>, o: ThreadOverrides): void {
  p.setThreadChain(o.chunk, o.id, o.name, o.os, o.java, o.virt);
}

export interface PartColumns {
  strings: string[];
  threadName: Uint32Array;
  threadOsId: Float64Array;
  threadJavaId: Float64Array;
  threadVirtual: Uint8Array;
  frameName: Uint32Array;
  frameClass: Uint32Array;
  frameLine: Int32Array;
  frameBci: Int32Array;
  frameKind: Uint8Array;
  stackFrame: Uint32Array;
  stackPrefix: Int32Array;
  /** The stack rows' call nodes, when the merge made them (Merger). */
  calls?: CallNodeColumns;
  eventType: Uint16Array;
  eventStart: Float64Array;
  eventDuration: Float32Array;
  eventThread: Int32Array;
  eventStack: Int32Array;
  eventWeight: Float64Array;
  eventState: Int32Array;
  eventSubject: Int32Array;
  eventValue: Float64Array;
  eventPeer: Int32Array;
  eventOffset: Float64Array;
  /**
   * Event columns a streamed piece holds as one value for every row, their arrays left empty
   * (a picked type fills some with one value: its type, a weight of 1, no state, no peer): the
   * merger fills them instead of copying. Never the start or offset column (`pieceRows`).
   */
  constant?: Partial<Record<EventColumn, number>>;
  /**
   * Rows of a piece already written into the page's shared columns (SharedInto), from position
   * `placedAt`, as the decoder numbers them: its event columns are empty, and the page
   * renumbers the rows where they are.
   */
  placed?: number;
  placedAt?: number;
  /** How far the rows reach and how many lost their stack, found as they were read (rowsExtent). */
  extent?: RowsExtent;
  /** Per event type (description order): 0 when none of its rows holds a thread state (Merger). */
  statesIn?: Uint8Array;
  /** Lazy columns' ranges not written yet (merge.ts PendingFills): fill them before reading those columns here. */
  pending?: PendingFills;
  description: Description;
}

/** What the profile's summary needs of a set of rows (toProfile), found as the rows are read. */
export interface RowsExtent {
  /** The latest end, start + duration in ms since the recording's origin; -Infinity without rows. */
  end: number;
  /** Rows whose stack was lost (STACK_LOST). */
  stacksLost: number;
}

/**
 * The extent of rows [from, to) of these columns; a column a piece holds as one value is that
 * number. For rows the page holds already (a decoder finds its pieces' extent as it decodes
 * them, so the page need not read every row again once a round is merged).
 */
export function rowsExtent(start: Float64Array, duration: Float32Array | number, stack: Int32Array | number, from: number, to: number): RowsExtent {
  // One loop per column's form: a loop that takes either (an array or one number) costs several
  // times as much per row.
  const end = typeof duration === 'number' ? latestStart(start, from, to) + duration : latestEnd(start, duration, from, to);
  const stacksLost = typeof stack === 'number' ? (stack === STACK_LOST ? to - from : 0) : lostStacks(stack, from, to);
  return { end, stacksLost };
}

function latestEnd(start: Float64Array, duration: Float32Array, from: number, to: number): number {
  let end = -Infinity;
  for (let i = from; i < to; i++) {
    const t = start[i] + duration[i];
    end = t > end ? t : end;
  }
  return end;
}

function latestStart(start: Float64Array, from: number, to: number): number {
  let end = -Infinity;
  for (let i = from; i < to; i++) end = start[i] > end ? start[i] : end;
  return end;
}

function lostStacks(stack: Int32Array, from: number, to: number): number {
  // (A local: an imported binding read in the loop is a property load per row under some loaders.)
  const marker = STACK_LOST;
  let lost = 0;
  for (let i = from; i < to; i++) lost += stack[i] === marker ? 1 : 0;
  return lost;
}

/** The extent of the rows `p` holds since its last piece, as the parser found it decoding them. */
function pieceExtent(p: WasmParser): RowsExtent {
  return { end: p.pieceEnd(), stacksLost: p.pieceStacksLost() };
}

/** Two extents as one. */
export function joinExtents(a: RowsExtent, b: RowsExtent): RowsExtent {
  return { end: Math.max(a.end, b.end), stacksLost: a.stacksLost + b.stacksLost };
}

/**
 * The page's event columns as shared memory (EVENT_COLUMNS order), when the page is
 * cross-origin isolated, and the rows [at, end) one decoder writes into them: a piece goes out
 * of wasm memory once, straight to where the page keeps it (each memory page first written by a
 * decoder, in parallel), and the page only renumbers it.
 */
export interface SharedInto {
  columns: SharedArrayBuffer[];
  at: number;
  end: number;
}

/** Rows of a part or piece (its offset column is never held as a constant). */
export function pieceRows(p: Pick<PartColumns, 'eventOffset' | 'placed'>): number {
  return p.placed ?? p.eventOffset.length;
}

/** The typed arrays of a part, for a transfer list. */
export function transferables(p: PartColumns): ArrayBuffer[] {
  const out: ArrayBuffer[] = [];
  for (const v of Object.values(p)) {
    if (ArrayBuffer.isView(v)) out.push(v.buffer as ArrayBuffer);
  }
  return out;
}

/** The event columns of a part, in the order of the wasm Parser's `eventColumnAt`. */
const EVENT_COLUMNS = [
  ['eventType', Uint16Array],
  ['eventStart', Float64Array],
  ['eventDuration', Float32Array],
  ['eventThread', Int32Array],
  ['eventStack', Int32Array],
  ['eventWeight', Float64Array],
  ['eventState', Int32Array],
  ['eventSubject', Int32Array],
  ['eventValue', Float64Array],
  ['eventPeer', Int32Array],
  ['eventOffset', Float64Array],
] as const;

export type EventColumn = (typeof EVENT_COLUMNS)[number][0];

/** The event columns' names, in the order of the wasm Parser's `eventColumnAt` (and of SharedInto's columns). */
export const EVENT_COLUMN_NAMES: EventColumn[] = EVENT_COLUMNS.map(([k]) => k);

/** The buffers of a piece's event columns, in EVENT_COLUMNS order (for `EventBuffers.give`). */
export function eventBuffers(p: PartColumns): ArrayBuffer[] {
  return EVENT_COLUMNS.map(([k]) => p[k].buffer as ArrayBuffer);
}

/**
 * The most rows of `types` in one chunk of a group, from its count pass (`d.chunkCounts`); only
 * the chunks at the offsets `chunks` when given (a time window).
 */
export function mostRowsInAChunk(d: Description | null, types: string[], chunks?: number[]): number {
  if (!d?.chunkCounts) return 0;
  const want = new Set(types.map((t) => d.types.findIndex((x) => x.name === t)).filter((i) => i >= 0));
  const only = chunks && new Set(chunks);
  let most = 0;
  d.chunkCounts.forEach((pairs, k) => {
    if (only && !only.has(d.chunks[k]?.offset)) return;
    let n = 0;
    for (let i = 0; i + 1 < pairs.length; i += 2) if (want.has(pairs[i])) n += pairs[i + 1];
    most = Math.max(most, n);
  });
  return most;
}

/** Pieces a decoder may have out (sent, not merged and handed back) before it waits (EventBuffers.room); two buffers of each column kept free. */
export const PIECES_OUT = 3;

/**
 * Buffers for the event columns of a stream of pieces, handed back by the page once it has
 * merged a piece: the next piece is copied out of wasm memory into them. Memory touched for the
 * first time costs several times its copy (the system maps and zeroes each page), and a pick of
 * millions of rows streams a gigabyte of pieces through each decoder.
 */
export class EventBuffers {
  /** Per column, buffers free for the next piece (a few at most). */
  private readonly free: ArrayBuffer[][] = EVENT_COLUMNS.map(() => []);
  /** Columns copied into a buffer handed back (not a new one). */
  reused = 0;
  /** Columns sent as one value (not copied). */
  constants = 0;
  /** Pieces read and not handed back yet. */
  private out = 0;
  /** Wakes `room` when a piece comes back. */
  private back: (() => void) | null = null;

  /** Buffers of a merged piece, in EVENT_COLUMNS order (eventBuffers). */
  give(buffers: ArrayBuffer[]): void {
    buffers.forEach((b, k) => {
      // (A column held as a constant went with an empty buffer.)
      if (k < this.free.length && this.free[k].length < 2 && b.byteLength > 0) this.free[k].push(b);
    });
    this.out = Math.max(0, this.out - 1);
    this.back?.();
  }

  /** A new stream of pieces: none out (a failed stream's pieces never come back). */
  restart(): void {
    this.out = 0;
  }

  /**
   * Wait, at most `ms`, while `limit` pieces or more are out. A decoder that runs ahead of the
   * page's merge copies its next pieces into fresh buffers, and memory touched for the first
   * time costs several times the copy: in Chromium, a pick of 16.7 M rows spent 0.45 s per
   * worker copying pieces out into fresh buffers, 0.1–0.2 s into buffers handed back. The wait
   * is short: a page slow to merge (deep stacks to number) must not leave both decoders idle.
   */
  async room(limit = PIECES_OUT, ms = 120): Promise<void> {
    const until = performance.now() + ms;
    while (this.out >= limit) {
      const left = until - performance.now();
      if (left <= 0) return;
      await new Promise<void>((resolve) => {
        const t = setTimeout(resolve, left);
        this.back = () => {
          clearTimeout(t);
          this.back = null;
          resolve();
        };
      });
    }
  }

  /**
   * The event rows `p` holds since its last piece, copied out of wasm `memory`; a column whose
   * rows all hold one value (of two rows or more) is not copied but named in `constant`.
   */
  read(p: WasmParser, memory: WebAssembly.Memory): Pick<PartColumns, EventColumn | 'constant' | 'extent'> {
    const n = p.pendingRows();
    const out = {} as Record<string, ArrayBufferView>;
    const constant: Partial<Record<EventColumn, number>> = {};
    EVENT_COLUMNS.forEach(([name, T], k) => {
      const one = n > 1 ? p.eventColumnOne(k) : undefined;
      if (one !== undefined) {
        constant[name] = one;
        out[name] = new T(0);
        this.constants++;
        return;
      }
      // The pointer first: making a column (times in ms) can grow wasm memory, which detaches
      // the buffer read before it.
      const at = p.eventColumnAt(k);
      const from = new T(memory.buffer, at, n);
      const bytes = n * T.BYTES_PER_ELEMENT;
      const free = this.free[k];
      const i = free.findIndex((b) => b.byteLength >= bytes);
      // Room for a somewhat larger piece next time (pieces end where a chunk ends).
      const buffer = i >= 0 ? free.splice(i, 1)[0] : new ArrayBuffer(bytes + (bytes >> 2));
      if (i >= 0) this.reused++;
      const to = new T(buffer, 0, n);
      to.set(from);
      out[name] = to;
    });
    this.out++;
    return { ...(out as unknown as Pick<PartColumns, EventColumn>), constant, extent: pieceExtent(p) };
  }

  /**
   * The event rows `p` holds since its last piece, copied out of wasm `memory` into the page's
   * shared columns at `into.at` (which moves on past them); a column whose rows all hold one value
   * is not written but named in `constant` (the page fills it, or leaves it until read). More rows than the range holds is an error, and
   * nothing is written: the range after it is another decoder's.
   */
  place(p: WasmParser, memory: WebAssembly.Memory, into: SharedInto): Pick<PartColumns, EventColumn | 'constant' | 'placed' | 'placedAt' | 'extent'> {
    const n = p.pendingRows();
    if (into.at + n > into.end) throw new Error(`A decoder read more rows than its count pass found (${into.at + n - into.end} more).`);
    const out = {} as Record<string, ArrayBufferView>;
    const constant: Partial<Record<EventColumn, number>> = {};
    EVENT_COLUMNS.forEach(([name, T], k) => {
      // (A typed array's constructor takes a SharedArrayBuffer as it takes an ArrayBuffer.)
      const to = new T(into.columns[k] as unknown as ArrayBuffer, into.at * T.BYTES_PER_ELEMENT, n);
      out[name] = new T(0);
      const one = n > 1 ? p.eventColumnOne(k) : undefined;
      if (one !== undefined) {
        constant[name] = one;
        this.constants++;
        return;
      }
      // The pointer first: making a column can grow wasm memory, which detaches the buffer read before it.
      const at = p.eventColumnAt(k);
      to.set(new T(memory.buffer, at, n));
    });
    const placedAt = into.at;
    into.at += n;
    // Out until the page has renumbered it (`give`), as a piece handed over is until merged.
    this.out++;
    return { ...(out as unknown as Pick<PartColumns, EventColumn>), constant, placed: n, placedAt, extent: pieceExtent(p) };
  }
}

/** The wasm Parser's surface that decoding needs (keeps this module free of the glue). */
export interface WasmParser {
  addChunks(bytes: Uint8Array, baseOffset: number, firstChunk: number): void;
  countChunks(bytes: Uint8Array, baseOffset: number, firstChunk: number): void;
  /** Count a chunk read in part (a SparseChunk, consumed). */
  countSparse(chunk: WasmSparseChunk, firstChunk: number): void;
  rowsChunks(bytes: Uint8Array, baseOffset: number, firstChunk: number, names: string): void;
  /** Thread overrides (see setThreadChain). */
  setThreadChain(chunk: Uint32Array, ids: Float64Array, names: string[], os: Float64Array, java: Float64Array, virt: Uint8Array): void;
  reserveRows(rows: number): void;
  pendingRows(): number;
  /** Stack rows added since the last piece. */
  pendingStacks(): number;
  /** The latest end (start + duration, ms since the origin) of the rows since the last piece. */
  pieceEnd(): number;
  /** Rows since the last piece whose stack was lost. */
  pieceStacksLost(): number;
  nextPiece(): void;
  strings(): string[];
  threadName(): Uint32Array;
  threadOsId(): Float64Array;
  threadJavaId(): Float64Array;
  threadVirtual(): Uint8Array;
  frameName(): Uint32Array;
  frameClass(): Uint32Array;
  frameLine(): Int32Array;
  frameBci(): Int32Array;
  frameKind(): Uint8Array;
  stackFrame(): Uint32Array;
  stackPrefix(): Int32Array;
  eventType(): Uint16Array;
  eventStart(): Float64Array;
  eventDuration(): Float32Array;
  eventThread(): Int32Array;
  eventStack(): Int32Array;
  eventWeight(): Float64Array;
  eventState(): Int32Array;
  eventSubject(): Int32Array;
  eventValue(): Float64Array;
  eventPeer(): Int32Array;
  eventOffset(): Float64Array;
  /** Byte address in wasm memory of event column k (EVENT_COLUMNS) of the rows since the last piece. */
  eventColumnAt(k: number): number;
  /** The one value all rows since the last piece hold in event column k (two rows or more), else undefined. */
  eventColumnOne(k: number): number | undefined;
  describe(): string;
  shapeFirst(): number;
  shapeSamples(): Uint32Array;
  shapeAllocs(): Uint32Array;
  shapeWaiting(): Float64Array;
  free(): void;
}

/**
 * The wasm SparseChunk: one chunk read for the count pass in parts, as it asks (the bodies of
 * the checkpoints the count never looks into, a profile's stack traces, are not read).
 */
export interface WasmSparseChunk {
  /** The next range to read, relative to the chunk, as [from, to]; empty when done. */
  need(): Float64Array;
  feed(bytes: Uint8Array): void;
  bytesRead(): number;
  free(): void;
}

/** The rows since the last piece and the dictionary rows new since then; the event columns
 * through `events` when given (buffers reused piece to piece), else in new arrays. */
export function readPart(p: WasmParser, events?: { buffers: EventBuffers; memory: WebAssembly.Memory; into?: SharedInto }): PartColumns {
  const rows: Pick<PartColumns, EventColumn | 'constant' | 'placed' | 'placedAt' | 'extent'> = events
    ? events.into
      ? events.buffers.place(p, events.memory, events.into)
      : events.buffers.read(p, events.memory)
    : {
        eventType: p.eventType(),
        eventStart: p.eventStart(),
        eventDuration: p.eventDuration(),
        eventThread: p.eventThread(),
        eventStack: p.eventStack(),
        eventWeight: p.eventWeight(),
        eventState: p.eventState(),
        eventSubject: p.eventSubject(),
        eventValue: p.eventValue(),
        eventPeer: p.eventPeer(),
        eventOffset: p.eventOffset(),
      };
  rows.extent ??= pieceExtent(p);
  return {
    strings: p.strings(),
    threadName: p.threadName(),
    threadOsId: p.threadOsId(),
    threadJavaId: p.threadJavaId(),
    threadVirtual: p.threadVirtual(),
    frameName: p.frameName(),
    frameClass: p.frameClass(),
    frameLine: p.frameLine(),
    frameBci: p.frameBci(),
    frameKind: p.frameKind(),
    stackFrame: p.stackFrame(),
    stackPrefix: p.stackPrefix(),
    ...rows,
    description: JSON.parse(p.describe()) as Description,
  };
}

/**
 * Where a group's bytes come from: a slice of a File, read a chunk at a time when a pass needs
 * it (the page never holds the file), or bytes already in memory (fetched or gunzipped).
 * `base` is the group's absolute offset in the file; `size` its length.
 */
export interface GroupSource {
  base: number;
  size: number;
  spans: ChunkSpan[];
  /** One chunk's bytes (the event panel, a round sharing out its chunks); `drop`: let go of it if held. */
  read(offset: number, size: number, drop?: boolean): Promise<Uint8Array>;
  /** Whether the chunk at `offset` is held (read from memory, not the file). */
  holds(offset: number): boolean;
  /**
   * Every chunk's bytes in order (or those of `only`, some of `spans` in order), the next being
   * read while the caller decodes this one; `drop`: let go of each held chunk once handed out
   * (the pass the chunks were held for).
   */
  each(drop?: boolean, only?: ChunkSpan[]): AsyncGenerator<Uint8Array>;
  /**
   * Keep the chunks read from a File, up to `limit` bytes, until `release()`: a lazy load's count
   * pass reads each chunk once and its first rows round decodes the same bytes again; what fits
   * the limit is not read twice, the rest is read again from the file (a file of many GB is never
   * held whole).
   */
  hold(limit?: number): void;
  release(): void;
  /**
   * Whether the count pass reads its chunks in part: a File whose chunks it would not all keep
   * for the first round (a smaller one is read whole once, and kept).
   */
  readsInPart(): boolean;
}

function unreadable(e: unknown): Error {
  return new Error(`The file could not be read (was it moved or changed?): ${e instanceof Error ? e.message : String(e)}`);
}

/** Bytes of a File the reads ahead of a decoding pass may hold (at least the next chunk). */
export const READ_AHEAD_BYTES = 96 * 1024 ** 2;

/**
 * The chunks of a File slice in order, each read as its own slice with the next ones already
 * being read (up to `ahead` bytes) while the caller decodes this one. Several slice reads in
 * flight moved a 6 GB file through Chromium about 1.5× faster than one stream read a chunk at a
 * time (the browser process hands a stream over in small pieces, one after another).
 */
export async function* streamChunks(blob: Blob, base: number, spans: ChunkSpan[], ahead = READ_AHEAD_BYTES): AsyncGenerator<Uint8Array> {
  const get = (s: ChunkSpan) => blob.slice(s.offset - base, s.offset - base + s.size).arrayBuffer();
  const inFlight: { size: number; bytes: Promise<ArrayBuffer> }[] = [];
  let queued = 0;
  let k = 0;
  const fill = () => {
    while (k < spans.length && (inFlight.length === 0 || queued + spans[k].size <= ahead)) {
      const bytes = get(spans[k]);
      // A read failing ahead of its turn is reported when its turn comes, not as unhandled.
      bytes.catch(() => {});
      inFlight.push({ size: spans[k].size, bytes });
      queued += spans[k].size;
      k++;
    }
  };
  fill();
  while (inFlight.length) {
    const next = inFlight.shift()!;
    let b: ArrayBuffer;
    try {
      b = await next.bytes;
    } catch (e) {
      throw unreadable(e);
    }
    queued -= next.size;
    if (b.byteLength !== next.size) throw unreadable(new Error('it ended early'));
    fill();
    yield new Uint8Array(b);
  }
}

export function sourceOf(data: Blob | ArrayBuffer, base: number, all: ChunkSpan[]): GroupSource {
  const size = data instanceof Blob ? data.size : data.byteLength;
  let held: { chunks: Map<number, Uint8Array>; bytes: number; limit: number } | null = null;
  const read = async (offset: number, n: number, drop = false): Promise<Uint8Array> => {
    if (!(data instanceof Blob)) return new Uint8Array(data, offset - base, n);
    const kept = held?.chunks.get(offset);
    if (kept && kept.length === n) {
      if (drop) held!.chunks.delete(offset);
      return kept;
    }
    try {
      return new Uint8Array(await data.slice(offset - base, offset - base + n).arrayBuffer());
    } catch (e) {
      throw unreadable(e);
    }
  };
  async function* each(drop = false, only?: ChunkSpan[]): AsyncGenerator<Uint8Array> {
    const spans = only ?? all;
    if (!(data instanceof Blob)) {
      for (const s of spans) yield read(s.offset, s.size);
      return;
    }
    // Runs of chunks held (yielded from memory) and not held (streamed from the file, and kept
    // while the limit allows).
    const keep = held;
    for (let i = 0; i < spans.length; ) {
      if (keep?.chunks.has(spans[i].offset)) {
        const bytes = keep.chunks.get(spans[i].offset)!;
        // The first rows round decodes them once more: memory shrinks as the round grows.
        if (drop) keep.chunks.delete(spans[i].offset);
        i++;
        yield bytes;
        continue;
      }
      let j = i;
      while (j < spans.length && !keep?.chunks.has(spans[j].offset)) j++;
      const run = spans.slice(i, j);
      let k = 0;
      for await (const bytes of streamChunks(data, base, run)) {
        if (keep && !drop && keep.bytes + bytes.length <= keep.limit) {
          keep.chunks.set(run[k].offset, bytes);
          keep.bytes += bytes.length;
        }
        k++;
        yield bytes;
      }
      i = j;
    }
  }
  return {
    base,
    size,
    spans: all,
    read,
    holds: (offset) => !(data instanceof Blob) || (held?.chunks.has(offset) ?? false),
    each,
    hold: (limit = Infinity) => void (held ??= { chunks: new Map(), bytes: 0, limit }),
    release: () => void (held = null),
    readsInPart: () => data instanceof Blob && all.length > 0 && (held?.limit ?? 0) < size,
  };
}

/**
 * One group of chunks through a parser, chunk by chunk (so wasm memory holds one chunk's bytes
 * at a time). With no chunk header at all, the whole group goes in once, for the parser's error.
 */
async function eachChunk(g: GroupSource, onProgress: (done: number) => void, f: (b: Uint8Array, offset: number, index: number) => void | Promise<void>, only?: number[], drop = false) {
  if (g.spans.length === 0) return f(await g.read(g.base, g.size), g.base, 0);
  let done = 0;
  // A time window: only the chunks at these offsets, read ahead as a whole pass's are.
  const want = only && new Set(only);
  const spans = want ? g.spans.filter((s) => want.has(s.offset)) : g.spans;
  let k = 0;
  for await (const bytes of g.each(drop, want ? spans : undefined)) {
    const s = spans[k++];
    await f(bytes, s.offset, s.index);
    done += s.size;
    onProgress(done);
  }
}

/** A parser's shape over time so far (fresh typed arrays). */
function shapeOf(p: WasmParser): ShapeBins {
  return { first: p.shapeFirst(), samples: p.shapeSamples(), allocs: p.shapeAllocs(), waiting: p.shapeWaiting() };
}

/** A count pass's description, with its shape over time. */
export function describeCounted(p: WasmParser): Description {
  const d = JSON.parse(p.describe()) as Description;
  d.shape = shapeOf(p);
  return d;
}

/** How often a count pass hands out its shape so far (ms). */
export const SHAPE_EVERY_MS = 400;

/** Chunks a count pass reading in part has in flight (each reads its parts one after another). */
export const PARTLY_AT_ONCE = 4;

/**
 * Bytes of the chunks in flight, the one being counted included: each chunk's bytes are
 * allocated whole in wasm memory (what is not read stays zero), so large chunks go fewer at a
 * time; the next chunk is read whatever its size.
 */
export const PARTLY_BYTES = 256 * 1024 * 1024;

/** One chunk read as the count asks, a range at a time. */
async function readPartly(g: GroupSource, s: ChunkSpan, make: (offset: number, size: number) => WasmSparseChunk): Promise<WasmSparseChunk> {
  const c = make(s.offset, s.size);
  try {
    for (let r = c.need(); r.length === 2; r = c.need()) c.feed(await g.read(s.offset + r[0], r[1] - r[0]));
    return c;
  } catch (e) {
    c.free();
    throw e;
  }
}

/**
 * The chunks of a group read in part (`PARTLY_AT_ONCE` at a time, within `PARTLY_BYTES`) and counted in order; the
 * chunks not counted yet are let go if a read fails.
 */
async function countPartly(p: WasmParser, g: GroupSource, make: (offset: number, size: number) => WasmSparseChunk, onProgress: (done: number) => void, counted: () => void, budget: number) {
  const reads: Promise<WasmSparseChunk>[] = [];
  const start = (k: number) => {
    if (k >= g.spans.length) return;
    reads[k] = readPartly(g, g.spans[k], make);
    // A read failing ahead of its turn is reported when its turn comes, not as unhandled.
    reads[k].catch(() => {});
  };
  // Reads started up to `next`; `held` the bytes of those not counted yet.
  let next = 0;
  let held = 0;
  const fill = (from: number) => {
    while (next < g.spans.length && next - from < PARTLY_AT_ONCE && (next === from || held + g.spans[next].size <= budget)) {
      held += g.spans[next].size;
      start(next++);
    }
  };
  fill(0);
  let done = 0;
  let k = 0;
  try {
    for (; k < g.spans.length; k++) {
      const c = await reads[k];
      fill(k + 1);
      p.countSparse(c, g.spans[k].index);
      held -= g.spans[k].size;
      done += g.spans[k].size;
      onProgress(done);
      counted();
    }
  } catch (e) {
    // The chunks read ahead and not counted are let go.
    reads.slice(k + 1).forEach((r) => r.then((c) => c.free(), () => {}));
    throw e;
  }
}

/**
 * Counts, description and errors of a group: the count pass; its shape so far now and then. A
 * File the pass does not keep is read in part when `sparse` makes the chunks (readsInPart).
 */
export async function countGroup(
  make: () => WasmParser,
  g: GroupSource,
  onProgress: (done: number) => void,
  onShape?: (shape: ShapeBins) => void,
  sparse?: (offset: number, size: number) => WasmSparseChunk,
  partlyBytes = PARTLY_BYTES,
): Promise<Description> {
  const p = make();
  try {
    let last = performance.now();
    // The bins so far, now and then: the overview fills in while the count goes on.
    const counted = () => {
      if (onShape && performance.now() - last >= SHAPE_EVERY_MS) {
        last = performance.now();
        onShape(shapeOf(p));
      }
    };
    if (sparse && g.readsInPart()) await countPartly(p, g, sparse, onProgress, counted, partlyBytes);
    else
      await eachChunk(g, onProgress, (b, o, i) => {
        p.countChunks(b, o, i);
        counted();
      });
    return describeCounted(p);
  } finally {
    p.free();
  }
}

/** Rows per piece of a streamed rows pass (a piece is sent once a chunk ends past this). */
export const PIECE_ROWS = 1 << 16;

/**
 * Stack rows per piece, at most (the same rule): a type of deep, varied stacks adds dozens of
 * stack rows per event, and the page merges them one by one, so a piece of 64 K such events
 * kept the page waiting for its first piece while the decoders resolved millions of rows, then
 * behind them at the end.
 */
export const PIECE_STACKS = 1 << 18;

/** How a streamed rows pass reads and hands out its rows (rowsGroup). */
export interface RowsOptions {
  /** A piece ends where a chunk ends once it holds this many event rows… */
  pieceRows?: number;
  /** …or this many stack rows. */
  pieceStacks?: number;
  /** The offsets of the chunks to read (a time window); every chunk when absent. */
  chunks?: number[];
  /** The pieces' event columns copied into the buffers the page hands back (EventBuffers), or written into its shared columns (`into`). */
  events?: { buffers: EventBuffers; memory: WebAssembly.Memory; into?: SharedInto };
  /** The most rows of the types in one chunk (mostRowsInAChunk): what the parser makes room for. */
  chunkRows?: number;
  /** The thread overrides of its chunks (chainThreads), so threads resolve as one reader of the whole file does. */
  threads?: ThreadOverrides;
  /** Keep the chunks held from the count pass for later passes (else each is let go once decoded). */
  keep?: boolean;
  /**
   * The round shares out its chunks (steal.ts): the plan, and the whole file to read other
   * groups' chunks from. Needs `events.into` (each chunk's rows go to its range).
   */
  steal?: { plan: StealPlan; file: GroupSource };
}

/**
 * Rows of `types` in a group (`expected` of them, from its count), or in its chunks at the
 * offsets `chunks` only (a time window), handed out in pieces as they are decoded, so neither
 * wasm memory nor the worker holds more than about one piece. The last piece (`last`) carries
 * the errors decoding met.
 */
export async function rowsGroup(
  make: () => WasmParser,
  g: GroupSource,
  types: string[],
  expected: number,
  onProgress: (done: number) => void,
  onPiece: (piece: PartColumns, last: boolean) => void,
  { pieceRows = PIECE_ROWS, pieceStacks = PIECE_STACKS, chunks, events, chunkRows = 0, threads, keep = false, steal }: RowsOptions = {},
): Promise<void> {
  const p = make();
  try {
    // (A round that shares out its chunks: any chunk's overrides, and room for any chunk's rows.)
    const chain = steal ? steal.plan.threads : threads;
    if (chain) setThreadChain(p, chain);
    // Room for the rows of the chunk with most of them on top of a piece not yet cut (a piece
    // ends where a chunk ends, once it holds pieceRows), so the columns never grow by doubling:
    // wasm memory keeps its peak.
    const rows = steal ? steal.plan.tasks.flat().reduce((a, t) => a + t.rows, 0) : expected;
    p.reserveRows(Math.min(rows, Math.max(2 * pieceRows, (steal ? steal.plan.chunkRows : chunkRows) + pieceRows)));
    const names = types.join('\n');
    events?.buffers.restart();
    const send = async (last: boolean) => {
      // The buffers of a piece the page has merged, for this one.
      await events?.buffers.room();
      onPiece(readPart(p, events), last);
      if (!last) p.nextPiece();
    };
    const decode = async (b: Uint8Array, offset: number, index: number) => {
      p.rowsChunks(b, offset, index, names);
      if (p.pendingRows() >= pieceRows || p.pendingStacks() >= pieceStacks) await send(false);
    };
    if (steal) {
      const into = events?.into;
      if (!into) throw new Error("A round that shares out its chunks writes into the page's columns.");
      if (types.length) await stealChunks(g, steal.plan, steal.file, into, onProgress, decode, () => (p.pendingRows() > 0 ? send(false) : undefined), keep);
      // (A decoder that found every chunk taken sends its dictionaries alone, no rows.)
      if (into.at < 0) into.at = into.end = 0;
    } else if (types.length && g.spans.length) {
      // Without chunk headers the count pass has reported why; there are no rows to read.
      // Not kept: each chunk held from the count pass is let go once decoded, as the columns grow.
      await eachChunk(g, onProgress, decode, chunks, !keep);
    }
    await send(true);
    // Not kept: the file's bytes stay on disk from now on; later passes and events opened read them again.
    if (!keep) g.release();
  } finally {
    p.free();
  }
}

/**
 * The chunks `claim` hands this decoder in a round that shares out its chunks (steal.ts), each
 * decoded with its rows going to its range: a piece holds the rows of chunks whose ranges follow
 * one another (the front of its own queue, taken in order), so a chunk of another range first
 * has the rows before it sent (`cut`). A chunk read from the file (not held) has the next one
 * claimed and read while it is decoded.
 */
async function stealChunks(
  g: GroupSource,
  plan: StealPlan,
  file: GroupSource,
  into: SharedInto,
  onProgress: (done: number) => void,
  decode: (b: Uint8Array, offset: number, index: number) => Promise<void>,
  cut: () => Promise<void> | undefined,
  keep: boolean,
): Promise<void> {
  const next = () => {
    const c = claim(plan.queues, plan.own);
    if (!c) return null;
    const t = plan.tasks[c.group][c.k];
    const mine = c.group === plan.own;
    const read = !mine || !g.holds(t.offset);
    const bytes = mine ? g.read(t.offset, t.size, !keep) : file.read(t.offset, t.size);
    // A read failing ahead of its turn is reported when its turn comes, not as unhandled.
    bytes.catch(() => {});
    return { t, bytes, read };
  };
  let done = 0;
  let ahead = next();
  while (ahead) {
    const cur = ahead;
    ahead = cur.read ? next() : null;
    const bytes = await cur.bytes;
    const { t } = cur;
    if (t.at !== into.end) {
      await cut();
      into.at = t.at;
    }
    into.end = t.at + t.rows;
    await decode(bytes, t.offset, t.index);
    done += t.size;
    onProgress(done);
    ahead ??= next();
  }
}
