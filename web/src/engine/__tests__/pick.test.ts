/**
 * Rows streamed in pieces (as a worker hands them to the page, with the columns a piece holds
 * as one value sent as that value) give each event the thread, state, subject, value and
 * weight that the CLI's field-by-field reading of the same event gives (`jfrscope print`, the
 * parser's generic decoder, not its rows path), for the first round and for picked types.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Profile } from '../../columns/profile';
import { firstView } from '../../profile-logic/kinds';
import { LAZY_COLUMNS, type PartData } from '../merge';
import { sessionInNode } from '../node';

const root = resolve(__dirname, '../../../..');
const cli = join(root, 'target/release/jfrscope');

type Json = Record<string, unknown> | null | undefined;

/** The CLI's events of `type` by absolute offset: their fields as JSON. */
function printed(file: string, type: string): Map<number, Record<string, unknown>> {
  const out = execFileSync(cli, ['print', file, '--event', type], { encoding: 'utf8', maxBuffer: 1 << 30 });
  const m = new Map<number, Record<string, unknown>>();
  for (const line of out.split('\n')) {
    if (!line) continue;
    const e = JSON.parse(line) as { offset: number; fields: Record<string, unknown> };
    m.set(e.offset, e.fields);
  }
  return m;
}

const threadName = (t: Json) => (t ? ((t.javaName as string | null) ?? (t.osName as string)) : null);
const className = (c: Json) => (c ? (c.name as string).replace(/\//g, '.') : null);

/** What the columns should hold for an event of a kind, from its fields. */
function expected(kind: string, f: Record<string, unknown>) {
  const num = (k: string) => (typeof f[k] === 'number' ? (f[k] as number) : NaN);
  const row: { thread: string | null; state: string | null; subject?: string | null; value?: number; weight?: number } = {
    thread: threadName((f.sampledThread ?? f.eventThread ?? f.thread) as Json),
    state: typeof f.state === 'string' ? f.state : null,
  };
  if (kind === 'io') {
    row.subject = (f.path as string | undefined) ?? null;
    row.value = 'bytesRead' in f ? num('bytesRead') : num('bytesWritten');
  } else if (kind === 'alloc') {
    row.subject = className(f.objectClass as Json);
    const tlab = num('tlabSize');
    row.weight = tlab > 0 ? tlab : 'weight' in f ? num('weight') : num('allocationSize');
  } else if (kind === 'park') {
    row.subject = className(f.parkedClass as Json);
    row.value = num('address');
  } else if (kind === 'lock' || kind === 'wait') {
    row.subject = className(f.monitorClass as Json);
    row.value = num('address');
  } else if (kind === 'cpu') {
    row.weight = 1;
  }
  return row;
}

function check(p: Profile, file: string, type: string): number {
  const ty = p.eventTypes.findIndex((t) => t.name === type);
  const kind = p.eventTypes[ty].kind;
  const want = printed(file, type);
  const str = (i: number) => (i < 0 ? null : p.strings[i]);
  const e = p.events;
  let rows = 0;
  for (let i = 0; i < e.length; i++) {
    if (e.type[i] !== ty) continue;
    rows++;
    const f = want.get(e.offset[i]);
    expect(f, `${type} at ${e.offset[i]}`).toBeDefined();
    const x = expected(kind, f!);
    const got: typeof x = { thread: e.thread[i] < 0 ? null : p.strings[p.threads.name[e.thread[i]]], state: str(e.state[i]) };
    if ('subject' in x) got.subject = str(e.subject[i]);
    if ('value' in x) got.value = e.value[i];
    if ('weight' in x) got.weight = e.weight[i];
    expect([type, e.offset[i], got]).toEqual([type, e.offset[i], x]);
  }
  expect([type, rows]).toEqual([type, want.size]);
  return rows;
}

describe.skipIf(!existsSync(cli))('rows streamed in pieces', () => {
  // Handed to the page to copy, or written by the decoders straight into shared columns.
  it.each([['handed over', false], ['written into shared columns', true]])('hold, row by row, what the CLI reads of each event: the first round and picked types (%s)', async (_, shared) => {
    const file = join(root, 'fixtures/jdk17-profile.jfr');
    const bytes = new Uint8Array(readFileSync(file));
    // Two groups, pieces of about 64 rows: most pieces hold some columns as one value.
    const session = sessionInNode(bytes, 2, { pieceRows: 64, wholeFirstBytes: 0, shared });
    // The parks' view first: the CPU samples (one state, mostly) come with a pick, numbered by
    // a decoder that starts afresh while the page's strings already hold the first round's.
    const opened = await session.open((types) => firstView(types, 'jdk.ThreadPark'), () => {});
    expect(check(opened, file, 'jdk.ThreadPark')).toBeGreaterThan(10_000);
    const picks = ['jdk.ExecutionSample', 'jdk.FileRead', 'jdk.ObjectAllocationSample', 'jdk.ObjectAllocationInNewTLAB', 'jdk.ObjectAllocationOutsideTLAB'];
    const deferred = session.deferred();
    expect(deferred).toContain('jdk.ExecutionSample');
    let p = opened;
    for (const t of picks) if (deferred.includes(t)) p = await session.load([t], () => {});
    // Written into shared columns, the columns the decoders sent as one value are written when
    // first read (the checks below read the weights, states and values).
    const pending = () => (session as unknown as { columns: PartData }).columns.pending;
    const lazy = LAZY_COLUMNS.filter((k) => pending()?.has(k));
    expect(lazy.length > 0).toBe(shared);
    let rows = 0;
    for (const t of [...picks, 'jdk.ThreadPark', 'jdk.JavaMonitorEnter']) rows += check(p, file, t);
    expect(rows).toBeGreaterThan(10_000);
    // Those read are written now.
    for (const k of lazy.filter((k) => k !== 'eventPeer')) expect([k, pending()?.has(k)]).toEqual([k, false]);
    // Some columns went as one value (the type, a weight of 1, no peer): that path was taken.
    const held = session.groups as unknown as { buffers: { constants: number } }[];
    expect(held.reduce((a, g) => a + g.buffers.constants, 0)).toBeGreaterThan(0);
    expect(p.events.thread.buffer instanceof SharedArrayBuffer).toBe(shared);
  });
});
