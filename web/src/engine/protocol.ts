/** Messages between the page and the decoding workers. */
import type { PartColumns } from './columns';
import type { ChunkSpan } from './layout';

export type WorkerRequest =
  | { kind: 'parse'; bytes: ArrayBuffer; base: number; spans: ChunkSpan[]; originMs: number }
  | { kind: 'decode'; id: number; bytes: ArrayBuffer; chunkOffset: number; chunk: number; offset: number };

export type WorkerResponse =
  | { kind: 'progress'; done: number }
  | { kind: 'result'; part: PartColumns }
  | { kind: 'fields'; id: number; json: string }
  | { kind: 'error'; id: number; message: string };
