/**
 * The SQL view's engine, started the first time the view opens: DuckDB's code and files are
 * loaded then (a dynamic import, a chunk of its own), never on the page's first load. The query
 * text lives in the view state (and so in the link); results and errors live here.
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import type { Profile } from '../columns/profile';
import type { SqlResult, SqlSchemaTable } from '../columns/sql-view';
import { loadTypeTable } from '../engine';
import type { SqlSession } from '../sql/session';

export interface SqlState {
  engine: 'loading' | 'ready' | { failed: string };
  schema: SqlSchemaTable[] | null;
  result: SqlResult | null;
  error: string | null;
  running: boolean;
  loadingFields: string[];
  run: (sql: string) => void;
  cancel: () => void;
  loadFields: (type: string) => void;
}

const message = (e: unknown) => (e instanceof Error ? e.message : String(e));

export function useSql(profile: Profile, active: boolean): SqlState {
  const [session, setSession] = useState<SqlSession | null>(null);
  const [engine, setEngine] = useState<SqlState['engine']>('loading');
  const [schema, setSchema] = useState<SqlSchemaTable[] | null>(null);
  const [result, setResult] = useState<SqlResult | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [running, setRunning] = useState(false);
  const [loadingFields, setLoadingFields] = useState<string[]>([]);
  const started = useRef(false);
  const runId = useRef(0);

  useEffect(() => {
    if (!active || started.current) return;
    started.current = true;
    import('../sql/browser')
      .then((m) => m.openSqlSession((p, type) => loadTypeTable(p, type)))
      .then(
        (s) => {
          setSession(s);
          setEngine('ready');
        },
        (e) => setEngine({ failed: message(e) }),
      );
  }, [active]);

  // The tables follow the recording (another file, or a lazy load's new rows).
  useEffect(() => {
    if (!session) return;
    let live = true;
    setSchema(null);
    session.schema(profile).then(
      (s) => live && setSchema(s),
      (e) => live && setError(message(e)),
    );
    return () => {
      live = false;
    };
  }, [session, profile]);

  const run = useCallback(
    (sql: string) => {
      if (!session) return;
      const id = ++runId.current;
      setRunning(true);
      setError(null);
      session.run(profile, sql).then(
        (r) => {
          if (id !== runId.current) return;
          setResult(r);
          setRunning(false);
          // A query may have loaded a table of every field: list it.
          session.schema(profile).then(setSchema, () => {});
        },
        (e) => {
          if (id !== runId.current) return;
          setError(message(e));
          setRunning(false);
        },
      );
    },
    [session, profile],
  );

  const loadFields = useCallback(
    (type: string) => {
      if (!session) return;
      setLoadingFields((l) => [...l, type]);
      session
        .loadFields(profile, type)
        .then(() => session.schema(profile))
        .then(setSchema, (e) => setError(message(e)))
        .finally(() => setLoadingFields((l) => l.filter((t) => t !== type)));
    },
    [session, profile],
  );

  const cancel = useCallback(() => session?.cancel(), [session]);
  return { engine, schema, result, error, running, loadingFields, run, cancel, loadFields };
}
