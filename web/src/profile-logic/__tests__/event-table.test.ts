/**
 * The events table on the JDK 17 fixture: rows against the JDK's counts (expected/*.rf-counts.tsv,
 * *.threads.tsv), sorting, the range and thread filters, CSV read back by a real CSV parser, Arrow
 * read back, lines against the events, and the collapsed export against the JDK's stacks.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { tableFromIPC, tableToIPC } from 'apache-arrow';
import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import { decodeInNode, typeTableInNode } from '../../engine/node';
import { collapsedStacks } from '../collapsed';
import { indexEvents } from '../event-index';
import { arrowRows, csvField, lineSeries, pageRows, sortRows, tableRows, toArrow, toCsv, type EventRows, type TableColumn } from '../event-table';
import { compileRegex, eventTest, threadsMatching, type Matcher } from '../filters';
import { weightModeOf } from '../kinds';
import { visibleName } from '../names';

const fixtures = resolve(__dirname, '../../../../fixtures');
const profile = decodeInNode(new Uint8Array(readFileSync(resolve(fixtures, 'jdk17-profile.jfr'))));
const hostile = decodeInNode(new Uint8Array(readFileSync(resolve(fixtures, 'hostile.jfr'))));
const index = indexEvents(profile);
const typeOf = (p = profile, name: string) => p.eventTypes.findIndex((t) => t.name === name);
const tsv = (file: string) =>
  new Map(
    readFileSync(resolve(fixtures, 'expected', file), 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((l) => {
        const k = l.lastIndexOf('\t');
        return [l.slice(0, k), Number(l.slice(k + 1))] as const;
      }),
  );
const jdkCounts = tsv('jdk17-profile.jfr.rf-counts.tsv');
const all = (rows: EventRows) => Int32Array.from({ length: rows.length }, (_, r) => r);
const col = (rows: EventRows, key: string) => rows.columns.find((c) => c.key === key)!;
const re = (text: string) => (compileRegex(text) as { ok: true; re: Matcher }).re;

describe('events table', () => {
  it('holds every event of a type as the JDK counts them, with its thread, in time order', () => {
    for (const name of ['jdk.GarbageCollection', 'jdk.ThreadSleep', 'jdk.ExecutionSample', 'jdk.ThreadStart', 'jdk.JavaMonitorEnter']) {
      const rows = pageRows(profile, index, typeOf(profile, name));
      expect(rows.length, name).toBe(jdkCounts.get(name));
      for (let r = 1; r < rows.length; r++) expect(rows.start[r]).toBeGreaterThanOrEqual(rows.start[r - 1]);
    }
    const gc = pageRows(profile, index, typeOf(profile, 'jdk.GarbageCollection'));
    // A GC names its collector and lasts a while; it runs on no thread of the application.
    expect(gc.columns.map((c) => c.key)).toEqual(expect.arrayContaining(['startTime', 'duration', 'subject', 'value']));
    expect(Array.from(all(gc), (r) => col(gc, 'subject').text(r)).every((s) => /G1|Young|Old|Full/.test(s))).toBe(true);
    expect(Array.from(all(gc), (r) => col(gc, 'duration').num!(r)).every((d) => d > 0)).toBe(true);
  });

  it('keeps the samples of the threads the thread filter keeps, as many as the JDK counts per thread', () => {
    const perThread = tsv('jdk17-profile.jfr.threads.tsv');
    const rows = pageRows(profile, index, typeOf(profile, 'jdk.ExecutionSample'));
    for (const [name, count] of perThread) {
      if (!name) continue;
      const matcher = re(`^${name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`);
      const kept = tableRows(rows, { range: null, threads: threadsMatching(profile, matcher, new Set()), threadFiltered: true, test: null });
      expect(kept.length, name).toBe(count);
      expect(Array.from(kept, (r) => col(rows, 'thread').text(r)).every((t) => t === name)).toBe(true);
    }
    // A hidden thread's rows go, the others stay.
    const [name, count] = [...perThread].find(([n]) => n)!;
    const kept = tableRows(rows, { range: null, threads: threadsMatching(profile, null, new Set([name])), threadFiltered: false, test: null });
    expect(kept.length).toBe(rows.length - count);
  });

  it('keeps the rows that overlap the range: instants inside it, intervals reaching into it', () => {
    const rows = pageRows(profile, index, typeOf(profile, 'jdk.ThreadSleep'));
    const mid = rows.start[Math.floor(rows.length / 2)];
    const range: [number, number] = [mid, mid + 1500];
    const kept = new Set(tableRows(rows, { range, threads: null, threadFiltered: false, test: null }));
    expect(kept.size).toBeGreaterThan(0);
    expect(kept.size).toBeLessThan(rows.length);
    // Each sleep either overlaps [a, b] (and is kept) or lies wholly outside it (and is not).
    const e = profile.events;
    for (let r = 0; r < rows.length; r++) {
      const i = rows.event[r];
      const overlaps = e.start[i] <= range[1] && e.start[i] + e.duration[i] >= range[0];
      expect(kept.has(r), `sleep ${r}`).toBe(overlaps);
    }
  });

  it('applies the stack filters to types with stacks', () => {
    const type = typeOf(profile, 'jdk.ExecutionSample');
    const rows = pageRows(profile, index, type);
    const frame = col(rows, 'stackTop').text(0);
    const test = eventTest(profile, { type, thread: null, stack: re(frame.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')), exclude: null, state: '', hiddenThreads: new Set() });
    const kept = tableRows(rows, { range: null, threads: null, threadFiltered: false, test });
    // Every row whose top frame is that frame passes (its stack holds it), and some others don't.
    for (let r = 0; r < rows.length; r++) if (col(rows, 'stackTop').text(r) === frame) expect(kept.includes(r)).toBe(true);
    expect(kept.length).toBeLessThan(rows.length);
  });

  it('sorts by a column, stably, absent numbers last', () => {
    const rows = pageRows(profile, index, typeOf(profile, 'jdk.ThreadSleep'));
    const d = col(rows, 'duration');
    for (const descending of [false, true]) {
      const s = sortRows(all(rows), d, descending);
      expect([...s].sort((a, b) => a - b)).toEqual([...all(rows)]);
      for (let k = 1; k < s.length; k++) {
        const [x, y] = [d.num!(s[k - 1]), d.num!(s[k])];
        expect(descending ? x >= y : x <= y).toBe(true);
        if (x === y) expect(s[k - 1]).toBeLessThan(s[k]);
      }
    }
    const t = col(rows, 'thread');
    const byName = sortRows(all(rows), t, false);
    for (let k = 1; k < byName.length; k++) expect(t.text(byName[k - 1]).localeCompare(t.text(byName[k]), 'en', { numeric: true })).toBeLessThanOrEqual(0);
    // NaN last in either order.
    const vals = [3, NaN, 1, 2, NaN];
    const c: TableColumn = { key: 'v', label: 'v', unit: 'number', num: (r) => vals[r], text: String };
    expect([...sortRows(Int32Array.of(0, 1, 2, 3, 4), c, false)]).toEqual([2, 3, 0, 1, 4]);
    expect([...sortRows(Int32Array.of(0, 1, 2, 3, 4), c, true)]).toEqual([0, 3, 2, 1, 4]);
  });

  it('orders as a comparator sort does: negatives, zeros, infinities, ties, huge and tiny values, both ways', () => {
    let seed = 7;
    const rnd = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
    const pool = [0, -0, 1, -1, 1e-300, -1e-300, 1e300, -1e300, Infinity, -Infinity, 2.5, -2.5, 3];
    const vals = Array.from({ length: 5000 }, () => (rnd() < 0.5 ? pool[Math.floor(rnd() * pool.length)] : (rnd() - 0.5) * 10 ** Math.floor(rnd() * 20 - 10)));
    const c: TableColumn = { key: 'v', label: 'v', unit: 'number', num: (r) => vals[r], text: String };
    const rows = Int32Array.from(vals.keys());
    for (const descending of [false, true]) {
      const want = [...vals.keys()].sort((a, b) => (descending ? vals[b] - vals[a] : vals[a] - vals[b]) || a - b);
      expect([...sortRows(rows, c, descending)], descending ? 'descending' : 'ascending').toEqual(want);
    }
  });

  it('writes CSV that a CSV parser reads back cell for cell: quotes, commas, line breaks, formulas', () => {
    const texts = ['plain', 'a, comma', 'a "quoted" word', 'two\r\nlines', '=HYPERLINK("x")', '-1 not a number', ''];
    const nums = [1.5, NaN, -2, 0, 1e21, 3, 4];
    const columns: TableColumn[] = [
      { key: 't', label: 'Name, "odd"', unit: 'text', num: null, text: (r) => texts[r] },
      { key: 'n', label: 'Duration', unit: 'ms', num: (r) => nums[r], text: (r) => String(nums[r]) },
    ];
    const rows = Int32Array.from(texts.keys());
    const back: string[][] = parse(toCsv(columns, rows), { relax_column_count: false });
    expect(back[0]).toEqual(['Name, "odd"', 'Duration (ms)']);
    expect(back.length).toBe(texts.length + 1);
    back.slice(1).forEach((cells, r) => {
      const text = visibleName(texts[r]);
      expect(cells[0]).toBe(/^[=+\-@]/.test(text) ? `'${text}` : text);
      expect(cells[1]).toBe(Number.isNaN(nums[r]) ? '' : String(nums[r]));
      if (cells[1] !== '') expect(Number(cells[1])).toBe(nums[r]);
    });
    expect(csvField('x\ny')).toBe('"x\ny"');
  });

  it('writes the hostile recording’s thread names to CSV as the page shows them, one line per row', () => {
    const i = indexEvents(hostile);
    const rows = pageRows(hostile, i, typeOf(hostile, 'jdk.ExecutionSample'));
    const keep = all(rows);
    const csv = toCsv(rows.columns, keep);
    const back: string[][] = parse(csv);
    expect(back.length).toBe(rows.length + 1);
    const t = rows.columns.findIndex((c) => c.key === 'thread');
    const names = new Set(back.slice(1).map((l) => l[t]));
    expect([...names].some((n) => n.includes('<script>'))).toBe(true);
    // No bidi override or control character survives into the file.
    // eslint-disable-next-line no-control-regex
    expect(/[\u202a-\u202e\u2066-\u2069\u0000-\u0008\u000b\u000c\u000e-\u001f]/.test(csv)).toBe(false);
    expect([...names].some((n) => n.includes('evil\\u202egnp.exe'))).toBe(true);
  });

  it('writes Arrow that reads back with the same rows and values', () => {
    const rows = pageRows(profile, index, typeOf(profile, 'jdk.ThreadSleep'));
    const keep = sortRows(all(rows), col(rows, 'duration'), true);
    const table = tableFromIPC(tableToIPC(toArrow(rows.columns, keep), 'file'));
    expect(table.numRows).toBe(rows.length);
    expect(table.schema.fields.map((f) => f.name)).toContain('Duration (ms)');
    const dur = table.getChild('Duration (ms)')!.toArray() as Float64Array;
    keep.forEach((r, k) => expect(dur[k]).toBeCloseTo(col(rows, 'duration').num!(r), 6));
    expect(table.getChild('Thread')!.get(0)).toBe(col(rows, 'thread').text(keep[0]));
  });

  it('draws a column as a line: one point per event at its start, in time order, split by a text column', () => {
    const rows = pageRows(profile, index, typeOf(profile, 'jdk.ThreadSleep'));
    const d = col(rows, 'duration');
    const [line] = lineSeries(rows, all(rows), d);
    const e = profile.events;
    const want = Array.from(rows.event, (i) => [e.start[i], e.duration[i]] as const).sort((a, b) => a[0] - b[0]);
    expect(Array.from(line.t)).toEqual(want.map((p) => p[0]));
    expect(Array.from(line.v)).toEqual(want.map((p) => p[1]));
    const split = lineSeries(rows, all(rows), d, col(rows, 'thread'));
    const threads = new Set(Array.from(rows.thread, (t) => profile.strings[profile.threads.name[t]]));
    expect(split.map((s) => s.name).sort()).toEqual([...threads].sort());
    expect(split.reduce((a, s) => a + s.v.length, 0)).toBe(rows.length);
  });
});

describe('collapsed export', () => {
  const golden = (file: string, type: string) =>
    gunzipSync(readFileSync(resolve(fixtures, 'expected', `${file}.${type}.collapsed.gz`)))
      .toString('utf8')
      .split('\n')
      .filter(Boolean);
  const example = decodeInNode(new Uint8Array(readFileSync(resolve(fixtures, 'example.jfr'))));
  const apWall = decodeInNode(new Uint8Array(readFileSync(resolve(fixtures, 'ap-wall.jfr'))));
  it('weighs stacks as the view weighs them, as the JDK counts them: samples (batched wall-clock samples by their count), events', () => {
    for (const [file, p, type] of [
      ['jdk17-profile.jfr', profile, 'jdk.ExecutionSample'],
      ['jdk17-profile.jfr', profile, 'jdk.NativeMethodSample'],
      ['example.jfr', example, 'profiler.WallClockSample'],
      ['ap-wall.jfr', apWall, 'profiler.WallClockSample'],
    ] as const) {
      const type0 = typeOf(p, type);
      const mode = weightModeOf(p, type0);
      expect(mode, type).toBe('samples');
      const ours = collapsedStacks(p, type0, mode).filter((l) => !l.startsWith(' '));
      expect(ours, `${file} ${type}`).toEqual(golden(file, type));
    }
  });
  it('weighs waits by their duration in whole microseconds, over the JDK’s stacks', () => {
    for (const name of ['jdk.ThreadSleep', 'jdk.JavaMonitorEnter', 'jdk.ThreadPark']) {
      const type = typeOf(profile, name);
      expect(weightModeOf(profile, type)).toBe('duration');
      const byDuration = collapsedStacks(profile, type, 'duration');
      const stacks = (lines: string[]) => lines.map((l) => l.slice(0, l.lastIndexOf(' ')));
      expect(stacks(byDuration), name).toEqual(stacks(golden('jdk17-profile.jfr', name)));
      // Each line's weight is the durations of its events (µs), which the JDK counts there.
      const e = profile.events;
      const total = byDuration.reduce((a, l) => a + Number(l.slice(l.lastIndexOf(' ') + 1)), 0);
      let us = 0;
      for (let i = 0; i < e.length; i++) if (e.type[i] === type) us += e.duration[i] * 1000;
      expect(Math.abs(total - us)).toBeLessThanOrEqual(byDuration.length);
    }
    // A sleep lasts at least the time it asked for (the JDK's `time` field, ms): each line weighs at least that.
    const sleeps = pageRows(profile, index, typeOf(profile, 'jdk.ThreadSleep'));
    const asked = sleeps.columns.find((c) => c.key === 'value')!;
    const askedUs = Array.from(all(sleeps), (r) => asked.num!(r) * 1000).reduce((a, b) => a + b, 0);
    const total = collapsedStacks(profile, typeOf(profile, 'jdk.ThreadSleep'), 'duration').reduce((a, l) => a + Number(l.slice(l.lastIndexOf(' ') + 1)), 0);
    expect(total).toBeGreaterThanOrEqual(askedUs * 0.99);
  });
});

describe('lines of every field', () => {
  const bytes = new Uint8Array(readFileSync(resolve(fixtures, 'jdk17-profile.jfr')));
  // What the JDK reads of each field (tools/golden/Golden.java): NAME TYPE FIELD WHAT VALUE.
  const jdkField = (type: string, field: string) => {
    const l = readFileSync(resolve(fixtures, 'expected/jdk17-profile.jfr.fields.tsv'), 'utf8')
      .split('\n')
      .map((x) => x.split('\t'))
      .find((f) => f[0] === type && f[1] === field);
    expect(l, `${type} ${field} in the JDK's reading`).toBeDefined();
    return Number(l![3]);
  };
  it('draws CPU load, a type the page holds no rows of, from its own fields: the JDK’s values, in time order', async () => {
    const type = typeOf(profile, 'jdk.CPULoad');
    const rows = arrowRows(profile, await typeTableInNode(bytes, 'jdk.CPULoad', 2), type);
    expect(rows.length).toBe(jdkCounts.get('jdk.CPULoad'));
    expect(Array.from(rows.event).every((e) => e === -1)).toBe(true);
    const kept = tableRows(rows, { range: null, threads: null, threadFiltered: false, test: null });
    expect(kept.length).toBe(rows.length);
    for (let k = 1; k < kept.length; k++) expect(rows.start[kept[k]]).toBeGreaterThanOrEqual(rows.start[kept[k - 1]]);
    for (const field of ['jvmUser', 'jvmSystem', 'machineTotal']) {
      const c = col(rows, field);
      expect(c.unit, field).toBe('fraction');
      const [line] = lineSeries(rows, kept, c);
      expect(line.v.length).toBe(rows.length);
      expect(line.v.reduce((a, b) => a + b, 0)).toBeCloseTo(jdkField('jdk.CPULoad', field), 9);
      for (let k = 1; k < line.t.length; k++) expect(line.t[k]).toBeGreaterThanOrEqual(line.t[k - 1]);
      expect(line.t[0]).toBeGreaterThanOrEqual(0);
      expect(line.t[line.t.length - 1]).toBeLessThanOrEqual(profile.info.durationMs);
    }
    // A range keeps the samples inside it only.
    const mid = rows.start[kept[4]];
    const inRange = tableRows(rows, { range: [mid - 1, mid + 1], threads: null, threadFiltered: false, test: null });
    expect(Array.from(inRange)).toEqual([kept[4]]);
  });
  it('splits the heap used by GC phase: one line before GC, one after, together the JDK’s sum', async () => {
    const type = typeOf(profile, 'jdk.GCHeapSummary');
    const rows = arrowRows(profile, await typeTableInNode(bytes, 'jdk.GCHeapSummary', 1), type);
    expect(rows.length).toBe(jdkCounts.get('jdk.GCHeapSummary'));
    const used = col(rows, 'heapUsed');
    expect(used.unit).toBe('bytes');
    const lines = lineSeries(rows, all(rows), used, col(rows, 'when'));
    expect(lines.map((l) => l.name)).toEqual(['After GC', 'Before GC']);
    expect(lines.map((l) => l.v.length)).toEqual([3, 3]);
    expect(lines.reduce((a, l) => a + l.v.reduce((x, y) => x + y, 0), 0)).toBe(jdkField('jdk.GCHeapSummary', 'heapUsed'));
    // After each collection less is in use than before it.
    const [after, before] = lines;
    for (let k = 0; k < 3; k++) expect(after.v[k]).toBeLessThan(before.v[k]);
  });
});
