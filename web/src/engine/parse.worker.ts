/**
 * A decoding worker: owns one group of chunks (their bytes read once, from a File slice or
 * transferred), and runs the passes the page asks for on them, one at a time, in message order.
 * See protocol.ts for the messages.
 */
import init, { Parser, decodeEvent } from './pkg/jfrscope_wasm.js';
import { countGroup, rowsGroup, transferables, type WasmParser } from './columns';
import type { ChunkSpan } from './layout';
import type { WorkerRequest, WorkerResponse } from './protocol';

const ready = init();
const post = (m: WorkerResponse, transfer: Transferable[] = []) => (self as unknown as Worker).postMessage(m, transfer);

let group: Promise<{ bytes: ArrayBuffer; base: number; spans: ChunkSpan[]; originMs: number }> | null = null;
// Requests run one after another even though reading the bytes is asynchronous.
let queue: Promise<void> = Promise.resolve();

async function handle(req: Exclude<WorkerRequest, { kind: 'open' }>): Promise<void> {
  await ready;
  if (!group) throw new Error('The worker has no recording.');
  const g = await group;
  const make = () => new Parser(g.originMs) as unknown as WasmParser;
  const progress = (done: number) => post({ kind: 'progress', id: req.id, done });
  if (req.kind === 'count') {
    post({ kind: 'counted', id: req.id, description: countGroup(make, g.bytes, g.base, g.spans, progress) });
  } else if (req.kind === 'rows') {
    const part = rowsGroup(make, g.bytes, g.base, g.spans, req.types, progress);
    post({ kind: 'rows', id: req.id, part }, transferables(part));
  } else {
    const span = g.spans.find((s) => s.index === req.chunk);
    if (!span) throw new Error(`Chunk ${req.chunk} is not in this part of the file.`);
    const bytes = new Uint8Array(g.bytes, span.offset - g.base, span.size);
    post({ kind: 'fields', id: req.id, json: decodeEvent(bytes, span.offset, span.index, req.offset) });
  }
}

self.onmessage = (e: MessageEvent<WorkerRequest>) => {
  const req = e.data;
  if (req.kind === 'open') {
    const { source, base, spans, originMs } = req;
    const bytes = source instanceof Blob ? source.arrayBuffer() : Promise.resolve(source);
    group = bytes.then(
      (b) => ({ bytes: b, base, spans, originMs }),
      (err: unknown) => {
        throw new Error(`The file could not be read: ${err instanceof Error ? err.message : String(err)}`);
      },
    );
    group.catch(() => {});
    return;
  }
  queue = queue.then(() =>
    handle(req).catch((err: unknown) => {
      post({ kind: 'error', id: req.id, message: err instanceof Error ? err.message : String(err) });
    }),
  );
};
