/**
 * DuckDB for Node (Vitest, scripts): the blocking build of duckdb-wasm, the same engine as the
 * page's Worker, run in-process, through the same pending-query calls as the page.
 */
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { joinStream, SqlDb, type SqlBackend } from './db';
import { SETUP_SQL } from './setup';

interface BlockingConnection {
  useUnsafe<R>(f: (bindings: BlockingBindings, conn: number) => R): R;
  insertArrowFromIPCStream(buffer: Uint8Array, options: { name: string; schema?: string }): void;
}
interface BlockingBindings {
  startPendingQuery(conn: number, text: string, allowStreamResult: boolean): Uint8Array | null;
  pollPendingQuery(conn: number): Uint8Array | null;
  fetchQueryResults(conn: number): Uint8Array | null;
  instantiate(onProgress: (p: unknown) => void): Promise<unknown>;
  open(config: object): void;
  connect(): BlockingConnection;
}

export async function nodeSqlDb(): Promise<SqlDb> {
  const require = createRequire(import.meta.url);
  const dist = join(require.resolve('@duckdb/duckdb-wasm/dist/duckdb-node-blocking.cjs'), '..');
  const duckdb = require(join(dist, 'duckdb-node-blocking.cjs'));
  const bundles = {
    mvp: { mainModule: join(dist, 'duckdb-mvp.wasm'), mainWorker: join(dist, 'duckdb-node-mvp.worker.cjs') },
    eh: { mainModule: join(dist, 'duckdb-eh.wasm'), mainWorker: join(dist, 'duckdb-node-eh.worker.cjs') },
  };
  const db = (await duckdb.createDuckDB(bundles, new duckdb.VoidLogger(), duckdb.NODE_RUNTIME)) as BlockingBindings;
  await db.instantiate(() => {});
  db.open({ query: { castBigIntToDouble: true, castDecimalToDouble: true } });
  const conn = db.connect();
  const backend: SqlBackend = {
    run: async (sql) =>
      conn.useUnsafe((b, id) => {
        let header = b.startPendingQuery(id, sql, false);
        while (header === null) header = b.pollPendingQuery(id);
        const parts = [header];
        for (let batch = b.fetchQueryResults(id); batch !== null && batch.length > 0; batch = b.fetchQueryResults(id)) parts.push(batch);
        return joinStream(parts);
      }),
    cancel: async () => false,
    insertIPC: async (name, ipc, schema) => conn.insertArrowFromIPCStream(ipc, { name, schema }),
  };
  const sql = new SqlDb(backend);
  await sql.exec(SETUP_SQL);
  return sql;
}
