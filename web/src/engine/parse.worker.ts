/**
 * A decoding worker: owns one group of chunks (a File slice it reads a chunk at a time, or bytes
 * transferred to it) and runs the passes the page asks for on them, one at a time, in order.
 * See protocol.ts for the messages.
 */
import init, { Parser, SparseChunk, TableReader, decodeEvent } from './pkg/jfrscope_wasm.js';
import { countGroup, EventBuffers, eventJson, mostRowsInAChunk, rowsGroup, sourceOf, transferables, type Description, type GroupSource, type ShapeBins, type WasmParser, type WasmSparseChunk } from './parts';
import type { WorkerRequest, WorkerResponse } from './protocol';
import { tableGroup, tablePartTransferables, type WasmTableReader } from './type-table';

const ready = init();
const post = (m: WorkerResponse, transfer: Transferable[] = []) => (self as unknown as Worker).postMessage(m, transfer);

let group: { source: GroupSource; originMs: number; file: GroupSource | null } | null = null;
/** The count pass's description of this worker's chunks (how many rows each holds). */
let counted: Description | null = null;
/** Event column buffers of pieces the page has merged, for the next pieces. */
const buffers = new EventBuffers();
// Requests run one after another, though reading chunks is asynchronous.
let queue: Promise<void> = Promise.resolve();

async function handle(req: Exclude<WorkerRequest, { kind: 'open' | 'recycle' }>): Promise<void> {
  const { memory } = await ready;
  if (!group) throw new Error('The worker has no recording.');
  const { source, originMs } = group;
  const make = () => new Parser(originMs) as unknown as WasmParser;
  const progress = (done: number) => post({ kind: 'progress', id: req.id, done });
  const sparse = (offset: number, size: number) => new SparseChunk(offset, size) as unknown as WasmSparseChunk;
  if (req.kind === 'count') {
    source.hold(req.hold);
    const shape = (s: ShapeBins) => post({ kind: 'shape', id: req.id, shape: s }, [s.samples.buffer, s.allocs.buffer, s.waiting.buffer] as ArrayBuffer[]);
    counted = await countGroup(make, source, progress, shape, sparse);
    post({ kind: 'counted', id: req.id, description: counted });
  } else if (req.kind === 'rows') {
    if (req.steal && !group.file) throw new Error('This decoder was not given the whole file: it cannot decode other groups\' chunks.');
    await rowsGroup(
      make,
      source,
      req.types,
      req.expected,
      progress,
      (part, last) => post({ kind: last ? 'rows' : 'piece', id: req.id, part }, transferables(part)),
      {
        chunks: req.chunks,
        // (A copy: the position moves on as pieces are placed.)
        events: { buffers, memory, into: req.into && { ...req.into } },
        chunkRows: mostRowsInAChunk(counted, req.types, req.chunks),
        threads: req.threads,
        keep: req.keep,
        steal: req.steal && group.file ? { plan: req.steal, file: group.file } : undefined,
      },
    );
  } else if (req.kind === 'table') {
    const part = await tableGroup(() => new TableReader(req.type, originMs) as unknown as WasmTableReader, source, progress, req.threads);
    post({ kind: 'table', id: req.id, part }, tablePartTransferables(part));
  } else {
    const span = source.spans.find((s) => s.index === req.chunk);
    if (!span) throw new Error(`Chunk ${req.chunk} is not in this part of the file.`);
    const bytes = await source.read(span.offset, span.size);
    post({ kind: 'fields', id: req.id, json: eventJson(decodeEvent, bytes, span, req.offset, originMs, req.threads) });
  }
}

self.onmessage = (e: MessageEvent<WorkerRequest>) => {
  const req = e.data;
  if (req.kind === 'open') {
    group = { source: sourceOf(req.source, req.base, req.spans), originMs: req.originMs, file: req.file ? sourceOf(req.file, 0, []) : null };
    return;
  }
  // At once, not after the request under way: its next pieces take them.
  if (req.kind === 'recycle') return buffers.give(req.buffers);
  queue = queue.then(() =>
    handle(req).catch((err: unknown) => {
      post({ kind: 'error', id: req.id, message: err instanceof Error ? err.message : String(err) });
    }),
  );
};
