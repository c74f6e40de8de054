/**
 * Call trees from per-stack weights, merged by frame name as flame graphs show them:
 *
 *   stack prefix tree (one row per distinct path, frames with lines) ─ merge by name ─ CallNode
 *
 * The normal tree grows from the roots (callers on top of callees); the inverted tree from the
 * leaves (each function, then who called it).
 */
import { STACK_LOST, type FrameKind, type Profile } from '../columns/profile';
import { callNodes, nodeWeights } from './callnodes';

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

/** Events without a stack, and those whose stack was lost, as two children of the root. */
function addNoStack(root: Builder, weights: Float64Array, length: number): void {
  const slots: [number, string][] = [
    [length, '(no stack)'],
    [length + 1, '(stack lost: chunk cut)'],
  ];
  for (const [slot, name] of slots) {
    const w = weights[slot] ?? 0;
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
 * varied stacks), the lightest go too, so that about `maxNodes` are left (a node is never
 * lighter than its callees, so the heaviest nodes form a tree).
 */
export interface Light {
  maxNodes: number;
  share: number;
}

/** The flame graph's: hide slivers under 1/5000 of the total when the tree passes 20,000 nodes. */
export const LIGHT: Light = { maxNodes: 20_000, share: 1 / 5000 };

/** The weights of "no stack" and "stack lost" (see weightSlots), zero when absent. */
function lostWeight(weights: Float64Array, rows: number): number {
  let w = 0;
  for (const slot of [rows, rows + 1]) if ((weights[slot] ?? 0) > 0) w += weights[slot];
  return w;
}

/**
 * The call tree of `weights` (per stack row, then "no stack" and "stack lost": see weightSlots),
 * from the profile's call-node table (callnodes.ts): typed-array passes over the stack rows and
 * the nodes, then one object per node shown.
 */
export function callTree(profile: Profile, weights: Float64Array, rootName = 'all', light: Light | null = null): CallNode {
  const t = callNodes(profile);
  const { node, up, self, total, order, sum } = nodeWeights(t, weights);
  const rows = profile.stacks.length;
  const root: Builder = { node: newNode(rootName, 6 as FrameKind), byName: new Map() };
  root.node.value = sum + lostWeight(weights, rows);
  let min = Number.MIN_VALUE;
  if (light) {
    let count = 1;
    for (let c = 0; c < total.length; c++) if (total[c] > 0) count++;
    for (const slot of [rows, rows + 1]) if ((weights[slot] ?? 0) > 0) count++;
    if (count > light.maxNodes) {
      min = Math.max(min, root.node.value * light.share);
      let kept = 0;
      for (let c = 0; c < total.length; c++) if (total[c] >= min) kept++;
      if (kept > light.maxNodes) {
        const heavy = new Float64Array(kept);
        kept = 0;
        for (let c = 0; c < total.length; c++) if (total[c] >= min) heavy[kept++] = total[c];
        min = Math.max(min, kthLargest(heavy, light.maxNodes));
      }
    }
  }
  const { name, kind } = t;
  // Per entry, its object's index in `made` (-1: left out); a typed array, as a JS array this
  // long would fall back to a dictionary.
  const at = new Int32Array(total.length).fill(-1);
  const made: CallNode[] = [];
  // Callers before callees: the order deepest first, backwards.
  for (let k = order.length - 1; k >= 0; k--) {
    const c = order[k];
    const v = total[c];
    // A node's total is at least each callee's: a dropped node drops its subtree.
    if (!(v >= min)) continue;
    const u = up[c];
    const parent = u < 0 ? root.node : at[u] >= 0 ? made[at[u]] : null;
    if (!parent) continue;
    const g = node[c];
    const n: CallNode = { name: profile.strings[name[g]], value: v, self: self[c], kind: kind[g] as FrameKind, children: [] };
    parent.children.push(n);
    at[c] = made.length;
    made.push(n);
  }
  const value = root.node.value;
  addNoStack(root, weights, rows);
  root.node.value = value;
  if (min > Number.MIN_VALUE) root.node.children = root.node.children.filter((c) => c.value >= min);
  return root.node;
}

/**
 * The inverted (callers) tree: roots are the leaf functions, children their callers. Built from
 * the call nodes with self weight, each walked up to its root (merged paths, not stack rows).
 */
export function invertedTree(profile: Profile, weights: Float64Array, rootName = 'all', light: Light | null = null): CallNode {
  const t = callNodes(profile);
  const { node, up, self } = nodeWeights(t, weights);
  const { name, kind } = t;
  const root: Builder = { node: newNode(rootName, 6 as FrameKind), byName: new Map() };
  for (let c = 0; c < self.length; c++) {
    const w = self[c];
    if (!(w > 0)) continue;
    root.node.value += w;
    let b = root;
    for (let q = c; q >= 0; q = up[q]) {
      const g = node[q];
      b = child(b, name[g], profile.strings[name[g]], kind[g] as FrameKind);
      b.node.value += w;
      if (q === c) b.node.self += w;
    }
  }
  addNoStack(root, weights, profile.stacks.length);
  return light && countNodes(root.node) > light.maxNodes ? prune(root.node, root.node.value * light.share) : root.node;
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
export function totalWeight(profile: Profile, weights: Float64Array): number {
  return nodeWeights(callNodes(profile), weights).sum + lostWeight(weights, profile.stacks.length);
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
