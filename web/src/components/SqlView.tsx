/**
 * SQL over the recording: the tables and their columns (a click writes the name into the query),
 * example queries, the query (Ctrl/Cmd+Enter runs it), then the result as a bar chart of its
 * first numeric column and a table of its first rows. A row with an event, a start or a thread
 * column shows that on the timeline when chosen.
 *
 *   schema list │ examples · query · Run / Cancel · status
 *               │ error, or chart + "N of M rows" table
 */
import { useRef, useState } from 'react';
import type { SqlExample, SqlResult, SqlRowLink, SqlSchemaTable } from '../columns/sql-view';
import { formatCount } from '../profile-logic/format';

interface Props {
  sql: string;
  onSql: (text: string) => void;
  /** DuckDB is loading (first open), ready, or failed to start. */
  engine: 'loading' | 'ready' | { failed: string };
  schema: SqlSchemaTable[] | null;
  examples: SqlExample[];
  result: SqlResult | null;
  error: string | null;
  running: boolean;
  /** Types whose table of every field is loading. */
  loadingFields: string[];
  onRun: () => void;
  onCancel: () => void;
  onLoadFields: (type: string) => void;
  onRow: (link: SqlRowLink) => void;
}

/** A name as a query writes it: bare when it is a plain identifier, else in double quotes. */
function quoted(name: string): string {
  return /^[a-z_][a-z0-9_]*$/.test(name) || name.startsWith('fields."') ? name : `"${name.replaceAll('"', '""')}"`;
}

export function SqlView({ sql, onSql, engine, schema, examples, result, error, running, loadingFields, onRun, onCancel, onLoadFields, onRow }: Props) {
  const editor = useRef<HTMLTextAreaElement>(null);
  const [chosen, setChosen] = useState<number | null>(null);
  const [open, setOpen] = useState<ReadonlySet<string>>(new Set());
  const insert = (text: string) => {
    const ta = editor.current;
    if (!ta) return onSql(sql + text);
    const a = ta.selectionStart;
    const b = ta.selectionEnd;
    onSql(sql.slice(0, a) + text + sql.slice(b));
    requestAnimationFrame(() => {
      ta.focus();
      ta.setSelectionRange(a + text.length, a + text.length);
    });
  };
  const ready = engine === 'ready';
  const status =
    engine === 'loading'
      ? 'Starting DuckDB (loaded once, then kept for offline use)…'
      : typeof engine === 'object'
        ? null
        : running
          ? 'Running…'
          : result
            ? `${formatCount(result.total)} ${result.total === 1 ? 'row' : 'rows'} in ${result.ms < 10 ? result.ms.toFixed(1) : Math.round(result.ms)} ms`
            : 'Ctrl+Enter (⌘+Enter) runs the query.';
  return (
    <div className="sql">
      <aside className="sql-schema" aria-label="Tables">
        <h3>Tables</h3>
        {!schema && <p className="muted">{typeof engine === 'object' ? '—' : 'Loading…'}</p>}
        {schema?.map((t) => {
          const type = !t.name.startsWith('fields.') && t.name.includes('.') ? t.name : null;
          const hasFields = type !== null && schema.some((x) => x.name === `fields."${type}"`);
          const isOpen = open.has(t.name);
          return (
            <div key={t.name} className="sql-table">
              <div className="sql-table-head">
                <button
                  type="button"
                  className="link sql-toggle"
                  aria-expanded={isOpen}
                  aria-label={`Columns of ${t.name}`}
                  onClick={() => setOpen((o) => {
                    const next = new Set(o);
                    if (isOpen) next.delete(t.name);
                    else next.add(t.name);
                    return next;
                  })}
                >
                  {isOpen ? '▾' : '▸'}
                </button>
                <button type="button" className="link name" title={`${t.about}: insert its name`} onClick={() => insert(quoted(t.name))}>
                  {t.name}
                </button>
              </div>
              {isOpen && (
                <>
                  <p className="muted">{t.about}</p>
                  <ul>
                    {t.columns.map((c) => (
                      <li key={c.name}>
                        <button type="button" className="link name" onClick={() => insert(quoted(c.name))}>
                          {c.name}
                        </button>{' '}
                        <span className="muted">{c.type.toLowerCase()}</span>
                      </li>
                    ))}
                  </ul>
                  {type !== null && !hasFields && (
                    <button type="button" disabled={loadingFields.includes(type)} onClick={() => onLoadFields(type)} title={`Decode every field of ${type} into the table fields."${type}"`}>
                      {loadingFields.includes(type) ? 'Loading every field…' : `Every field → fields."${type}"`}
                    </button>
                  )}
                </>
              )}
            </div>
          );
        })}
      </aside>
      <section className="sql-main" aria-label="Query">
        <div className="sql-examples">
          <span className="muted">Examples:</span>
          {examples.map((x) => (
            <button key={x.title} type="button" disabled={x.missing !== null} title={x.missing ?? x.sql} onClick={() => onSql(x.sql)}>
              {x.title}
            </button>
          ))}
        </div>
        <textarea
          ref={editor}
          className="sql-editor"
          aria-label="SQL query"
          spellCheck={false}
          autoComplete="off"
          rows={8}
          value={sql}
          placeholder={'SELECT thread, count(*) AS samples\nFROM "jdk.ExecutionSample"\nGROUP BY thread ORDER BY samples DESC'}
          onChange={(e) => onSql(e.currentTarget.value)}
          onKeyDown={(e) => {
            if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) {
              e.preventDefault();
              if (ready && !running) onRun();
            }
          }}
        />
        <div className="sql-bar">
          <button type="button" className="primary" disabled={!ready || running || sql.trim() === ''} onClick={onRun}>
            Run
          </button>
          {running && (
            <button type="button" onClick={onCancel}>
              Cancel
            </button>
          )}
          <span aria-live="polite" className="muted sql-status">
            {status}
          </span>
        </div>
        {typeof engine === 'object' && (
          <p className="error" role="alert">
            DuckDB could not start: {engine.failed}
          </p>
        )}
        {error && (
          <pre className="error sql-error" role="alert">
            {error}
          </pre>
        )}
        {result && !error && <ResultView result={result} chosen={chosen} onChoose={(i) => {
          setChosen(i);
          const link = result.links?.[i];
          if (link) onRow(link);
        }} />}
      </section>
    </div>
  );
}

function ResultView({ result, chosen, onChoose }: { result: SqlResult; chosen: number | null; onChoose: (row: number) => void }) {
  const { chart } = result;
  const linked = result.links !== null;
  return (
    <div className="sql-result">
      {chart && <BarChart chart={chart} />}
      <p className="muted sql-count">
        {result.rows.length < result.total
          ? `First ${formatCount(result.rows.length)} of ${formatCount(result.total)} rows`
          : `${formatCount(result.total)} ${result.total === 1 ? 'row' : 'rows'}`}
        {linked && ' · choose a row to show it on the timeline'}
      </p>
      <table className="grid sql-rows" aria-label="Query result">
        <thead>
          <tr>
            {result.columns.map((c) => (
              <th key={c.name} className={c.numeric ? 'num' : undefined} title={c.type}>
                {c.name}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {result.rows.map((row, i) => (
            <tr
              key={i}
              className={chosen === i ? 'selected' : undefined}
              tabIndex={linked ? 0 : undefined}
              aria-selected={linked ? chosen === i : undefined}
              onClick={linked ? () => onChoose(i) : undefined}
              onKeyDown={linked ? (e) => e.key === 'Enter' && onChoose(i) : undefined}
            >
              {row.map((v, c) => (
                <td key={c} className={result.columns[c].numeric ? 'num' : 'name'}>
                  {v === null ? <span className="muted">null</span> : v}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

function BarChart({ chart }: { chart: NonNullable<SqlResult['chart']> }) {
  const max = Math.max(...chart.bars.map((b) => Math.abs(b.value)), Number.MIN_VALUE);
  return (
    <figure className="sql-chart" aria-label={`Bar chart of ${chart.column}`}>
      <figcaption className="muted">
        {chart.column}
        {chart.label ? ` by ${chart.label}` : ''}
        {chart.bars.length > 1 ? ` · first ${chart.bars.length} rows` : ''}
      </figcaption>
      {chart.bars.map((b, i) => (
        <div key={i} className="sql-bar-row" title={`${b.label}: ${b.value}`}>
          <span className="sql-bar-label name">{b.label}</span>
          <span className="sql-bar-track">
            <span className="sql-bar-fill" style={{ width: `${(100 * Math.abs(b.value)) / max}%` }} />
          </span>
          <span className="sql-bar-value num">{+b.value.toPrecision(6)}</span>
        </div>
      ))}
    </figure>
  );
}
