/**
 * The wasm parser, through the same merge and Profile building as the browser, against the
 * native `jfrscope` CLI: per-type counts and collapsed stacks, for every committed fixture and
 * every recording in ../shared/corpus (skipped with a notice when that folder is absent).
 * Each file is decoded whole, split in three parts (as several workers would) and merged, and
 * lazily: a count pass, rows of one type, then the deferred rest in a later round.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { collapsedStacks } from '../../profile-logic/collapsed';
import type { Profile } from '../../columns/profile';
import { decodeInNode, sessionInNode } from '../node';

const root = resolve(__dirname, '../../../..');
const cli = join(root, 'target/release/jfrscope');
const corpus = resolve(root, '../shared/corpus');

function recordings(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((f) => (f.endsWith('.jfr') || f.endsWith('.jfr.gz')) && f !== 'invalid.jfr')
    .sort()
    .map((f) => join(dir, f));
}

const files = [
  ...recordings(join(root, 'fixtures')),
  ...recordings(join(corpus, 'jfrs')),
  ...recordings(join(corpus, 'grafana-jfr-parser')),
];
if (!existsSync(corpus)) console.warn(`notice: ${corpus} is absent; corpus files skipped`);

function run(args: string[]): string {
  return execFileSync(cli, args, { encoding: 'utf8', maxBuffer: 1 << 28, stdio: ['ignore', 'pipe', 'ignore'] });
}

const byCodeUnit = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

function rowsPerType(p: Profile): number[] {
  const n = p.eventTypes.map(() => 0);
  for (let i = 0; i < p.events.length; i++) n[p.events.type[i]]++;
  return n;
}

/**
 * Open lazily with no row budget (only the first stack type's rows), then load the rest; rows
 * stream in pieces of 1000 (a piece ends with a chunk), each with only its new dictionary rows;
 * `shared`: written by the decoders straight into shared columns (a cross-origin isolated page).
 */
async function lazily(bytes: Uint8Array, shared = false): Promise<Profile> {
  const first = await sessionInNode(bytes, 2, { budget: 0, pieceRows: 1000, shared }).open([], () => {});
  expect(first.events.length).toBe(0);
  const want = first.eventTypes.find((t) => t.hasStack && t.count > 0 && t.deferred);
  if (!want) return first;
  const session = sessionInNode(bytes, 2, { budget: 0, pieceRows: 1000, shared });
  const opened = await session.open([want.name], () => {});
  const wi = opened.eventTypes.findIndex((t) => t.name === want.name);
  expect(opened.eventTypes[wi].deferred).toBe(false);
  expect(rowsPerType(opened).filter((n, i) => n > 0 && i !== wi)).toEqual([]);
  const rest = opened.eventTypes.filter((t) => t.deferred).map((t) => t.name);
  const all = await session.load(rest, () => {});
  expect(all.eventTypes.filter((t) => t.deferred)).toEqual([]);
  // The columns are where the decoders wrote them (a piece's own are never kept).
  if (all.events.length > 0) expect(all.events.start.buffer instanceof SharedArrayBuffer).toBe(shared);
  return all;
}

/** Distinct error messages (a full pass may meet one problem twice: scanning, then decoding). */
const messages = (p: Profile) => [...new Set(p.info.errors.map((e) => e.message))].sort();

function counts(p: Profile): string {
  return p.eventTypes
    .filter((t) => t.count > 0)
    .map((t) => `${t.name}\t${t.count}`)
    .sort(byCodeUnit)
    .join('\n');
}

describe.skipIf(!existsSync(cli))('wasm agrees with the native CLI', () => {
  it('has recordings to check', () => {
    expect(files.length).toBeGreaterThan(0);
  });
  for (const file of files) {
    it(file.slice(root.length - 4), async () => {
      const bytes = new Uint8Array(readFileSync(file));
      const whole = decodeInNode(bytes, 1);
      const split = decodeInNode(bytes, 3);
      const lazy = await lazily(bytes);
      const placed = await lazily(bytes, true);
      const cliCounts = run(['summary', file]).trimEnd();
      expect(counts(whole)).toBe(cliCounts);
      expect(counts(split)).toBe(cliCounts);
      expect(counts(lazy)).toBe(cliCounts);
      expect(counts(placed)).toBe(cliCounts);
      const byName = (p: Profile) => {
        const n = rowsPerType(p);
        return Object.fromEntries(p.eventTypes.map((t, i) => [t.name, n[i]]));
      };
      expect(byName(lazy)).toEqual(byName(whole));
      expect(byName(placed)).toEqual(byName(whole));
      expect(messages(lazy)).toEqual(messages(whole));
      expect(messages(placed)).toEqual(messages(whole));
      for (const p of [whole, split, lazy, placed]) {
        p.eventTypes.forEach((t, i) => {
          if (!t.hasStack || t.count === 0) return;
          const want = run(['collapse', file, '--event', t.name]).split('\n').filter((l) => l.length > 0).sort(byCodeUnit);
          const got = collapsedStacks(p, i, t.kind === 'wall' ? 'samples' : 'events');
          expect(got, `${t.name} in ${file}`).toEqual(want);
        });
      }
    });
  }
});

describe('a lazy load of a damaged recording', () => {
  for (const file of recordings(join(root, 'fixtures/damaged'))) {
    it(`keeps the rows and errors of a full decode: ${file.slice(root.length + 1)}`, async () => {
      const bytes = new Uint8Array(readFileSync(file));
      const whole = decodeInNode(bytes, 1);
      const byName = (p: Profile) => {
        const n = rowsPerType(p);
        return Object.fromEntries(p.eventTypes.map((t, i) => [t.name, [t.count, n[i]]]));
      };
      // Handed over in pieces, and written straight into shared columns.
      for (const shared of [false, true]) {
        const lazy = await lazily(bytes, shared);
        expect(byName(lazy)).toEqual(byName(whole));
        expect(messages(lazy)).toEqual(messages(whole));
        expect(lazy.info.errors.length).toBeGreaterThan(0);
      }
    });
  }
});

describe('the row limit', () => {
  it('keeps a type past it in the file, says why, and goes on decoding what fits', async () => {
    const bytes = new Uint8Array(readFileSync(join(root, 'fixtures/example.jfr')));
    // The example's counts as the JDK reads them (fixtures/expected/, tools/golden).
    const rf = new Map(
      readFileSync(join(root, 'fixtures/expected/example.jfr.rf-counts.tsv'), 'utf8')
        .trim()
        .split('\n')
        .map((l) => l.split('\t'))
        .map(([t, n]) => [t, Number(n)] as [string, number]),
    );
    const [wallCount, lockCount, cpuCount, allocCount] = ['profiler.WallClockSample', 'jdk.JavaMonitorEnter', 'jdk.ExecutionSample', 'jdk.ObjectAllocationInNewTLAB'].map((t) => rf.get(t)!);
    const n = (x: number) => x.toLocaleString('en-US');
    // A limit the locks and CPU samples fit under, with room for half the allocation samples.
    const limit = lockCount + cpuCount + Math.floor(allocCount / 2);
    expect(wallCount).toBeGreaterThan(limit);
    // Budget 0: the wall-clock samples never fit, the locks do.
    const session = sessionInNode(bytes, 2, { budget: 0, pieceRows: 1000, limit });
    const opened = await session.open(['profiler.WallClockSample'], () => {});
    const wall = opened.eventTypes.find((t) => t.name === 'profiler.WallClockSample')!;
    expect(wall.count).toBe(wallCount);
    expect(wall.deferred).toBe(true);
    expect(opened.events.length).toBe(0);
    await expect(session.load(['profiler.WallClockSample'], () => {})).rejects.toThrow(
      new RegExp(`profiler\\.WallClockSample has ${n(wallCount)} events: .* past the ${n(limit)} rows .*\`jfrscope collapse FILE --event profiler\\.WallClockSample`),
    );
    const locks = await session.load(['jdk.JavaMonitorEnter'], () => {});
    expect(locks.events.length).toBe(lockCount);
    expect(locks.eventTypes.find((t) => t.name === 'jdk.JavaMonitorEnter')!.deferred).toBe(false);
    // The locks and the CPU samples fit; the allocation samples on top would not.
    expect((await session.load(['jdk.ExecutionSample'], () => {})).events.length).toBe(lockCount + cpuCount);
    await expect(session.load(['jdk.ObjectAllocationInNewTLAB'], () => {})).rejects.toThrow(`with the ${n(lockCount + cpuCount)} rows already decoded`);
  });
});

describe('Arrow tables', () => {
  it('carry the columns, with strings dictionary-encoded and "none" as null', () => {
    const p = decodeInNode(new Uint8Array(readFileSync(join(root, 'fixtures/example.jfr'))));
    const frames = p.arrow.frames;
    // Built on first use, then the same tables (the SQL console knows a profile by them).
    expect(p.arrow).toBe(p.arrow);
    expect(frames.numRows).toBe(p.frames.length);
    const i = p.frames.length - 1;
    expect(frames.getChild('name')!.get(i)).toBe(p.strings[p.frames.name[i]]);
    const events = p.arrow.events;
    expect(events.numRows).toBe(p.events.length);
    const state = events.getChild('state')!;
    const k = Array.from(p.events.state).findIndex((s) => s < 0);
    if (k >= 0) expect(state.get(k)).toBeNull();
    const j = Array.from(p.events.state).findIndex((s) => s >= 0);
    if (j >= 0) expect(state.get(j)).toBe(p.strings[p.events.state[j]]);
    expect(Array.from(events.getChild('start')!.toArray() as Float64Array)).toEqual(Array.from(p.events.start));
  });
});
