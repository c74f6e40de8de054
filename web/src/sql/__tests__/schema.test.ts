/**
 * The recording as SQL, against the JDK's own reading of each fixture (fixtures/expected, from
 * jdk.jfr.consumer.RecordingFile): rows per event-type view equal its event counts, and the
 * leaf frames of samples joined through stacks and frames equal the leaves of its stacks.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Profile } from '../../columns/profile';
import { decodeInNode } from '../../engine/node';
import { ident, type SqlDb } from '../db';
import { nodeSqlDb } from '../node';
import { describeSchema, registerProfile } from '../schema';

const root = resolve(__dirname, '../../../..');
const expected = (f: string) => resolve(root, 'fixtures/expected', f);

/** type → count, as RecordingFile counted them. */
function jdkCounts(file: string): Map<string, number> {
  const rows = readFileSync(expected(`${file}.rf-counts.tsv`), 'utf8').trim().split('\n');
  return new Map(rows.map((l) => l.split('\t')).map(([t, n]) => [t, Number(n)]));
}

/** leaf frame → events, from the JDK's collapsed stacks (`root;…;leaf count`). */
function jdkLeaves(file: string, type: string): Map<string, number> {
  const text = gunzipSync(readFileSync(expected(`${file}.${type}.collapsed.gz`))).toString('utf8');
  const out = new Map<string, number>();
  for (const line of text.split('\n')) {
    const sp = line.lastIndexOf(' ');
    if (sp < 0) continue;
    const frames = line.slice(0, sp).split(';');
    const leaf = frames[frames.length - 1];
    out.set(leaf, (out.get(leaf) ?? 0) + Number(line.slice(sp + 1)));
  }
  return out;
}

async function rows(db: SqlDb, sql: string): Promise<Record<string, unknown>[]> {
  return (await db.query(sql)).toArray().map((r) => r.toJSON());
}

let db: SqlDb;
beforeAll(async () => {
  db = await nodeSqlDb();
}, 120_000);

describe.each(['example.jfr', 'ap-alloc-lock.jfr', 'jdk17-multichunk.jfr'])('%s as SQL', (file) => {
  let profile: Profile;
  beforeAll(async () => {
    profile = decodeInNode(readFileSync(resolve(root, 'fixtures', file)));
    await registerProfile(db, profile);
  }, 120_000);

  it('has one view per decoded type whose rows equal the JDK’s count of that type', async () => {
    const counts = jdkCounts(file);
    const decoded = profile.eventTypes.filter((t) => profile.events.type.some((x) => profile.eventTypes[x] === t));
    expect(decoded.length).toBeGreaterThan(2);
    for (const t of decoded) {
      const [{ n }] = await rows(db, `SELECT count(*) AS n FROM ${ident(t.name)}`);
      expect(n, t.name).toBe(counts.get(t.name));
    }
    // types lists every type in the file with the JDK's count, rows or not (types the file
    // declares but never records: 0, absent from the JDK's counts).
    const types = await rows(db, 'SELECT name, count FROM types');
    for (const { name, count } of types) expect(count, String(name)).toBe(counts.get(String(name)) ?? 0);
    const names = new Set(types.map((t) => t.name));
    for (const name of counts.keys()) expect(names.has(name), name).toBe(true);
  });

  it('joins samples → stacks → frames to the JDK’s leaf frames', async () => {
    const type = 'jdk.ExecutionSample';
    const want = jdkLeaves(file, type);
    const got = await rows(
      db,
      `SELECT f.name AS frame, count(*) AS n FROM ${ident(type)} s JOIN stacks st ON st.id = s.stack JOIN frames f ON f.id = st.frame GROUP BY f.name`,
    );
    expect(got.length).toBeGreaterThan(3);
    expect(new Map(got.map((r) => [r.frame as string, r.n as number]))).toEqual(want);
  });

  it('names threads, and starts and times agree with the recording’s start', async () => {
    const [r] = await rows(db, 'SELECT event, start, epoch_us(time) AS us, thread, thread_id FROM events WHERE thread IS NOT NULL ORDER BY event LIMIT 1');
    const i = r.event as number;
    expect(r.start).toBe(profile.events.start[i]);
    expect(Math.abs((r.us as number) / 1000 - (profile.info.startMs + profile.events.start[i]))).toBeLessThan(0.002);
    expect(r.thread).toBe(profile.strings[profile.threads.name[profile.events.thread[i]]]);
  });

  it('lists its tables and columns', async () => {
    const schema = await describeSchema(db, profile);
    expect(schema.slice(0, 5).map((t) => t.name)).toEqual(['events', 'threads', 'frames', 'stacks', 'types']);
    const samples = schema.find((t) => t.name === 'jdk.ExecutionSample')!;
    expect(samples.columns.map((c) => c.name)).toEqual(expect.arrayContaining(['event', 'start', 'time', 'duration', 'thread', 'stack', 'weight', 'state']));
    expect(samples.columns.map((c) => c.name)).not.toContain('subject');
  });
});
