// The wasm parser in Node, single-threaded, on one recording. Median of 3 runs after a warm-up:
//  - the count pass (every event's type and size, no rows);
//  - the lazy open one worker does in the page: count pass, then the first round's rows (what
//    the first view shows, as web/src/engine/session.ts picks it), copied out in pieces;
//  - a full decode of every type into one Parser, then every column copied out.
//   node bench/wasm-node.mjs [FILE]
import { readFileSync, statSync } from 'node:fs';
import { initSync, Parser } from '../web/src/engine/pkg/jfrscope_wasm.js';

const file = process.argv[2] ?? 'fixtures/large/large.jfr';
initSync({ module: readFileSync(new URL('../web/src/engine/pkg/jfrscope_wasm_bg.wasm', import.meta.url)) });
const bytes = new Uint8Array(readFileSync(file));
const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
const spans = [];
for (let pos = 0; pos + 68 <= bytes.length; ) {
  if (view.getUint32(pos) !== 0x464c5200) break;
  const size = Number(view.getBigInt64(pos + 8));
  spans.push({ offset: pos, size: Math.min(size, bytes.length - pos), startMs: Number(view.getBigInt64(pos + 32)) / 1e6 });
  pos += size;
}
// (The whole ms the first chunk starts in, as the page takes it: layout.ts originOf.)
const origin = Math.floor(Math.min(...spans.map((s) => s.startMs)));
const getters = ['threadName', 'frameName', 'frameClass', 'frameLine', 'frameBci', 'frameKind', 'stackFrame', 'stackPrefix', 'eventType', 'eventStart', 'eventDuration', 'eventThread', 'eventStack', 'eventWeight', 'eventState', 'eventSubject', 'eventValue', 'eventPeer', 'eventOffset'];

function once() {
  const t0 = performance.now();
  const p = new Parser(origin);
  spans.forEach((s, i) => p.addChunks(bytes.subarray(s.offset, s.offset + s.size), s.offset, i));
  const t1 = performance.now();
  let cells = 0;
  for (const g of getters) cells += p[g]().length;
  const strings = p.strings().length;
  const d = JSON.parse(p.describe());
  p.free();
  const t2 = performance.now();
  return { parse: (t1 - t0) / 1000, total: (t2 - t0) / 1000, cells, strings, events: d.types.reduce((a, t) => a + t.count, 0), rows: cells };
}
// The first pass of a lazy load: counts, description and errors, no rows.
function countOnce() {
  const t0 = performance.now();
  const p = new Parser(origin);
  spans.forEach((s, i) => p.countChunks(bytes.subarray(s.offset, s.offset + s.size), s.offset, i));
  const d = JSON.parse(p.describe());
  p.free();
  return { total: (performance.now() - t0) / 1000, events: d.types.reduce((a, t) => a + t.count, 0) };
}
// The page's lazy open, on one thread: count, pick the first round, decode it in pieces.
const PIECE_ROWS = 1 << 16;
function lazyOnce() {
  const t0 = performance.now();
  const c = new Parser(origin);
  spans.forEach((s, i) => c.countChunks(bytes.subarray(s.offset, s.offset + s.size), s.offset, i));
  const d = JSON.parse(c.describe());
  c.free();
  // What the first view shows (session.ts firstRound, profile-logic/kinds.ts firstView): the
  // default type (CPU samples first, then the most events), and the lanes' types (intervals,
  // GCs, thread events) smallest first while the row budget lasts; a file up to 32 MB also the
  // rest that fits.
  const budget = Math.max(2_000_000, Math.floor(bytes.length / 128));
  const decodable = d.types.filter((t) => t.count > 0 && (t.kind !== 'other' || t.hasStack));
  const order = { cpu: 0, wall: 1, native: 2, lock: 3, wait: 4, park: 4.5, pinned: 4.7, sleep: 5, method: 5.5, io: 6, alloc: 7, nativemem: 7.5, other: 8 };
  const shown = decodable.filter((t) => t.hasStack && order[t.kind] !== undefined).sort((a, b) => order[a.kind] - order[b.kind] || b.count - a.count)[0];
  const lanes = new Set(['lock', 'wait', 'park', 'sleep', 'io', 'pinned', 'method', 'span', 'gc', 'thread']);
  const first = shown ? [shown.name] : [];
  let used = shown?.count ?? 0;
  let fitted = 0;
  const fill = (types) => {
    for (const t of types.filter((t) => !first.includes(t.name)).sort((a, b) => a.count - b.count)) {
      if (fitted + t.count > budget) break;
      fitted += t.count;
      used += t.count;
      first.push(t.name);
    }
  };
  fill(decodable.filter((t) => lanes.has(t.kind)));
  if (bytes.length <= 32 * 1024 * 1024) fill(decodable);
  const t1 = performance.now();
  const p = new Parser(origin);
  p.reserveRows(Math.min(used, 2 * PIECE_ROWS));
  let rows = 0;
  const take = () => {
    rows += p.eventType().length;
    for (const g of getters) p[g]();
    p.strings();
    p.nextPiece();
  };
  spans.forEach((s, i) => {
    p.rowsChunks(bytes.subarray(s.offset, s.offset + s.size), s.offset, i, first.join('\n'));
    if (p.pendingRows() >= PIECE_ROWS) take();
  });
  take();
  p.free();
  const t2 = performance.now();
  return { total: (t2 - t0) / 1000, count: (t1 - t0) / 1000, rows, types: first.length, deferred: d.types.filter((t) => t.count > 0 && (t.kind !== 'other' || t.hasStack)).length - first.length };
}
countOnce();
const counts = [countOnce(), countOnce(), countOnce()].sort((a, b) => a.total - b.total)[1];
lazyOnce();
const lazy = [lazyOnce(), lazyOnce(), lazyOnce()].sort((a, b) => a.total - b.total)[1];
once();
const runs = [once(), once(), once()].sort((a, b) => a.total - b.total);
const m = runs[1];
const mb = statSync(file).size / 1e6;
console.log(`wasm in Node (1 thread): ${file}, ${mb.toFixed(0)} MB, ${spans.length} chunk(s), ${m.events} events`);
console.log(`  count pass (every event's type and size, no rows): ${counts.total.toFixed(2)} s = ${(mb / counts.total).toFixed(0)} MB/s, ${counts.events} events`);
console.log(
  `  lazy open (count pass, then the first round's ${lazy.rows} rows of ${lazy.types} types, copied out in pieces; ${lazy.deferred} types deferred): ` +
    `${lazy.total.toFixed(2)} s = ${(mb / lazy.total).toFixed(0)} MB/s`,
);
console.log(`  decode ${m.parse.toFixed(2)} s = ${(mb / m.parse).toFixed(0)} MB/s; with columns copied out ${m.total.toFixed(2)} s = ${(mb / m.total).toFixed(0)} MB/s, ${(m.events / m.total / 1e6).toFixed(1)} M events/s`);
