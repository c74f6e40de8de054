/**
 * One event type as an Arrow table, every field a column (docs/columns.md, "Type tables"):
 * what `loadTypeTable` (engine/) returns and the views read.
 *
 *   startTime  Float64  ms since the recording's start (info.startMs), as the events table's start
 *   duration   Float64  ms                                    (when the type has one)
 *   eventThread / sampledThread  Dictionary<Utf8>, with .javaThreadId / .osThreadId Int64
 *   stackTrace.topFrame          Dictionary<Utf8>  the leaf frame, `Class.method line: N`
 *   offset     Float64  absolute byte offset of the event: equal to the events table's offset
 *   …every other field, by dotted path: Int64 | Float64 | Bool | Dictionary<Utf8>; any time
 *   field in ms since the start, any span in ms
 *
 * Nulls are Arrow nulls (a validity bitmap). Each field's metadata says what its numbers
 * measure under `unit` (absent for plain values): `ms-since-start`, `ms`, `byte-offset`,
 * `address`, `bytes`, `bits`, `percentage` (a fraction, 1 = 100 %), `hz`. The schema's metadata
 * holds `type` (the event type's name) and `errors` (JSON: the problems met decoding it, each
 * `{message, chunk, offset}`; the table holds the rows read before and around them).
 */
import type { Table } from 'apache-arrow';

/** Field metadata key of a column's unit. */
export const UNIT_KEY = 'unit';

/** Units a type table's columns carry (field metadata `unit`). */
export type TypeTableUnit = 'ms-since-start' | 'ms' | 'byte-offset' | 'address' | 'bytes' | 'bits' | 'percentage' | 'hz';

export interface TypeTableError {
  message: string;
  chunk: number;
  offset: number;
}

/** The problems met decoding a type table (none for a clean recording). */
export function typeTableErrors(t: Table): TypeTableError[] {
  const text = t.schema.metadata.get('errors');
  return text ? (JSON.parse(text) as TypeTableError[]) : [];
}

/** The unit of column `name`, or null for a plain one. */
export function columnUnit(t: Table, name: string): TypeTableUnit | null {
  const f = t.schema.fields.find((x) => x.name === name);
  return (f?.metadata.get(UNIT_KEY) as TypeTableUnit | undefined) ?? null;
}
