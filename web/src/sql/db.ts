/**
 * The one thing the SQL layer asks of DuckDB, whichever build runs it: the browser's (a Worker,
 * browser.ts) or Node's (blocking, node.ts, for tests). Results cross as Arrow IPC bytes and are
 * read with the page's own apache-arrow, so a result is the same `Table` type as the page's data.
 *
 *   page Arrow table ─ tableToIPC ─▶ insert (DuckDB copies it into a table)
 *   SQL text ─▶ DuckDB ─ IPC stream bytes ─ tableFromIPC ─▶ result Table
 */
import { tableFromIPC, tableToIPC, type Table } from 'apache-arrow';
import { splitStatements } from './statements';

export interface SqlBackend {
  /** Run one statement; the IPC stream of its result. */
  run(sql: string): Promise<Uint8Array>;
  /** Ask a running `run` to stop; it then rejects. False when nothing was running. */
  cancel(): Promise<boolean>;
  /** Create table `schema.name` from an Arrow IPC stream. */
  insertIPC(name: string, ipc: Uint8Array, schema?: string): Promise<void>;
}

/** One IPC stream from a pending query's header (the schema) and the batches fetched after it. */
export function joinStream(parts: Uint8Array[]): Uint8Array {
  if (parts.length === 1) return parts[0];
  const out = new Uint8Array(parts.reduce((a, p) => a + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

/** SQL text of an identifier: "jdk.FileRead" stays one name. */
export function ident(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}

/** SQL text of a string literal. */
export function literal(s: string): string {
  return `'${s.replaceAll("'", "''")}'`;
}

export class SqlDb {
  constructor(readonly backend: SqlBackend) {}

  /** Run the statements of `sql` in turn; the last one's result. */
  async query(sql: string): Promise<Table> {
    const statements = splitStatements(sql);
    if (statements.length === 0) throw new Error('There is no statement to run.');
    let last: Uint8Array | null = null;
    for (const s of statements) last = await this.backend.run(s);
    return tableFromIPC(last!);
  }

  async exec(sql: string): Promise<void> {
    for (const s of splitStatements(sql)) await this.backend.run(s);
  }

  /** Table `schema.name` holds `table`'s rows (its Arrow data, dictionary strings as VARCHAR). */
  async insert(name: string, table: Table, schema = 'main'): Promise<void> {
    await this.backend.run(`DROP TABLE IF EXISTS ${ident(schema)}.${ident(name)}`);
    await this.backend.insertIPC(name, tableToIPC(table, 'stream'), schema);
  }
}

/**
 * A DuckDB error as one readable message. DuckDB-WASM throws its errors as JSON text
 * (`{"exception_type":"Parser","exception_message":"syntax error at or near …"}`).
 */
export function sqlErrorMessage(e: unknown): string {
  const text = e instanceof Error ? e.message : String(e);
  try {
    const j = JSON.parse(text) as { exception_type?: string; exception_message?: string };
    if (j && typeof j.exception_message === 'string') return `${j.exception_type ? `${j.exception_type} Error: ` : ''}${j.exception_message}`;
  } catch {
    // not JSON: the message as it is
  }
  return text;
}
