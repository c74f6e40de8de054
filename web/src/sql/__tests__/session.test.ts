/**
 * The SQL view's session on a JDK 17 recording with the profile settings: every example runs; a result with `event`
 * links to that row of the page's events table; errors come back as DuckDB's message; a query
 * naming fields."<type>" loads that type's table of every field, whose rows match the JDK's count
 * and whose offsets are the events table's.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Profile } from '../../columns/profile';
import { decodeInNode, typeTableInNode } from '../../engine/node';
import { examples } from '../examples';
import { nodeSqlDb } from '../node';
import { fieldTablesNamed, SqlError, SqlSession } from '../session';

const root = resolve(__dirname, '../../../..');
const bytes = readFileSync(resolve(root, 'fixtures/jdk17-profile.jfr'));
const jdkCount = (type: string) =>
  Number(
    readFileSync(resolve(root, 'fixtures/expected/jdk17-profile.jfr.rf-counts.tsv'), 'utf8')
      .split('\n')
      .find((l) => l.startsWith(`${type}\t`))!
      .split('\t')[1],
  );

let profile: Profile;
let session: SqlSession;
const asked: string[] = [];
beforeAll(async () => {
  profile = decodeInNode(bytes);
  session = new SqlSession(await nodeSqlDb(), (_p, type) => {
    asked.push(type);
    return typeTableInNode(bytes, type);
  });
}, 120_000);

describe('SQL session', () => {
  it('runs every example on a recording that has all their types, each with rows and its chart', async () => {
    const list = examples(profile, null);
    const offered = list.filter((x) => x.missing === null);
    expect(offered.length).toBe(list.length);
    for (const x of offered) {
      const r = await session.run(profile, x.sql);
      expect(r.total, x.title).toBeGreaterThan(0);
      // A chart from two rows on (one bar says nothing its cell does not).
      if (r.total < 2) {
        expect(r.chart, x.title).toBeNull();
        continue;
      }
      expect(r.chart, x.title).not.toBeNull();
      // The chart draws the first measure's column, row for row.
      const c = r.columns.findIndex((col) => col.name === r.chart!.column);
      expect(r.columns[c].numeric).toBe(true);
      r.chart!.bars.forEach((b, i) => expect(Number(r.rows[i][c])).toBeCloseTo(b.value, 2));
    }
  });

  it('shows the top frames of a range as the samples in that range count them', async () => {
    const half = profile.info.durationMs / 2;
    const x = examples(profile, [0, half]).find((e) => e.title.startsWith('Top frames'))!;
    const r = await session.run(profile, x.sql);
    // Independent count: samples of that type whose start lies in the range, by leaf frame.
    const ti = profile.eventTypes.findIndex((t) => t.name === 'jdk.ExecutionSample');
    const e = profile.events;
    const counts = new Map<string, number>();
    for (let i = 0; i < e.length; i++) {
      if (e.type[i] !== ti || e.stack[i] < 0 || e.start[i] < 0 || e.start[i] > +half.toFixed(3)) continue;
      const name = profile.strings[profile.frames.name[profile.stacks.frame[e.stack[i]]]];
      counts.set(name, (counts.get(name) ?? 0) + 1);
    }
    const top = [...counts.values()].sort((a, b) => b - a)[0];
    expect(Number(r.rows[0][1])).toBe(top);
    expect(counts.get(r.rows[0][0]!)).toBe(top);
  });

  it('links rows with an event column to that event, with its range and thread', async () => {
    const r = await session.run(profile, 'SELECT event, start, duration, thread FROM "jdk.JavaMonitorEnter" ORDER BY duration DESC LIMIT 3');
    expect(r.links).toHaveLength(3);
    const link = r.links![0];
    const i = link.event!;
    expect(profile.eventTypes[profile.events.type[i]].name).toBe('jdk.JavaMonitorEnter');
    expect(link.range![0]).toBe(profile.events.start[i]);
    expect(link.range![1]).toBeCloseTo(profile.events.start[i] + profile.events.duration[i], 6);
    expect(link.thread).toBe(profile.strings[profile.threads.name[profile.events.thread[i]]]);
  });

  it('caps the rows shown and says how many there are', async () => {
    const r = await session.run(profile, 'SELECT * FROM events');
    expect(r.total).toBe(profile.events.length);
    expect(r.rows.length).toBe(Math.min(500, profile.events.length));
  });

  it('turns DuckDB errors into messages, and the session keeps working', async () => {
    await expect(session.run(profile, 'SELEC 1')).rejects.toThrow(SqlError);
    await expect(session.run(profile, 'SELECT * FROM no_such_table')).rejects.toThrow(/no_such_table/);
    await expect(session.run(profile, "SELECT '[1]'::JSON")).rejects.toThrow(/json extension/);
    await expect(session.run(profile, "SELECT * FROM read_csv('/etc/passwd')")).rejects.toThrow(SqlError);
    // A type the page holds no rows of (no stacks): the message says where its events are.
    expect(profile.eventTypes.find((t) => t.name === 'jdk.CPULoad')?.count).toBe(jdkCount('jdk.CPULoad'));
    await expect(session.run(profile, 'SELECT * FROM "jdk.CPULoad"')).rejects.toThrow(/every field of its 9 events is the table fields\."jdk\.CPULoad"/);
    const r = await session.run(profile, 'SELECT 40 + 2 AS answer');
    expect(r.rows).toEqual([['42']]);
  });

  it('gives sums of integers (HUGEINT) and decimals as numbers', async () => {
    const r = await session.run(profile, 'SELECT sum(x::BIGINT) AS s, 1.25::DECIMAL(10, 2) AS d FROM range(5) t(x)');
    expect(r.rows).toEqual([['10', '1.25']]);
    expect(r.columns.every((c) => c.numeric)).toBe(true);
  });

  it('loads fields."<type>" when a query names it: the JDK’s count, the events table’s offsets', async () => {
    expect(fieldTablesNamed('select * from fields."jdk.FileRead" join FIELDS . "a""b" using (x)')).toEqual(['jdk.FileRead', 'a"b']);
    const type = 'jdk.FileRead';
    const r = await session.run(profile, `SELECT count(*) AS n, count(DISTINCT f."offset") AS offsets FROM fields."${type}" f JOIN "${type}" e ON e.event = (SELECT event FROM events x WHERE x.type = '${type}' AND x.event = e.event) JOIN _events raw ON raw.rowid = e.event AND raw."offset" = f."offset"`);
    expect(Number(r.rows[0][0])).toBe(jdkCount(type));
    expect(Number(r.rows[0][1])).toBe(jdkCount(type));
    expect(asked).toEqual([type]);
    await session.run(profile, `SELECT count(*) FROM fields."${type}"`);
    expect(asked).toEqual([type]);
    const schema = await session.schema(profile);
    const names = schema.map((t) => t.name);
    expect(names.indexOf(`fields."${type}"`)).toBe(names.indexOf(type) + 1);
    await expect(session.run(profile, 'SELECT * FROM fields."jdk.NoSuchType"')).rejects.toThrow(/no event type/);
  });
});
