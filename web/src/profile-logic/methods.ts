/**
 * Per-method aggregates of a selection: self and total weight (top methods), direct callers and
 * callees of one method (sandwich), and the rise of each method's share between two selections
 * (what grew in the spike against the calm before).
 */
import type { Profile } from './profile';

export interface MethodRow {
  /** String index of `Class.method`. */
  name: number;
  self: number;
  total: number;
}

/** Self and total weight per method, heaviest total first. */
export function topMethods(profile: Profile, weights: Float64Array): MethodRow[] {
  const { frame, prefix, length } = profile.stacks;
  const fname = profile.frames.name;
  const self = new Float64Array(profile.strings.length);
  const total = new Float64Array(profile.strings.length);
  const stamp = new Int32Array(profile.strings.length).fill(-1);
  for (let s = 0; s < length; s++) {
    const w = weights[s];
    if (!(w > 0)) continue;
    self[fname[frame[s]]] += w;
    // Recursion counts a method once per stack.
    for (let q = s; q >= 0; q = prefix[q]) {
      const n = fname[frame[q]];
      if (stamp[n] !== s) {
        stamp[n] = s;
        total[n] += w;
      }
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
