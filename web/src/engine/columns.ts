/**
 * What one decoding pass (one worker, one group of chunks) hands back: plain typed arrays and
 * a JSON description, ready to be transferred between threads without copying.
 */
import type { EventKind } from '../profile-logic/profile';
import type { ChunkSpan } from './layout';

export interface TypeRow {
  name: string;
  label: string;
  kind: EventKind;
  count: number;
  hasStack: boolean;
  decoded: boolean;
  weightUnit: 'samples' | 'bytes' | 'events';
}

/** Whether a type's events become rows at all (the parser's rule: known kinds and stacks). */
export function decodable(t: TypeRow): boolean {
  return t.count > 0 && (t.kind !== 'other' || t.hasStack);
}

export interface Description {
  types: TypeRow[];
  chunks: { offset: number; size: number; startNs: string; durationNs: string; version: string }[];
  errors: { message: string; chunk: number; offset: number }[];
  info: {
    jvm: { name: string; version: string; args: string; flags: string } | null;
    os: string | null;
    cpu: string | null;
    settings: { type: string; name: string; value: string }[];
    properties: { key: string; value: string }[];
  };
}

export interface PartColumns {
  strings: string[];
  threadName: Uint32Array;
  threadOsId: Float64Array;
  threadJavaId: Float64Array;
  frameName: Uint32Array;
  frameClass: Uint32Array;
  frameLine: Int32Array;
  frameBci: Int32Array;
  frameKind: Uint8Array;
  stackFrame: Uint32Array;
  stackPrefix: Int32Array;
  eventType: Uint32Array;
  eventStart: Float64Array;
  eventDuration: Float64Array;
  eventThread: Int32Array;
  eventStack: Int32Array;
  eventWeight: Float64Array;
  eventState: Int32Array;
  eventSubject: Int32Array;
  eventValue: Float64Array;
  eventPeer: Int32Array;
  eventChunk: Uint32Array;
  eventOffset: Float64Array;
  description: Description;
}

/** The typed arrays of a part, for a transfer list. */
export function transferables(p: PartColumns): ArrayBuffer[] {
  const out: ArrayBuffer[] = [];
  for (const v of Object.values(p)) {
    if (ArrayBuffer.isView(v)) out.push(v.buffer as ArrayBuffer);
  }
  return out;
}

/** The wasm Parser's surface that decoding needs (keeps this module free of the glue). */
export interface WasmParser {
  addChunks(bytes: Uint8Array, baseOffset: number, firstChunk: number): void;
  countChunks(bytes: Uint8Array, baseOffset: number, firstChunk: number): void;
  rowsChunks(bytes: Uint8Array, baseOffset: number, firstChunk: number, names: string): void;
  strings(): string[];
  threadName(): Uint32Array;
  threadOsId(): Float64Array;
  threadJavaId(): Float64Array;
  frameName(): Uint32Array;
  frameClass(): Uint32Array;
  frameLine(): Int32Array;
  frameBci(): Int32Array;
  frameKind(): Uint8Array;
  stackFrame(): Uint32Array;
  stackPrefix(): Int32Array;
  eventType(): Uint32Array;
  eventStart(): Float64Array;
  eventDuration(): Float64Array;
  eventThread(): Int32Array;
  eventStack(): Int32Array;
  eventWeight(): Float64Array;
  eventState(): Int32Array;
  eventSubject(): Int32Array;
  eventValue(): Float64Array;
  eventPeer(): Int32Array;
  eventChunk(): Uint32Array;
  eventOffset(): Float64Array;
  describe(): string;
  free(): void;
}

export function readPart(p: WasmParser): PartColumns {
  return {
    strings: p.strings(),
    threadName: p.threadName(),
    threadOsId: p.threadOsId(),
    threadJavaId: p.threadJavaId(),
    frameName: p.frameName(),
    frameClass: p.frameClass(),
    frameLine: p.frameLine(),
    frameBci: p.frameBci(),
    frameKind: p.frameKind(),
    stackFrame: p.stackFrame(),
    stackPrefix: p.stackPrefix(),
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
    eventChunk: p.eventChunk(),
    eventOffset: p.eventOffset(),
    description: JSON.parse(p.describe()) as Description,
  };
}

/**
 * One group of chunks through a fresh parser, chunk by chunk (so wasm memory holds one chunk's
 * bytes at a time): `bytes` start at absolute offset `base`. With no chunk header at all, the
 * whole buffer goes in once, for the parser's error.
 */
function eachChunk(bytes: ArrayBuffer, base: number, spans: ChunkSpan[], onProgress: (done: number) => void, f: (b: Uint8Array, offset: number, index: number) => void) {
  if (spans.length === 0) f(new Uint8Array(bytes), base, 0);
  let done = 0;
  for (const s of spans) {
    f(new Uint8Array(bytes, s.offset - base, s.size), s.offset, s.index);
    done += s.size;
    onProgress(done);
  }
}

/** Counts, description and errors of a group: the count pass. */
export function countGroup(make: () => WasmParser, bytes: ArrayBuffer, base: number, spans: ChunkSpan[], onProgress: (done: number) => void): Description {
  const p = make();
  try {
    eachChunk(bytes, base, spans, onProgress, (b, o, i) => p.countChunks(b, o, i));
    return JSON.parse(p.describe()) as Description;
  } finally {
    p.free();
  }
}

/** Rows of `types` in a group (and the errors decoding them met). */
export function rowsGroup(make: () => WasmParser, bytes: ArrayBuffer, base: number, spans: ChunkSpan[], types: string[], onProgress: (done: number) => void): PartColumns {
  const p = make();
  try {
    const names = types.join('\n');
    // Without chunk headers the count pass has reported why; there are no rows to read.
    if (types.length && spans.length) eachChunk(bytes, base, spans, onProgress, (b, o, i) => p.rowsChunks(b, o, i, names));
    return readPart(p);
  } finally {
    p.free();
  }
}
