/**
 * A decoder waits for the page to hand back the buffers of pieces it has merged before it copies
 * more pieces out (EventBuffers.room), and never for ever: a stream whose pieces do not come
 * back (its round failed) goes on after the wait's limit.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { chunkLayout } from '../layout';
import { initWasm } from '../node';
import { eventBuffers, EventBuffers, PIECES_OUT, type WasmParser } from '../parts';
import { Parser } from '../pkg/jfrscope_wasm.js';

const file = resolve(__dirname, '../../../../fixtures/example.jfr');

describe('pieces out of a decoder', () => {
  it('waits while PIECES_OUT pieces are out, until one comes back or the limit passes', async () => {
    const memory = initWasm();
    const bytes = new Uint8Array(readFileSync(file));
    const spans = chunkLayout(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer);
    const p = new Parser(spans[0].startMs) as unknown as WasmParser;
    p.rowsChunks(bytes.subarray(spans[0].offset, spans[0].offset + spans[0].size), spans[0].offset, 0, 'jdk.ExecutionSample');
    expect(p.pendingRows()).toBeGreaterThan(1);
    const buffers = new EventBuffers();
    const out = Array.from({ length: PIECES_OUT }, () => buffers.read(p, memory));
    // One piece fewer out: no wait.
    let t = performance.now();
    buffers.give(eventBuffers({ ...out[0] } as never));
    await buffers.room(PIECES_OUT, 5_000);
    expect(performance.now() - t).toBeLessThan(1_000);
    // As many out as allowed: the wait ends when one comes back.
    out.push(buffers.read(p, memory));
    t = performance.now();
    setTimeout(() => buffers.give(eventBuffers({ ...out[1] } as never)), 200);
    await buffers.room(PIECES_OUT, 5_000);
    const waited = performance.now() - t;
    expect(waited).toBeGreaterThanOrEqual(150);
    expect(waited).toBeLessThan(4_000);
    // None comes back: the wait ends at its limit. A new stream starts with none out.
    out.push(buffers.read(p, memory));
    t = performance.now();
    await buffers.room(PIECES_OUT, 300);
    expect(performance.now() - t).toBeGreaterThanOrEqual(250);
    buffers.restart();
    t = performance.now();
    await buffers.room(PIECES_OUT, 5_000);
    expect(performance.now() - t).toBeLessThan(1_000);
    // The pieces handed back were copied into again.
    expect(buffers.reused).toBeGreaterThan(0);
    p.free();
  });
});

describe('a piece copied out of wasm memory', () => {
  it('reads the memory after the column is made, as making it may grow the memory', () => {
    const memory = initWasm();
    const bytes = new Uint8Array(readFileSync(file));
    const spans = chunkLayout(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer);
    const p = new Parser(spans[0].startMs) as unknown as WasmParser;
    p.rowsChunks(bytes.subarray(spans[0].offset, spans[0].offset + spans[0].size), spans[0].offset, 0, 'jdk.ExecutionSample');
    const plain = new EventBuffers().read(p, memory);
    // A parser whose every column, when made, grows the memory (as a large piece's times do):
    // the buffer read before the call is detached by then.
    const growing = Object.create(p, {
      eventColumnAt: {
        value: (k: number) => {
          const at = p.eventColumnAt(k);
          memory.grow(1);
          return at;
        },
      },
    }) as WasmParser;
    const read = new EventBuffers().read(growing, memory);
    for (const k of Object.keys(plain) as (keyof typeof plain)[]) expect(read[k], k).toEqual(plain[k]);
    expect(read.eventStart.length).toBe(p.pendingRows());
    p.free();
  });
});

describe('a piece of a failed request', () => {
  it('hands its buffers back, so its decoder never waits for them', async () => {
    const { WorkerGroup } = await import('../index');
    const posted: { kind: string; buffers?: ArrayBuffer[] }[] = [];
    const worker = { postMessage: (m: { kind: string }) => posted.push(m), onmessage: null, onerror: null } as unknown as Worker;
    const group = new WorkerGroup(worker, 0, []);
    const piece = () =>
      ({
        eventType: new Uint16Array(2),
        eventStart: new Float64Array(2),
        eventDuration: new Float32Array(2),
        eventThread: new Int32Array(2),
        eventStack: new Int32Array(2),
        eventWeight: new Float64Array(2),
        eventState: new Int32Array(2),
        eventSubject: new Int32Array(2),
        eventValue: new Float64Array(2),
        eventPeer: new Int32Array(2),
        eventOffset: new Float64Array(2),
      }) as never;
    let merged = 0;
    const rows = group.rows(['jdk.ExecutionSample'], 4, () => {}, () => {
      merged++;
      throw new Error('The merge failed.');
    });
    const id = (posted.find((m) => m.kind === 'rows') as unknown as { id: number }).id;
    const deliver = (part: unknown) => (worker.onmessage as (e: MessageEvent) => void)({ data: { kind: 'piece', id, part } } as MessageEvent);
    deliver(piece());
    await expect(rows).rejects.toThrow('The merge failed.');
    // The decoder goes on sending the failed request's pieces: each comes back, none is merged.
    deliver(piece());
    deliver(piece());
    expect(merged).toBe(1);
    const back = posted.filter((m) => m.kind === 'recycle');
    expect(back).toHaveLength(3);
    for (const m of back) expect(m.buffers).toHaveLength(11);
  });
});
