/**
 * One event type's table (columns/type-table.ts), decoded in the workers and joined here:
 *
 *   worker per group: TableReader(type) ─ addChunks(chunk)* (each chunk read from the File in
 *     turn) ─ readTablePart: typed arrays per column, transferred
 *   page: joinTableParts(parts in file order) ─ columns united by name, strings re-keyed into
 *     one dictionary ─ Arrow vectors made with makeData (no builders: the page's CSP forbids
 *     the `Function` they compile)
 */
import { Bool, Dictionary, Field, Float64, Int32, Int64, RecordBatch, Schema, Struct, Table, Utf8, makeData, makeVector, type Data, type DataType } from 'apache-arrow';
import { UNIT_KEY, type TypeTableError } from '../columns/type-table';
import { setThreadChain, type GroupSource, type ThreadOverrides, type WasmParser } from './parts';
import { utf8Data } from './tables';

/** A column's kind as the wasm bridge hands it over (wasm/src/lib.rs, `TableReader`). */
export type PartKind = 'int' | 'float' | 'bool' | 'string' | 'time' | 'span' | 'offset' | 'stack';

export interface TableColumnPart {
  name: string;
  kind: PartKind;
  /** The parser's unit name (`epoch-ns`, `ns`, `bytes`…; '' for none). */
  unit: string;
  /** int: BigInt64Array; float, time, span, offset: Float64Array; bool: Uint8Array; string:
   * Uint32Array of indices into the part's strings. */
  values: BigInt64Array | Float64Array | Uint8Array | Uint32Array;
  /** 1 where there is a value. */
  valid: Uint8Array;
}

/** One group's table of one type. */
export interface TablePart {
  rows: number;
  columns: TableColumnPart[];
  strings: string[];
  errors: TypeTableError[];
}

/** The wasm TableReader's surface (keeps this module free of the glue). */
export interface WasmTableReader {
  addChunks(bytes: Uint8Array, baseOffset: number, firstChunk: number): void;
  /** Thread overrides (parts' setThreadChain). */
  setThreadChain: WasmParser['setThreadChain'];
  rows(): number;
  names(): string[];
  kinds(): string[];
  units(): string[];
  strings(): string[];
  errors(): string;
  ints(i: number): BigInt64Array;
  floats(i: number): Float64Array;
  bools(i: number): Uint8Array;
  texts(i: number): Uint32Array;
  valid(i: number): Uint8Array;
  free(): void;
}

export function readTablePart(r: WasmTableReader): TablePart {
  const kinds = r.kinds() as PartKind[];
  const units = r.units();
  const columns = r.names().map((name, i): TableColumnPart => {
    const kind = kinds[i];
    const values =
      kind === 'int' || kind === 'stack' ? r.ints(i) : kind === 'bool' ? r.bools(i) : kind === 'string' ? r.texts(i) : r.floats(i);
    return { name, kind, unit: units[i], values, valid: r.valid(i) };
  });
  return { rows: r.rows(), columns, strings: r.strings(), errors: JSON.parse(r.errors()) as TypeTableError[] };
}

/** The typed arrays of a part, for a transfer list. */
export function tablePartTransferables(p: TablePart): ArrayBuffer[] {
  return p.columns.flatMap((c) => [c.values.buffer as ArrayBuffer, c.valid.buffer as ArrayBuffer]);
}

/**
 * One group's table of `type`, its chunks read one at a time (wasm memory holds one chunk's
 * bytes); `threads`: the thread overrides of its chunks (parts' chainThreads), so threads are
 * named as the JDK names them across chunks.
 */
export async function tableGroup(make: () => WasmTableReader, g: GroupSource, onProgress: (done: number) => void, threads?: ThreadOverrides): Promise<TablePart> {
  const r = make();
  try {
    if (threads) setThreadChain(r, threads);
    if (g.spans.length === 0) {
      r.addChunks(await g.read(g.base, g.size), g.base, 0);
    } else {
      let done = 0;
      let k = 0;
      for await (const bytes of g.each()) {
        const s = g.spans[k++];
        r.addChunks(bytes, s.offset, s.index);
        done += s.size;
        onProgress(done);
      }
    }
    return readTablePart(r);
  } finally {
    r.free();
  }
}

/** The Arrow kind a column ends as. */
type OutKind = 'int' | 'float' | 'bool' | 'string';

function outKind(k: PartKind): OutKind | null {
  if (k === 'stack') return null; // a row of one worker's own stack tree: no meaning in the page
  return k === 'time' || k === 'span' || k === 'offset' ? 'float' : k;
}

/** Int meeting float → float; any other mix → string (the parser's rule, across groups). */
function widen(a: OutKind, b: OutKind): OutKind {
  if (a === b) return a;
  if ((a === 'int' || a === 'float') && (b === 'int' || b === 'float')) return 'float';
  return 'string';
}

const UNITS: Record<string, string> = { address: 'address', bytes: 'bytes', bits: 'bits', percentage: 'percentage', hz: 'hz' };

function unitOf(c: TableColumnPart): string | null {
  if (c.kind === 'time') return 'ms-since-start';
  if (c.kind === 'span') return 'ms';
  if (c.kind === 'offset') return 'byte-offset';
  return UNITS[c.unit] ?? null;
}

function bits(valid: (i: number) => boolean, n: number): { bitmap: Uint8Array; nulls: number } {
  const bitmap = new Uint8Array((n + 7) >> 3);
  let nulls = 0;
  for (let i = 0; i < n; i++) {
    if (valid(i)) bitmap[i >> 3] |= 1 << (i & 7);
    else nulls++;
  }
  return { bitmap, nulls };
}

/**
 * The parts of one type's table, in file order, as one Arrow table (columns/type-table.ts):
 * columns united by name in order of first appearance, null where a part lacks one.
 */
export function joinTableParts(typeName: string, parts: TablePart[]): Table {
  const rows = parts.reduce((a, p) => a + p.rows, 0);
  const order: string[] = [];
  const kinds = new Map<string, OutKind>();
  const units = new Map<string, string | null>();
  for (const p of parts) {
    for (const c of p.columns) {
      const k = outKind(c.kind);
      if (!k) continue;
      const had = kinds.get(c.name);
      if (had === undefined) {
        order.push(c.name);
        units.set(c.name, unitOf(c));
      }
      kinds.set(c.name, had === undefined ? k : widen(had, k));
    }
  }
  // One dictionary for every string column, its keys the merged strings.
  const dict: string[] = [];
  const keyOf = new Map<string, number>();
  const key = (s: string) => {
    let k = keyOf.get(s);
    if (k === undefined) {
      k = dict.length;
      dict.push(s);
      keyOf.set(s, k);
    }
    return k;
  };
  const text = (p: TablePart, c: TableColumnPart, i: number): string => {
    const v = c.values[i];
    if (c.kind === 'string') return p.strings[v as number] ?? '';
    if (c.kind === 'bool') return v ? 'true' : 'false';
    return String(v);
  };
  const dictType = new Dictionary(new Utf8(), new Int32(), 0);
  const fields: Field[] = [];
  const children: Data[] = [];
  const made: { name: string; kind: OutKind; valid: Uint8Array; values: BigInt64Array | Float64Array | Uint8Array | Int32Array }[] = [];
  for (const name of order) {
    const kind = kinds.get(name)!;
    const valid = new Uint8Array(rows);
    const values =
      kind === 'int' ? new BigInt64Array(rows) : kind === 'float' ? new Float64Array(rows) : kind === 'bool' ? new Uint8Array(rows) : new Int32Array(rows);
    let at = 0;
    for (const p of parts) {
      const c = p.columns.find((x) => x.name === name);
      if (c && outKind(c.kind)) {
        valid.set(c.valid, at);
        if (kind === 'string') {
          const v = values as Int32Array;
          for (let i = 0; i < p.rows; i++) v[at + i] = c.valid[i] ? key(text(p, c, i)) : -1;
        } else if (kind === 'float') {
          const v = values as Float64Array;
          if (c.values instanceof Float64Array) v.set(c.values, at);
          else for (let i = 0; i < p.rows; i++) v[at + i] = Number(c.values[i]);
        } else {
          (values as BigInt64Array | Uint8Array).set(c.values as BigInt64Array & Uint8Array, at);
        }
      }
      at += p.rows;
    }
    made.push({ name, kind, valid, values });
  }
  // The dictionary is complete only now: string columns are made after every key is known.
  const dictionary = makeVector(utf8Data(dict));
  for (const { name, kind, valid, values } of made) {
    const { bitmap, nulls } = bits((i) => valid[i] === 1, rows);
    const nullBitmap = nulls ? bitmap : undefined;
    let type: DataType;
    let data: Data;
    if (kind === 'int') {
      type = new Int64();
      data = makeData({ type: type as Int64, length: rows, nullCount: nulls, data: values as BigInt64Array, nullBitmap });
    } else if (kind === 'float') {
      type = new Float64();
      data = makeData({ type: type as Float64, length: rows, nullCount: nulls, data: values as Float64Array, nullBitmap });
    } else if (kind === 'bool') {
      type = new Bool();
      const v = values as Uint8Array;
      data = makeData({ type: type as Bool, length: rows, nullCount: nulls, data: bits((i) => v[i] === 1, rows).bitmap, nullBitmap });
    } else {
      type = dictType;
      data = makeData({ type: dictType, length: rows, nullCount: nulls, data: values as Int32Array, nullBitmap, dictionary });
    }
    const unit = units.get(name);
    fields.push(new Field(name, type, true, unit ? new Map([[UNIT_KEY, unit]]) : null));
    children.push(data);
  }
  const errors = parts.flatMap((p) => p.errors);
  const schema = new Schema(fields, new Map([['type', typeName], ['errors', JSON.stringify(errors)]]));
  const struct = makeData({ type: new Struct(fields), length: rows, nullCount: 0, children });
  return new Table(schema, new RecordBatch(schema, struct));
}
