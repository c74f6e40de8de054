/**
 * Type tables through the wasm bridge and the page's join (engine/type-table.ts), for every
 * committed fixture and every event type in it, split in groups as workers read them:
 * - rows per type: the JDK's RecordingFile count (fixtures/expected/NAME.rf-counts.tsv) and
 *   the native CLI's `jfrscope summary`;
 * - per field, what the JDK reads (NAME.fields.tsv, tools/golden/Golden.java): the sum of an
 *   integer field, of a float field, the true values of a boolean, the thread names;
 * - for the types in the events table, the same offsets and start times as the page's events
 *   table (so a row maps to its event);
 * - a cut file gives the rows before the cut and says where it ends.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Table } from 'apache-arrow';
import { columnUnit, typeTableErrors } from '../../columns/type-table';
import { decodeInNode, typeTableInNode } from '../node';
import { arrowRows } from '../../profile-logic/event-table';

const root = resolve(__dirname, '../../../..');
const cli = join(root, 'target/release/jfrscope');
const fixtures = readdirSync(join(root, 'fixtures'))
  .filter((f) => f.endsWith('.jfr'))
  .sort();

function tsv(path: string): string[][] {
  return readFileSync(path, 'utf8')
    .split('\n')
    .filter((l) => l.length > 0)
    .map((l) => l.split('\t'));
}

// Golden.java's escapes, so that a thread name holds no tab, line break or bar.
const esc = (s: string) => s.replace(/\\/g, '\\\\').replace(/\n/g, '\\n').replace(/\r/g, '\\r').replace(/\t/g, '\\t').replace(/\|/g, '\\p');

/** What the JDK's fields file says of one column, measured on the Arrow table. */
function measure(t: Table, field: string, what: string): string | null {
  const col = t.getChild(field);
  if (!col) return null;
  const values: unknown[] = [];
  for (let i = 0; i < t.numRows; i++) {
    const v = col.get(i);
    if (v !== null) values.push(v);
  }
  switch (what) {
    case 'sum':
      return BigInt.asIntN(64, values.reduce<bigint>((a, v) => a + (v as bigint), 0n)).toString();
    case 'fsum':
      return String(values.reduce<number>((a, v) => a + (v as number), 0));
    case 'true':
      return String(values.filter((v) => v === true).length);
    case 'threads':
      return [...new Set(values.map((v) => esc(v as string)))].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)).join('|');
  }
  return `unknown ${what}`;
}

describe('type tables against the JDK and the events table', () => {
  it('has fixtures', () => expect(fixtures.length).toBeGreaterThan(5));
  for (const name of fixtures) {
    it(name, async () => {
      const bytes = new Uint8Array(readFileSync(join(root, 'fixtures', name)));
      const rf = new Map(tsv(join(root, 'fixtures/expected', `${name}.rf-counts.tsv`)).map(([t, n]) => [t, Number(n)]));
      const summary = new Map(
        execFileSync(cli, ['summary', join(root, 'fixtures', name)], { encoding: 'utf8' })
          .trimEnd()
          .split('\n')
          .map((l) => l.split('\t'))
          .map(([t, n]) => [t, Number(n)]),
      );
      const profile = decodeInNode(bytes, 1);
      const tables = new Map<string, Table>();
      for (const type of rf.keys()) {
        const t = await typeTableInNode(bytes, type, 3);
        tables.set(type, t);
        expect([type, t.numRows]).toEqual([type, rf.get(type)]);
        expect([type, t.numRows]).toEqual([type, summary.get(type)]);
        expect(typeTableErrors(t)).toEqual([]);
        expect(t.schema.fields[0].name).toBe('startTime');
        expect(columnUnit(t, 'startTime')).toBe('ms-since-start');
        expect(columnUnit(t, 'offset')).toBe('byte-offset');
      }
      let measured = 0;
      for (const [type, field, what, want] of tsv(join(root, 'fixtures/expected', `${name}.fields.tsv`))) {
        const got = measure(tables.get(type)!, field, what);
        if (what === 'fsum') expect([type, field, Number(got)]).toEqual([type, field, expect.closeTo(Number(want), 9)]);
        else expect([type, field, what, got]).toEqual([type, field, what, want]);
        measured++;
      }
      expect(measured).toBeGreaterThan(10);
      // A row is its event: the events table's offsets and starts, in the same order.
      const ev = profile.events;
      let compared = 0;
      profile.eventTypes.forEach((et, ti) => {
        const t = tables.get(et.name);
        if (!t || et.deferred) return;
        const offsets: number[] = [];
        const starts: number[] = [];
        for (let i = 0; i < ev.length; i++) {
          if (ev.type[i] !== ti) continue;
          offsets.push(ev.offset[i]);
          starts.push(ev.start[i]);
        }
        if (offsets.length === 0) return;
        expect([et.name, Array.from(t.getChild('offset')!.toArray() as Float64Array)]).toEqual([et.name, offsets]);
        expect([et.name, Array.from(t.getChild('startTime')!.toArray() as Float64Array)]).toEqual([et.name, starts]);
        compared++;
      });
      expect(compared).toBeGreaterThan(0);
    });
  }

  it('a cut file gives the rows before the cut and says where it ends', async () => {
    const whole = await typeTableInNode(new Uint8Array(readFileSync(join(root, 'fixtures/example.jfr'))), 'jdk.ExecutionSample', 2);
    const cut = await typeTableInNode(new Uint8Array(readFileSync(join(root, 'fixtures/damaged/truncated.jfr'))), 'jdk.ExecutionSample', 2);
    expect(cut.numRows).toBeGreaterThan(0);
    expect(cut.numRows).toBeLessThan(whole.numRows);
    const errors = typeTableErrors(cut);
    expect(errors.length).toBeGreaterThan(0);
    expect(errors[0].message).toMatch(/offset/);
    const a = cut.getChild('offset')!.toArray() as Float64Array;
    const b = (whole.getChild('offset')!.toArray() as Float64Array).subarray(0, a.length);
    expect(Array.from(a)).toEqual(Array.from(b));
    const bad = await typeTableInNode(new Uint8Array(readFileSync(join(root, 'fixtures/damaged/bad-magic.jfr'))), 'jdk.ExecutionSample');
    expect(bad.numRows).toBe(0);
    expect(typeTableErrors(bad)[0].message).toMatch(/magic|FLR/i);
  });

  it('types a person reads: nested structs by path, pool types by name, units', async () => {
    const t = await typeTableInNode(new Uint8Array(readFileSync(join(root, 'fixtures/jdk17-profile.jfr'))), 'jdk.GCHeapSummary', 2);
    expect(columnUnit(t, 'heapSpace.committedSize')).toBe('bytes');
    expect(columnUnit(t, 'heapSpace.start')).toBe('address');
    expect(String(t.getChild('heapSpace.committedSize')!.type)).toBe('Int64');
    expect(new Set(t.getChild('when')!.toArray() as string[])).toEqual(new Set(['Before GC', 'After GC']));
    const m = await typeTableInNode(new Uint8Array(readFileSync(join(root, 'fixtures/jdk17-profile.jfr'))), 'jdk.JavaMonitorEnter', 2);
    expect(m.getChild('monitorClass')!.get(0)).toBe('SearchService$Index');
    expect(columnUnit(m, 'duration')).toBe('ms');
    expect(m.getChild('stackTrace')).toBeNull(); // a worker's own stack rows mean nothing in the page
    expect(String(m.getChild('stackTrace.topFrame')!.get(0))).toMatch(/\./);
    const cpu = await typeTableInNode(new Uint8Array(readFileSync(join(root, 'fixtures/jdk17-profile.jfr'))), 'jdk.CPULoad');
    expect([String(cpu.getChild('jvmUser')!.type), columnUnit(cpu, 'jvmUser')]).toEqual(['Float64', 'percentage']);
  });
});

describe('the events view reads a type table', () => {
  it('rows join the page events by offset, with their times', async () => {
    const bytes = new Uint8Array(readFileSync(join(root, 'fixtures/jdk17-profile.jfr')));
    const profile = decodeInNode(bytes, 1);
    const type = profile.eventTypes.findIndex((t) => t.name === 'jdk.JavaMonitorEnter');
    const rows = arrowRows(profile, await typeTableInNode(bytes, 'jdk.JavaMonitorEnter', 2), type);
    expect(rows.length).toBe(profile.eventTypes[type].count);
    expect(Array.from(rows.event).every((e) => e >= 0)).toBe(true);
    expect(rows.columns.find((c) => c.key === 'startTime')?.unit).toBe('time');
    for (let r = 0; r < rows.length; r++) expect(rows.start[r]).toBe(profile.events.start[rows.event[r]]);
  });
});

if (!existsSync(cli)) throw new Error(`${cli} is missing: cargo build --release first`);
