/**
 * A query's Arrow result as the SQL view shows it: the first rows as text, the whole count, a bar
 * chart of the first numeric column (two rows or more), and where each row points on the timeline.
 *
 * A row links to the timeline by its columns' names: `event` (a row of the page's events table,
 * as every event view gives it) selects that event; `start` (ms since the recording's start) with
 * `duration` or `end` selects that range, `start` alone a point; `thread` pins that lane.
 */
import { DataType, TimeUnit, type Table, type Vector } from 'apache-arrow';
import type { SqlResult, SqlRowLink } from '../columns/sql-view';

export const SHOWN_ROWS = 500;
export const CHART_BARS = 20;

function isNumeric(type: DataType): boolean {
  return DataType.isInt(type) || DataType.isFloat(type) || DataType.isDecimal(type);
}

function num(v: unknown): number | null {
  if (typeof v === 'number') return Number.isNaN(v) ? null : v;
  if (typeof v === 'bigint') return Number(v);
  return null;
}

function timestampMs(v: unknown, type: DataType): number | null {
  if (v instanceof Date) return v.getTime();
  if (typeof v === 'bigint') {
    const unit = (type as { unit?: TimeUnit }).unit;
    const per = unit === TimeUnit.SECOND ? 1e-3 : unit === TimeUnit.MILLISECOND ? 1 : unit === TimeUnit.MICROSECOND ? 1e3 : 1e6;
    return Number(v) / per;
  }
  return typeof v === 'number' ? v : null;
}

function text(v: unknown, type: DataType): string | null {
  if (v === null || v === undefined) return null;
  if (DataType.isTimestamp(type) || DataType.isDate(type)) {
    const ms = timestampMs(v, type);
    if (ms === null || !Number.isFinite(ms)) return String(v);
    const iso = new Date(ms).toISOString().replace('T', ' ').replace('Z', '');
    return DataType.isDate(type) && iso.endsWith(' 00:00:00.000') ? iso.slice(0, 10) : iso;
  }
  // Fractions to a microsecond of a millisecond (3 places), small ones to 4 significant digits.
  if (typeof v === 'number') return Number.isInteger(v) || !Number.isFinite(v) ? String(v) : String(Math.abs(v) >= 1 ? +v.toFixed(3) : +v.toPrecision(4));
  if (typeof v === 'bigint' || typeof v === 'boolean' || typeof v === 'string') return String(v);
  if (v instanceof Uint8Array) return `<${v.length} bytes>`;
  const j = (v as { toJSON?: () => unknown }).toJSON?.() ?? v;
  return JSON.stringify(j, (_k, x) => (typeof x === 'bigint' ? Number(x) : x));
}

export function toResult(table: Table, ms: number, shown = SHOWN_ROWS, bars = CHART_BARS): SqlResult {
  const fields = table.schema.fields;
  const vectors = fields.map((_, i) => table.getChildAt(i)!) as Vector[];
  const n = Math.min(shown, table.numRows);
  const rows: (string | null)[][] = [];
  for (let r = 0; r < n; r++) rows.push(vectors.map((v, c) => text(v.get(r), fields[c].type)));
  const columns = fields.map((f) => ({ name: f.name, type: String(f.type), numeric: isNumeric(f.type) }));

  // Not a key or a position: an id, an event row, a stack row, a start time.
  const valueCol = columns.findIndex((c) => c.numeric && !/(^|_)id$/.test(c.name) && !['event', 'start', 'stack', 'frame', 'prefix'].includes(c.name));
  const labelCol = columns.findIndex((c, i) => i !== valueCol && !c.numeric);
  let chart: SqlResult['chart'] = null;
  if (valueCol >= 0 && table.numRows > 0) {
    const m = Math.min(bars, table.numRows);
    const out: { label: string; value: number }[] = [];
    for (let r = 0; r < m; r++) {
      const value = num(vectors[valueCol].get(r));
      if (value === null) continue;
      out.push({ label: labelCol >= 0 ? (text(vectors[labelCol].get(r), fields[labelCol].type) ?? '∅') : String(r + 1), value });
    }
    // One bar says nothing a cell does not.
    chart = out.length > 1 ? { column: fields[valueCol].name, label: labelCol >= 0 ? fields[labelCol].name : null, bars: out } : null;
  }

  const col = (name: string) => fields.findIndex((f) => f.name === name);
  const [ev, st, du, en, th] = ['event', 'start', 'duration', 'end', 'thread'].map(col);
  let links: SqlRowLink[] | null = null;
  if ((ev >= 0 && isNumeric(fields[ev].type)) || (st >= 0 && isNumeric(fields[st].type)) || th >= 0) {
    links = [];
    for (let r = 0; r < n; r++) {
      const event = ev >= 0 ? num(vectors[ev].get(r)) : null;
      const start = st >= 0 ? num(vectors[st].get(r)) : null;
      const dur = du >= 0 ? num(vectors[du].get(r)) : null;
      const end = en >= 0 ? num(vectors[en].get(r)) : null;
      const thread = th >= 0 ? vectors[th].get(r) : null;
      links.push({
        event: event !== null && Number.isInteger(event) && event >= 0 ? event : null,
        range: start === null ? null : [start, end ?? start + Math.max(0, dur ?? 0)],
        thread: typeof thread === 'string' ? thread : null,
      });
    }
  }
  return { columns, rows, total: table.numRows, chart, links, ms };
}
