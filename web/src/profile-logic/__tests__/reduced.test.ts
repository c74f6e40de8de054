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
import { reduceNodes, withReduced } from '../callnodes';
import { callTree, totalWeight, type CallNode } from '../calltree';
import { eventsOfType, indexEvents, typeLists } from '../event-index';
import { filterLists, flagsOf, keptByEntry, type FilterSpec } from '../filters';
import { keptWeights, weightsInRange } from '../ranges';

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
      // The events the filter keeps, by the running counts: the JDK's stacks holding the frame.
      expect(pass.cums.reduce((a, c) => a + c.match[c.list.length], 0)).toBe(want.reduce((a, g) => a + g.w, 0));
    });
  }
});
