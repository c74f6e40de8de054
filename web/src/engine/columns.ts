/**
 * What one decoding pass (one worker, one group of chunks) hands back: plain typed arrays and
 * a JSON description, ready to be transferred between threads without copying.
 */
import type { EventKind } from '../profile-logic/profile';

export interface TypeRow {
  name: string;
  label: string;
  kind: EventKind;
  count: number;
  hasStack: boolean;
  decoded: boolean;
  weightUnit: 'samples' | 'bytes' | 'events';
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
