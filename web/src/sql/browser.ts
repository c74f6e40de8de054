/**
 * DuckDB in the page: duckdb-wasm's exception-handling ("eh") build in its own Worker, its files
 * served by our own origin (Vite copies them into assets/; the service worker caches them on
 * first use, vite.config.ts). This module, and so DuckDB's code, is loaded only when the SQL view
 * is first opened (a dynamic import from app/).
 *
 * The eh build, not mvp or coi: every browser the page supports otherwise (ES2022, module
 * workers) has WebAssembly exception handling, which makes DuckDB's C++ exceptions cheap (mvp
 * goes through JS for each) and its module 5 MB smaller; coi needs cross-origin isolation
 * (COOP/COEP headers), which GitHub Pages cannot send. One build means one set of files to cache.
 *
 * Queries run as pending queries polled from here: the Worker works a slice at a time between
 * polls, so the page never waits on it and a cancel stops it at the next slice.
 */
import { AsyncDuckDB, VoidLogger } from '@duckdb/duckdb-wasm';
import wasmUrl from '@duckdb/duckdb-wasm/dist/duckdb-eh.wasm?url';
import workerUrl from '@duckdb/duckdb-wasm/dist/duckdb-browser-eh.worker.js?url';
import { joinStream, SqlDb, type SqlBackend } from './db';
import { SETUP_SQL } from './setup';
import { SqlSession, type LoadTypeTable } from './session';

export class QueryCancelled extends Error {
  constructor() {
    super('The query was cancelled.');
    this.name = 'QueryCancelled';
  }
}

export async function openBrowserDb(): Promise<SqlDb> {
  const worker = new Worker(workerUrl);
  const db = new AsyncDuckDB(new VoidLogger(), worker);
  try {
    await db.instantiate(wasmUrl);
    await db.open({ query: { castBigIntToDouble: true, castDecimalToDouble: true } });
  } catch (e) {
    worker.terminate();
    throw e;
  }
  const conn = await db.connect();
  let running = false;
  let cancelled = false;
  const backend: SqlBackend = {
    run: (sql) =>
      conn.useUnsafe(async (b, id) => {
        running = true;
        cancelled = false;
        try {
          let header = await b.startPendingQuery(id, sql, false);
          while (header === null) {
            if (cancelled) {
              await b.cancelPendingQuery(id);
              throw new QueryCancelled();
            }
            header = await b.pollPendingQuery(id);
          }
          const parts = [header];
          for (let batch = await b.fetchQueryResults(id); batch !== null && batch.length > 0; batch = await b.fetchQueryResults(id)) parts.push(batch);
          return joinStream(parts);
        } finally {
          running = false;
        }
      }),
    cancel: async () => {
      if (!running) return false;
      cancelled = true;
      return true;
    },
    insertIPC: (name, ipc, schema) => conn.insertArrowFromIPCStream(ipc, { name, schema }),
  };
  const sql = new SqlDb(backend);
  await sql.exec(SETUP_SQL);
  return sql;
}

/** The SQL view's session over a fresh DuckDB in the page. */
export async function openSqlSession(loadTypeTable: LoadTypeTable | null): Promise<SqlSession> {
  return new SqlSession(await openBrowserDb(), loadTypeTable);
}
