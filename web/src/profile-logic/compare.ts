/**
 * A selection against a baseline: each method's change of share (total and self), and the
 * selection's call tree with each node's change of share against the same path in the baseline.
 */
import type { Profile } from '../columns/profile';
import type { CallNode } from './calltree';
import { topMethods } from './methods';

export interface Rise {
  name: number;
  /** Share of the selection's total weight under the method (total), 0..1. */
  share: number;
  /** Share of the baseline's total weight, 0..1. */
  baseShare: number;
  /** share − baseShare. */
  delta: number;
  /** The same for the weight in the method itself (self). */
  selfShare: number;
  baseSelfShare: number;
  selfDelta: number;
}

/**
 * How each method's share of the weight changed from `base` to `sel`, total and self; largest
 * rise first by `rank` (total: the method and what it calls; self: the method itself).
 */
export function compareMethods(profile: Profile, sel: Float64Array, base: Float64Array, rank: 'total' | 'self' = 'total'): Rise[] {
  const sum = (w: Float64Array) => w.reduce((x, y) => x + y, 0) || 1;
  const totalA = sum(sel);
  const totalB = sum(base);
  const rows = new Map<number, Rise>();
  const row = (name: number) => {
    let r = rows.get(name);
    if (!r) rows.set(name, (r = { name, share: 0, baseShare: 0, delta: 0, selfShare: 0, baseSelfShare: 0, selfDelta: 0 }));
    return r;
  };
  for (const m of topMethods(profile, sel)) {
    const r = row(m.name);
    r.share = m.total / totalA;
    r.selfShare = m.self / totalA;
  }
  for (const m of topMethods(profile, base)) {
    const r = row(m.name);
    r.baseShare = m.total / totalB;
    r.baseSelfShare = m.self / totalB;
  }
  const out = [...rows.values()];
  for (const r of out) {
    r.delta = r.share - r.baseShare;
    r.selfDelta = r.selfShare - r.baseSelfShare;
  }
  return rank === 'self' ? out.sort((x, y) => y.selfDelta - x.selfDelta || y.delta - x.delta) : out.sort((x, y) => y.delta - x.delta || y.selfDelta - x.selfDelta);
}

/**
 * The selection's tree with each node's change of share against the baseline tree: the node's
 * share of the selection minus the same path's share of the baseline (0 where it had none).
 */
export function diffTree(sel: CallNode, base: CallNode): CallNode {
  const ts = sel.value || 1;
  const tb = base.value || 1;
  const walk = (n: CallNode, b: CallNode | undefined): CallNode => {
    const byName = new Map((b?.children ?? []).map((c) => [c.name, c]));
    const baseShare = (b?.value ?? 0) / tb;
    return { ...n, baseShare, delta: n.value / ts - baseShare, children: n.children.map((c) => walk(c, byName.get(c.name))) };
  };
  return walk(sel, base);
}
