/**
 * A decoder makes room for every row it holds before it cuts a piece: a piece is cut only after a
 * whole chunk, once it holds PIECE_ROWS, so a chunk's rows can land on top of a piece not yet cut.
 * Here the JDK's counts per chunk of jdk17-multichunk.jfr's allocation samples (228, 96, 144) with
 * pieces of 100 rows: 96 left over, then 144 more, 240 pending where the largest chunk holds 228.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { expect, it } from 'vitest';
import { chunkLayout, originOf } from '../layout';
import { initWasm } from '../node';
import { rowsGroup, sourceOf, type WasmParser } from '../parts';
import { Parser } from '../pkg/jfrscope_wasm.js';

const root = resolve(__dirname, '../../../..');
const TYPE = 'jdk.ObjectAllocationSample';

it('reserves room for the rows pending at any piece, from the largest chunk and a piece not yet cut', async () => {
  initWasm();
  const bytes = new Uint8Array(readFileSync(resolve(root, 'fixtures/jdk17-multichunk.jfr')));
  const buf = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer;
  const spans = chunkLayout(buf);
  const perChunk = spans.map(() => 0);
  for (const line of readFileSync(resolve(root, 'fixtures/expected/jdk17-multichunk.jfr.chunk-counts.tsv'), 'utf8').trim().split('\n')) {
    const [k, type, n] = line.split('\t');
    if (type === TYPE) perChunk[Number(k)] = Number(n);
  }
  const expected = perChunk.reduce((a, b) => a + b, 0);
  const pieceRows = 100;
  // The case the reservation must cover: some piece holds more than the largest chunk.
  let pending = 0;
  let most = 0;
  for (const n of perChunk) {
    pending += n;
    most = Math.max(most, pending);
    if (pending >= pieceRows) pending = 0;
  }
  expect(most).toBeGreaterThan(Math.max(2 * pieceRows, ...perChunk));

  let reserved = 0;
  let held = 0;
  const make = () => {
    const p = new Parser(originOf(spans)) as unknown as WasmParser;
    return new Proxy(p, {
      get(target, key) {
        if (key === 'reserveRows') return (n: number) => ((reserved = n), target.reserveRows(n));
        if (key === 'pendingRows') return () => ((held = Math.max(held, target.pendingRows())), target.pendingRows());
        const v = Reflect.get(target, key) as unknown;
        return typeof v === 'function' ? (v as (...a: unknown[]) => unknown).bind(target) : v;
      },
    });
  };
  let rows = 0;
  await rowsGroup(make, sourceOf(buf, 0, spans), [TYPE], expected, () => {}, (piece) => (rows += piece.eventOffset.length), pieceRows, undefined, undefined, Math.max(...perChunk));
  expect(rows).toBe(expected);
  expect(held).toBe(most);
  expect(reserved).toBeGreaterThanOrEqual(held);
});
