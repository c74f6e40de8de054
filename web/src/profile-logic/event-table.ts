/**
 * Events of one type as a table: its rows, its columns (each a function of the row, with a
 * unit), and what the view does with them: filter by range, threads and stack filters, sort by a
 * column, write as CSV or Arrow.
 *
 *   page columns (profile.events of the type)  ─┐
 *                                               ├─ EventRows ─ tableRows (filters) ─ sortRows ─ screen / CSV / Arrow
 *   every field of the type (an Arrow table)   ─┘
 *
 * Rows keep a link to the page's event (`event`, -1 when the page holds no row for it, as for
 * types the page never decodes: CPU load, flags…), so a row can be selected on the timeline.
 */
import { DataType, Table, Utf8, makeData, makeVector, type Vector } from 'apache-arrow';
import { STACK_LOST, type IndexIntoEventTypes, type IndexIntoEvents, type Profile } from '../columns/profile';
import { eventsOfType, sortByStart, type ThreadIndex } from './event-index';
import { threadLabel, visibleName } from './names';
import { passes, type EventTest } from './filters';
import { formatBytes, formatCount, formatMs, formatTime } from './format';
import { KINDS, weightModeOf } from './kinds';
import { subjectText } from './subjects';

/**
 * How a column's numbers read: time since the recording's start (ms), a duration (ms), bytes, a
 * count, a fraction (0–1, shown as a percentage), a plain number, an address; or text.
 */
export type Unit = 'time' | 'ms' | 'bytes' | 'count' | 'fraction' | 'number' | 'hex' | 'text';

export interface TableColumn {
  key: string;
  label: string;
  unit: Unit;
  /** The number of a row (NaN when absent); null for text columns. */
  num: ((row: number) => number) | null;
  /** The text of a row as the recording has it (names not yet made visible). */
  text: (row: number) => string;
}

export interface EventRows {
  /** The event type's name. */
  type: string;
  length: number;
  columns: TableColumn[];
  /** Per row: the page's event (IndexIntoEvents), or -1. */
  event: Int32Array;
  /** Per row: start and end, ms since the recording's start. */
  start: Float64Array;
  end: Float64Array;
  /** Per row: the page's thread row, or -1 (none, or unknown to the page). */
  thread: Int32Array;
  /** The rows in time order, when they are not in it already (null: they are). */
  order: Int32Array | null;
}

const numeric = (u: Unit) => u !== 'text';

/** The unit a column's header names: "Duration (ms)". */
export function unitSuffix(u: Unit): string {
  switch (u) {
    case 'time':
    case 'ms':
      return 'ms';
    case 'bytes':
      return 'bytes';
    case 'fraction':
      return '0–1';
    default:
      return '';
  }
}

/** A cell as the page shows it (names made visible; numbers as format.ts writes them). */
export function cellText(col: TableColumn, row: number, clock: number | null): string {
  if (!col.num) return visibleName(col.text(row));
  const v = col.num(row);
  if (Number.isNaN(v)) return '';
  switch (col.unit) {
    case 'time':
      return formatTime(v, clock, 0.001);
    case 'ms':
      return formatMs(v);
    case 'bytes':
      return formatBytes(v);
    case 'count':
      return formatCount(v);
    case 'fraction':
      return `${(v * 100).toFixed(v < 0.1 ? 2 : 1)}%`;
    case 'hex':
      return Number.isFinite(v) ? `0x${v.toString(16)}` : '';
    default:
      return Number.isInteger(v) ? formatCount(v) : String(+v.toPrecision(6));
  }
}

/** The label of the page's value column for a kind of event. */
const VALUE_LABEL: Partial<Record<string, [string, Unit]>> = {
  lock: ['Address', 'hex'],
  wait: ['Address', 'hex'],
  park: ['Address', 'hex'],
  sleep: ['Time asked (ms)', 'number'],
  io: ['Bytes', 'bytes'],
  gc: ['GC id', 'number'],
};

function stackTop(profile: Profile, stack: number): string {
  if (stack === STACK_LOST) return '(stack lost: chunk cut)';
  if (stack < 0) return '';
  return profile.strings[profile.frames.name[profile.stacks.frame[stack]]];
}

/** Frame names of a stack, leaf first, joined for a cell (at most `max` frames). */
export function stackSummary(profile: Profile, stack: number, max = 4): string {
  if (stack < 0) return stackTop(profile, stack);
  const names: string[] = [];
  let s = stack;
  for (; s >= 0 && names.length < max; s = profile.stacks.prefix[s]) names.push(profile.strings[profile.frames.name[profile.stacks.frame[s]]]);
  return s >= 0 ? `${names.join(' ← ')} ← …` : names.join(' ← ');
}

/**
 * The page's own columns of a type: what the page decoded for every event of it (start,
 * duration, thread, stack, weight, state, subject, value), rows in time order. Columns the type
 * never fills (no duration, no stack…) are left out.
 */
export function pageRows(profile: Profile, index: ThreadIndex, type: IndexIntoEventTypes): EventRows {
  const t = profile.eventTypes[type];
  const events = sortByStart(profile, eventsOfType(index, type).slice());
  const e = profile.events;
  const n = events.length;
  const start = new Float64Array(n);
  const end = new Float64Array(n);
  const thread = new Int32Array(n);
  let anyDuration = false;
  let anyStack = false;
  let anyState = false;
  let anySubject = false;
  let anyValue = false;
  let anyWeight = false;
  let anyThread = false;
  for (let r = 0; r < n; r++) {
    const i = events[r];
    start[r] = e.start[i];
    end[r] = e.start[i] + e.duration[i];
    thread[r] = e.thread[i];
    anyDuration ||= e.duration[i] > 0;
    anyThread ||= e.thread[i] >= 0;
    anyStack ||= e.stack[i] !== -1;
    anyState ||= e.state[i] >= 0;
    anySubject ||= e.subject[i] >= 0;
    anyValue ||= !Number.isNaN(e.value[i]);
    anyWeight ||= e.weight[i] !== 1;
  }
  const kind = KINDS[t?.kind ?? 'other'];
  const str = (k: number) => (k >= 0 ? profile.strings[k] : '');
  const columns: TableColumn[] = [{ key: 'startTime', label: 'Start', unit: 'time', num: (r) => start[r], text: (r) => String(start[r]) }];
  if (anyDuration) columns.push({ key: 'duration', label: 'Duration', unit: 'ms', num: (r) => e.duration[events[r]], text: (r) => String(e.duration[events[r]]) });
  if (anyThread) columns.push({ key: 'thread', label: 'Thread', unit: 'text', num: null, text: (r) => (thread[r] >= 0 ? threadLabel(profile, thread[r]) : '') });
  if (anyState) columns.push({ key: 'state', label: 'State', unit: 'text', num: null, text: (r) => str(e.state[events[r]]) });
  if (anySubject) columns.push({ key: 'subject', label: kind.subject.column, unit: 'text', num: null, text: (r) => subjectText(profile, events[r]) ?? '' });
  const mode = weightModeOf(profile, type);
  if (anyWeight && mode !== 'duration' && mode !== 'events') {
    columns.push({ key: 'weight', label: mode === 'bytes' ? 'Bytes' : 'Samples', unit: mode === 'bytes' ? 'bytes' : 'count', num: (r) => e.weight[events[r]], text: (r) => String(e.weight[events[r]]) });
  }
  if (anyValue) {
    const [label, unit] = VALUE_LABEL[t?.kind ?? 'other'] ?? ['Value', 'number'];
    columns.push({ key: 'value', label, unit, num: (r) => e.value[events[r]], text: (r) => String(e.value[events[r]]) });
  }
  if (anyStack) {
    columns.push({ key: 'stackTop', label: 'Top frame', unit: 'text', num: null, text: (r) => stackTop(profile, e.stack[events[r]]) });
    columns.push({ key: 'stackTrace', label: 'Stack (leaf first)', unit: 'text', num: null, text: (r) => stackSummary(profile, e.stack[events[r]]) });
  }
  return { type: t?.name ?? '', length: n, columns, event: events, start, end, thread, order: null };
}

export interface RowFilter {
  /** Keep rows overlapping [from, to] ms (instants: starting in it); null for all. */
  range: readonly [number, number] | null;
  /** Per thread row, 1 when the thread filter keeps it (and it is not hidden); null for all. */
  threads: Uint8Array | null;
  /** Whether a thread filter is set (rows without a thread then go). */
  threadFiltered: boolean;
  /** The stack filters compiled for the type (filters.ts), null when none applies. */
  test: EventTest | null;
}

/** The rows the filters keep, in time order. */
export function tableRows(rows: EventRows, f: RowFilter): Int32Array {
  const out = new Int32Array(rows.length);
  let n = 0;
  for (let k = 0; k < rows.length; k++) {
    const r = rows.order ? rows.order[k] : k;
    if (f.range && (rows.start[r] > f.range[1] || rows.end[r] < f.range[0])) continue;
    const t = rows.thread[r];
    if (f.threads && (t >= 0 ? !f.threads[t] : f.threadFiltered)) continue;
    if (f.test) {
      const i = rows.event[r];
      if (i >= 0 ? !passes(f.test, i) : !f.test.noStack) continue;
    }
    out[n++] = r;
  }
  return out.slice(0, n);
}

const collator = new Intl.Collator('en', { numeric: true });

/**
 * `rows` ordered by a column, stably (equal cells keep their order): numbers by value, absent
 * ones (NaN) last either way; text as people sort it (digits by value, case aside).
 */
export function sortRows(rows: Int32Array, col: TableColumn, descending: boolean): Int32Array {
  const n = rows.length;
  // One number per row: the value, or for text its rank among the column's distinct texts
  // (sorted once, so a million rows of a few hundred thread names compare as numbers).
  const key = new Float64Array(n);
  if (col.num) {
    // + 0: -0 sorts as 0.
    for (let k = 0; k < n; k++) key[k] = col.num(rows[k]) + 0;
  } else {
    const texts = new Array<string>(n);
    const distinct = new Map<string, number>();
    for (let k = 0; k < n; k++) {
      texts[k] = col.text(rows[k]);
      distinct.set(texts[k], 0);
    }
    [...distinct.keys()].sort(collator.compare).forEach((t, rank) => distinct.set(t, rank));
    for (let k = 0; k < n; k++) key[k] = distinct.get(texts[k])!;
  }
  // Absent values last either way; the others by value, ties in their order.
  const present: number[] = [];
  const absent: number[] = [];
  for (let k = 0; k < n; k++) (Number.isNaN(key[k]) ? absent : present).push(k);
  const order = argsort(key, Uint32Array.from(present), descending);
  const out = new Int32Array(n);
  let o = 0;
  for (let k = 0; k < order.length; k++) out[o++] = rows[order[k]];
  for (const k of absent) out[o++] = rows[k];
  return out;
}

/**
 * Positions `at` ordered by `key` (no NaN among them), stably: an LSD radix sort on the doubles'
 * bits made to order as unsigned integers (sign bit flipped for positives, every bit for
 * negatives; every bit again for descending), four 16-bit digits. A million rows sort in tens
 * of milliseconds where a comparator sort takes seconds.
 */
export function argsort(key: Float64Array, at: Uint32Array, descending: boolean): Uint32Array {
  const n = key.length;
  const bits = new Uint32Array(key.buffer.slice(key.byteOffset, key.byteOffset + 8 * n));
  // Little-endian: word 2k is the low half of key k, 2k + 1 the high half (with the sign).
  for (let k = 0; k < n; k++) {
    const hi = bits[2 * k + 1];
    const neg = hi >>> 31;
    let h = neg ? ~hi : hi ^ 0x80000000;
    let l = neg ? ~bits[2 * k] : bits[2 * k];
    if (descending) [h, l] = [~h, ~l];
    bits[2 * k + 1] = h >>> 0;
    bits[2 * k] = l >>> 0;
  }
  let src = at.slice();
  let dst = new Uint32Array(at.length);
  const count = new Uint32Array(65536);
  for (const [word, shift] of [[0, 0], [0, 16], [1, 0], [1, 16]] as const) {
    count.fill(0);
    for (let i = 0; i < src.length; i++) count[(bits[2 * src[i] + word] >>> shift) & 0xffff]++;
    // A digit every key shares orders nothing.
    if (src.length === 0 || count[(bits[2 * src[0] + word] >>> shift) & 0xffff] === src.length) continue;
    let sum = 0;
    for (let d = 0; d < 65536; d++) {
      const c = count[d];
      count[d] = sum;
      sum += c;
    }
    for (let i = 0; i < src.length; i++) dst[count[(bits[2 * src[i] + word] >>> shift) & 0xffff]++] = src[i];
    [src, dst] = [dst, src];
  }
  return src;
}

/** The raw number or text a file gets for a cell (names made visible, as on screen). */
function rawCell(col: TableColumn, row: number): string | number | null {
  if (col.num) {
    const v = col.num(row);
    return Number.isNaN(v) ? null : v;
  }
  return visibleName(col.text(row));
}

/** A column's name in a file: its label and unit, "Duration (ms)". */
export function fileHeader(col: TableColumn): string {
  const u = unitSuffix(col.unit);
  return u && !col.label.endsWith(`(${u})`) ? `${col.label} (${u})` : col.label;
}

/**
 * A CSV field (RFC 4180): quoted when it holds a quote, comma or line break, quotes doubled.
 * Text that a spreadsheet would run as a formula (=, +, -, @ first) gets a leading apostrophe,
 * so opening the file does not run a name from the recording.
 */
export function csvField(v: string | number | null): string {
  if (v === null) return '';
  if (typeof v === 'number') return Number.isFinite(v) ? String(v) : '';
  const s = /^[=+\-@\t\r]/.test(v) ? `'${v}` : v;
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

/** The rows as CSV: a header line of the columns' names with units, then one line per row (CRLF). */
export function toCsv(columns: readonly TableColumn[], rows: Int32Array): string {
  const lines = [columns.map((c) => csvField(fileHeader(c))).join(',')];
  for (let k = 0; k < rows.length; k++) lines.push(columns.map((c) => csvField(rawCell(c, rows[k]))).join(','));
  return lines.join('\r\n') + '\r\n';
}

/** Strings as an Arrow Utf8 vector from offsets and bytes (Arrow's builders need eval, which the page's policy forbids). */
function utf8(values: string[]): Vector<Utf8> {
  const enc = new TextEncoder();
  const parts = values.map((s) => enc.encode(s));
  const valueOffsets = new Int32Array(values.length + 1);
  let total = 0;
  parts.forEach((p, i) => (valueOffsets[i + 1] = total += p.length));
  const data = new Uint8Array(total);
  parts.forEach((p, i) => data.set(p, valueOffsets[i]));
  return makeVector(makeData({ type: new Utf8(), length: values.length, nullCount: 0, valueOffsets, data }));
}

/** The rows as an Arrow table: numeric columns as float64 (NaN when absent), text as utf8; names as fileHeader. */
export function toArrow(columns: readonly TableColumn[], rows: Int32Array): Table {
  const out: Record<string, Vector> = {};
  for (const c of columns) {
    let name = fileHeader(c);
    while (name in out) name += '_';
    if (c.num) {
      const v = new Float64Array(rows.length);
      for (let k = 0; k < rows.length; k++) v[k] = c.num(rows[k]);
      out[name] = makeVector(v);
    } else out[name] = utf8(Array.from(rows, (r) => visibleName(c.text(r))));
  }
  return new Table(out);
}

/** The numeric columns of a table, the ones a line can be drawn of (time aside). */
export function lineColumns(rows: EventRows): TableColumn[] {
  return rows.columns.filter((c) => c.num && numeric(c.unit) && c.unit !== 'time' && c.unit !== 'hex');
}

export interface Series {
  /** What tells this line apart (a value of the split column), '' when not split. */
  name: string;
  /** Times (ms since the start) in increasing order, and the values there. */
  t: Float64Array;
  v: Float64Array;
}

/**
 * A numeric column as lines over time: one point per row at the row's start, in time order,
 * absent values dropped; split into one line per value of `split` (a text column) when given,
 * e.g. the heap used "Before GC" and "After GC".
 */
export function lineSeries(rows: EventRows, rowSet: Int32Array, col: TableColumn, split: TableColumn | null = null): Series[] {
  if (!col.num) return [];
  const groups = new Map<string, number[]>();
  for (let k = 0; k < rowSet.length; k++) {
    const r = rowSet[k];
    if (Number.isNaN(col.num(r))) continue;
    const g = split ? split.text(r) : '';
    let list = groups.get(g);
    if (!list) groups.set(g, (list = []));
    list.push(r);
  }
  return [...groups]
    .sort(([a], [b]) => collator.compare(a, b))
    .map(([name, list]) => {
      list.sort((a, b) => rows.start[a] - rows.start[b] || a - b);
      return { name, t: Float64Array.from(list, (r) => rows.start[r]), v: Float64Array.from(list, (r) => col.num!(r)) };
    });
}

/** Page events of the rows that have one, for the side panel and the timeline. */
export function eventOfRow(rows: EventRows, row: number): IndexIntoEvents | null {
  const i = rows.event[row];
  return i >= 0 ? i : null;
}

/** The numbers of an Arrow column (NaN where null); bigints (int64) as the nearest double. */
function numbersOf(v: Vector): Float64Array {
  const n = v.length;
  const out = new Float64Array(n);
  const raw = v.toArray() as ArrayLike<number | bigint | boolean | null>;
  const plain = raw instanceof Float64Array || raw instanceof Float32Array || raw instanceof Int32Array || raw instanceof Uint32Array;
  for (let i = 0; i < n; i++) {
    const x = plain ? (raw[i] as number) : raw[i];
    out[i] = x === null || x === undefined ? NaN : Number(x);
  }
  if (v.nullCount > 0) for (let i = 0; i < n; i++) if (!v.isValid(i)) out[i] = NaN;
  return out;
}

const isInt = (t: DataType) => DataType.isInt(t);

/** The fields every type shares, under the names (and keys) of the page's own columns. */
const SHARED: Record<string, [string, string]> = {
  startTime: ['startTime', 'Start'],
  duration: ['duration', 'Duration'],
  eventThread: ['thread', 'Thread'],
  sampledThread: ['thread', 'Thread'],
  'stackTrace.topFrame': ['stackTop', 'Top frame'],
};
const isNum = (t: DataType) => DataType.isInt(t) || DataType.isFloat(t) || DataType.isDecimal(t);

/** The units type tables carry (column metadata `unit`, columns/type-table.ts) as the table's. */
const UNIT_OF: Record<string, Unit> = { 'ms-since-start': 'time', ms: 'ms', address: 'hex', bytes: 'bytes', percentage: 'fraction' };

/**
 * Every field of a type (a type table, columns/type-table.ts: a column per leaf field, `unit` in
 * each column's metadata, `offset` the event's byte offset as the events table's) as table rows,
 * joined to the page's events by offset, in time order. Times are ms since the recording's start
 * and spans ms already; an integer column with a time unit is read as nanoseconds (since the
 * epoch for a timestamp) all the same.
 */
export function arrowRows(profile: Profile, table: Table, type: IndexIntoEventTypes): EventRows {
  const n = table.numRows;
  const t = profile.eventTypes[type];
  const originNs = BigInt(Math.round(profile.info.startMs * 1e6));
  // The page's events of the type by offset.
  const byOffset = new Map<number, number>();
  const e = profile.events;
  for (let i = 0; i < e.length; i++) if (e.type[i] === type) byOffset.set(e.offset[i], i);
  const fields = table.schema.fields;
  const vec = (name: string) => {
    const k = fields.findIndex((f) => f.name === name);
    return k >= 0 ? table.getChildAt(k) : null;
  };
  const offsets = vec('offset');
  const event = new Int32Array(n).fill(-1);
  if (offsets) {
    const o = numbersOf(offsets);
    for (let r = 0; r < n; r++) event[r] = byOffset.get(o[r]) ?? -1;
  }
  const msOf = (f: (typeof fields)[number], v: Vector, since: boolean): Float64Array => {
    if (!isInt(f.type)) return numbersOf(v);
    const out = new Float64Array(v.length);
    for (let i = 0; i < v.length; i++) {
      const x = v.get(i) as bigint | number | null;
      if (x === null) out[i] = NaN;
      else out[i] = since ? Number(BigInt(x) - originNs) / 1e6 : Number(x) / 1e6;
    }
    return out;
  };
  const columns: TableColumn[] = [];
  let start: Float64Array | null = null;
  let duration: Float64Array | null = null;
  let threadText: ((r: number) => string) | null = null;
  fields.forEach((f, k) => {
    const v = table.getChildAt(k)!;
    const unitName = f.metadata.get('unit') ?? '';
    if (f.name === 'offset' || unitName === 'byte-offset' || f.name === 'stackTrace') return;
    if (isNum(f.type)) {
      let unit: Unit = UNIT_OF[unitName] ?? 'number';
      let values: Float64Array;
      if (unit === 'time') values = msOf(f, v, true);
      else if (unit === 'ms') values = msOf(f, v, false);
      else values = numbersOf(v);
      if (unitName === 'hz' || unitName === 'bits') unit = 'number';
      const label = unitName === 'hz' ? `${f.name} (Hz)` : unitName === 'bits' ? `${f.name} (bits)` : f.name;
      if (f.name === 'startTime') start = values;
      if (f.name === 'duration') duration = values;
      const [key, shown] = SHARED[f.name] ?? [f.name, label];
      columns.push({ key, label: shown, unit, num: (r) => values[r], text: (r) => (Number.isNaN(values[r]) ? '' : String(values[r])) });
    } else {
      const text = (r: number) => {
        const x = v.get(r);
        return x === null || x === undefined ? '' : String(x);
      };
      if (f.name === 'eventThread' || (f.name === 'sampledThread' && !threadText)) threadText = text;
      const [key, shown] = SHARED[f.name] ?? [f.name, f.name];
      columns.push({ key, label: shown, unit: 'text', num: null, text });
    }
  });
  const s: Float64Array = start ?? new Float64Array(n).fill(NaN);
  const d: Float64Array | null = duration;
  const end = Float64Array.from(s, (x, r) => x + (d && !Number.isNaN(d[r]) ? d[r] : 0));
  // Threads: the page's event's thread, else the page's thread of that name.
  const threadByName = new Map<string, number>();
  // (Not by an empty name: a row without a thread is not the first unnamed thread's.)
  for (let th = profile.threads.length - 1; th >= 0; th--) {
    const name = profile.strings[profile.threads.name[th]];
    if (name) threadByName.set(name, th);
  }
  const thread = new Int32Array(n).fill(-1);
  const tt = threadText as ((r: number) => string) | null;
  for (let r = 0; r < n; r++) thread[r] = event[r] >= 0 ? e.thread[event[r]] : tt ? (threadByName.get(tt(r)) ?? -1) : -1;
  // The page's stacks, where it holds the event, summarised as in its own columns.
  if (t?.hasStack) {
    const at = columns.findIndex((c) => c.key === 'stackTop');
    const col: TableColumn = { key: 'stackTrace', label: 'Stack (leaf first)', unit: 'text', num: null, text: (r) => (event[r] >= 0 ? stackSummary(profile, e.stack[event[r]]) : '') };
    columns.splice(at >= 0 ? at + 1 : columns.length, 0, col);
  }
  // Rows in time order, as the page's own columns are.
  const order = Int32Array.from({ length: n }, (_, r) => r).sort((a, b) => s[a] - s[b] || a - b);
  return { type: t?.name ?? '', length: n, columns, event, start: s, end, thread, order };
}
