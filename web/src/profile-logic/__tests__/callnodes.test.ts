/**
 * The call-node table and what is built on it (stack filters, call trees, top methods) against
 * a brute-force reading of each event's own stack, walked frame by frame, on random profiles
 * whose stacks repeat names at different lines and recurse.
 */
import { describe, expect, it } from 'vitest';
import { STACK_LOST, type Profile } from '../../columns/profile';
import { buildCallNodes, callNodes, entryOf, nameEntries, reduceNodes, reducedWeights, weigh, withReduced } from '../callnodes';
import { callTree, countNodes, invertedTree, kthLargest, kthLargestCounted, prune, totalWeight, type CallNode } from '../calltree';
import { eventsOfType, indexEvents, reachOf, typeLists } from '../event-index';
import { compileRegex, eventTest, filterLists, flagsOf, keptByEntry, passes, prepareStackFilters, StackFilter, type Matcher } from '../filters';
import { countsInBins } from '../activity';
import { threadCounts } from '../lanes';
import { histogramOf } from '../pixel-columns';
import { topMethods } from '../methods';
import { keptWeights, weightsInRange } from '../ranges';
import { allMatch, noneMatch, type Cumulative } from '../running-counts';
import { spansOf } from '../waits';
import { buildProfile } from './build';

function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A random profile: `names` methods, 3 frames (lines) each, a random stack tree, one sample type. */
function randomProfile(seed: number, names: number, rows: number, events: number): Profile {
  const r = rng(seed);
  const strings = ['', 'main'];
  for (let m = 0; m < names; m++) strings.push(`pkg${m % 3}.C${m % 5}.m${m}`);
  const frameName = Int32Array.from({ length: names * 3 }, (_, f) => 2 + Math.floor(f / 3));
  const frame = new Int32Array(rows);
  const prefix = new Int32Array(rows);
  for (let s = 0; s < rows; s++) {
    frame[s] = Math.floor(r() * frameName.length);
    // Deep chains mostly: a recent row as the prefix; a root now and then.
    prefix[s] = s === 0 || r() < 0.05 ? -1 : Math.max(0, s - 1 - Math.floor(r() * Math.min(s, 8)));
  }
  const n = events;
  const ev = {
    type: new Uint16Array(n),
    start: Float64Array.from({ length: n }, (_, i) => i),
    duration: new Float32Array(n),
    thread: Int32Array.from({ length: n }, () => Math.floor(r() * 3)),
    stack: Int32Array.from({ length: n }, () => {
      const x = r();
      return x < 0.03 ? -1 : x < 0.05 ? STACK_LOST : Math.floor(r() * rows);
    }),
    weight: Float64Array.from({ length: n }, () => 1 + Math.floor(r() * 100)),
    state: new Int32Array(n).fill(-1),
    subject: new Int32Array(n).fill(-1),
    value: new Float64Array(n).fill(NaN),
    peer: new Int32Array(n).fill(-1),
    offset: new Float64Array(n),
    length: n,
  };
  return {
    strings,
    threads: { name: new Int32Array(3).fill(1), osId: new Float64Array(3), javaId: new Float64Array(3), virtual: new Uint8Array(3), length: 3 },
    frames: { name: frameName, cls: frameName, line: new Int32Array(frameName.length), bci: new Int32Array(frameName.length), kind: Uint8Array.from(frameName, (x) => x % 4), length: frameName.length },
    stacks: { frame, prefix, length: rows },
    events: ev,
    eventTypes: [{ name: 'jdk.ObjectAllocationSample', label: 'Allocation', kind: 'alloc', count: n, hasStack: true, deferred: false }],
    info: { startMs: 0, durationMs: n, dataEndMs: null, stacksLost: 0, chunks: 1, fileSize: 0, jvm: null, os: null, cpu: null, settings: [], properties: [], flags: [], chunkList: [], errors: [] },
    arrow: {} as Profile['arrow'],
  };
}

/** An event's stack as method names, root first, read by walking its frames; null without one. */
function namesOf(p: Profile, i: number): string[] | null {
  const s = p.events.stack[i];
  if (s < 0) return null;
  const out: string[] = [];
  for (let q = s; q >= 0; q = p.stacks.prefix[q]) out.push(p.strings[p.frames.name[p.stacks.frame[q]]]);
  return out.reverse();
}

/** The tree of paths, each event added along its path (root first), as plain nested maps. */
interface Plain {
  value: number;
  self: number;
  children: Map<string, Plain>;
}

/** Self weight at the path's end (a callee tree), or at its start (a callers tree: the leaf). */
function plainOf(paths: { path: string[]; w: number }[], selfAtStart: boolean): Plain {
  const root: Plain = { value: 0, self: 0, children: new Map() };
  for (const { path, w } of paths) {
    root.value += w;
    let at = root;
    path.forEach((name, k) => {
      let c = at.children.get(name);
      if (!c) at.children.set(name, (c = { value: 0, self: 0, children: new Map() }));
      c.value += w;
      if (selfAtStart && k === 0) c.self += w;
      at = c;
    });
    if (!selfAtStart || path.length === 0) at.self += w;
  }
  return root;
}

/** Where `t` differs from `plain` (weights to 1e-6, children by name, each name once), in words. */
function differences(t: CallNode, plain: Plain, where = 'root', out: string[] = []): string[] {
  const close = (a: number, b: number) => Math.abs(a - b) <= 1e-6 * Math.max(1, Math.abs(b));
  if (!close(t.value, plain.value)) out.push(`${where}: value ${t.value}, want ${plain.value}`);
  if (!close(t.self, plain.self)) out.push(`${where}: self ${t.self}, want ${plain.self}`);
  const names = t.children.map((c) => c.name);
  if (new Set(names).size !== names.length) out.push(`${where}: a child named twice`);
  const want = [...plain.children.keys()].sort().join('|');
  if ([...names].sort().join('|') !== want) out.push(`${where}: children ${[...names].sort().join('|')}, want ${want}`);
  for (const c of t.children) {
    const p = plain.children.get(c.name);
    if (p && out.length < 10) differences(c, p, `${where};${c.name}`, out);
  }
  return out;
}

function expectSame(t: CallNode, plain: Plain): void {
  expect(differences(t, plain)).toEqual([]);
}

function byEvent(p: Profile, keep: (i: number) => boolean, w: (i: number) => number, inverted: boolean): Plain {
  const paths: { path: string[]; w: number }[] = [];
  for (let i = 0; i < p.events.length; i++) {
    if (!keep(i)) continue;
    const s = p.events.stack[i];
    const names = namesOf(p, i);
    const path = names ? (inverted ? names.reverse() : names) : [s === STACK_LOST ? '(stack lost: chunk cut)' : '(no stack)'];
    paths.push({ path, w: w(i) });
  }
  return plainOf(paths, inverted);
}

const SEEDS = [1, 2, 3, 4, 5, 6];

describe('call-node table', () => {
  it('merges exactly the stack rows whose name paths are equal, callers before callees', () => {
    // 12 names: a node's callees are few; 300: the roots have hundreds of them (found by hash).
    for (const [seed, names, rows] of SEEDS.flatMap((x) => [[x, 12, 3000], [x, 300, 8000]])) {
      const p = randomProfile(seed, names, rows, 10);
      const t = buildCallNodes(p);
      const pathOfRow = (s: number) => {
        const out: number[] = [];
        for (let q = s; q >= 0; q = p.stacks.prefix[q]) out.push(p.frames.name[p.stacks.frame[q]]);
        return out.join(',');
      };
      const pathOfNode = (n: number) => {
        const out: number[] = [];
        for (let q = n; q >= 0; q = t.prefix[q]) out.push(t.name[q]);
        return out.join(',');
      };
      const distinct = new Map<string, number>();
      for (let s = 0; s < p.stacks.length; s++) {
        const path = pathOfRow(s);
        expect(pathOfNode(t.ofStack[s])).toBe(path);
        if (!distinct.has(path)) distinct.set(path, t.ofStack[s]);
        expect(t.ofStack[s]).toBe(distinct.get(path));
      }
      expect(t.length).toBe(distinct.size);
      for (let n = 0; n < t.length; n++) {
        expect(t.prefix[n]).toBeLessThan(n);
        const above = new Set<number>();
        for (let q = t.prefix[n]; q >= 0; q = t.prefix[q]) above.add(t.name[q]);
        expect(t.outermost[n], `node ${n}`).toBe(above.has(t.name[n]) ? 0 : 1);
      }
    }
  });

  it('weighs the same by walks from the weighted stacks and by passes over the whole table', () => {
    for (const seed of SEEDS) {
      const p = randomProfile(seed, 12, 3000, 400);
      const t = buildCallNodes(p);
      const weights = new Float64Array(p.stacks.length + 2);
      for (let i = 0; i < p.events.length; i++) if (p.events.stack[i] >= 0) weights[p.events.stack[i]] += p.events.weight[i];
      const read = (w: ReturnType<typeof weigh>) => {
        const out = new Map<number, [number, number]>();
        // Entries no weight reaches (the whole table's form lists them all) count as absent.
        w.node.forEach((g, c) => (w.total[c] > 0 ? out.set(g, [w.self[c], w.total[c]]) : null));
        // Callees before callers in `order`; `up` names the caller's entry.
        const seen = new Set<number>();
        for (const c of w.order) {
          expect(w.up[c] < 0 || !seen.has(w.up[c])).toBe(true);
          expect(w.up[c] < 0 ? -1 : w.node[w.up[c]]).toBe(t.prefix[w.node[c]]);
          seen.add(c);
        }
        return { out, sum: w.sum };
      };
      const walked = read(weigh(t, weights, Infinity));
      const passed = read(weigh(t, weights, 0));
      expect(passed.out).toEqual(walked.out);
      expect(passed.sum).toBeCloseTo(walked.sum, 6);
      expect(t.scratch!.every((x) => x === 0)).toBe(true);
    }
  });

  it('on chains (each row the previous one\'s callee, as deep varied stacks are), each node has the path, depth and first frame kind of its rows', () => {
    // Mostly chains; now and then a row under an older row or a root, from a few frames per name,
    // so a chain often repeats a path already made (its nodes found, not made) and then leaves it.
    for (const [seed, names, chain] of SEEDS.flatMap((x) => [[x, 3, 0.9], [x, 40, 0.97], [x, 6, 0.5]])) {
      const r = rng(seed * 31 + names);
      const p = randomProfile(seed, names, 10, 10);
      const rows = 20000;
      const frame = new Int32Array(rows);
      const prefix = new Int32Array(rows);
      for (let s = 0; s < rows; s++) {
        frame[s] = Math.floor(r() * p.frames.length);
        const x = r();
        prefix[s] = s === 0 || x < 0.01 ? -1 : x < chain ? s - 1 : Math.floor(r() * s);
      }
      // A prefix that is no earlier row is a root.
      prefix[rows - 1] = rows + 5;
      p.stacks = { frame, prefix, length: rows };
      const t = buildCallNodes(p);
      // By brute force: each row's path of names (root first), the first row of each path.
      const keys: string[] = [];
      const depths: number[] = [];
      const first = new Map<string, number>();
      const order = new Map<string, number>();
      const nodeKey = (g: number): string => {
        const out: number[] = [];
        for (let q = g; q >= 0; q = t.prefix[q]) out.push(t.name[q]);
        return out.reverse().join(',');
      };
      let deepest = 0;
      const wrong: string[] = [];
      for (let s = 0; s < rows && wrong.length < 5; s++) {
        const q = p.stacks.prefix[s];
        const up = q >= 0 && q < s;
        const key = (up ? `${keys[q]},` : '') + p.frames.name[p.stacks.frame[s]];
        const depth = up ? depths[q] + 1 : 0;
        keys.push(key);
        depths.push(depth);
        if (!first.has(key)) {
          first.set(key, s);
          order.set(key, order.size);
        }
        const g = t.ofStack[s];
        const kind = p.frames.kind[p.stacks.frame[first.get(key)!]];
        // Nodes numbered as first reached: a path's node is the count of paths met before it.
        if (nodeKey(g) !== key || t.depth[g] !== depth || t.kind[g] !== kind || g !== order.get(key)) {
          wrong.push(`row ${s}: node ${g} (path ${nodeKey(g)}, depth ${t.depth[g]}, kind ${t.kind[g]}), want node ${order.get(key)} (${key}, kind ${kind})`);
        }
        deepest = Math.max(deepest, depth);
      }
      expect(wrong).toEqual([]);
      expect(t.length).toBe(first.size);
      expect(t.maxDepth).toBe(deepest);
      expect(t.prefix.every((q, g) => q < g)).toBe(true);
    }
  });

  it('is built once per stack table', () => {
    const p = randomProfile(9, 5, 100, 10);
    expect(callNodes(p)).toBe(callNodes({ ...p }));
  });
});

describe('per-stack filters and stack-summed trees against each event walked', () => {
  // 3,000 events resolve every node in one pass; 300 walk up from each event's node; 15,000
  // (lists of 5,000) read each list's stacks by id.
  for (const [seed, events] of [...SEEDS.flatMap((x) => [[x, 3000], [x, 300]]), [1, 15000], [2, 15000]]) {
    it(`random profile ${seed}, ${events} events`, () => {
      const p = randomProfile(seed, 20, 4000, events);
      // Thread states: 'main' (string 1) runs, '' (string 0) does not, -1 has none (counts as running).
      const r = rng(seed + 50);
      for (let i = 0; i < p.events.length; i++) p.events.state[i] = Math.floor(r() * 3) - 1;
      const running = Uint8Array.from(p.strings, (_, k) => (k === 1 ? 1 : 0));
      const index = indexEvents(p);
      const lists = typeLists(p, index, 0);
      const ofType = flagsOf(p.events.length, eventsOfType(index, 0));
      // The shared running counts made as long as any list, so a list's view of them is of the
      // array they hold now (else a longer list met later would grow them past an earlier view).
      allMatch(p.events, p.events.length);
      noneMatch(p.events, p.events.length);
      // The last two keep every stack (and the events without one), and none.
      for (const [inc, exc] of [
        ['m1$|m7$', ''],
        ['C3', 'm2$'],
        ['', 'pkg1'],
        ['', ''],
        ['', 'nothing'],
        ['nothing', ''],
      ]) {
        const stack = compileRegex(inc);
        const exclude = compileRegex(exc);
        if (!stack.ok || !exclude.ok) throw new Error('bad test regex');
        const { filtered, cums } = filterLists(p, { type: 0, thread: null, stack: stack.re, exclude: exclude.re, state: '', hiddenThreads: new Set() }, lists.parts, ofType, null);
        const has = (i: number, re: Matcher | null) => (namesOf(p, i) ?? []).some((n) => re!.test(n));
        const keep = (i: number) => {
          if (p.events.stack[i] < 0) return !stack.re;
          return (!stack.re || has(i, stack.re)) && !(exclude.re && has(i, exclude.re));
        };
        const wrong: number[] = [];
        for (let i = 0; i < p.events.length; i++) if (filtered.match[i] !== (keep(i) ? 1 : 0)) wrong.push(i);
        expect(wrong, `${inc} / ${exc}`).toEqual([]);
        // The same through the loop that also counts running states, and through the per-event test.
        const withRunning = filterLists(p, { type: 0, thread: null, stack: stack.re, exclude: exclude.re, state: '', hiddenThreads: new Set() }, lists.parts, ofType, running);
        expect(withRunning.filtered.match).toEqual(filtered.match);
        // Running counts: of the events kept, and of those kept in a running state (or none).
        withRunning.cums.forEach(({ list, match, running: inRunning }, t) => {
          let m = 0;
          let n = 0;
          const want = [0];
          const wantRunning = [0];
          for (const i of list) {
            if (keep(i)) {
              m++;
              if (p.events.state[i] < 0 || running[p.events.state[i]]) n++;
            }
            want.push(m);
            wantRunning.push(n);
          }
          expect(Array.from(match), `${inc} / ${exc} list ${t}`).toEqual(want);
          expect(Array.from(inRunning), `${inc} / ${exc} list ${t}`).toEqual(wantRunning);
          expect(Array.from(cums[t].match), `${inc} / ${exc} list ${t}`).toEqual(want);
          // A long list kept whole or dropped whole shares the running counts of all or none.
          if (list.length >= 4096 && (m === 0 || m === list.length)) expect(match.buffer).toBe((m === 0 ? noneMatch : allMatch)(p.events, 1).buffer);
        });
        // And with the stacks resolved per entry of the type's reduced nodes (its chains' names).
        const reduced = reduceNodes(p, eventsOfType(index, 0));
        // Half the time with the lists' stack ids made ahead, as the view makes them when idle.
        if (seed % 2 === 0) prepareStackFilters(p, lists.parts, reduced);
        const byEntries = filterLists(p, { type: 0, thread: null, stack: stack.re, exclude: exclude.re, state: '', hiddenThreads: new Set(), reduced }, lists.parts, ofType, null);
        expect(byEntries.filtered.match).toEqual(filtered.match);
        if (stack.re || exclude.re) {
          const plain = new StackFilter(p, stack.re, exclude.re);
          for (let i = 0; i < p.events.length; i++) if (p.events.stack[i] >= 0 && byEntries.stack!.test(p.events.stack[i]) !== plain.test(p.events.stack[i])) wrong.push(i);
          expect(wrong, `${inc} / ${exc} (per entry)`).toEqual([]);
        }
        const test = eventTest(p, { type: 0, thread: null, stack: stack.re, exclude: exclude.re, state: '', hiddenThreads: new Set() });
        for (let i = 0; i < p.events.length; i++) if (p.events.stack[i] >= 0 && (test ? passes(test, i) : true) !== keep(i)) wrong.push(i);
        expect(wrong, `${inc} / ${exc} (eventTest)`).toEqual([]);
        const weights = weightsInRange(p, cums, null, 'bytes');
        const w = (i: number) => p.events.weight[i];
        expectSame(callTree(p, weights), byEvent(p, keep, w, false));
        expectSame(invertedTree(p, weights), byEvent(p, keep, w, true));
        // The same summed over the type's reduced nodes (chains of single callees merged).
        const onReduced = withReduced(weights.slice(), reduced);
        expectSame(callTree(p, onReduced), byEvent(p, keep, w, false));
        expectSame(invertedTree(p, onReduced), byEvent(p, keep, w, true));
        expect(totalWeight(p, onReduced)).toBeCloseTo(totalWeight(p, weights), 6);
        // A keystroke's: the weights of the events without the stack filters, kept per entry of
        // the reduced nodes (no array over the stack rows).
        const others = filterLists(p, { type: 0, thread: null, stack: null, exclude: null, state: '', hiddenThreads: new Set(), reduced }, lists.parts, ofType, null);
        const base = withReduced(weightsInRange(p, others.cums, null, 'bytes'), reduced);
        const kept = byEntries.stack ? keptByEntry(p, base, byEntries.stack, byEntries.noStack) : null;
        if (byEntries.stack) {
          expect(kept).not.toBeNull();
          expectSame(callTree(p, kept!), byEvent(p, keep, w, false));
          expectSame(invertedTree(p, kept!), byEvent(p, keep, w, true));
          // To the bit the tree of the kept rows' weights (ranges.ts keptWeights).
          const keptRows = withReduced(keptWeights(p, base, byEntries.stack, byEntries.noStack), reduced);
          expect(callTree(p, kept!)).toEqual(callTree(p, keptRows));
          expect(totalWeight(p, kept!)).toBe(totalWeight(p, keptRows));
          expect(totalWeight(p, kept!)).toBeCloseTo(totalWeight(p, weights), 6);
        }
        // Top methods: a method's total once per event whatever its recursion, self at the leaf.
        const total = new Map<string, number>();
        const self = new Map<string, number>();
        for (let i = 0; i < p.events.length; i++) {
          const names = namesOf(p, i);
          if (!keep(i) || !names) continue;
          for (const n of new Set(names)) total.set(n, (total.get(n) ?? 0) + w(i));
          const leaf = names[names.length - 1];
          self.set(leaf, (self.get(leaf) ?? 0) + w(i));
        }
        for (const [how, ws] of [['per row', weights], ['per entry', onReduced], ['kept per entry', kept]] as const) {
          if (!ws) continue;
          const rows = topMethods(p, ws);
          expect(rows.length, how).toBe(total.size);
          for (const r of rows) {
            expect(r.total, how).toBeCloseTo(total.get(p.strings[r.name])!, 6);
            expect(r.self, how).toBeCloseTo(self.get(p.strings[r.name]) ?? 0, 6);
          }
        }
      }
    });
  }

  it('resolves a stack row the same walking up from it and in one pass over every node', () => {
    for (const seed of SEEDS) {
      const p = randomProfile(seed, 20, 4000, 10);
      for (const [inc, exc] of [
        ['m1$|m7$', ''],
        ['C3', 'm2$'],
        ['', 'pkg1'],
      ]) {
        const i = compileRegex(inc);
        const e = compileRegex(exc);
        if (!i.ok || !e.ok) throw new Error('bad test regex');
        const walked = new StackFilter(p, i.re, e.re);
        const passed = new StackFilter(p, i.re, e.re);
        passed.resolveAll();
        const has = (s: number, re: Matcher) => {
          for (let q = s; q >= 0; q = p.stacks.prefix[q]) if (re.test(p.strings[p.frames.name[p.stacks.frame[q]]])) return true;
          return false;
        };
        const wrong: number[] = [];
        // Rows in a shuffled order, so walks stop at nodes already known and at fresh ones.
        const r = rng(seed);
        const rows = Array.from({ length: p.stacks.length }, (_, s) => s).sort(() => r() - 0.5);
        for (const s of rows) {
          const want = (!i.re || has(s, i.re)) && !(e.re && has(s, e.re));
          if (walked.test(s) !== want || passed.test(s) !== want) wrong.push(s);
        }
        expect(wrong, `${inc} / ${exc}`).toEqual([]);
        expect(walked.memo).toEqual(passed.memo);
      }
    }
  });

  it('a light tree is the full tree pruned, made without the pruned nodes', () => {
    // Event weights, then one per event (samples: many frames of equal weight, ties at the cut).
    let tieCases = 0;
    for (const [seed, counted] of SEEDS.slice(0, 3).flatMap((seed) => [[seed, false] as const, [seed, true] as const])) {
      const p = randomProfile(seed, 20, 4000, 3000);
      const weights = new Float64Array(p.stacks.length + 2);
      for (let i = 0; i < p.events.length; i++) {
        const s = p.events.stack[i];
        weights[s >= 0 ? s : s === STACK_LOST ? p.stacks.length + 1 : p.stacks.length] += counted ? 1 : p.events.weight[i];
      }
      const full = callTree(p, weights);
      const inv = invertedTree(p, weights);
      for (const light of [
        { maxNodes: 50, share: 0.01 },
        { maxNodes: 1e9, share: 0.5 },
        { maxNodes: 10, share: 0.2 },
        { maxNodes: 200, share: 1e-9 },
      ]) {
        let want = countNodes(full) > light.maxNodes ? prune(full, full.value * light.share) : full;
        // Still too many frames: only the maxNodes heaviest stay (ties aside).
        const values: number[] = [];
        const visit = (n: CallNode) => n.children.forEach((c) => (c.name.startsWith('(') ? null : values.push(c.value), visit(c)));
        visit(want);
        if (want !== full && values.length > light.maxNodes) {
          const cut = values.sort((a, b) => b - a)[light.maxNodes - 1];
          // Nodes of the cut's weight beyond maxNodes: that weight goes as a whole.
          const ties = values.filter((v) => v >= cut).length > light.maxNodes;
          const over = values.filter((v) => v > cut);
          // Unless nothing is heavier than the cut: then the ties stay (the tree is not emptied).
          want = prune(full, Math.max(full.value * light.share, ties && over.length ? Math.min(...over) : cut));
          // The root, "no stack" and "stack lost" besides at most maxNodes frames.
          if (!ties || over.length) expect(countNodes(want)).toBeLessThan(light.maxNodes + 4);
          if (ties) tieCases++;
        }
        expectSame(callTree(p, weights, 'all', light), byTree(want));
        // Over the reduced nodes, a chain's nodes counted one by one.
        expectSame(callTree(p, withReduced(weights.slice(), reduceNodes(p, eventsOfType(indexEvents(p), 0))), 'all', light), byTree(want));
        expectSame(invertedTree(p, weights, 'all', light), byTree(countNodes(inv) > light.maxNodes ? prune(inv, inv.value * light.share) : inv));
      }
    }
    expect(tieCases).toBeGreaterThan(0);
  });

  it('a light tree whose frames all weigh the same keeps them, rather than only the root', () => {
    // 40 one-sample stacks under 40 distinct roots: every frame ties at the cut.
    const p = buildProfile([{ name: 'jdk.ExecutionSample', kind: 'cpu' }], ['t'], Array.from({ length: 40 }, (_, k) => ({ type: 0, t: k, thread: 0, stack: `root${k};leaf${k}` })));
    const weights = new Float64Array(p.stacks.length + 2);
    for (let i = 0; i < p.events.length; i++) weights[p.events.stack[i]] += 1;
    const tree = callTree(p, weights, 'all', { maxNodes: 10, share: 1e-9 });
    expect(tree.value).toBe(40);
    expect(tree.children.length).toBe(40);
    expect(countNodes(tree)).toBe(countNodes(callTree(p, weights)));
  });
});

describe('the stack filters applied to the weights of the other filters (keptWeights)', () => {
  for (const seed of SEEDS.slice(0, 4)) {
    it(`equals the weights of the events all filters keep, random profile ${seed}`, () => {
      const p = randomProfile(seed, 20, 4000, 2000);
      // Durations, so a range clips the waits that cross its edges.
      const r = rng(seed + 100);
      for (let i = 0; i < p.events.length; i++) p.events.duration[i] = r() * 50;
      const index = indexEvents(p);
      const lists = typeLists(p, index, 0);
      const ofType = flagsOf(p.events.length, eventsOfType(index, 0));
      const withReach = (cums: Cumulative[]) => cums.map((c, k) => ({ ...c, reach: reachOf(p, lists.parts[k]) }));
      let checked = 0;
      for (const range of [null, [300, 1200] as const])
        for (const duration of [null, [5, 30] as const])
          for (const [inc, exc] of [
            ['m1$|m7$', ''],
            ['C3', 'm2$'],
            ['', 'pkg1'],
          ]) {
            const stack = compileRegex(inc);
            const exclude = compileRegex(exc);
            if (!stack.ok || !exclude.ok) throw new Error('bad test regex');
            const spec = { type: 0, thread: null, stack: stack.re, exclude: exclude.re, state: '', hiddenThreads: new Set<string>(), duration };
            const all = filterLists(p, spec, lists.parts, ofType, null);
            const base = filterLists(p, { ...spec, stack: null, exclude: null }, lists.parts, ofType, null);
            for (const mode of ['duration', 'bytes', 'events'] as const) {
              const want = weightsInRange(p, withReach(all.cums), range, mode);
              const got = keptWeights(p, weightsInRange(p, withReach(base.cums), range, mode), all.stack!, all.noStack);
              // The same events summed per row in the same order: equal to the bit.
              expect(Array.from(got), `${inc} / ${exc} ${mode} ${range} ${duration}`).toEqual(Array.from(want));
              expect(totalWeight(p, got)).toBe(totalWeight(p, want));
              if (totalWeight(p, want) > 0) checked++;
            }
          }
      expect(checked).toBeGreaterThan(20);
    });
  }
});

it('lane counts in samples equal each kept event summed, whether a list’s events weigh alike or not', () => {
  for (const seed of SEEDS.slice(0, 3)) {
    const p = randomProfile(seed, 20, 2000, 1500);
    // Thread 1's events all weigh 3 (one count per event, times 3); the others' vary.
    for (let i = 0; i < p.events.length; i++) if (p.events.thread[i] === 1) p.events.weight[i] = 3;
    const index = indexEvents(p);
    const lists = typeLists(p, index, 0);
    const ofType = flagsOf(p.events.length, eventsOfType(index, 0));
    for (const inc of ['', 'C3', 'm1$|m7$']) {
      const re = compileRegex(inc);
      if (!re.ok) throw new Error('bad test regex');
      const { filtered, cums } = filterLists(p, { type: 0, thread: null, stack: re.re, exclude: null, state: '', hiddenThreads: new Set() }, lists.parts, ofType, null);
      const counts = threadCounts(p, cums.slice(0, lists.byThread.length), 'samples');
      const all = [0, 0, 0];
      const kept = [0, 0, 0];
      for (let i = 0; i < p.events.length; i++) {
        all[p.events.thread[i]] += p.events.weight[i];
        if (filtered.match[i]) kept[p.events.thread[i]] += p.events.weight[i];
      }
      expect(Array.from(counts.count), inc).toEqual(all);
      expect(Array.from(counts.matching), inc).toEqual(kept);
    }
  }
});

it('the spike finder’s bins hold what the histogram counts, their edges kept from one filter to the next', () => {
  for (const seed of SEEDS.slice(0, 3)) {
    const p = randomProfile(seed, 20, 2000, 1500);
    const index = indexEvents(p);
    const lists = typeLists(p, index, 0);
    const ofType = flagsOf(p.events.length, eventsOfType(index, 0));
    for (const bins of [7, 100, 1500, 2000]) {
      for (const inc of ['', 'C3', 'm1$|m7$']) {
        const re = compileRegex(inc);
        if (!re.ok) throw new Error('bad test regex');
        const { cums } = filterLists(p, { type: 0, thread: null, stack: re.re, exclude: null, state: '', hiddenThreads: new Set() }, lists.parts, ofType, null);
        // Events start at 0, 1, 2… ms: bin edges fall on events at 1500 bins, between them at 7.
        const to = p.events.length;
        const want = new Float64Array(bins);
        for (const { list, match } of cums) for (let k = 0; k < list.length; k++) if (match[k + 1] > match[k]) want[Math.min(bins - 1, Math.floor(p.events.start[list[k]] / (to / bins)))]++;
        expect(Array.from(countsInBins(p, cums, to, bins)), `${bins} ${inc}`).toEqual(Array.from(want));
        expect(Array.from(countsInBins(p, cums, to, bins))).toEqual(Array.from(histogramOf(p, cums, 0, to, bins).matching));
      }
    }
  }
});

it('a thread’s track of matching waits is the union of its matching events’ spans', () => {
  for (const seed of SEEDS.slice(0, 3)) {
    const p = randomProfile(seed, 20, 2000, 1500);
    // Waits of 0 to 3 ms every 1 ms: they overlap, touch, or leave gaps; some last nothing.
    const r = rng(seed + 7);
    for (let i = 0; i < p.events.length; i++) p.events.duration[i] = r() < 0.1 ? 0 : r() * 3;
    const index = indexEvents(p);
    const lists = typeLists(p, index, 0);
    const ofType = flagsOf(p.events.length, eventsOfType(index, 0));
    for (const inc of ['C3', 'm1$|m7$', 'nothing']) {
      const re = compileRegex(inc);
      if (!re.ok) throw new Error('bad test regex');
      const { filtered, cums } = filterLists(p, { type: 0, thread: null, stack: re.re, exclude: null, state: '', hiddenThreads: new Set() }, lists.parts, ofType, null);
      cums.forEach(({ list, match }) => {
        // The union, merged by hand from the events the flags keep.
        const spans: [number, number][] = [];
        for (const i of list) {
          const a = p.events.start[i];
          const b = a + p.events.duration[i];
          if (!filtered.match[i] || !(b > a)) continue;
          const top = spans[spans.length - 1];
          if (top && a <= top[1]) top[1] = Math.max(top[1], b);
          else spans.push([a, b]);
        }
        const got = spansOf(p, list, match, null);
        expect(Array.from(got.start), inc).toEqual(spans.map((x) => x[0]));
        expect(Array.from(got.end), inc).toEqual(spans.map((x) => x[1]));
        expect(got.cum[spans.length]).toBeCloseTo(spans.reduce((a, x) => a + x[1] - x[0], 0), 9);
      });
    }
  }
});

it('kthLargestCounted agrees with a sort of the values repeated', () => {
  const r = rng(11);
  for (let n = 1; n < 60; n += 3) {
    const xs = Array.from({ length: n }, () => Math.floor(r() * 8));
    const counts = Array.from({ length: n }, () => 1 + Math.floor(r() * 5));
    const all = xs.flatMap((x, i) => Array<number>(counts[i]).fill(x)).sort((a, b) => b - a);
    for (const k of [1, 2, all.length >> 1, all.length - 1, all.length]) {
      if (k < 1) continue;
      expect(kthLargestCounted(Float64Array.from(xs), Int32Array.from(counts), k)).toBe(all[k - 1]);
    }
  }
});

describe('reduced nodes (a type\'s call nodes, chains of single callees merged)', () => {
  for (const seed of SEEDS.slice(0, 4)) {
    it(`hold every node the events reach once, in chains ending at rows or forks, random profile ${seed}`, () => {
      const p = randomProfile(seed, 20, 4000, 600);
      const t = callNodes(p);
      // Every third event: a type's subset of the stacks, its events few for the table's rows
      // (read one by one); and all but every fifteenth (many: the rows they use flagged first).
      const few = Int32Array.from({ length: 200 }, (_, k) => 3 * k);
      const many = Int32Array.from({ length: 600 }, (_, k) => k).filter((i) => i % 15 !== 0);
      expect(few.length).toBeLessThan(p.stacks.length >> 3);
      expect(many.length).toBeGreaterThan(p.stacks.length >> 3);
      const forms = new Set<string>();
      // Walks up from the rows' nodes, and passes over the whole table.
      for (const [how, budget, events] of [['walks', Infinity, few], ['passes', 0, few], ['walks, many events', Infinity, many], ['passes, many events', 0, many]] as const) {
        const r = reduceNodes(p, events, budget);
        // The nodes reached and each one's callees reached, walked here.
        const reached = new Set<number>();
        const rowNodes = new Set<number>();
        for (const i of events) {
          const s = p.events.stack[i];
          if (s < 0) continue;
          rowNodes.add(t.ofStack[s]);
          for (let q = t.ofStack[s]; q >= 0; q = t.prefix[q]) reached.add(q);
        }
        const callees = new Map<number, number>();
        for (const g of reached) if (t.prefix[g] >= 0) callees.set(t.prefix[g], (callees.get(t.prefix[g]) ?? 0) + 1);
        const want = [...reached].filter((g) => rowNodes.has(g) || (callees.get(g) ?? 0) >= 2).sort((a, b) => a - b);
        expect([...r.node], how).toEqual(want);
        // Every node of the table: its entry, or none (a chain's inner node, a node not reached).
        const entryWanted = Array.from({ length: t.length }, (_, g) => want.indexOf(g));
        expect(Array.from({ length: t.length }, (_, g) => entryOf(r, g)), how).toEqual(entryWanted);
        // Chains: each entry's nodes up to its caller entry's node, together every node reached once.
        const covered: number[] = [];
        for (let e = 0; e < r.length; e++) {
          expect(entryOf(r, r.node[e])).toBe(e);
          let g = r.node[e];
          for (let k = 0; k < r.len[e]; k++, g = t.prefix[g]) covered.push(g);
          expect(g, how).toBe(r.up[e] >= 0 ? r.node[r.up[e]] : -1);
        }
        expect(covered.sort((a, b) => a - b), how).toEqual([...reached].sort((a, b) => a - b));
        // The chains' names inverted: per name, the entries whose chain holds it, ascending, once.
        const byName = nameEntries(t, r, p.strings.length);
        const walked = new Map<number, number[]>();
        for (let e = 0; e < r.length; e++) {
          const names = new Set<number>();
          let g = r.node[e];
          for (let k = 0; k < r.len[e]; k++, g = t.prefix[g]) names.add(t.name[g]);
          for (const nm of names) walked.set(nm, [...(walked.get(nm) ?? []), e]);
        }
        const inverted = new Map<number, number[]>();
        byName.names.forEach((nm, k) => inverted.set(nm, Array.from(byName.entries.subarray(byName.start[k], byName.start[k + 1]))));
        expect(inverted).toEqual(walked);
        expect(entryOf(r, -5)).toBe(-1);
        // The scratch the walks used is left clean, or handed over as the map from node to entry.
        expect(t.scratch === null ? r.direct !== null : t.scratch.every((x) => x === 0), how).toBe(true);
        forms.add(r.direct ? 'direct' : 'hashed');
        // Weights on a stack row outside them: nothing reduced, the whole table used instead.
        const outside = p.events.stack.findIndex((s, i) => s >= 0 && !rowNodes.has(t.ofStack[s]) && !events.includes(i));
        expect(outside).toBeGreaterThanOrEqual(0);
        const weights = new Float64Array(p.stacks.length + 2);
        weights[p.events.stack[outside]] = 1;
        expect(reducedWeights(t, withReduced(weights, r))).toBeNull();
        expect(totalWeight(p, weights)).toBe(1);
      }
      // The map from node to entry both ways: by hash, and per node of the table.
      expect([...forms].sort()).toEqual(['direct', 'hashed']);
    });
  }
});

it('kthLargest agrees with a sort', () => {
  const r = rng(7);
  for (let n = 1; n < 300; n += 7) {
    const xs = Float64Array.from({ length: n }, () => Math.floor(r() * 20));
    const sorted = [...xs].sort((a, b) => b - a);
    for (const k of [1, Math.min(2, n), Math.max(1, n >> 1), n]) expect(kthLargest(Float64Array.from(xs), k)).toBe(sorted[Math.max(k, 1) - 1]);
  }
});

function byTree(t: CallNode): Plain {
  return { value: t.value, self: t.self, children: new Map(t.children.map((c) => [c.name, byTree(c)])) };
}
