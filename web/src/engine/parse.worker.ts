/**
 * The decoding worker. One message in, progress messages and one result out:
 *
 *   main ──{parse, bytes(transferred), spans, originMs}──▶ worker: wasm Parser.addChunks per chunk
 *   main ◀──{progress, done}── … ◀──{result, part(typed arrays transferred)}──
 *
 * It also decodes all fields of one event on request (the side panel).
 */
import init, { Parser, decodeEvent } from './pkg/jfrscope_wasm.js';
import { readPart, transferables, type WasmParser } from './columns';
import type { WorkerRequest, WorkerResponse } from './protocol';

const ready = init();
const post = (m: WorkerResponse, transfer: Transferable[] = []) => (self as unknown as Worker).postMessage(m, transfer);

self.onmessage = async (e: MessageEvent<WorkerRequest>) => {
  const req = e.data;
  try {
    await ready;
    if (req.kind === 'parse') {
      const parser = new Parser(req.originMs) as unknown as WasmParser;
      let done = 0;
      if (req.spans.length === 0) {
        parser.addChunks(new Uint8Array(req.bytes), req.base, 0);
      }
      for (const s of req.spans) {
        parser.addChunks(new Uint8Array(req.bytes, s.offset - req.base, s.size), s.offset, s.index);
        done += s.size;
        post({ kind: 'progress', done });
      }
      const part = readPart(parser);
      parser.free();
      post({ kind: 'result', part }, transferables(part));
    } else {
      const json = decodeEvent(new Uint8Array(req.bytes), req.chunkOffset, req.chunk, req.offset);
      post({ kind: 'fields', id: req.id, json });
    }
  } catch (err) {
    post({ kind: 'error', id: req.kind === 'decode' ? req.id : -1, message: err instanceof Error ? err.message : String(err) });
  }
};
