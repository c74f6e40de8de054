/**
 * Messages between the page and a decoding worker. A worker owns one group of chunks for as
 * long as the recording is open, and answers requests by id.
 *
 *   open {source: File slice or bytes, spans, file?}  (no answer; the worker keeps the source, and
 *                                                     the whole File to decode other groups' chunks)
 *   count {id, hold}  ─▶ (progress | shape)* ─▶ counted {description}   (shape: the bins so far)
 *   rows {id, types, chunks?, threads?, into?, keep?}  ─▶ (progress | piece)* ─▶ rows {the last piece}   (typed arrays transferred;
 *                                                     with into, the rows written to the page's shared columns; keep:
 *                                                     the chunks held from the count pass stay held for later passes;
 *                                                     steal: the chunks shared out as the decoders go, steal.ts)
 *   event {id, chunk, offset, threads?} ─▶ fields {json}
 *   table {id, type, threads?}  ─▶ progress* ─▶ table {part}   (one type, every field; typed arrays transferred)
 *   recycle {buffers}                               (no answer: a merged piece's event column
 *                                                     buffers, for the next pieces to reuse)
 */
import type { Description, PartColumns, ShapeBins, SharedInto, ThreadOverrides } from './parts';
import type { TablePart } from './type-table';
import type { ChunkSpan } from './layout';
import type { StealPlan } from './steal';

export type WorkerRequest =
  | { kind: 'open'; source: Blob | ArrayBuffer; base: number; spans: ChunkSpan[]; originMs: number; file?: Blob }
  | { kind: 'count'; id: number; hold?: number }
  | { kind: 'rows'; id: number; types: string[]; expected: number; chunks?: number[]; threads?: ThreadOverrides; into?: SharedInto; keep?: boolean; steal?: StealPlan }
  | { kind: 'event'; id: number; chunk: number; offset: number; threads?: ThreadOverrides }
  | { kind: 'table'; id: number; type: string; threads?: ThreadOverrides }
  | { kind: 'recycle'; buffers: ArrayBuffer[] };

export type WorkerResponse =
  | { kind: 'progress'; id: number; done: number }
  | { kind: 'shape'; id: number; shape: ShapeBins }
  | { kind: 'counted'; id: number; description: Description }
  | { kind: 'piece'; id: number; part: PartColumns }
  | { kind: 'rows'; id: number; part: PartColumns }
  | { kind: 'fields'; id: number; json: string }
  | { kind: 'table'; id: number; part: TablePart }
  | { kind: 'error'; id: number; message: string };
