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
import { Merger } from '../merge';
import { rowsGroup, sourceOf, type PartColumns, type WasmParser } from '../parts';
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
  await rowsGroup(make, sourceOf(buf, 0, spans), [TYPE], expected, () => {}, (piece) => (rows += piece.eventOffset.length), { pieceRows, chunkRows: Math.max(...perChunk) });
  expect(rows).toBe(expected);
  expect(held).toBe(most);
  expect(reserved).toBeGreaterThanOrEqual(held);
});

it('cuts a piece where a chunk ends once its stack rows pass the bound, whatever its event rows, and the stacks merge the same', async () => {
  initWasm();
  const bytes = new Uint8Array(readFileSync(resolve(root, 'fixtures/jdk17-multichunk.jfr')));
  const buf = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer;
  const spans = chunkLayout(buf);
  const types = ['jdk.ExecutionSample', TYPE];
  const run = async (pieceStacks: number) => {
    const pieces: PartColumns[] = [];
    const make = () => new Parser(originOf(spans)) as unknown as WasmParser;
    await rowsGroup(make, sourceOf(buf, 0, spans), types, 1 << 20, () => {}, (piece) => pieces.push(piece), { pieceRows: 1 << 30, pieceStacks });
    const m = new Merger(types);
    const src = m.source(pieces.reduce((a, p) => a + p.eventOffset.length, 0));
    for (const p of pieces) m.add(src, p, p.description.types.map((t) => t.name));
    const c = m.finish();
    const path = (s: number): string => (s < 0 ? '' : `${path(c.stackPrefix[s])};${c.strings[c.frameName[c.stackFrame[s]]]}:${c.frameLine[c.stackFrame[s]]}`);
    return { pieces, stacks: Array.from(c.eventStack, path) };
  };
  const whole = await run(Infinity);
  expect(whole.pieces.length).toBe(1);
  const bound = 200;
  const cut = await run(bound);
  // (A piece after each chunk at most, and the last, which may hold nothing.)
  expect(cut.pieces.length).toBeGreaterThan(1);
  expect(cut.pieces.length).toBeLessThanOrEqual(spans.length + 1);
  for (const p of cut.pieces.slice(0, -1)) {
    expect(p.stackFrame.length).toBeGreaterThanOrEqual(bound);
    expect(p.eventOffset.length).toBeLessThan(1 << 30);
  }
  expect(cut.pieces.reduce((a, p) => a + p.stackFrame.length, 0)).toBe(whole.pieces[0].stackFrame.length);
  expect(cut.stacks).toEqual(whole.stacks);
  expect(whole.stacks.filter((s) => s.length > 0).length).toBeGreaterThan(500);
});
