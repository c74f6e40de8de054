/**
 * The call-node table: the stack table merged by frame name, once per profile, so a filter
 * keystroke never walks a stack again.
 *
 *   stack rows (one per distinct path of frames with lines; prefix < row)
 *     a:12 ─ b:40 ─ c:7          row 0 ─ row 1 ─ row 2
 *          └ b:41 ─ c:7                └ row 3 ─ row 4
 *   call nodes (one per distinct path of names; prefix < node)
 *     a ─ b ─ c                  node 0 ─ node 1 ─ node 2      ofStack = [0, 1, 2, 1, 2]
 *
 * A keystroke then costs a pass over the stack rows that hold weight (listed by weightsInRange,
 * see withSlots), a walk up from each to the first node already reached (so each node on their
 * paths is visited once), and a pass over those nodes deepest first (totals: each adds its total
 * to its caller's), all typed arrays; objects are made only for the nodes a flame graph shows.
 * Nothing per keystroke reads every row of the stack table, which a recording of deep, varied
 * stacks fills with tens of millions.
 */
import { CallNodeBuilder, type CallNodeColumns } from '../columns/ids';
import type { Profile } from '../columns/profile';

export interface CallNodeTable extends CallNodeColumns {
  /** 1 where the node's method appears nowhere among its callers (recursion counted once);
   * found on first use (top methods, a lock's holder), not for every flame graph. */
  readonly outermost: Uint8Array;
  /** Scratch for nodeWeights and reduceNodes: per node, 0 when not in the pass under way (fresh memory is zeros: nothing to fill). */
  scratch: Int32Array | null;
  /** Made on first use by weights in table form: 0, 1, 2… and the same backwards. */
  identity: Int32Array | null;
  backwards: Int32Array | null;
}

const cache = new WeakMap<Profile['stacks'], CallNodeTable>();

/** The call-node table of `profile`, built once per stack table. */
export function callNodes(profile: Profile): CallNodeTable {
  let t = cache.get(profile.stacks);
  if (!t) {
    t = buildCallNodes(profile);
    cache.set(profile.stacks, t);
  }
  return t;
}

/**
 * Merge stack rows by (caller's node, frame name), in row order, so nodes are numbered as first
 * reached (CallNodeBuilder): made by the merge as it numbered the rows when it did
 * (`stacks.calls`), else here in one pass.
 */
export function buildCallNodes(profile: Profile): CallNodeTable {
  const c = callNodeColumns(profile);
  const { prefix, name } = c;
  const names = profile.strings.length;
  let outermost: Uint8Array | null = null;
  return {
    ...c,
    get outermost() {
      return (outermost ??= outermostOf(prefix, name, names));
    },
    scratch: null,
    identity: null,
    backwards: null,
  };
}

function callNodeColumns(profile: Profile): CallNodeColumns {
  const { frame, prefix, length: rows, calls } = profile.stacks;
  if (calls && calls.ofStack.length === rows) return calls;
  const fname = profile.frames.name;
  const fkind = profile.frames.kind;
  const frames = Math.min(fname.length, fkind.length);
  const b = new CallNodeBuilder(rows);
  for (let s = 0; s < rows; s++) {
    const f = frame[s];
    if (f >= 0 && f < frames) b.add(prefix[s], fname[f], fkind[f]);
    else b.add(prefix[s], 0, 0);
  }
  const c = b.columns();
  if (c.length >= rows >> 1) return c;
  // Few nodes for many rows: copied to their length, the long columns let go.
  return { ...c, prefix: c.prefix.slice(), name: c.name.slice(), kind: c.kind.slice(), depth: c.depth.slice() };
}

/**
 * Per node, whether its name is absent from its callers: each node's list of callees (first
 * callee, next sibling), then a depth-first walk along them counting the names on the path (no
 * stack: leaving a node goes to its next sibling, or up to its caller's).
 */
function outermostOf(prefix: Int32Array, name: Int32Array, names: number): Uint8Array {
  const n = prefix.length;
  const first = new Int32Array(n).fill(-1);
  const next = new Int32Array(n);
  let root = -1;
  for (let k = n - 1; k >= 0; k--) {
    const p = prefix[k];
    if (p >= 0) {
      next[k] = first[p];
      first[p] = k;
    } else {
      next[k] = root;
      root = k;
    }
  }
  const out = new Uint8Array(n);
  const onPath = new Int32Array(Math.max(names, 1));
  let x = root;
  while (x >= 0) {
    out[x] = onPath[name[x]] === 0 ? 1 : 0;
    onPath[name[x]]++;
    if (first[x] >= 0) {
      x = first[x];
      continue;
    }
    for (;;) {
      onPath[name[x]]--;
      if (next[x] >= 0) {
        x = next[x];
        break;
      }
      x = prefix[x];
      if (x < 0) break;
    }
  }
  return out;
}

const slotLists = new WeakMap<Float64Array, Int32Array>();

/**
 * Record which slots of `weights` (per stack row, calltree.ts weightSlots) hold weight, each
 * once, so the passes below read only those; without it they scan every row. The weights must
 * not gain weight in other slots afterwards.
 */
export function withSlots(weights: Float64Array, slots: Int32Array): Float64Array {
  slotLists.set(weights, slots);
  return weights;
}

/** The stack rows of `weights` with weight, as recorded or found by a scan. */
export function weightedRows(weights: Float64Array, rows: number): Int32Array {
  const known = slotLists.get(weights);
  if (known) return known;
  const out: number[] = [];
  const n = Math.min(rows, weights.length);
  for (let s = 0; s < n; s++) if (weights[s] > 0) out.push(s);
  return Int32Array.from(out);
}

/**
 * The weights of the nodes on the paths of weighted stacks, one entry per node: `node` its call
 * node, `up` its caller's entry (-1 at a root), `self` and `total` its weights; `order` lists the
 * entries callees before callers (backwards: callers before callees). `sum` is the roots' total (the stacks' weight;
 * "no stack" and "stack lost" not included). When the weighted paths reach much of the table,
 * the entries are the table's nodes, all of them (those no weight reaches with total 0): the
 * arrays are then the table's, shared, never to be written.
 */
export interface NodeWeights {
  node: Int32Array;
  up: Int32Array;
  self: Float64Array;
  total: Float64Array;
  order: Int32Array;
  sum: number;
}

const weighed = new WeakMap<Float64Array, NodeWeights>();

/** Node weights from weights per stack row (calltree.ts weightSlots), once per weights array. */
export function nodeWeights(t: CallNodeTable, weights: Float64Array): NodeWeights {
  let w = weighed.get(weights);
  if (!w) {
    w = weigh(t, weights);
    weighed.set(weights, w);
  }
  return w;
}

/**
 * Node weights, computed afresh: walks up from the weighted stacks while they reach at most
 * `budget` nodes; past that, typed passes over the whole table in index order, which cost less
 * than that many scattered reads.
 */
export function weigh(t: CallNodeTable, weights: Float64Array, budget = Math.max(1024, t.length >> 3)): NodeWeights {
  const { ofStack, prefix, depth } = t;
  const rows = ofStack.length;
  // pos[node]: its entry + 1, 0 for none yet.
  const pos = t.scratch ?? (t.scratch = new Int32Array(t.length));
  const slots = weightedRows(weights, rows);
  let list = new Int32Array(Math.max(1, Math.min(budget, 1024)));
  let n = 0;
  for (let k = 0; k < slots.length; k++) {
    const s = slots[k];
    if (s < 0 || s >= rows || !(weights[s] > 0)) continue;
    for (let q = ofStack[s]; q >= 0 && pos[q] === 0; q = prefix[q]) {
      if (n === list.length) {
        if (n >= budget) {
          for (let c = 0; c < n; c++) pos[list[c]] = 0;
          return weighAll(t, weights, slots);
        }
        const more = new Int32Array(Math.min(budget, n * 2));
        more.set(list);
        list = more;
      }
      list[n++] = q;
      pos[q] = n;
    }
  }
  const node = list.slice(0, n);
  const up = new Int32Array(n);
  const self = new Float64Array(n);
  for (let c = 0; c < n; c++) {
    const p = prefix[node[c]];
    up[c] = p >= 0 ? pos[p] - 1 : -1;
  }
  for (let k = 0; k < slots.length; k++) {
    const s = slots[k];
    if (s < 0 || s >= rows) continue;
    const x = weights[s];
    if (x > 0) self[pos[ofStack[s]] - 1] += x;
  }
  for (let c = 0; c < n; c++) pos[node[c]] = 0;
  // Deepest first: a counting sort by depth.
  const start = new Int32Array(t.maxDepth + 2);
  for (let c = 0; c < n; c++) start[t.maxDepth - depth[node[c]] + 1]++;
  for (let d = 0; d <= t.maxDepth; d++) start[d + 1] += start[d];
  const order = new Int32Array(n);
  for (let c = 0; c < n; c++) order[start[t.maxDepth - depth[node[c]]]++] = c;
  const total = self.slice();
  let sum = 0;
  for (let k = 0; k < n; k++) {
    const c = order[k];
    const u = up[c];
    if (u >= 0) total[u] += total[c];
    else sum += total[c];
  }
  return { node, up, self, total, order, sum };
}

/**
 * The same over the whole table, in table form (entry c is node c, zero where no weight reaches
 * it): self per node, totals backwards in index order. Only the weights are made per call; the
 * entries' nodes, callers and order are the table's own (identity, prefix, backwards), shared.
 */
function weighAll(t: CallNodeTable, weights: Float64Array, slots: Int32Array): NodeWeights {
  const { ofStack, prefix } = t;
  const rows = ofStack.length;
  const self = new Float64Array(t.length);
  for (let k = 0; k < slots.length; k++) {
    const s = slots[k];
    if (s < 0 || s >= rows) continue;
    const x = weights[s];
    if (x > 0) self[ofStack[s]] += x;
  }
  const total = self.slice();
  let sum = 0;
  for (let g = t.length - 1; g >= 0; g--) {
    const p = prefix[g];
    if (p >= 0) total[p] += total[g];
    else sum += total[g];
  }
  if (!t.identity) {
    t.identity = new Int32Array(t.length);
    for (let g = 0; g < t.length; g++) t.identity[g] = g;
  }
  if (!t.backwards) {
    t.backwards = new Int32Array(t.length);
    // Callers have lower indexes than callees: backwards is deepest-first enough.
    for (let g = 0; g < t.length; g++) t.backwards[g] = t.length - 1 - g;
  }
  return { node: t.identity, up: prefix, self, total, order: t.backwards, sum };
}

/**
 * The call nodes a set of stack rows reaches (an event type's), with every chain of nodes that
 * have one callee reached and no row of their own merged into the chain's deepest node:
 *
 *   call nodes reached                  entries (each the deepest node of its chain)
 *     a ─ b ─ c ─ d (a row's)             c: chain a b c (c has two callees reached)
 *             └ e ─ f (a row's)           d: chain d;  f: chain e f
 *
 * A chain's nodes all weigh what its deepest node weighs (nothing ends in them), so weights per
 * entry give every reached node's: a keystroke sums a type's weights over at most twice as many
 * entries as the type has distinct stacks, however deep and unshared the stacks (a recording of
 * deep, varied allocation stacks reaches millions of nodes from a few hundred thousand stacks).
 */
export interface ReducedNodes {
  /**
   * Made on first use by the stack filters (callnodes.ts nameEntries): the distinct method names
   * of the entries' chains, and per name the entries whose chain holds it, so a filter tests each
   * name once and marks the entries of the names it matches, without walking the chains again.
   */
  byName?: NameEntries;
  /** Per entry, its (deepest) call node; ascending, so callers come first. */
  node: Int32Array;
  /** Per entry, the entry of its chain's caller, -1 at a root. */
  up: Int32Array;
  /** Per entry, how many call nodes its chain holds (1 at least). */
  len: Int32Array;
  /** Open-addressing map from call node to entry + 1 (0 empty), for the entries' nodes (empty with `direct`). */
  slots: Int32Array;
  /**
   * When the entries are many for the table (a type of deep, varied stacks): per call node, its
   * entry + 1, or 0 or less for none; else null (and `slots` holds them).
   */
  direct: Int32Array | null;
  length: number;
}

const ROW = 1 << 30;

/** `a` copied into an array twice as long. */
function grown(a: Int32Array): Int32Array {
  const more = new Int32Array(a.length * 2);
  more.set(a);
  return more;
}

/**
 * The reduced nodes of the stack rows of `events` (indexes into the profile's events). The nodes
 * reached lie on the paths of the rows' nodes, at most (deepest path) nodes each: while that
 * bound stays within `budget`, walks up from each row's node visit them; past it, passes over the
 * whole table in index order (callers before callees), which cost less than that many scattered
 * reads (a type of deep, varied stacks reaches most of the table).
 */
export function reduceNodes(profile: Profile, events: Int32Array, budget = callNodes(profile).length >> 2): ReducedNodes {
  const t = callNodes(profile);
  const { ofStack } = t;
  const rows = ofStack.length;
  const stack = profile.events.stack;
  const mark = t.scratch ?? (t.scratch = new Int32Array(t.length));
  // Per reached node: ROW when a row's node, plus its reached callees counted. First the rows'
  // nodes, each listed once while the walks may still do (past `most` of them, the passes will:
  // they are counted only).
  const most = Math.floor(budget / (t.maxDepth + 1));
  let rowNodes: Int32Array = new Int32Array(Math.max(1, Math.min(1024, most)));
  let m = 0;
  const add = (q: number) => {
    mark[q] = ROW;
    if (m < most) {
      if (m === rowNodes.length) rowNodes = grown(rowNodes);
      rowNodes[m] = q;
    }
    m++;
  };
  let last = -1;
  if (events.length < rows >> 3) {
    for (let k = 0; k < events.length; k++) {
      const s = stack[events[k]];
      // Events in a row often share a stack.
      if (s === last || s < 0 || s >= rows) continue;
      last = s;
      if (mark[ofStack[s]] === 0) add(ofStack[s]);
    }
  } else {
    // Many events: the rows they use flagged first (a thread's events come in time order, their
    // rows scattered: a byte per row stays in cache where a node's mark would not), then read in
    // row order, which is nearly node order (nodes are numbered as rows first reach them).
    const used = new Uint8Array(rows);
    for (let k = 0; k < events.length; k++) {
      const s = stack[events[k]];
      if (s === last || s < 0 || s >= rows) continue;
      last = s;
      used[s] = 1;
    }
    for (let s = 0; s < rows; s++) if (used[s] === 1 && mark[ofStack[s]] === 0) add(ofStack[s]);
  }
  return m <= most ? reduceByWalks(t, rowNodes.subarray(0, m)) : reduceByPasses(t);
}

/** Whether a reached node's mark makes it an entry: a row's node, or callees on two paths. */
function isEntry(v: number): boolean {
  return (v & ROW) !== 0 || (v & (ROW - 1)) >= 2;
}

/** reduceNodes by walks up from the rows' nodes (marked ROW in the table's scratch). */
function reduceByWalks(t: CallNodeTable, rowNodes: Int32Array): ReducedNodes {
  const { prefix, depth } = t;
  const mark = t.scratch!;
  // Up from each row's node to the first node reached already (a row's node met later walks on
  // from itself), counting it a callee.
  for (let k = 0; k < rowNodes.length; k++) {
    for (let q = rowNodes[k]; ; ) {
      const p = prefix[q];
      if (p < 0) break;
      if (mark[p] !== 0) {
        mark[p]++;
        break;
      }
      mark[p] = 1;
      q = p;
    }
  }
  // Entries: rows' nodes and nodes with callees on two paths; marks reset on the way.
  let list: Int32Array = new Int32Array(1024);
  let n = 0;
  for (let k = 0; k < rowNodes.length; k++) {
    for (let q = rowNodes[k]; q >= 0 && mark[q] !== 0; q = prefix[q]) {
      const v = mark[q];
      mark[q] = 0;
      if (isEntry(v)) {
        if (n === list.length) list = grown(list);
        list[n++] = q;
      }
    }
  }
  const node = list.slice(0, n).sort();
  for (let e = 0; e < n; e++) mark[node[e]] = e + 1;
  const up = new Int32Array(n);
  const len = new Int32Array(n);
  for (let e = 0; e < n; e++) {
    let q = prefix[node[e]];
    while (q >= 0 && mark[q] === 0) q = prefix[q];
    up[e] = q >= 0 ? mark[q] - 1 : -1;
    len[e] = depth[node[e]] - (q >= 0 ? depth[q] : -1);
  }
  for (let e = 0; e < n; e++) mark[node[e]] = 0;
  return { node, up, len, slots: slotsOf(node), direct: null, length: n };
}

/**
 * reduceNodes by two passes over the whole table (the rows' nodes marked ROW in its scratch):
 * callees first, each reached node counts itself a callee of its caller, whose count is then
 * whole when the pass comes to it; callers first, each reached node learns the nearest entry at
 * or above it from its caller (kept in its mark: entry + 1 at an entry, else -2 - the nearest,
 * -1 for none). Many entries for the table: the marks are the map from node to entry as they
 * stand (the table gets a fresh scratch when next asked); few: a hash of them.
 */
function reduceByPasses(t: CallNodeTable): ReducedNodes {
  const { prefix, depth } = t;
  const mark = t.scratch!;
  let n = 0;
  for (let g = t.length - 1; g >= 0; g--) {
    const v = mark[g];
    if (v === 0) continue;
    const p = prefix[g];
    if (p >= 0) mark[p]++;
    if (isEntry(v)) n++;
  }
  const node = new Int32Array(n);
  const up = new Int32Array(n);
  const len = new Int32Array(n);
  let e = 0;
  for (let g = 0; g < t.length; g++) {
    const v = mark[g];
    if (v === 0) continue;
    const p = prefix[g];
    // The caller's nearest entry (the caller itself when an entry), or none (-1); a caller is
    // reached whenever its callee is, and comes first.
    const c = p >= 0 ? mark[p] : -1;
    const near = c > 0 ? c - 1 : -2 - c;
    if (isEntry(v)) {
      node[e] = g;
      up[e] = near;
      len[e] = depth[g] - (near >= 0 ? depth[node[near]] : -1);
      mark[g] = ++e;
    } else mark[g] = -2 - near;
  }
  if (n >= t.length >> 3) {
    t.scratch = null;
    return { node, up, len, slots: new Int32Array(0), direct: mark, length: n };
  }
  mark.fill(0);
  return { node, up, len, slots: slotsOf(node), direct: null, length: n };
}

/** The open-addressing map from call node to entry + 1 of ReducedNodes (see entryOf). */
function slotsOf(node: Int32Array): Int32Array {
  const n = node.length;
  let size = 16;
  while (size < n * 2) size *= 2;
  const slots = new Int32Array(size);
  const mask = size - 1;
  for (let e = 0; e < n; e++) {
    let h = Math.imul(node[e], 0x9e3779b1) & mask;
    while (slots[h] !== 0) h = (h + 1) & mask;
    slots[h] = e + 1;
  }
  return slots;
}

/** The entry of call node `g`, -1 when it is none. */
export function entryOf(r: ReducedNodes, g: number): number {
  const direct = r.direct;
  if (direct) {
    const e = g >= 0 && g < direct.length ? direct[g] : 0;
    return e > 0 ? e - 1 : -1;
  }
  const mask = r.slots.length - 1;
  for (let h = Math.imul(g, 0x9e3779b1) & mask; ; h = (h + 1) & mask) {
    const at = r.slots[h];
    if (at === 0) return -1;
    if (r.node[at - 1] === g) return at - 1;
  }
}

const reducedOf = new WeakMap<Float64Array, ReducedNodes>();

/**
 * Record that the weighted stack rows of `weights` (calltree.ts weightSlots) are among those
 * `r` was made of, so call trees and totals sum them over its entries; rows outside it are found
 * when summed, and the weights are then summed as if nothing were recorded.
 */
export function withReduced(weights: Float64Array, r: ReducedNodes): Float64Array {
  reducedOf.set(weights, r);
  return weights;
}

/** Weights per entry of the reduced nodes: self and total, `sum` the roots' total. */
export interface ReducedWeights {
  r: ReducedNodes;
  self: Float64Array;
  total: Float64Array;
  sum: number;
}

const reducedWeighed = new WeakMap<Float64Array, ReducedWeights | null>();

/** Reduced weights from each entry's own weight: totals summed up the entries (callees after callers). */
function withTotals(r: ReducedNodes, self: Float64Array): ReducedWeights {
  const total = self.slice();
  const up = r.up;
  let sum = 0;
  for (let e = r.length - 1; e >= 0; e--) {
    const u = up[e];
    if (u >= 0) total[u] += total[e];
    else sum += total[e];
  }
  return { r, self, total, sum };
}

/** Weights per entry of the reduced nodes recorded with `weights` (withReduced); null without any, or for a row outside them. */
export function reducedWeights(t: CallNodeTable, weights: Float64Array): ReducedWeights | null {
  let w = reducedWeighed.get(weights);
  if (w === undefined) {
    const r = reducedOf.get(weights);
    w = r ? weighEntries(t, r, weightedRows(weights, t.ofStack.length), (s) => weights[s]) : null;
    reducedWeighed.set(weights, w);
  }
  return w;
}

/**
 * Weights per entry of `r` from the weights of stack rows `rows` (`weightOf` each), summed in
 * that order; null for a weighted row outside `r`. Rows past the stack table ("no stack",
 * "stack lost": calltree.ts weightSlots) are left out.
 */
export function weighEntries(t: CallNodeTable, r: ReducedNodes, rows: Int32Array, weightOf: (s: number) => number): ReducedWeights | null {
  const { ofStack } = t;
  const n = ofStack.length;
  const self = new Float64Array(r.length);
  for (let k = 0; k < rows.length; k++) {
    const s = rows[k];
    if (s < 0 || s >= n) continue;
    const x = weightOf(s);
    if (!(x > 0)) continue;
    const e = entryOf(r, ofStack[s]);
    if (e < 0) return null;
    self[e] += x;
  }
  return withTotals(r, self);
}

/**
 * A selection's weights per entry of its type's reduced nodes, with the weights of its events
 * without a stack and of those whose stack was lost (the last two slots of calltree.ts
 * weightSlots): all a flame graph and its total read, and no array over the stack rows.
 */
export interface EntryWeights {
  reduced: ReducedWeights;
  noStack: number;
  stackLost: number;
}

/**
 * The weights of `base` on the entries `keep` marks (1 per entry kept): a stack filter tests a
 * path of names, and an entry's stack rows all end at its node, so it keeps or drops an entry
 * whole. Equal to the bit to the reduced weights of the kept rows (each entry's rows were summed
 * in the same order, and the totals are summed in the same pass), in a pass over the entries.
 */
export function keptEntries(base: ReducedWeights, keep: Uint8Array): ReducedWeights {
  const { r } = base;
  const self = new Float64Array(r.length);
  for (let e = 0; e < r.length; e++) if (keep[e] === 1) self[e] = base.self[e];
  return withTotals(r, self);
}

/**
 * The method names of a type's reduced entries, inverted: `names` lists each distinct name once,
 * and `entries` from `start[k]` to `start[k + 1]` the entries (ascending) whose chain holds
 * `names[k]`, each once.
 *
 *   entries' chains    e0: a b    e1: c    e2: b d
 *   names              a    b       c    d
 *   entries            e0   e0 e2   e1   e2
 */
export interface NameEntries {
  names: Int32Array;
  start: Int32Array;
  entries: Int32Array;
}

/** The names of the entries' chains, inverted (ReducedNodes.byName), made once per reduced nodes. */
export function nameEntries(t: CallNodeTable, r: ReducedNodes, strings: number): NameEntries {
  if (r.byName) return r.byName;
  const { prefix, name } = t;
  // Each entry's distinct names, in a flat list (an entry's from at[e] to at[e + 1]).
  const at = new Int32Array(r.length + 1);
  let flat: Int32Array = new Int32Array(Math.max(1024, r.length * 2));
  let n = 0;
  const size = Math.max(strings, 1);
  // Per name, the last entry (plus one) that listed it; then its count of entries.
  const listed = new Int32Array(size);
  const count = new Int32Array(size + 1);
  for (let e = 0; e < r.length; e++) {
    at[e] = n;
    let g = r.node[e];
    for (let k = 0; k < r.len[e] && g >= 0; k++, g = prefix[g]) {
      const nm = name[g];
      if (nm < 0 || nm >= size || listed[nm] === e + 1) continue;
      listed[nm] = e + 1;
      if (n === flat.length) flat = grown(flat);
      flat[n++] = nm;
      count[nm + 1]++;
    }
  }
  at[r.length] = n;
  // Counting sort by name: entries ascend within each name, as they are met.
  let distinct = 0;
  for (let nm = 0; nm < size; nm++) if (count[nm + 1] > 0) distinct++;
  const names = new Int32Array(distinct);
  const start = new Int32Array(distinct + 1);
  // listed[name] becomes its position in `names`.
  for (let nm = 0, k = 0; nm < size; nm++) {
    if (count[nm + 1] === 0) continue;
    names[k] = nm;
    start[k + 1] = start[k] + count[nm + 1];
    listed[nm] = k++;
  }
  const fill = start.slice(0, distinct);
  const entries = new Int32Array(n);
  for (let e = 0; e < r.length; e++) for (let j = at[e]; j < at[e + 1]; j++) entries[fill[listed[flat[j]]]++] = e;
  r.byName = { names, start, entries };
  return r.byName;
}
