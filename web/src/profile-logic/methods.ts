/**
 * Per-method aggregates of a selection: self and total weight (top methods), direct callers and
 * callees of one method (sandwich).
 */
import type { Profile } from '../columns/profile';
import { callNodes, nodeWeights, reducedWeights } from './callnodes';
import type { TreeWeights } from './calltree';

export interface MethodRow {
  /** String index of `Class.method`. */
  name: number;
  self: number;
  total: number;
}

/**
 * Self and total weight per method, heaviest total first: from the call nodes' weights
 * (callnodes.ts), a method's total is the sum of its outermost nodes' totals, so recursion
 * counts once per stack. Over a type's reduced nodes when the weights are summed on them: an
 * entry's chain of nodes all weigh its total, and only its deepest holds self weight.
 */
export function topMethods(profile: Profile, weights: TreeWeights): MethodRow[] {
  const t = callNodes(profile);
  const self = new Float64Array(profile.strings.length);
  const total = new Float64Array(profile.strings.length);
  const { name, outermost, prefix } = t;
  const reduced = weights instanceof Float64Array ? reducedWeights(t, weights) : weights.reduced;
  if (reduced) {
    const { node, len } = reduced.r;
    for (let e = 0; e < node.length; e++) {
      const x = reduced.total[e];
      if (!(x > 0)) continue;
      self[name[node[e]]] += reduced.self[e];
      let g = node[e];
      for (let k = 0; k < len[e]; k++, g = prefix[g]) if (outermost[g]) total[name[g]] += x;
    }
  } else {
    const w = nodeWeights(t, weights as Float64Array);
    for (let c = 0; c < w.node.length; c++) {
      const g = w.node[c];
      self[name[g]] += w.self[c];
      if (outermost[g]) total[name[g]] += w.total[c];
    }
  }
  const rows: MethodRow[] = [];
  for (let n = 0; n < total.length; n++) {
    if (total[n] > 0) rows.push({ name: n, self: self[n], total: total[n] });
  }
  return rows.sort((a, b) => b.total - a.total || b.self - a.self);
}

export interface Neighbour {
  name: number;
  weight: number;
}

export interface Sandwich {
  total: number;
  self: number;
  callers: Neighbour[];
  callees: Neighbour[];
}

/** Direct callers and callees of method `name` (string index), weighted. */
export function sandwich(profile: Profile, weights: Float64Array, name: number): Sandwich {
  const { frame, prefix, length } = profile.stacks;
  const fname = profile.frames.name;
  const callers = new Map<number, number>();
  const callees = new Map<number, number>();
  let total = 0;
  let self = 0;
  for (let s = 0; s < length; s++) {
    const w = weights[s];
    if (!(w > 0)) continue;
    let counted = false;
    let below = -1; // the frame called by q on this path
    for (let q = s; q >= 0; q = prefix[q]) {
      const n = fname[frame[q]];
      if (n === name) {
        if (!counted) {
          total += w;
          counted = true;
        }
        if (below < 0) self += w;
        else callees.set(below, (callees.get(below) ?? 0) + w);
        const p = prefix[q];
        const caller = p >= 0 ? fname[frame[p]] : -1;
        callers.set(caller, (callers.get(caller) ?? 0) + w);
      }
      below = n;
    }
  }
  const list = (m: Map<number, number>) => [...m].map(([n, weight]) => ({ name: n, weight })).sort((a, b) => b.weight - a.weight);
  return { total, self, callers: list(callers), callees: list(callees) };
}
