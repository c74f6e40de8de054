/**
 * A type's call tree summed over its reduced call nodes (chains of single callees merged), with
 * and without a stack filter typed, against the JDK's own reading of real recordings: the
 * collapsed stacks tools/golden writes from jdk.jfr.consumer.RecordingFile (one line per stack,
 * events per stack), never the app's output.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { decodeInNode } from '../../engine/node';
import { callNodes, entryOf, reduceNodes, withReduced } from '../callnodes';
import { callTree, lostOf, totalWeight, type CallNode } from '../calltree';
import { eventsOfType, indexEvents, typeLists } from '../event-index';
import { filterLists, flagsOf, keptByEntry, type FilterSpec } from '../filters';
import { entryWeightsInRange, keptWeights, weightsInRange, type Range } from '../ranges';
import type { WeightMode } from '../kinds';

const dir = resolve(__dirname, '../../../../fixtures');

/** Per path of names (joined by ';'), its total: from a tree, every node below the root. */
function totals(root: CallNode): Map<string, number> {
  const out = new Map<string, number>();
  const walk = (n: CallNode, path: string) => {
    for (const c of n.children) {
      const p = path ? `${path};${c.name}` : c.name;
      out.set(p, (out.get(p) ?? 0) + c.value);
      walk(c, p);
    }
  };
  walk(root, '');
  return out;
}

/** The same from collapsed lines: each line's weight added to each of its prefixes. */
function totalsOf(lines: { frames: string[]; w: number }[]): Map<string, number> {
  const out = new Map<string, number>();
  for (const { frames, w } of lines) {
    for (let k = 1; k <= frames.length; k++) {
      const p = frames.slice(0, k).join(';');
      out.set(p, (out.get(p) ?? 0) + w);
    }
  }
  return out;
}

const CASES: [string, string, RegExp][] = [
  ['jdk17-profile.jfr', 'jdk.ExecutionSample', /SearchService\.window|Index\.merge/],
  ['jdk17-profile.jfr', 'jdk.ObjectAllocationSample', /SearchService/],
  ['jdk17-profile.jfr', 'jdk.ThreadPark', /LockSupport/],
  ['ap-alloc-lock.jfr', 'jdk.ExecutionSample', /Thread\.run/],
  ['ap-alloc-lock.jfr', 'jdk.ObjectAllocationInNewTLAB', /[Ll]ist/],
];

describe('call trees over a type’s reduced call nodes, against the JDK’s collapsed stacks', () => {
  const profiles = new Map<string, ReturnType<typeof decodeInNode>>();
  for (const [file, typeName, re] of CASES) {
    it(`${file} ${typeName}, whole and with the stack filter ${re.source}`, () => {
      let p = profiles.get(file);
      if (!p) profiles.set(file, (p = decodeInNode(new Uint8Array(readFileSync(resolve(dir, file))))));
      const type = p.eventTypes.findIndex((t) => t.name === typeName);
      expect(type).toBeGreaterThanOrEqual(0);
      const golden = gunzipSync(readFileSync(resolve(dir, 'expected', `${file}.${typeName}.collapsed.gz`)))
        .toString('utf8')
        .split('\n')
        .filter((l) => l.trim() !== '')
        .map((l) => {
          const cut = l.lastIndexOf(' ');
          return { frames: l.slice(0, cut).split(';'), w: Number(l.slice(cut + 1)) };
        });
      const index = indexEvents(p);
      const events = eventsOfType(index, type);
      const lists = typeLists(p, index, type);
      const ofType = flagsOf(p.events.length, events);
      const reduced = reduceNodes(p, events);
      const spec: FilterSpec = { type, thread: null, stack: null, exclude: null, state: '', hiddenThreads: new Set(), reduced };
      // As the view does it: the weights of the other filters, then the stack filter's kept rows.
      const base = withReduced(weightsInRange(p, filterLists(p, spec, lists.parts, ofType, null).cums, null, 'events'), reduced);
      const whole = callTree(p, base);
      expect(totals(whole)).toEqual(totalsOf(golden));
      expect(totalWeight(p, base)).toBe(golden.reduce((a, g) => a + g.w, 0));
      const pass = filterLists(p, { ...spec, stack: re }, lists.parts, ofType, null);
      const kept = withReduced(keptWeights(p, base, pass.stack!, pass.noStack), reduced);
      const want = golden.filter((g) => g.frames.some((f) => re.test(f)));
      expect(want.length).toBeGreaterThan(0);
      expect(totals(callTree(p, kept))).toEqual(totalsOf(want));
      // The same kept per entry of the reduced nodes, as a keystroke keeps them (no array over the rows).
      const byEntry = keptByEntry(p, base, pass.stack!, pass.noStack);
      expect(byEntry).not.toBeNull();
      expect(totals(callTree(p, byEntry!))).toEqual(totalsOf(want));
      expect(totalWeight(p, byEntry!)).toBe(want.reduce((a, g) => a + g.w, 0));
      // Summed per reduced entry with no array over the rows (as the page sums a type whose rows
      // far outnumber its events), whole and kept by the filter.
      const cums = filterLists(p, spec, lists.parts, ofType, null).cums;
      const sparse = entryWeightsInRange(p, cums, null, 'events', reduced);
      expect(sparse).not.toBeNull();
      expect(totals(callTree(p, sparse!))).toEqual(totalsOf(golden));
      const keptSparse = keptByEntry(p, sparse!, pass.stack!, pass.noStack);
      expect(keptSparse).not.toBeNull();
      expect(totals(callTree(p, keptSparse!))).toEqual(totalsOf(want));
      // The events the filter keeps, by the running counts: the JDK's stacks holding the frame.
      expect(pass.cums.reduce((a, c) => a + c.match[c.list.length], 0)).toBe(want.reduce((a, g) => a + g.w, 0));
    });
  }
});

describe('a type’s weights per reduced entry, summed without an array over the stack rows', () => {
  const MODES: [string, string, WeightMode][] = [
    ['jdk17-profile.jfr', 'jdk.ThreadPark', 'duration'],
    ['jdk17-profile.jfr', 'jdk.ObjectAllocationSample', 'bytes'],
    ['ap-alloc-lock.jfr', 'jdk.ObjectAllocationInNewTLAB', 'bytes'],
    ['ap-alloc-lock.jfr', 'jdk.ExecutionSample', 'samples'],
  ];
  for (const [file, typeName, mode] of MODES) {
    it(`${file} ${typeName} by ${mode}: the flame graph of weightsInRange's rows, to the bit, whole and in ranges`, () => {
      const p = decodeInNode(new Uint8Array(readFileSync(resolve(dir, file))));
      const type = p.eventTypes.findIndex((t) => t.name === typeName);
      const index = indexEvents(p);
      const events = eventsOfType(index, type);
      expect(events.length).toBeGreaterThan(100);
      const lists = typeLists(p, index, type);
      const reduced = reduceNodes(p, events);
      const spec: FilterSpec = { type, thread: null, stack: null, exclude: null, state: '', hiddenThreads: new Set(), reduced };
      const cums = filterLists(p, spec, lists.parts, flagsOf(p.events.length, events), null).cums;
      // Ranges: none, the middle third, and a thin slice from inside the longest event (a wait
      // clipped at both ends).
      const end = p.info.durationMs;
      const { start, duration } = p.events;
      const longest = events.reduce((a, i) => (duration[i] > duration[a] ? i : a), events[0]);
      const from = start[longest] + duration[longest] / 2;
      const ranges: (Range | null)[] = [null, [end / 3, (2 * end) / 3], [from, from + 7.3]];
      for (const range of ranges) {
        const rows = withReduced(weightsInRange(p, cums, range, mode), reduced);
        const entries = entryWeightsInRange(p, cums, range, mode, reduced);
        expect(entries).not.toBeNull();
        const tree = callTree(p, entries!);
        if (range !== ranges[2] || mode === 'duration') expect(tree.value).toBeGreaterThan(0);
        expect(tree).toEqual(callTree(p, rows));
        expect(totalWeight(p, entries!)).toBe(totalWeight(p, rows));
        expect(lostOf(entries!, p.stacks.length)).toEqual(lostOf(rows, p.stacks.length));
      }
    });
  }

  it('is null when an event’s stack lies outside the reduced nodes (another type’s)', () => {
    const p = decodeInNode(new Uint8Array(readFileSync(resolve(dir, 'ap-alloc-lock.jfr'))));
    const index = indexEvents(p);
    const typeOf = (name: string) => p.eventTypes.findIndex((t) => t.name === name);
    const cpu = typeOf('jdk.ExecutionSample');
    const tlab = typeOf('jdk.ObjectAllocationInNewTLAB');
    const reduced = reduceNodes(p, eventsOfType(index, cpu));
    const events = eventsOfType(index, tlab);
    const spec: FilterSpec = { type: tlab, thread: null, stack: null, exclude: null, state: '', hiddenThreads: new Set(), reduced };
    const cums = filterLists(p, spec, typeLists(p, index, tlab).parts, flagsOf(p.events.length, events), null).cums;
    // Found by hand: an allocation whose stack's call node is no entry of the CPU samples' nodes.
    const t = callNodes(p);
    const outside = Array.from(events).some((i) => p.events.stack[i] >= 0 && entryOf(reduced, t.ofStack[p.events.stack[i]]) < 0);
    expect(outside).toBe(true);
    expect(entryWeightsInRange(p, cums, null, 'bytes', reduced)).toBeNull();
  });
});
