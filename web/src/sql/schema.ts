/**
 * The page's recording as SQL tables. The Arrow tables (docs/columns.md) go in as they are; views
 * on top give names and one view per event type:
 *
 *   _events, _threads, _frames, _stacks   the page's Arrow tables, inserted as Arrow
 *   threads(id, name, os_id, java_id)     frames(id, name, class, line, bci, kind)
 *   stacks(id, frame, prefix)             types(id, name, label, kind, count, has_stack, rows)
 *   events(event, type, start, time, duration, thread, thread_id, stack, weight, state, subject, value, peer)
 *   "jdk.FileRead", "jdk.ExecutionSample", …: events of that type, with the columns it fills
 *
 * `event` is the row in the page's events table (what the timeline selects), `start` ms since the
 * recording's start (the timeline's unit), `time` the clock time (UTC), `duration` ms, `thread`
 * the thread's name. A type's view keeps state, subject, value and peer only when some of its
 * events carry them.
 */
import type { Profile } from '../columns/profile';
import { ident, literal, type SqlDb } from './db';

export interface SqlColumn {
  name: string;
  type: string;
}

export interface SqlTableInfo {
  name: string;
  /** What it holds, for the schema list. */
  about: string;
  columns: SqlColumn[];
}

const ABOUT: Record<string, string> = {
  events: 'every decoded event',
  threads: 'one row per thread',
  frames: 'one row per distinct frame',
  stacks: 'call paths: a frame and its caller path (prefix)',
  types: 'every event type in the file, decoded or not',
};

/** Rows of the page's events table registered last, to tell when a lazy load added some. */
const registered = new WeakMap<SqlDb, { profile: Profile; rows: number }>();

/** The page's tables as SQL (again only when `profile` is new or gained rows). */
export async function registerProfile(db: SqlDb, profile: Profile): Promise<void> {
  const last = registered.get(db);
  if (last && last.profile.arrow.threads === profile.arrow.threads && last.rows === profile.events.length) return;
  if (!last || last.profile.arrow.threads !== profile.arrow.threads) {
    await db.insert('_threads', profile.arrow.threads);
    await db.insert('_frames', profile.arrow.frames);
    await db.insert('_stacks', profile.arrow.stacks);
  }
  await db.insert('_events', profile.arrow.events);
  await createViews(db, profile);
  registered.set(db, { profile, rows: profile.events.length });
}

async function createViews(db: SqlDb, profile: Profile): Promise<void> {
  const startUs = Math.round(profile.info.startMs * 1000);
  const types = profile.eventTypes
    .map((t, i) => `(${i}, ${literal(t.name)}, ${literal(t.label)}, ${literal(t.kind)}, ${t.count}, ${t.hasStack}, ${!t.deferred})`)
    .join(', ');
  // Old type views go first: a lazy load may have changed which columns they keep.
  const old = await db.query("SELECT view_name FROM duckdb_views() WHERE NOT internal AND schema_name = 'main'");
  const drops = old.getChild('view_name')!.toArray().map((v: string) => `DROP VIEW IF EXISTS ${ident(v)};`);
  await db.exec(drops.join('\n') + '\nDROP TABLE IF EXISTS types;');
  await db.exec(`
    CREATE TABLE types (id USMALLINT, name VARCHAR, label VARCHAR, kind VARCHAR, count BIGINT, has_stack BOOLEAN, rows BOOLEAN);
    ${types ? `INSERT INTO types VALUES ${types};` : ''}
    CREATE VIEW threads AS SELECT rowid::INTEGER AS id, name, osId AS os_id, javaId AS java_id FROM _threads;
    CREATE VIEW frames AS SELECT rowid::INTEGER AS id, name, cls AS class, line, bci,
      ['interpreted', 'jit', 'inlined', 'native', 'c++', 'kernel', 'unknown'][kind + 1] AS kind FROM _frames;
    CREATE VIEW stacks AS SELECT rowid::INTEGER AS id, frame, prefix FROM _stacks;
    CREATE VIEW events AS
      SELECT e.rowid::INTEGER AS event, ty.name AS type, e.start, make_timestamp(${startUs} + CAST(round(e.start * 1000) AS BIGINT)) AS time,
        e.duration::DOUBLE AS duration, th.name AS thread, e.thread AS thread_id,
        CASE WHEN e.stack >= 0 THEN e.stack END AS stack, e.weight, e.state, e.subject,
        CASE WHEN NOT isnan(e.value) THEN e.value END AS value, pe.name AS peer
      FROM _events e JOIN types ty ON ty.id = e.type
      LEFT JOIN _threads th ON th.rowid = e.thread LEFT JOIN _threads pe ON pe.rowid = e.peer;
  `);
  const fills = await db.query(`
    SELECT type, count(state) AS state, count(subject) AS subject, count(*) FILTER (WHERE NOT isnan(value)) AS value,
      count(*) FILTER (WHERE peer >= 0) AS peer
    FROM _events GROUP BY type`);
  const views: string[] = [];
  for (let r = 0; r < fills.numRows; r++) {
    const row = fills.get(r)!;
    const t = profile.eventTypes[Number(row.type)];
    if (!t) continue;
    const extra = (['state', 'subject', 'value', 'peer'] as const).filter((c) => Number(row[c]) > 0);
    views.push(
      `CREATE VIEW ${ident(t.name)} AS SELECT event, start, time, duration, thread, thread_id, stack, weight${extra.map((c) => `, ${c}`).join('')} ` +
        `FROM events WHERE type = ${literal(t.name)};`,
    );
  }
  if (views.length) await db.exec(views.join('\n'));
}

/** Tables and views with their columns: the base names first, then the event types by name. */
export async function describeSchema(db: SqlDb, profile: Profile): Promise<SqlTableInfo[]> {
  const cols = await db.query(`
    SELECT schema_name, table_name, column_name, data_type FROM duckdb_columns()
    WHERE schema_name IN ('main', 'fields') AND NOT internal AND table_name NOT LIKE '\\_%' ESCAPE '\\'
    ORDER BY schema_name DESC, table_name, column_index`);
  const byTable = new Map<string, SqlColumn[]>();
  for (let r = 0; r < cols.numRows; r++) {
    const row = cols.get(r)!;
    const name = row.schema_name === 'main' ? row.table_name : `fields.${ident(row.table_name)}`;
    const list = byTable.get(name) ?? [];
    list.push({ name: row.column_name, type: row.data_type });
    byTable.set(name, list);
  }
  const counts = new Map(profile.eventTypes.map((t) => [t.name, t.count]));
  const base = ['events', 'threads', 'frames', 'stacks', 'types'];
  const names = [...byTable.keys()].sort((a, b) => {
    const ia = base.indexOf(a);
    const ib = base.indexOf(b);
    if (ia >= 0 || ib >= 0) return (ia < 0 ? 99 : ia) - (ib < 0 ? 99 : ib);
    // fields."x" right after the view "x"
    const ka = a.startsWith('fields.') ? a.slice(8, -1) + '\u0001' : a;
    const kb = b.startsWith('fields.') ? b.slice(8, -1) + '\u0001' : b;
    return ka < kb ? -1 : ka > kb ? 1 : 0;
  });
  return names.map((name) => ({
    name,
    about: ABOUT[name] ?? (counts.has(name) ? `${counts.get(name)} events` : name.startsWith('fields.') ? 'every field of the type' : 'a table'),
    columns: byTable.get(name)!,
  }));
}
