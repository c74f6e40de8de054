/**
 * Merges columns decoded by several workers or passes (each a source with its own string,
 * thread, frame, stack and type numbering) into one set of columns.
 *
 *   source k: pieces ─ remap tables (grown with each piece) ─ rows written to k's own range
 *
 * A source sends its columns in pieces as it decodes: each piece carries the dictionary rows new
 * since its last piece, and event rows that index the source's dictionaries as a whole. Each
 * source owns a range of the output as long as its counted rows (or, in a round whose decoders
 * share out the chunks, steal.ts, each chunk owns one, and a source's pieces say where their rows
 * are), so rows keep file order within a round however the pieces interleave, and no part of a
 * round is ever held twice. A lazy load's
 * later round merges the columns it already has (one source) with the new round's sources, so
 * rows are grouped by round.
 */
import { CallNodeBuilder, PrefixTree, roomFor, TupleIds } from '../columns/ids';
import { EVENT_COLUMN_NAMES, joinExtents, pieceRows, rowsExtent, type Description, type PartColumns, type RowsExtent, type SharedInto, type TypeRow } from './parts';
import { mergeShapes } from './shape';

export type PartData = Omit<PartColumns, 'description'>;


/** `to[base + i]` = `from[i]` remapped through `map` (negative markers kept), for every i. */
function remapColumn(to: Int32Array, base: number, from: Int32Array, map: Int32Array): void {
  for (let i = 0; i < from.length; i++) {
    const v = from[i];
    to[base + i] = v < 0 ? v : map[v];
  }
}

/** `a[i]` remapped through `map` where it is (negative markers kept), for i in [from, to). */
function remapInPlace(a: Int32Array, from: number, to: number, map: Int32Array): void {
  for (let i = from; i < to; i++) {
    const v = a[i];
    if (v >= 0) a[i] = map[v];
  }
}

/** A source's remap table: index in the source → index in the merged table, grown as pieces come. */
export class RemapTable {
  map = new Int32Array(256);
  length = 0;

  /** Room for `more` entries past the current ones. */
  reserve(more: number): Int32Array {
    if (this.length + more > this.map.length) {
      // (As the merged stacks grow: a source's millions of stack rows.)
      const next = new Int32Array(roomFor(this.map.length, this.length + more));
      next.set(this.map.subarray(0, this.length));
      this.map = next;
    }
    return this.map;
  }

  push(v: number): void {
    this.reserve(1)[this.length++] = v;
  }
}

/**
 * Event columns a pick may leave unwritten: a decoder sends them as one value for most types (a
 * weight of 1, no state, no value, no peer), and the view of such a type reads none of them.
 */
export const LAZY_COLUMNS = ['eventWeight', 'eventState', 'eventValue', 'eventPeer'] as const;
export type LazyColumn = (typeof LAZY_COLUMNS)[number];

/** Each lazy column's name among the profile's event columns (tables.ts toProfile). */
export const LAZY_PROFILE_NAMES: Record<LazyColumn, 'weight' | 'state' | 'value' | 'peer'> = { eventWeight: 'weight', eventState: 'state', eventValue: 'value', eventPeer: 'peer' };

/**
 * Ranges of the lazy columns that hold one value and are not written yet: filled when a view
 * first reads the column (toProfile), or before the rows are copied or cut (`fillAll`). Fresh
 * memory costs several times a copy: a pick of 16.6 M file reads leaves 270 MB unwritten.
 */
export class PendingFills {
  private readonly ranges = new Map<LazyColumn, number[]>();

  /** Rows [from, to) of column `k` hold `value`. */
  add(k: LazyColumn, from: number, to: number, value: number): void {
    let r = this.ranges.get(k);
    if (!r) this.ranges.set(k, (r = []));
    const n = r.length;
    // (A source's pieces follow one another.)
    if (n > 0 && r[n - 2] === from && Object.is(r[n - 1], value)) r[n - 2] = to;
    else r.push(from, to, value);
  }

  has(k: LazyColumn): boolean {
    return this.ranges.has(k);
  }

  /** Writes column `k`'s ranges into `columns` (once). */
  fill(columns: Pick<PartData, LazyColumn>, k: LazyColumn): void {
    const r = this.ranges.get(k);
    if (!r) return;
    this.ranges.delete(k);
    const a = columns[k];
    for (let i = 0; i < r.length; i += 3) a.fill(r[i + 2], r[i], r[i + 1]);
  }

  fillAll(columns: Pick<PartData, LazyColumn>): void {
    for (const k of LAZY_COLUMNS) this.fill(columns, k);
  }

  /** The ranges not written yet, `by` rows further on, added to `to` (rows copied as they are). */
  moveInto(to: PendingFills, by: number): void {
    for (const [k, r] of this.ranges) for (let i = 0; i < r.length; i += 3) to.add(k, r[i] + by, r[i + 1] + by, r[i + 2]);
  }
}

/** One description from the parts' own: types by name (counts added), chunks, errors, info. */
export function mergeDescriptions(ds: Description[]): Description {
  if (ds.length === 1) return ds[0];
  const typeIdx = new Map<string, number>();
  const types: TypeRow[] = [];
  const desc: Description = { types, chunks: [], errors: [], info: { jvm: null, os: null, cpu: null, settings: [], properties: [] } };
  for (const d of ds) {
    for (const t of d.types) {
      const j = typeIdx.get(t.name);
      if (j === undefined) {
        typeIdx.set(t.name, types.length);
        types.push({ ...t });
      } else {
        const row = types[j];
        row.count += t.count;
        row.hasStack ||= t.hasStack;
        row.decoded ||= t.decoded;
      }
    }
    desc.chunks.push(...d.chunks);
    // (chunkCounts index each part's own types: they stay with the part.)
    desc.errors.push(...d.errors);
    const info = desc.info;
    info.jvm ??= d.info.jvm;
    info.os ??= d.info.os;
    info.cpu ??= d.info.cpu;
    const end = d.info.dataEndNs;
    if (end != null && (info.dataEndNs == null || BigInt(end) > BigInt(info.dataEndNs))) info.dataEndNs = end;
    if (d.info.stacksLost !== undefined) info.stacksLost = (info.stacksLost ?? 0) + d.info.stacksLost;
    for (const s of d.info.settings) {
      if (!info.settings.some((x) => x.type === s.type && x.name === s.name && x.value === s.value)) info.settings.push(s);
    }
    for (const f of d.info.flags ?? []) {
      const flags = (info.flags ??= []);
      if (!flags.some((x) => x.name === f.name && x.value === f.value && x.origin === f.origin)) flags.push(f);
    }
    for (const s of d.info.properties) {
      if (!info.properties.some((x) => x.key === s.key && x.value === s.value)) info.properties.push(s);
    }
  }
  desc.shape = mergeShapes(ds.map((d) => d.shape));
  return desc;
}

/** Every decoded type of the parts, together: the usual, eager load. */
export function mergeParts(parts: PartColumns[]): PartColumns {
  if (parts.length === 1) return parts[0];
  const description = mergeDescriptions(parts.map((p) => p.description));
  const m = new Merger(description.types.map((t) => t.name));
  const sources = parts.map((p) => m.source(pieceRows(p)));
  parts.forEach((p, i) => m.add(sources[i], p, p.description.types.map((t) => t.name)));
  return { ...m.finish(), description };
}

/** Rows [start, end) of the output, written up to `pos`. */
export interface Range {
  start: number;
  pos: number;
  end: number;
}

/**
 * One source's remap tables and its range of the output (none, start = end = -1, for a decoder
 * of a round that shares out its chunks: its rows go to the chunks' ranges).
 */
export interface Source extends Range {
  sMap: RemapTable;
  thMap: RemapTable;
  frMap: RemapTable;
  stMap: RemapTable;
}

const eventColumns = {
  eventType: Uint16Array,
  eventStart: Float64Array,
  eventDuration: Float32Array,
  eventThread: Int32Array,
  eventStack: Int32Array,
  eventWeight: Float64Array,
  eventState: Int32Array,
  eventSubject: Int32Array,
  eventValue: Float64Array,
  eventPeer: Int32Array,
  eventOffset: Float64Array,
};
type EventColumns = { [K in keyof typeof eventColumns]: InstanceType<(typeof eventColumns)[K]> };

export class Merger {
  private readonly strings: string[] = [];
  private readonly stringIdx = new Map<string, number>();
  private readonly threadKey = new Map<string, number>();
  private readonly tName: number[] = [];
  private readonly tOs: number[] = [];
  private readonly tJava: number[] = [];
  private readonly tVirtual: number[] = [];
  /** Frames by (name, class, line, bytecode index, kind); stacks by (prefix, frame). */
  private readonly frames = new TupleIds(5);
  private readonly stacks = new PrefixTree();
  /** The call nodes of the stack rows, made as the rows are added (while the decoders work on). */
  private readonly calls = new CallNodeBuilder();
  private readonly typeIdx: Map<string, number>;
  /** The output's ranges (the sources' and the chunks'), in order. */
  private readonly ranges: Range[] = [];
  private reserved = 0;
  private out: EventColumns | null = null;
  /** The extent of the rows of the set being made, so far. */
  private extent: RowsExtent = { end: -Infinity, stacksLost: 0 };
  /** Lazy columns' ranges of the set being made that hold one value, not written yet. */
  private pending = new PendingFills();
  /**
   * Per event type: 1 once a row of it held a thread state, 0 while none has (noteStates): kept
   * from set to set, as the dictionaries are (so 1 may outlive a window's rows that held one).
   */
  private states: Uint8Array;
  /** Which set of columns is being made (see next): a piece of an older one has nowhere to go. */
  round = 0;

  /**
   * Rows' `eventType` will index `typeNames`. `shared`: the columns in shared memory, which
   * decoders write their rows into (`into`; the page must be cross-origin isolated).
   */
  constructor(
    typeNames: string[],
    readonly shared = false,
  ) {
    this.typeIdx = new Map(typeNames.map((n, i) => [n, i]));
    this.states = new Uint8Array(typeNames.length);
    this.intern('');
  }

  private intern(s: string): number {
    let i = this.stringIdx.get(s);
    if (i === undefined) {
      i = this.strings.length;
      this.strings.push(s);
      this.stringIdx.set(s, i);
    }
    return i;
  }

  /**
   * Start another set of columns, keeping the dictionaries (strings, threads, frames, stacks):
   * columns this merger made before still index them, so a later round copies them in with
   * `addOwn` instead of numbering their stacks again. Returns the new set's number.
   */
  next(): number {
    this.round++;
    this.ranges.length = 0;
    this.reserved = 0;
    this.out = null;
    this.extent = { end: -Infinity, stacksLost: 0 };
    this.pending = new PendingFills();
    return this.round;
  }

  /** A new source, whose rows (at most `rows`) take the next range of the output. */
  source(rows: number): Source {
    return this.reserve(this.dictionary(), rows);
  }

  /** The next range of the output, `rows` long (a chunk's, in a round that shares out its chunks). */
  range(rows: number): Range {
    return this.reserve({ start: 0, pos: 0, end: 0 }, rows);
  }

  private reserve<R extends Range>(r: R, rows: number): R {
    if (this.out) throw new Error('Ranges are reserved before the first rows.');
    r.start = r.pos = this.reserved;
    r.end = this.reserved + rows;
    this.reserved += rows;
    this.ranges.push(r);
    return r;
  }

  /** A source of dictionaries alone: its pieces are placed in the chunks' ranges (`placedAt`). */
  dictionary(): Source {
    return { sMap: new RemapTable(), thMap: new RemapTable(), frMap: new RemapTable(), stMap: new RemapTable(), start: -1, pos: -1, end: -1 };
  }

  /** Where a source's decoder writes its rows (shared columns only). */
  into(src: Source): SharedInto {
    if (!this.shared) throw new Error('The columns are not shared.');
    const out = this.output();
    return { columns: EVENT_COLUMN_NAMES.map((k) => out[k].buffer as unknown as SharedArrayBuffer), at: src.pos, end: src.end };
  }

  /** One piece of a source: its new dictionary rows, and event rows naming event types `types`. */
  add(src: Source, p: PartData, types: string[]): void {
    const out = this.output();
    const { sMap: sTable, thMap: thTable, frMap: frTable, stMap: stTable } = src;
    for (const s of p.strings) sTable.push(this.intern(s));
    const sMap = sTable.map;
    for (let i = 0; i < p.threadName.length; i++) {
      const name = sMap[p.threadName[i]];
      const k = `${name}|${p.threadOsId[i]}|${p.threadJavaId[i]}`;
      let t = this.threadKey.get(k);
      if (t === undefined) {
        t = this.tName.length;
        this.threadKey.set(k, t);
        this.tName.push(name);
        this.tOs.push(p.threadOsId[i]);
        this.tJava.push(p.threadJavaId[i]);
        this.tVirtual.push(p.threadVirtual[i]);
      } else if (p.threadVirtual[i]) {
        this.tVirtual[t] = 1;
      }
      thTable.push(t);
    }
    const thMap = thTable.map;
    for (let i = 0; i < p.frameName.length; i++) {
      frTable.push(this.frames.id(sMap[p.frameName[i]], sMap[p.frameClass[i]], p.frameLine[i], p.frameBci[i], p.frameKind[i]));
    }
    // A stack's prefix always precedes it (in this piece or an earlier one): one pass remaps,
    // then one makes the new rows' call nodes.
    const stMap = stTable.reserve(p.stackFrame.length);
    this.stacks.addTable(p.stackPrefix, p.stackFrame, frTable.map, stMap, stTable.length);
    stTable.length += p.stackFrame.length;
    // (A frame's name and kind: fields 0 and 4 of its tuple.)
    this.calls.addTree(this.stacks, this.frames, 0, 4);
    const tyMap = Int32Array.from(types, (name) => this.typeIdx.get(name) ?? -1);
    const n = pieceRows(p);
    if (p.placed === undefined && src.start < 0) throw new Error('A decoder of a round that shares out its chunks sent rows to copy.');
    const base = p.placed !== undefined && src.start < 0 ? this.fill(p.placedAt ?? -1, n) : src.pos;
    if (src.start >= 0 && base + n > src.end) throw new Error(`A decoder sent ${base + n - src.start} rows where its count pass found ${src.end - src.start}.`);
    const c = p.constant ?? {};
    const missing = (k: number) => new Error(`Event type ${types[k]} has rows but is missing from the recording's description.`);
    if (n > 0) {
      // (Found by the decoder as it read the rows; else read here, where the rows are.)
      const extent =
        p.extent ??
        (p.placed !== undefined
          ? rowsExtent(out.eventStart, c.eventDuration ?? out.eventDuration, c.eventStack ?? out.eventStack, base, base + n)
          : rowsExtent(p.eventStart, c.eventDuration ?? p.eventDuration, c.eventStack ?? p.eventStack, 0, n));
      this.extent = joinExtents(this.extent, extent);
    }
    if (p.placed !== undefined) {
      // Written where they go by the decoder, in its own numbering: renumbered where they are.
      // A column the piece holds as one value the decoder left unwritten: filled here, or, for
      // the lazy columns, when first read.
      const end = base + n;
      if (c.eventType !== undefined) {
        const ty = tyMap[c.eventType] ?? -1;
        if (ty < 0) throw missing(c.eventType);
        out.eventType.fill(ty, base, end);
      } else {
        const ty = out.eventType;
        for (let i = base; i < end; i++) {
          const t = tyMap[ty[i]] ?? -1;
          if (t < 0) throw missing(ty[i]);
          ty[i] = t;
        }
      }
      const renumber = (k: 'eventThread' | 'eventStack' | 'eventState' | 'eventSubject' | 'eventPeer', map: Int32Array) => {
        const v = c[k];
        if (v === undefined) remapInPlace(out[k], base, end, map);
        else if (k === 'eventState' || k === 'eventPeer') this.pending.add(k, base, end, v < 0 ? v : map[v]);
        else out[k].fill(v < 0 ? v : map[v], base, end);
      };
      renumber('eventThread', thMap);
      renumber('eventStack', stMap);
      renumber('eventState', sMap);
      renumber('eventSubject', sMap);
      renumber('eventPeer', thMap);
      if (c.eventDuration !== undefined) out.eventDuration.fill(c.eventDuration, base, end);
      for (const k of ['eventWeight', 'eventValue'] as const) {
        const v = c[k];
        if (v !== undefined) this.pending.add(k, base, end, v);
      }
      this.noteStates(out.eventType, c.eventState ?? out.eventState, base, end, base);
      if (src.start >= 0) src.pos = end;
      return;
    }
    // Column by column: each loop reads one column of the piece and writes one of the output,
    // small enough to stay inlined and sequential in memory; a column the piece holds as one
    // value is filled.
    const fromType = p.eventType;
    const toType = out.eventType;
    let absent = -1;
    if (c.eventType !== undefined) {
      const ty = tyMap[c.eventType] ?? -1;
      if (ty < 0) absent = c.eventType;
      toType.fill(ty, base, base + n);
    } else {
      for (let i = 0; i < n; i++) {
        const ty = tyMap[fromType[i]];
        if (ty < 0) absent = fromType[i];
        toType[base + i] = ty;
      }
    }
    if (absent >= 0) throw missing(absent);
    const index = (k: 'eventThread' | 'eventStack' | 'eventState' | 'eventSubject' | 'eventPeer', map: Int32Array) => {
      const v = c[k];
      if (v === undefined) remapColumn(out[k], base, p[k], map);
      else out[k].fill(v < 0 ? v : map[v], base, base + n);
    };
    index('eventThread', thMap);
    index('eventStack', stMap);
    index('eventState', sMap);
    index('eventSubject', sMap);
    index('eventPeer', thMap);
    const copy = (k: 'eventStart' | 'eventDuration' | 'eventWeight' | 'eventValue' | 'eventOffset') => {
      const v = c[k];
      if (v === undefined) out[k].set(p[k], base);
      else out[k].fill(v, base, base + n);
    };
    copy('eventStart');
    copy('eventDuration');
    copy('eventWeight');
    copy('eventValue');
    copy('eventOffset');
    this.noteStates(out.eventType, c.eventState ?? p.eventState, base, base + n, 0);
    src.pos += n;
  }

  /**
   * Rows [at, at + n) placed by a decoder of a round that shares out its chunks: they fill the
   * ranges from the one they begin in, each from where it was written up to (a piece holds the
   * rows of chunks whose ranges follow one another; a chunk that gave fewer rows than counted
   * leaves the rest of the run's room at its end). Rows where others are, or past the output,
   * are an error. Returns `at`.
   */
  private fill(at: number, n: number): number {
    if (n === 0) return at;
    const ranges = this.ranges;
    // The first range ending past `at`.
    let lo = 0;
    let hi = ranges.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (ranges[mid].end > at) hi = mid;
      else lo = mid + 1;
    }
    let cur = at;
    for (let k = lo, left = n; left > 0; k++) {
      const r = ranges[k];
      if (!r || r.pos !== cur) throw new Error(`A decoder placed ${n} rows at row ${at}, where ${r ? 'other rows are' : 'the output ends'}.`);
      const m = Math.min(left, r.end - r.pos);
      r.pos += m;
      cur += m;
      left -= m;
    }
    return at;
  }

  /**
   * Notes the types of rows [from, to) of the output (`types`, numbered already) that hold a
   * thread state: `states` is the rows' state column from `at` (in any numbering: only "none"
   * matters), or the one value they all hold. A piece of one type with no state costs nothing.
   */
  private noteStates(types: Uint16Array, states: Int32Array | number, from: number, to: number, at: number): void {
    const seen = this.states;
    if (typeof states === 'number') {
      if (states < 0) return;
      for (let i = from; i < to; i++) seen[types[i]] = 1;
      return;
    }
    for (let i = from, k = at; i < to; i++, k++) if (states[k] >= 0) seen[types[i]] = 1;
  }

  /** Event rows of columns this merger made (in an earlier set): copied as they are. */
  addOwn(src: Source, p: PartData): void {
    const out = this.output();
    const n = p.eventType.length;
    const base = src.pos;
    if (base + n > src.end) throw new Error(`${base + n - src.start} rows were added where ${src.end - src.start} were expected.`);
    for (const k of Object.keys(eventColumns) as (keyof EventColumns)[]) out[k].set(p[k], base);
    // What was left unwritten stays so, where the rows are now; and the extent they had.
    p.pending?.moveInto(this.pending, base);
    this.extent = joinExtents(this.extent, p.extent ?? rowsExtent(p.eventStart, p.eventDuration, p.eventStack, 0, n));
    src.pos += n;
  }

  private output(): EventColumns {
    const n = this.reserved;
    // (A typed array's constructor takes a SharedArrayBuffer as it takes an ArrayBuffer.)
    const make = (T: (typeof eventColumns)[keyof EventColumns]) => (this.shared ? new T(new SharedArrayBuffer(n * T.BYTES_PER_ELEMENT) as unknown as ArrayBuffer) : new T(n));
    return (this.out ??= Object.fromEntries(Object.entries(eventColumns).map(([k, T]) => [k, make(T)])) as EventColumns);
  }

  /** The merged columns; ranges a source did not fill (a damaged chunk) are closed up. */
  finish(): PartData {
    const out = this.out ?? (Object.fromEntries(Object.entries(eventColumns).map(([k, T]) => [k, new T(0)])) as EventColumns);
    // Rows a damaged chunk did not give: the rows after them move, so the pending ranges are written first.
    if (this.ranges.some((s) => s.pos !== s.end)) this.pending.fillAll(out);
    let total = 0;
    for (const s of this.ranges) {
      if (s.start !== total) for (const a of Object.values(out)) a.copyWithin(total, s.start, s.pos);
      total += s.pos - s.start;
    }
    // Rows a damaged chunk did not give: a view of the rows there are when they are few (a copy of
    // every column costs more than their room, and keeps shared columns shared), else a copy.
    const fit = <A extends { length: number; subarray(a: number, b: number): A; slice(a: number, b: number): A }>(a: A) =>
      total === a.length ? a : a.length - total <= a.length >> 3 ? a.subarray(0, total) : a.slice(0, total);
    const events = Object.fromEntries(Object.entries(out).map(([k, a]) => [k, fit(a)])) as EventColumns;
    const stacks = this.stacks.columns();
    return {
      // A copy: a later set's strings are added to the merger's own list.
      strings: this.strings.slice(),
      threadName: Uint32Array.from(this.tName),
      threadOsId: Float64Array.from(this.tOs),
      threadJavaId: Float64Array.from(this.tJava),
      threadVirtual: Uint8Array.from(this.tVirtual),
      frameName: new Uint32Array(this.frames.column(0).buffer),
      frameClass: new Uint32Array(this.frames.column(1).buffer),
      frameLine: this.frames.column(2),
      frameBci: this.frames.column(3),
      frameKind: Uint8Array.from(this.frames.column(4)),
      stackFrame: new Uint32Array(stacks.frame.buffer, stacks.frame.byteOffset, stacks.frame.length),
      stackPrefix: stacks.prefix,
      ...(this.calls.rows === stacks.frame.length ? { calls: this.calls.columns() } : {}),
      ...events,
      extent: this.extent,
      statesIn: this.states.slice(),
      pending: this.pending,
    };
  }
}
