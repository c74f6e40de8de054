/**
 * The sandwich's two trees against a brute-force reading of each event's stack: the path of
 * names from the root, cut at the method's first (outermost) occurrence; callers are the part
 * before it reversed, callees the part from it. On a hand-made profile with recursion, and on
 * the example recording's CPU samples through the view's own filter pass.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Profile } from '../../columns/profile';
import { decodeInNode } from '../../engine/node';
import type { CallNode } from '../calltree';
import { eventsOfType, indexEvents, typeLists } from '../event-index';
import { filterLists, flagsOf } from '../filters';
import { topMethods } from '../methods';
import { weightsInRange } from '../ranges';
import { sandwichTrees } from '../sandwich';
import { buildProfile } from './build';
import { selectInRange, filterEvents, weightPerStack } from './reference';

/** A tree as plain nested records: name → { value, self, children }. */
interface Plain {
  value: number;
  self: number;
  children: Record<string, Plain>;
}

function plain(n: CallNode): Plain {
  const children: Record<string, Plain> = {};
  for (const c of n.children) {
    expect(children[c.name], `${c.name} appears once under ${n.name}`).toBeUndefined();
    children[c.name] = plain(c);
  }
  return { value: round(n.value), self: round(n.self), children };
}

const round = (x: number) => Math.round(x * 1e6) / 1e6;

/** Adds `path` (names, first = the root's child) with weight w; the leaf gets the self weight. */
function addPath(root: Plain, path: string[], w: number): void {
  root.value += w;
  let n = root;
  for (const name of path) {
    n = n.children[name] ??= { value: 0, self: 0, children: {} };
    n.value += w;
  }
  n.self += w;
}

function rounded(p: Plain): Plain {
  const children: Record<string, Plain> = {};
  for (const [k, c] of Object.entries(p.children)) children[k] = rounded(c);
  return { value: round(p.value), self: round(p.self), children };
}

/** The names of event i's stack, root first. */
function pathOf(profile: Profile, i: number): string[] {
  const out: string[] = [];
  for (let s = profile.events.stack[i]; s >= 0; s = profile.stacks.prefix[s]) out.push(profile.strings[profile.frames.name[profile.stacks.frame[s]]]);
  return out.reverse();
}

/** Callers and callees of `method` from each selected event's stack, one at a time. */
function bruteForce(profile: Profile, events: Iterable<number>, weightOf: (i: number) => number, method: string): { callers: Plain; callees: Plain } {
  const callers: Plain = { value: 0, self: 0, children: {} };
  const callees: Plain = { value: 0, self: 0, children: {} };
  for (const i of events) {
    const path = pathOf(profile, i);
    const k = path.indexOf(method);
    if (k < 0) continue;
    const w = weightOf(i);
    addPath(callers, path.slice(0, k).reverse(), w);
    addPath(callees, path.slice(k + 1), w);
  }
  return { callers: rounded(callers), callees: rounded(callees) };
}

describe('sandwich trees', () => {
  const types = [{ name: 'jdk.ExecutionSample', kind: 'cpu' as const }];
  const p = buildProfile(types, ['w1', 'w2'], [
    { type: 0, t: 1, thread: 0, stack: 'run;serve;parse;skipBytes' },
    { type: 0, t: 2, thread: 0, stack: 'run;serve;parse;parse;skipBytes' },
    { type: 0, t: 3, thread: 0, stack: 'run;serve;parse;read;parse;parse;skipBytes', weight: 3 },
    { type: 0, t: 4, thread: 1, stack: 'run;serve;parse' },
    { type: 0, t: 5, thread: 1, stack: 'main;parse;read' },
    { type: 0, t: 6, thread: 1, stack: 'parse;read' },
    { type: 0, t: 7, thread: 1, stack: 'run;serve;read' },
    { type: 0, t: 8, thread: 1, stack: null },
  ]);
  const all = selectInRange(p, filterEvents(p, { type: 0, thread: null, stack: null, exclude: null, state: '', hiddenThreads: new Set() }).match, null);
  const w = weightPerStack(p, all, 'samples');

  it('counts recursion once per stack: the roots weigh the method total', () => {
    const { callers, callees } = sandwichTrees(p, w, p.strings.indexOf('parse'));
    const total = topMethods(p, w).find((r) => p.strings[r.name] === 'parse')!.total;
    expect(total).toBe(8);
    expect(callers.value).toBe(8);
    expect(callees.value).toBe(8);
    expect(callers.name).toBe('parse');
    // Inner recursive calls are callees, under the outermost call.
    const inner = callees.children.find((c) => c.name === 'parse')!;
    expect(inner.value).toBe(1);
    expect(callees.children.find((c) => c.name === 'read')!.children[0].name).toBe('parse');
  });

  it('equals the brute-force trees for every method', () => {
    for (const m of ['run', 'serve', 'parse', 'read', 'skipBytes', 'main']) {
      const t = sandwichTrees(p, w, p.strings.indexOf(m));
      const ref = bruteForce(p, all, (i) => p.events.weight[i], m);
      expect({ callers: plain(t.callers), callees: plain(t.callees) }, m).toEqual(ref);
    }
  });

  it('is empty for a method no selected stack holds', () => {
    const { callers, callees } = sandwichTrees(p, w, p.strings.indexOf('w1'));
    expect(callers.value).toBe(0);
    expect(callees.children).toEqual([]);
  });
});

describe('sandwich trees on the example recording', () => {
  const profile = decodeInNode(new Uint8Array(readFileSync(resolve(__dirname, '../../../../fixtures/example.jfr'))));
  const index = indexEvents(profile);
  const cpu = profile.eventTypes.findIndex((t) => t.name === 'jdk.ExecutionSample');
  const lists = typeLists(profile, index, cpu);
  const spec = { type: cpu, thread: null, stack: null, exclude: null, state: '', hiddenThreads: new Set<string>() };
  const pass = filterLists(profile, spec, lists.parts, flagsOf(profile.events.length, eventsOfType(index, cpu)), null);
  const range: [number, number] = [2000, 9000];
  const weights = weightsInRange(profile, pass.cums, range, 'samples');
  const events = selectInRange(profile, pass.filtered.match, range);

  it('agrees with each sample’s stack for the hunt’s methods and the heaviest ones', () => {
    const heavy = topMethods(profile, weights).slice(0, 8).map((r) => profile.strings[r.name]);
    const methods = [...new Set(['java.io.DataInputStream.skipBytes', ...heavy])];
    let checked = 0;
    for (const m of methods) {
      const name = profile.strings.indexOf(m);
      if (name < 0) continue;
      const t = sandwichTrees(profile, weights, name);
      const ref = bruteForce(profile, events, (i) => profile.events.weight[i], m);
      expect(ref.callers.value, m).toBeGreaterThan(0);
      expect({ callers: plain(t.callers), callees: plain(t.callees) }, m).toEqual(ref);
      checked++;
    }
    expect(checked).toBeGreaterThanOrEqual(5);
  });
});
