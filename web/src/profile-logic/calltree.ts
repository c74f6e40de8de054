/**
 * Call trees from per-stack weights, merged by frame name as flame graphs show them:
 *
 *   stack prefix tree (one row per distinct path, frames with lines) ─ merge by name ─ CallNode
 *
 * The normal tree grows from the roots (callers on top of callees); the inverted tree from the
 * leaves (each function, then who called it).
 */
import { STACK_LOST, type FrameKind, type Profile } from '../columns/profile';
import { callNodes, nodeWeights, reducedWeights, type CallNodeTable, type EntryWeights, type ReducedWeights } from './callnodes';

export interface CallNode {
  name: string;
  /** Total weight of this path. */
  value: number;
  /** Weight where this frame was the leaf. */
  self: number;
  kind: FrameKind;
  children: CallNode[];
  /** In a comparison: the same path's share of the baseline, and this share minus it (0..1). */
  baseShare?: number;
  delta?: number;
}

function newNode(name: string, kind: FrameKind): CallNode {
  return { name, value: 0, self: 0, kind, children: [] };
}

interface Builder {
  node: CallNode;
  byName: Map<number, Builder>;
}

function child(b: Builder, nameIdx: number, name: string, kind: FrameKind): Builder {
  let c = b.byName.get(nameIdx);
  if (!c) {
    c = { node: newNode(name, kind), byName: new Map() };
    b.byName.set(nameIdx, c);
    b.node.children.push(c.node);
  }
  return c;
}

/**
 * Weights per stack run over `stacks.length + 2` slots: one per stack row, then "no stack"
 * (stack -1), then "stack lost" (STACK_LOST: the chunk was cut before its constant pools).
 */
export function weightSlots(profile: Profile): Float64Array {
  return new Float64Array(profile.stacks.length + 2);
}

/** The slot of an event's stack `s` in weights of `stacks` stack rows (see weightSlots). */
export function stackSlot(s: number, stacks: number): number {
  return s >= 0 ? s : s === STACK_LOST ? stacks + 1 : stacks;
}

/**
 * What a tree is made from: weights per stack row (see weightSlots), or a selection's weights
 * per entry of its type's reduced nodes (callnodes.ts EntryWeights: no array over the rows).
 */
export type TreeWeights = Float64Array | EntryWeights;

/** The weights of "no stack" and "stack lost" (see weightSlots), each 0 when absent. */
export function lostOf(weights: TreeWeights, rows: number): [number, number] {
  if (!(weights instanceof Float64Array)) return [weights.noStack, weights.stackLost];
  return [weights[rows] ?? 0, weights[rows + 1] ?? 0];
}

/** The reduced weights `weights` are (or were recorded with: callnodes.ts withReduced), else null. */
function reducedOf(t: CallNodeTable, weights: TreeWeights): ReducedWeights | null {
  return weights instanceof Float64Array ? reducedWeights(t, weights) : weights.reduced;
}

/** Events without a stack, and those whose stack was lost, as two children of the root. */
function addNoStack(root: Builder, lost: readonly [number, number]): void {
  const slots: [number, string][] = [
    [0, '(no stack)'],
    [1, '(stack lost: chunk cut)'],
  ];
  for (const [slot, name] of slots) {
    const w = lost[slot];
    if (!(w > 0)) continue;
    // Keyed apart from every string index: no frame merges into them.
    const b = child(root, -1 - slot, name, 6 as FrameKind);
    b.node.value += w;
    b.node.self += w;
    root.node.value += w;
  }
}

/**
 * How large a tree may grow before slivers are hidden: past `maxNodes` nodes, those under
 * `share` of the root's weight are left out (their weight stays in their parent's total), as
 * `prune` would, without making them first; and if more than `maxNodes` still remain (deep,
 * varied stacks), the lightest go too, so that at most `maxNodes` are left (a node is never
 * lighter than its callees, so the heaviest nodes form a tree; nodes of equal weight at the cut
 * go or stay together).
 */
export interface Light {
  maxNodes: number;
  share: number;
}

/** The flame graph's: hide slivers under 1/5000 of the total when the tree passes 20,000 nodes. */
export const LIGHT: Light = { maxNodes: 20_000, share: 1 / 5000 };

/** The weights of "no stack" and "stack lost" together. */
function lostWeight(lost: readonly [number, number]): number {
  return (lost[0] > 0 ? lost[0] : 0) + (lost[1] > 0 ? lost[1] : 0);
}

/**
 * The call tree of `weights` (per stack row, then "no stack" and "stack lost": see weightSlots),
 * from the profile's call-node table (callnodes.ts): typed-array passes over the stack rows and
 * the nodes, then one object per node shown. Weights recorded with their type's reduced nodes
 * (callnodes.ts withReduced) are summed over those, and a chain's nodes made from its entry.
 */
export function callTree(profile: Profile, weights: TreeWeights, rootName = 'all', light: Light | null = null): CallNode {
  const t = callNodes(profile);
  const root: Builder = { node: newNode(rootName, 6 as FrameKind), byName: new Map() };
  const reduced = reducedOf(t, weights);
  const whole = reduced ? null : nodeWeights(t, weights as Float64Array);
  const total = reduced ? reduced.total : whole!.total;
  const len = reduced ? reduced.r.len : null;
  const lostWeights = lostOf(weights, profile.stacks.length);
  root.node.value = (reduced ? reduced.sum : whole!.sum) + lostWeight(lostWeights);
  const lost = (lostWeights[0] > 0 ? 1 : 0) + (lostWeights[1] > 0 ? 1 : 0);
  const { min, above } = light ? lightCut(total, len, root.node.value, lost, light) : { min: Number.MIN_VALUE, above: false };
  const { name, kind, prefix } = t;
  // A node's total is at least each callee's: a dropped node drops its subtree.
  const kept = (v: number) => v >= min && !(above && v === min);
  // Per entry, its (deepest) object's index in `made` (-1: left out); a typed array, as a JS
  // array this long would fall back to a dictionary.
  const at = new Int32Array(total.length).fill(-1);
  const made: CallNode[] = [];
  const make = (g: number, v: number, self: number, parent: CallNode): CallNode => {
    const n: CallNode = { name: profile.strings[name[g]], value: v, self, kind: kind[g] as FrameKind, children: [] };
    parent.children.push(n);
    return n;
  };
  if (reduced) {
    const { node, up } = reduced.r;
    const chain = new Int32Array(t.maxDepth + 2);
    // Entries ascend by node: callers first.
    for (let e = 0; e < node.length; e++) {
      const v = total[e];
      if (!kept(v)) continue;
      const u = up[e];
      let parent = u < 0 ? root.node : at[u] >= 0 ? made[at[u]] : null;
      if (!parent) continue;
      // The chain's nodes, its caller's side first; only the deepest holds self weight.
      let g = node[e];
      for (let i = 0; i < len![e]; i++, g = prefix[g]) chain[i] = g;
      for (let i = len![e] - 1; i >= 0; i--) parent = make(chain[i], v, i === 0 ? reduced.self[e] : 0, parent);
      at[e] = made.length;
      made.push(parent);
    }
  } else {
    const { node, up, self, order } = whole!;
    // Callers before callees: the order deepest first, backwards.
    for (let k = order.length - 1; k >= 0; k--) {
      const c = order[k];
      const v = total[c];
      if (!kept(v)) continue;
      const u = up[c];
      const parent = u < 0 ? root.node : at[u] >= 0 ? made[at[u]] : null;
      if (!parent) continue;
      at[c] = made.length;
      made.push(make(node[c], v, self[c], parent));
    }
  }
  const value = root.node.value;
  addNoStack(root, lostWeights);
  root.node.value = value;
  if (min > Number.MIN_VALUE) root.node.children = root.node.children.filter((c) => kept(c.value));
  return root.node;
}

/**
 * Which totals a light tree keeps (see Light): those at least `min`, and above it when `above`.
 * `total` per entry, each standing for `len[e]` nodes (1 each without `len`); `lost` the "no
 * stack" and "stack lost" nodes shown.
 */
function lightCut(total: Float64Array, len: Int32Array | null, rootValue: number, lost: number, light: Light): { min: number; above: boolean } {
  let min = Number.MIN_VALUE;
  let above = false;
  let count = 1 + lost;
  for (let c = 0; c < total.length; c++) if (total[c] > 0) count += len ? len[c] : 1;
  if (count <= light.maxNodes) return { min, above };
  min = Math.max(min, rootValue * light.share);
  let kept = 0;
  let heavy = 0;
  for (let c = 0; c < total.length; c++) {
    if (total[c] >= min) {
      kept += len ? len[c] : 1;
      heavy++;
    }
  }
  if (kept <= light.maxNodes) return { min, above };
  const values = new Float64Array(heavy);
  const counts = new Int32Array(heavy);
  heavy = 0;
  for (let c = 0; c < total.length; c++) {
    if (total[c] >= min) {
      values[heavy] = total[c];
      counts[heavy++] = len ? len[c] : 1;
    }
  }
  const cut = len ? kthLargestCounted(values, counts, light.maxNodes) : kthLargest(values, light.maxNodes);
  if (cut > min) min = cut;
  // Ties at the cut (a short recording's many frames of one sample each) would keep them all,
  // past maxNodes: the lightest weight goes as a whole, unless nothing is heavier (then going
  // would leave the root alone, so the ties stay).
  let atLeast = 0;
  let heavier = false;
  for (let c = 0; c < total.length; c++) {
    if (total[c] >= min) atLeast += len ? len[c] : 1;
    if (total[c] > min) heavier = true;
  }
  if (atLeast > light.maxNodes && heavier) above = true;
  return { min, above };
}

/**
 * The inverted (callers) tree: roots are the leaf functions, children their callers. Built from
 * the call nodes with self weight, each walked up to its root (merged paths, not stack rows).
 */
export function invertedTree(profile: Profile, weights: TreeWeights, rootName = 'all', light: Light | null = null): CallNode {
  const t = callNodes(profile);
  const { name, kind, prefix } = t;
  const root: Builder = { node: newNode(rootName, 6 as FrameKind), byName: new Map() };
  // The call nodes holding self weight: the reduced entries' (only their deepest node holds
  // any), else the node weights'; each walked up to its root through the call nodes.
  const reduced = reducedOf(t, weights);
  const w = reduced ? null : nodeWeights(t, weights as Float64Array);
  const self = reduced ? reduced.self : w!.self;
  const nodeOf = reduced ? reduced.r.node : w!.node;
  for (let c = 0; c < self.length; c++) {
    const x = self[c];
    if (!(x > 0)) continue;
    root.node.value += x;
    let b = root;
    for (let g = nodeOf[c]; g >= 0; g = prefix[g]) {
      b = child(b, name[g], profile.strings[name[g]], kind[g] as FrameKind);
      b.node.value += x;
      if (g === nodeOf[c]) b.node.self += x;
    }
  }
  addNoStack(root, lostOf(weights, profile.stacks.length));
  return light && countNodes(root.node) > light.maxNodes ? prune(root.node, root.node.value * light.share) : root.node;
}

/**
 * The k-th largest of `xs` where each `xs[i]` occurs `counts[i]` times (1-based; reorders both):
 * quickselect with a three-way partition.
 */
export function kthLargestCounted(xs: Float64Array, counts: Int32Array, k: number): number {
  let lo = 0;
  let hi = xs.length - 1;
  let want = Math.max(k, 1);
  const swap = (i: number, j: number) => {
    const x = xs[i];
    xs[i] = xs[j];
    xs[j] = x;
    const c = counts[i];
    counts[i] = counts[j];
    counts[j] = c;
  };
  while (lo < hi) {
    const pivot = xs[(lo + hi) >> 1];
    // [lo, a) above the pivot, [a, b] equal, (b, hi] below.
    let a = lo;
    let i = lo;
    let b = hi;
    while (i <= b) {
      if (xs[i] > pivot) swap(a++, i++);
      else if (xs[i] < pivot) swap(i, b--);
      else i++;
    }
    let over = 0;
    for (let j = lo; j < a; j++) over += counts[j];
    let equal = 0;
    for (let j = a; j <= b; j++) equal += counts[j];
    if (want <= over) hi = a - 1;
    else if (want <= over + equal) return pivot;
    else {
      want -= over + equal;
      if (b + 1 > hi) return xs[hi];
      lo = b + 1;
    }
  }
  return xs[Math.max(0, Math.min(lo, xs.length - 1))];
}

/** The k-th largest of `xs` (1-based; reorders it): quickselect. */
export function kthLargest(xs: Float64Array, k: number): number {
  let lo = 0;
  let hi = xs.length - 1;
  const want = Math.min(Math.max(k, 1), xs.length) - 1;
  while (lo < hi) {
    const pivot = xs[(lo + hi) >> 1];
    let i = lo;
    let j = hi;
    while (i <= j) {
      while (xs[i] > pivot) i++;
      while (xs[j] < pivot) j--;
      if (i <= j) {
        const x = xs[i];
        xs[i++] = xs[j];
        xs[j--] = x;
      }
    }
    if (want <= j) hi = j;
    else if (want >= i) lo = i;
    else break;
  }
  return xs[want];
}

/** The whole weight of `weights` (the stacks', "no stack" and "stack lost"), summed over the rows that hold it. */
export function totalWeight(profile: Profile, weights: TreeWeights): number {
  const t = callNodes(profile);
  const reduced = reducedOf(t, weights);
  return (reduced ? reduced.sum : nodeWeights(t, weights as Float64Array).sum) + lostWeight(lostOf(weights, profile.stacks.length));
}

/** Drop subtrees lighter than `minValue` (their weight stays in the parent's total). */
export function prune(node: CallNode, minValue: number): CallNode {
  return {
    ...node,
    children: node.children.filter((c) => c.value >= minValue).map((c) => prune(c, minValue)),
  };
}

/** Number of nodes in a tree. */
export function countNodes(node: CallNode): number {
  let n = 1;
  for (const c of node.children) n += countNodes(c);
  return n;
}
