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
import { PrefixTree } from '../columns/ids';
import type { Profile } from '../columns/profile';

export interface CallNodeTable {
  /** The caller's node, -1 at a root; always lower than the node. */
  prefix: Int32Array;
  /** String index of the method name (the frames' name). */
  name: Int32Array;
  /** The frame kind of the first frame merged into the node. */
  kind: Uint8Array;
  /** 1 where the node's method appears nowhere among its callers (recursion counted once). */
  outermost: Uint8Array;
  /** Distance from the root (0 at a root). */
  depth: Int32Array;
  maxDepth: number;
  /** Per stack row, its node. */
  ofStack: Int32Array;
  length: number;
  /** Scratch for nodeWeights: per node, its entry in the pass under way, else -1. */
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
 * Merge stack rows by (caller's node, frame name) in a PrefixTree: a node's children are found
 * through its own list of them (a hash only past a few), and a row's prefix is most often the row
 * just before it, so each step stays in nearby memory (a hash of every node made each step a
 * cache miss: seconds on millions of rows).
 */
export function buildCallNodes(profile: Profile): CallNodeTable {
  const { frame, prefix: sPrefix, length: rows } = profile.stacks;
  const fname = profile.frames.name;
  const fkind = profile.frames.kind;
  const ofStack = new Int32Array(rows);
  const tree = new PrefixTree(rows);
  const kind = new Uint8Array(rows);
  const depth = new Int32Array(rows);
  let maxDepth = 0;
  for (let s = 0; s < rows; s++) {
    const p = sPrefix[s];
    // A prefix that is not an earlier row (never written by the parser) is taken as a root.
    const parent = p >= 0 && p < s ? ofStack[p] : -1;
    const f = frame[s];
    const nm = f >= 0 && f < fname.length ? fname[f] : 0;
    const n = tree.size;
    const node = tree.id(parent, nm);
    if (node === n) {
      kind[node] = f >= 0 && f < fkind.length ? fkind[f] : 0;
      const d = parent >= 0 ? depth[parent] + 1 : 0;
      depth[node] = d;
      if (d > maxDepth) maxDepth = d;
    }
    ofStack[s] = node;
  }
  const n = tree.size;
  const prefix = tree.prefixColumn();
  const name = tree.frameColumn();
  return {
    prefix,
    name,
    kind: kind.slice(0, n),
    outermost: outermostOf(tree, prefix, name, profile.strings.length),
    depth: depth.slice(0, n),
    maxDepth,
    ofStack,
    length: n,
    scratch: null,
    identity: null,
    backwards: null,
  };
}

/**
 * Per node, whether its name is absent from its callers: a depth-first walk along the tree's
 * lists of children, counting the names on the path (no stack: leaving a node goes to its next
 * sibling, or up to its caller's).
 */
function outermostOf(tree: PrefixTree, prefix: Int32Array, name: Int32Array, names: number): Uint8Array {
  const { first, next, root } = tree.children();
  const out = new Uint8Array(tree.size);
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
  const pos = t.scratch ?? (t.scratch = new Int32Array(t.length).fill(-1));
  const slots = weightedRows(weights, rows);
  let list = new Int32Array(Math.max(1, Math.min(budget, 1024)));
  let n = 0;
  for (let k = 0; k < slots.length; k++) {
    const s = slots[k];
    if (s < 0 || s >= rows || !(weights[s] > 0)) continue;
    for (let q = ofStack[s]; q >= 0 && pos[q] < 0; q = prefix[q]) {
      if (n === list.length) {
        if (n >= budget) {
          for (let c = 0; c < n; c++) pos[list[c]] = -1;
          return weighAll(t, weights, slots);
        }
        const more = new Int32Array(Math.min(budget, n * 2));
        more.set(list);
        list = more;
      }
      pos[q] = n;
      list[n++] = q;
    }
  }
  const node = list.slice(0, n);
  const up = new Int32Array(n);
  const self = new Float64Array(n);
  for (let c = 0; c < n; c++) {
    const p = prefix[node[c]];
    up[c] = p >= 0 ? pos[p] : -1;
  }
  for (let k = 0; k < slots.length; k++) {
    const s = slots[k];
    if (s < 0 || s >= rows) continue;
    const x = weights[s];
    if (x > 0) self[pos[ofStack[s]]] += x;
  }
  for (let c = 0; c < n; c++) pos[node[c]] = -1;
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
