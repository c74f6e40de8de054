/**
 * Call trees from per-stack weights, merged by frame name as flame graphs show them:
 *
 *   stack prefix tree (one row per distinct path, frames with lines) ─ merge by name ─ CallNode
 *
 * The normal tree grows from the roots (callers on top of callees); the inverted tree from the
 * leaves (each function, then who called it).
 */
import { STACK_LOST, type FrameKind, type Profile } from '../columns/profile';

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

/** The call tree of `weights` (per stack row, then "no stack" and "stack lost": see weightSlots). */
export function callTree(profile: Profile, weights: Float64Array, rootName = 'all'): CallNode {
  const { frame, prefix, length } = profile.stacks;
  const fname = profile.frames.name;
  const fkind = profile.frames.kind;
  const root: Builder = { node: newNode(rootName, 6 as FrameKind), byName: new Map() };
  // Which rows carry weight, themselves or below: only those become nodes.
  const live = new Uint8Array(length);
  for (let s = length - 1; s >= 0; s--) {
    if (weights[s] > 0 || live[s]) {
      live[s] = 1;
      const p = prefix[s];
      if (p >= 0) live[p] = 1;
    }
  }
  const builders: (Builder | undefined)[] = new Array(length);
  for (let s = 0; s < length; s++) {
    if (!live[s]) continue;
    const p = prefix[s];
    const parent = p >= 0 ? builders[p]! : root;
    const f = frame[s];
    const b = child(parent, fname[f], profile.strings[fname[f]], fkind[f] as FrameKind);
    builders[s] = b;
    const w = weights[s];
    if (w > 0) {
      b.node.self += w;
      for (let q: number = s; q >= 0; q = prefix[q]) builders[q]!.node.value += w;
      root.node.value += w;
    }
  }
  addNoStack(root, weights, length);
  return root.node;
}

/** The inverted (callers) tree: roots are the leaf functions, children their callers. */
export function invertedTree(profile: Profile, weights: Float64Array, rootName = 'all'): CallNode {
  const { frame, prefix, length } = profile.stacks;
  const fname = profile.frames.name;
  const fkind = profile.frames.kind;
  const root: Builder = { node: newNode(rootName, 6 as FrameKind), byName: new Map() };
  for (let s = 0; s < length; s++) {
    const w = weights[s];
    if (!(w > 0)) continue;
    root.node.value += w;
    let b = root;
    let first = true;
    for (let q = s; q >= 0; q = prefix[q]) {
      const f = frame[q];
      b = child(b, fname[f], profile.strings[fname[f]], fkind[f] as FrameKind);
      b.node.value += w;
      if (first) {
        b.node.self += w;
        first = false;
      }
    }
  }
  addNoStack(root, weights, length);
  return root.node;
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
