/**
 * What the SQL view asks of the SQL layer, over one DuckDB: the recording's tables (registered
 * again when a lazy load adds rows), a query's result ready to show, and a type's table of every
 * field, loaded when a query names `fields."<type>"` (or the schema list asks for it).
 */
import type { Table } from 'apache-arrow';
import type { Profile } from '../columns/profile';
import type { SqlResult, SqlSchemaTable } from '../columns/sql-view';
import { ident, sqlErrorMessage, type SqlDb } from './db';
import { toResult } from './result';
import { describeSchema, registerProfile } from './schema';

/** Every event of a type with every field (the engine's loadTypeTable). */
export type LoadTypeTable = (profile: Profile, type: string) => Promise<Table>;

export class SqlError extends Error {}

const FIELDS_REF = /\bfields\s*\.\s*"((?:[^"]|"")+)"/gi;

/** Types a query names as `fields."<type>"`. */
export function fieldTablesNamed(sql: string): string[] {
  return [...new Set([...sql.matchAll(FIELDS_REF)].map((m) => m[1].replaceAll('""', '"')))];
}

export class SqlSession {
  private fieldsOf: Profile | null = null;
  private fieldsLoaded = new Set<string>();
  private queue: Promise<unknown> = Promise.resolve();

  constructor(readonly db: SqlDb, private readonly loadTypeTable: LoadTypeTable | null) {}

  /** One thing at a time on the connection: a query waits for the registration before it. */
  private serial<T>(f: () => Promise<T>): Promise<T> {
    const next = this.queue.then(f, f);
    this.queue = next.catch(() => {});
    return next;
  }

  schema(profile: Profile): Promise<SqlSchemaTable[]> {
    return this.serial(async () => {
      await this.prepare(profile);
      return describeSchema(this.db, profile);
    });
  }

  private async prepare(profile: Profile): Promise<void> {
    await registerProfile(this.db, profile);
    if (this.fieldsOf && this.fieldsOf.arrow.threads !== profile.arrow.threads) {
      for (const t of this.fieldsLoaded) await this.db.exec(`DROP TABLE IF EXISTS fields.${ident(t)}`);
      this.fieldsLoaded.clear();
    }
    this.fieldsOf = profile;
  }

  /** Load `fields."<type>"` (every field of the type) unless it is there. */
  loadFields(profile: Profile, type: string): Promise<void> {
    return this.serial(async () => {
      await this.prepare(profile);
      await this.ensureFields(profile, type);
    });
  }

  private async ensureFields(profile: Profile, type: string): Promise<void> {
    if (this.fieldsLoaded.has(type)) return;
    if (!profile.eventTypes.some((t) => t.name === type)) throw new SqlError(`This recording has no event type “${type}” (the types table lists those it has).`);
    if (!this.loadTypeTable) throw new SqlError('Tables of every field cannot be loaded here.');
    const table = await this.loadTypeTable(profile, type);
    await this.db.insert(type, table, 'fields');
    this.fieldsLoaded.add(type);
  }

  /** Run `sql`; DuckDB's errors come back as SqlError with its message. */
  run(profile: Profile, sql: string): Promise<SqlResult> {
    return this.serial(async () => {
      try {
        await this.prepare(profile);
        for (const t of fieldTablesNamed(sql)) await this.ensureFields(profile, t);
        const t0 = performance.now();
        const table = await this.db.query(sql);
        return toResult(table, performance.now() - t0);
      } catch (e) {
        if (e instanceof SqlError || (e instanceof Error && e.name === 'QueryCancelled')) throw e;
        throw new SqlError(withTypeHint(sqlErrorMessage(e), profile));
      }
    });
  }

  cancel(): void {
    void this.db.backend.cancel();
  }
}

/**
 * DuckDB's "Table with name X does not exist" where X is an event type of the recording: the page
 * holds no rows of it (its events carry no stack, or it is deferred and not picked yet), and its
 * events are in the table of every field, which a query naming it loads.
 */
export function withTypeHint(message: string, profile: Profile): string {
  const name = /Table with name (\S+) does not exist/.exec(message)?.[1];
  const t = name === undefined ? undefined : profile.eventTypes.find((x) => x.name === name);
  if (!t) return message;
  return `${message}\nThe page holds no rows of ${t.name} as its own columns; every field of its ${t.count.toLocaleString('en-US')} ${t.count === 1 ? 'event' : 'events'} is the table fields."${t.name}" (loaded when a query names it).`;
}
