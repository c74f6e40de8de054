/**
 * Events of any type as a table: every row there (virtualised: only the rows in view are in the
 * page), sortable by any column, filtered by the selected range, the threads and (for types with
 * stacks) the stack filters. A row chosen shows its event on the timeline and in the side panel.
 * A numeric column can be drawn as a line over the timeline's window.
 *
 *   toolbar (type · N of M · line of a column · CSV / Arrow) ─ line chart ─ header ─ visible rows
 */
import { useVirtualizer } from '@tanstack/react-virtual';
import { tableToIPC, type Table } from 'apache-arrow';
import { useMemo, useRef, useState } from 'react';
import type { Profile } from '../columns/profile';
import { cellText, lineColumns, lineSeries, sortRows, toArrow, toCsv, unitSuffix, type EventRows, type TableColumn } from '../profile-logic/event-table';
import { formatCount } from '../profile-logic/format';
import { KINDS } from '../profile-logic/kinds';
import { LineChart } from './LineChart';
import { download, exportName } from './download';

interface Props {
  profile: Profile;
  /** The type shown (index into eventTypes). */
  typeIndex: number;
  rows: EventRows | null;
  /** The rows the filters keep, in row order. */
  kept: Int32Array | null;
  /** Why the table is not (or not yet, or not wholly) there: decoding, not decoded. */
  note: string | null;
  clock: number | null;
  range: [number, number] | null;
  viewport: [number, number] | null;
  selectedEvent: number | null;
  fileName: string;
  onType: (name: string) => void;
  onSelectEvent: (event: number) => void;
  /** Arrow table → Parquet bytes, when the page can write Parquet. */
  toParquet?: (table: Table) => Promise<Uint8Array>;
  /** Decode every field of the type (offered when that is not done unasked: a very large type). */
  onDecodeFields?: () => void;
}

const ROW_H = 24;

/** Fixed widths (px), the same in every row, so the virtualised rows line up with the header. */
function widthOf(c: TableColumn): number {
  if (c.key === 'stackTrace') return 520;
  if (c.unit === 'text') return 220;
  if (c.unit === 'time') return 110;
  return Math.max(110, Math.min(260, 7.5 * (c.label.length + unitSuffix(c.unit).length) + 36));
}

export function EventsView({ profile, typeIndex, rows, kept, note, clock, range, viewport, selectedEvent, fileName, onType, onSelectEvent, toParquet, onDecodeFields }: Props) {
  const type = profile.eventTypes[typeIndex];
  const [sort, setSort] = useState<{ key: string; descending: boolean } | null>(null);
  const [lineKey, setLineKey] = useState('');
  const [splitKey, setSplitKey] = useState('');
  const [chosenRow, setChosenRow] = useState<number | null>(null);
  const [busy, setBusy] = useState<string | null>(null);
  const scroller = useRef<HTMLDivElement>(null);
  const columns = useMemo(() => rows?.columns ?? [], [rows]);
  const sortCol = sort ? columns.find((c) => c.key === sort.key) : undefined;
  const shown = useMemo(() => (kept && sortCol ? sortRows(kept, sortCol, sort!.descending) : kept), [kept, sortCol, sort]);
  const numericCols = useMemo(() => (rows ? lineColumns(rows) : []), [rows]);
  // One column, or every column of one unit together ("unit:fraction": CPU load's three).
  const lineCols = lineKey.startsWith('unit:') ? numericCols.filter((c) => `unit:${c.unit}` === lineKey) : numericCols.filter((c) => c.key === lineKey);
  const lineCol = lineCols[0] ?? null;
  const unitGroups = useMemo(() => {
    const by = new Map<string, TableColumn[]>();
    for (const c of numericCols) by.set(c.unit, [...(by.get(c.unit) ?? []), c]);
    return [...by].filter(([, cs]) => cs.length > 1);
  }, [numericCols]);
  const textCols = columns.filter((c) => !c.num && c.key !== 'stackTrace' && c.key !== 'stackTop');
  const splitCol = textCols.find((c) => c.key === splitKey) ?? null;
  const series = useMemo(() => {
    if (!rows || !kept || lineCols.length === 0) return null;
    if (lineCols.length === 1) return lineSeries(rows, kept, lineCols[0], splitCol);
    return lineCols.flatMap((c) => lineSeries(rows, kept, c).map((l) => ({ ...l, name: c.label })));
    // lineCols is derived from lineKey and numericCols.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [rows, kept, lineKey, numericCols, splitCol]);
  const lineLabel = lineCols.length > 1 ? lineCols.map((c) => c.label).join(', ') : (lineCol?.label ?? '');
  const virtual = useVirtualizer({ count: shown?.length ?? 0, getScrollElement: () => scroller.current, estimateSize: () => ROW_H, overscan: 12 });
  const choices = useMemo(
    () =>
      profile.eventTypes
        .map((t, i) => ({ t, i }))
        .filter(({ t }) => t.count > 0)
        .sort((a, b) => (a.t.name < b.t.name ? -1 : 1)),
    [profile],
  );
  const template = columns.map((c) => `${widthOf(c)}px`).join(' ');
  const rowWidth = columns.reduce((w, c) => w + widthOf(c), 0);
  const total = type?.count ?? 0;
  const name = type?.name ?? 'events';

  const saveTable = async (format: 'csv' | 'arrow' | 'parquet') => {
    if (!rows || !shown) return;
    const base = exportName(fileName, name);
    if (format === 'csv') return download(new Blob([toCsv(columns, shown)], { type: 'text/csv' }), `${base}.csv`);
    const table = toArrow(columns, shown);
    if (format === 'arrow') return download(new Blob([tableToIPC(table, 'file') as Uint8Array<ArrayBuffer>], { type: 'application/vnd.apache.arrow.file' }), `${base}.arrow`);
    if (!toParquet) return;
    setBusy('Writing Parquet…');
    try {
      const bytes = await toParquet(table);
      download(new Blob([bytes as Uint8Array<ArrayBuffer>], { type: 'application/vnd.apache.parquet' }), `${base}.parquet`);
      setBusy(null);
    } catch (e) {
      setBusy(`Could not write Parquet: ${e instanceof Error ? e.message : String(e)}`);
    }
  };

  const choose = (r: number) => {
    setChosenRow(r);
    const i = rows?.event[r] ?? -1;
    if (i >= 0) onSelectEvent(i);
  };

  return (
    <div className="events-view">
      <div className="view-bar events-bar">
        <label className="field inline">
          <span>Events of</span>
          <select aria-label="Table of event type" value={type?.name ?? ''} onChange={(e) => (setSort(null), setLineKey(''), setSplitKey(''), onType(e.currentTarget.value))}>
            {choices.map(({ t }) => (
              <option key={t.name} value={t.name}>
                {t.name} ({formatCount(t.count)}) – {KINDS[t.kind].label}
              </option>
            ))}
          </select>
        </label>
        <span className="count" role="note" aria-label="Rows shown">
          {shown ? `${formatCount(shown.length)} of ${formatCount(total)} ${name} events` : ''}
          {shown && rows && rows.length < total ? ` (${formatCount(rows.length)} decoded)` : ''}
          {range ? ' in the range' : ''}
        </span>
        {numericCols.length > 0 && (
          <label className="field inline">
            <span>Line of</span>
            <select aria-label="Line of column" value={lineKey} onChange={(e) => setLineKey(e.currentTarget.value)}>
              <option value="">none</option>
              {numericCols.map((c) => (
                <option key={c.key} value={c.key}>
                  {c.label}
                </option>
              ))}
              {unitGroups.map(([unit, cs]) => (
                <option key={unit} value={`unit:${unit}`}>
                  {cs.map((c) => c.label).join(' + ')}
                </option>
              ))}
            </select>
          </label>
        )}
        {lineCols.length === 1 && textCols.length > 0 && (
          <label className="field inline">
            <span>one line per</span>
            <select aria-label="Line split by column" value={splitKey} onChange={(e) => setSplitKey(e.currentTarget.value)}>
              <option value="">–</option>
              {textCols.map((c) => (
                <option key={c.key} value={c.key}>
                  {c.label}
                </option>
              ))}
            </select>
          </label>
        )}
        <span className="table-export" role="group" aria-label="Save the table">
          <button type="button" disabled={!shown} onClick={() => void saveTable('csv')} title="Save the rows shown, in this order, as CSV (numbers in the header's units)">
            CSV
          </button>
          <button type="button" disabled={!shown} onClick={() => void saveTable('arrow')} title="Save the rows shown as an Arrow IPC file">
            Arrow
          </button>
          {toParquet && (
            <button type="button" disabled={!shown || busy === 'Writing Parquet…'} onClick={() => void saveTable('parquet')} title="Save the rows shown as Parquet">
              Parquet
            </button>
          )}
        </span>
        {busy && <span className="hint">{busy}</span>}
      </div>
      {note && (
        <p className="hint" role="note" aria-label="Table progress">
          {note}
        </p>
      )}
      {onDecodeFields && (
        <p className="hint">
          The page’s own columns of these {formatCount(total)} events are shown.{' '}
          <button type="button" onClick={onDecodeFields}>
            Decode every field
          </button>
        </p>
      )}
      {series && lineCol && <LineChart series={series} unit={lineCol.unit} label={lineLabel} duration={profile.info.durationMs} viewport={viewport} range={range} clock={clock} />}
      {rows && shown && (
        <div className="vtable" ref={scroller} role="table" aria-label={`Events of ${name}`} aria-rowcount={shown.length + 1}>
          <div role="rowgroup" className="vhead">
            <div role="row" className="vrow" aria-rowindex={1} style={{ gridTemplateColumns: template, width: rowWidth }}>
              {columns.map((c) => {
                const active = sort?.key === c.key;
                const u = unitSuffix(c.unit);
                return (
                  <div key={c.key} role="columnheader" className={c.num ? 'num' : undefined} aria-sort={active ? (sort!.descending ? 'descending' : 'ascending') : 'none'}>
                    <button
                      type="button"
                      className="link sort"
                      title={`Sort by ${c.label.toLowerCase()}`}
                      onClick={() => setSort(active ? { key: c.key, descending: !sort!.descending } : { key: c.key, descending: c.num !== null })}
                    >
                      {c.label}
                      {u && c.unit !== 'time' && c.unit !== 'ms' && c.unit !== 'fraction' ? ` (${u})` : ''}
                      {active ? (sort!.descending ? ' ▾' : ' ▴') : ''}
                    </button>
                  </div>
                );
              })}
            </div>
          </div>
          <div role="rowgroup" className="vbody" style={{ height: virtual.getTotalSize(), width: rowWidth, position: 'relative' }}>
            {virtual.getVirtualItems().map((v) => {
              const r = shown[v.index];
              const ev = rows.event[r];
              const selected = ev >= 0 ? ev === selectedEvent : r === chosenRow;
              return (
                <div
                  key={v.key}
                  role="row"
                  aria-rowindex={v.index + 2}
                  aria-current={selected ? true : undefined}
                  className={`vrow${selected ? ' selected' : ''}`}
                  style={{ gridTemplateColumns: template, width: rowWidth, transform: `translateY(${v.start}px)`, height: ROW_H }}
                  title={ev >= 0 ? 'Show on the timeline' : 'The timeline does not hold this type’s events'}
                  tabIndex={0}
                  onClick={() => choose(r)}
                  onKeyDown={(ev) => {
                    if (ev.key !== 'Enter' && ev.key !== ' ') return;
                    ev.preventDefault();
                    choose(r);
                  }}
                >
                  {columns.map((c) => {
                    const text = cellText(c, r, clock);
                    // Text cut by its column reads whole on hover.
                    return (
                      <div key={c.key} role="cell" className={c.num ? 'num' : 'name'} title={c.num ? undefined : text}>
                        <bdi>{text}</bdi>
                      </div>
                    );
                  })}
                </div>
              );
            })}
          </div>
        </div>
      )}
      {rows && shown && shown.length === 0 && <p className="empty">No {name} event {range ? 'in the range' : ''} passes the filters.</p>}
    </div>
  );
}
