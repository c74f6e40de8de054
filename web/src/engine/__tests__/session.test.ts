/**
 * The first round of a lazy load decodes what the first view shows (its type, and what the
 * timeline's lanes draw), not the smallest types that fit a row budget; what it decodes, and what
 * the rest decodes when picked, is what the native CLI reads.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { collapsedStacks } from '../../profile-logic/collapsed';
import { firstView } from '../../profile-logic/kinds';
import type { Description } from '../parts';
import { firstRound, HELD_BYTES, keepsChunks } from '../session';
import { sessionInNode } from '../node';
import { countingBlobs } from './counting-blob';

const root = resolve(__dirname, '../../../..');
const cli = join(root, 'target/release/jfrscope');

function desc(types: [string, Description['types'][number]['kind'], number, boolean][]): Description {
  return {
    types: types.map(([name, kind, count, hasStack]) => ({ name, label: name, kind, count, hasStack, decoded: false })),
    chunks: [],
    errors: [],
    info: { jvm: null, os: null, cpu: null, settings: [], properties: [] },
  };
}

describe('firstRound', () => {
  const d = desc([
    ['jdk.ExecutionSample', 'cpu', 7_000, true],
    ['jdk.ThreadPark', 'park', 57_000, true],
    ['jdk.JavaMonitorEnter', 'lock', 9_000, true],
    ['jdk.FileRead', 'io', 16_000_000, true],
    ['jdk.GarbageCollection', 'gc', 600, false],
    ['jdk.ObjectAllocationInNewTLAB', 'alloc', 360_000, true],
    ['jdk.ObjectAllocationSample', 'alloc', 14_000, true],
    ['jdk.CPULoad', 'other', 40, false],
  ]);
  const view = firstView(d.types, '');

  it('names the default type and the lanes’ types from the counts alone', () => {
    expect(view.shown).toEqual(['jdk.ExecutionSample']);
    expect([...view.lanes].sort()).toEqual(['jdk.FileRead', 'jdk.GarbageCollection', 'jdk.JavaMonitorEnter', 'jdk.ThreadPark']);
    expect(firstView(d.types, 'jdk.ObjectAllocationSample').shown).toEqual(['jdk.ObjectAllocationSample']);
    expect(firstView(d.types, 'jdk.NoSuchType').shown).toEqual(['jdk.ExecutionSample']);
  });

  it('takes the view (lanes while the budget lasts), not the smallest types, from a large file', () => {
    // Room for every type but the file reads: the allocations fit, and still wait for a pick.
    expect(firstRound(d, 2_000_000, view, 40_000_000, false).sort()).toEqual(['jdk.ExecutionSample', 'jdk.GarbageCollection', 'jdk.JavaMonitorEnter', 'jdk.ThreadPark']);
    // A small file takes the rest that fits as well (smallest first).
    expect(firstRound(d, 2_000_000, view, 40_000_000, true).sort()).toEqual([
      'jdk.ExecutionSample',
      'jdk.GarbageCollection',
      'jdk.JavaMonitorEnter',
      'jdk.ObjectAllocationInNewTLAB',
      'jdk.ObjectAllocationSample',
      'jdk.ThreadPark',
    ]);
  });

  it('decodes the shown type whatever the budget, within the row limit; lanes only while the budget lasts', () => {
    expect(firstRound(d, 10_000, view, 40_000_000, false).sort()).toEqual(['jdk.ExecutionSample', 'jdk.GarbageCollection', 'jdk.JavaMonitorEnter']);
    expect(firstRound(d, 0, firstView(d.types, 'jdk.FileRead'), 40_000_000, false)).toEqual(['jdk.FileRead']);
    expect(firstRound(d, 0, firstView(d.types, 'jdk.FileRead'), 1_000_000, false)).toEqual([]);
  });
});

describe.skipIf(!existsSync(cli))('a first round of what the view shows', () => {
  it('decodes the CPU samples and the lanes’ types of the example, as the CLI reads them; the rest when picked', async () => {
    const file = join(root, 'fixtures/example.jfr');
    const bytes = new Uint8Array(readFileSync(file));
    // As a file past the small-file size would: the view only.
    const session = sessionInNode(bytes, 2, { pieceRows: 1000, wholeFirstBytes: 0 });
    const opened = await session.open((types) => firstView(types, ''), () => {});
    const decoded = opened.eventTypes.filter((t) => t.count > 0 && !t.deferred).map((t) => t.name);
    expect(decoded).toContain('jdk.ExecutionSample');
    expect(decoded).toContain('jdk.ThreadPark');
    expect(decoded).toContain('jdk.JavaMonitorEnter');
    const deferred = opened.eventTypes.filter((t) => t.deferred).map((t) => t.name);
    expect(deferred.sort()).toEqual(['jdk.ObjectAllocationInNewTLAB', 'profiler.WallClockSample']);
    const collapse = (type: string) =>
      execFileSync(cli, ['collapse', file, '--event', type], { encoding: 'utf8' })
        .split('\n')
        .filter((l) => l.length > 0)
        .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
    const stacks = (p: typeof opened, type: string) => collapsedStacks(p, p.eventTypes.findIndex((t) => t.name === type), 'events');
    expect(stacks(opened, 'jdk.ExecutionSample')).toEqual(collapse('jdk.ExecutionSample'));
    expect(stacks(opened, 'jdk.ThreadPark')).toEqual(collapse('jdk.ThreadPark'));
    // One type per round: each round copies the rows decoded before and merges only the new
    // rows' dictionaries into the ones the earlier rounds made.
    const one = await session.load(['jdk.ObjectAllocationInNewTLAB'], () => {});
    expect(stacks(one, 'jdk.ObjectAllocationInNewTLAB')).toEqual(collapse('jdk.ObjectAllocationInNewTLAB'));
    const all = await session.load(deferred, () => {});
    expect(stacks(all, 'jdk.ObjectAllocationInNewTLAB')).toEqual(collapse('jdk.ObjectAllocationInNewTLAB'));
    expect(stacks(all, 'jdk.ExecutionSample')).toEqual(collapse('jdk.ExecutionSample'));
    expect(stacks(all, 'jdk.ThreadPark')).toEqual(collapse('jdk.ThreadPark'));
    // Pieces of 1,000 rows: each decoder copied most of them into buffers handed back.
    for (const g of session.groups as unknown as { buffers: { reused: number } }[]) expect(g.buffers.reused).toBeGreaterThan(0);
    // The earlier rounds' stack rows keep their numbers (a view of them stays valid).
    expect(Array.from(all.stacks.frame.subarray(0, one.stacks.length))).toEqual(Array.from(one.stacks.frame));
    expect(Array.from(all.stacks.prefix.subarray(0, one.stacks.length))).toEqual(Array.from(one.stacks.prefix));
    expect(all.strings.slice(0, one.strings.length)).toEqual(one.strings);
    expect(one.strings.length).toBeLessThanOrEqual(all.strings.length);
  });
});

describe.skipIf(!existsSync(cli))('the chunks of a File between rounds', () => {
  const open = async (name: string, shown: string[]) => {
    const file = join(root, 'fixtures', name);
    const bytes = new Uint8Array(readFileSync(file));
    const { blobs: files, blob } = countingBlobs();
    const session = sessionInNode(bytes, 2, { wholeFirstBytes: 0, blob });
    const opened = await session.open(shown, () => {});
    const read = () => files.reduce((a, f) => a + f.read, 0);
    const collapse = (type: string) => execFileSync(cli, ['collapse', file, '--event', type], { encoding: 'utf8' }).split('\n').filter((l) => l.length > 0).sort();
    return { session, opened, read, size: bytes.length, collapse };
  };
  const stacks = (p: Awaited<ReturnType<typeof open>>['opened'], type: string) => collapsedStacks(p, p.eventTypes.findIndex((t) => t.name === type), 'events').sort();

  it('are kept after a first round of few rows: a pick reads nothing from the file again', async () => {
    const { session, opened, read, size, collapse } = await open('jdk17-multichunk.jfr', ['jdk.GCHeapSummary']);
    // The count pass read the file once; its chunks were held for the first round.
    expect(read()).toBe(size);
    expect(keepsChunks(true, opened.events.length, size)).toBe(true);
    const picked = await session.load(['jdk.ExecutionSample'], () => {});
    expect(read()).toBe(size);
    expect(stacks(picked, 'jdk.ExecutionSample')).toEqual(collapse('jdk.ExecutionSample'));
    // A file the count pass could not hold whole keeps nothing past its rounds, as before.
    expect(keepsChunks(false, 0, HELD_BYTES)).toBe(true);
    expect(keepsChunks(false, 0, HELD_BYTES + 1)).toBe(false);
    expect(keepsChunks(true, 1000, HELD_BYTES + 1)).toBe(false);
  });

  it('are let go by a first round whose columns would outgrow half the file: a pick reads them again', async () => {
    // Every type but the allocation samples in the first round: more rows than half the file holds at 58 B a row.
    const d = (await open('jdk25-cputime.jfr', [])).session.description!;
    const others = d.types.filter((t) => t.name !== 'jdk.ObjectAllocationSample' && t.count > 0).map((t) => t.name);
    const { session, opened, read, size, collapse } = await open('jdk25-cputime.jfr', others);
    expect(keepsChunks(true, opened.events.length, size)).toBe(false);
    expect(read()).toBe(size);
    const picked = await session.load(['jdk.ObjectAllocationSample'], () => {});
    expect(read()).toBe(2 * size);
    expect(stacks(picked, 'jdk.ObjectAllocationSample')).toEqual(collapse('jdk.ObjectAllocationSample'));
  });
});
