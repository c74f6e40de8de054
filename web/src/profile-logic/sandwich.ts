/**
 * The sandwich of one method (speedscope's sandwich, JMC's butterfly): two call trees rooted at
 * the method, from the same per-stack weights as the flame graph.
 *
 *   stack  main;serve;parse;read;parse;skipBytes   (root first), method `parse`
 *                     ^ outermost occurrence
 *   callers:  parse ← serve ← main                 (from the outermost occurrence to the root)
 *   callees:  parse → read → parse → skipBytes     (from the outermost occurrence to the leaf)
 *
 * Each stack counts once, at the method's outermost occurrence, so recursion is counted once per
 * stack: both roots weigh the method's total as the top-methods table counts it, and inner
 * recursive calls show inside the callees tree. Methods are matched by name, as the flame graph
 * merges them.
 */
import type { FrameKind, IndexIntoStrings, Profile } from '../columns/profile';
import type { CallNode } from './calltree';

export interface SandwichTrees {
  /** The method, then who called it, outward to the threads' roots (self: where the path ends). */
  callers: CallNode;
  /** The method, then what it called (self: where a stack ends). */
  callees: CallNode;
}

interface Builder {
  node: CallNode;
  byName: Map<number, Builder>;
}

function builder(name: string, kind: FrameKind): Builder {
  return { node: { name, value: 0, self: 0, kind, children: [] }, byName: new Map() };
}

function child(b: Builder, nameIdx: number, name: string, kind: FrameKind): Builder {
  let c = b.byName.get(nameIdx);
  if (!c) {
    c = builder(name, kind);
    b.byName.set(nameIdx, c);
    b.node.children.push(c.node);
  }
  return c;
}

/**
 * For each stack row, the row of the outermost frame named `name` on its path (itself or a
 * caller), or -1. Rows come after their prefix, so one forward pass does it.
 */
export function outermostRows(profile: Profile, name: IndexIntoStrings): Int32Array {
  const { frame, prefix, length } = profile.stacks;
  const fname = profile.frames.name;
  const out = new Int32Array(length);
  for (let s = 0; s < length; s++) {
    const p = prefix[s];
    const above = p >= 0 ? out[p] : -1;
    out[s] = above >= 0 ? above : fname[frame[s]] === name ? s : -1;
  }
  return out;
}

/**
 * Callers and callees trees of method `name` (a string index) over `weights` (per stack row, as
 * weightSlots lays them out; events without a stack have no method and are left out).
 */
export function sandwichTrees(profile: Profile, weights: Float64Array, name: IndexIntoStrings): SandwichTrees {
  const { frame, prefix, length } = profile.stacks;
  const fname = profile.frames.name;
  const fkind = profile.frames.kind;
  const label = profile.strings[name] ?? '';
  const outer = outermostRows(profile, name);
  let kind = 6 as FrameKind;
  for (let s = 0; s < length; s++) {
    if (outer[s] === s) {
      kind = fkind[frame[s]] as FrameKind;
      break;
    }
  }
  const callees = builder(label, kind);
  const callers = builder(label, kind);
  // Callees: the rows at or below an outermost occurrence, each a node under its prefix's node.
  const live = new Uint8Array(length);
  for (let s = length - 1; s >= 0; s--) {
    if (outer[s] >= 0 && s !== outer[s] && (weights[s] > 0 || live[s])) {
      live[s] = 1;
      live[prefix[s]] = 1;
    }
  }
  const nodes: (Builder | undefined)[] = new Array(length);
  // Weight ending at or below each outermost occurrence, for the callers tree.
  const atOuter = new Map<number, number>();
  for (let s = 0; s < length; s++) {
    const o = outer[s];
    if (o < 0) continue;
    if (s === o) nodes[s] = callees;
    else if (live[s]) {
      const f = frame[s];
      nodes[s] = child(nodes[prefix[s]]!, fname[f], profile.strings[fname[f]], fkind[f] as FrameKind);
    }
    const w = weights[s];
    if (!(w > 0)) continue;
    atOuter.set(o, (atOuter.get(o) ?? 0) + w);
    nodes[s]!.node.self += w;
    for (let q = s; ; q = prefix[q]) {
      nodes[q]!.node.value += w;
      if (q === o) break;
    }
  }
  // Callers: from each outermost occurrence out to the root of its thread.
  for (const [o, w] of atOuter) {
    callers.node.value += w;
    let b = callers;
    for (let q = prefix[o]; q >= 0; q = prefix[q]) {
      const f = frame[q];
      b = child(b, fname[f], profile.strings[fname[f]], fkind[f] as FrameKind);
      b.node.value += w;
    }
    b.node.self += w;
  }
  return { callers: callers.node, callees: callees.node };
}
