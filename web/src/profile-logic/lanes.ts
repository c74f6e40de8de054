/**
 * Timeline lanes: one per thread that has events, in an order and grouping the user picks.
 * Each thread's events are indexed by type and start time once per profile (indexEvents), so
 * drawing a time window touches only the events inside it.
 */
import { ListMemo, type ThreadIndex } from './event-index';
import { eventWeight, type WeightMode } from './kinds';
import type { Cumulative } from './running-counts';
import { threadLabel } from './names';
import type { Profile } from '../columns/profile';

export interface Lane {
  /** Thread rows drawn in this lane (several when grouped). */
  threads: number[];
  label: string;
  /** Events of the selected type in the lane, weighed as the flame graph weighs them (threadCounts). */
  count: number;
  /** Of those, matching the filters. */
  matching: number;
  /** Every thread of the lane is a virtual thread. */
  virtual?: boolean;
  /** The lane heads the virtual threads' group (all of them in one lane): open or closed. */
  group?: 'open' | 'closed';
}

/** How a lane reads aloud and in its hover: its label, marked when virtual or a group. */
export function laneName(l: Lane): string {
  if (l.group) return `${l.label}: ${l.group} group`;
  return l.virtual ? `${l.label} (virtual)` : l.label;
}

/** The virtual threads' group lane's label: "virtual threads (244)". */
export function virtualGroupLabel(n: number): string {
  return `virtual threads (${n})`;
}

/** "search-worker-3" → "search-worker-*": trailing numbers become a wildcard. */
export function groupKey(name: string): string {
  return name.replace(/([-_#. ]?)\d+$/, '$1*').replace(/\d+/g, '#');
}

/** Per thread row: events of the selected type, and how many of them match the filters. */
export interface ThreadCounts {
  count: ArrayLike<number>;
  matching: ArrayLike<number>;
}

/**
 * Per thread row, its events of the selected type and those the filters keep, counted as the
 * flame graph counts them: samples where events carry a sample count (async-profiler's wall
 * clock batches several samples into one event, `samples` = 3 counts 3), events otherwise.
 * Bytes and durations are not counts: those types count events. `byThread[t]` is thread t's
 * time-sorted list with its running count of matches.
 */
export function threadCounts(profile: Profile, byThread: readonly Cumulative[], mode: WeightMode): { count: Float64Array; matching: Float64Array } {
  const n = byThread.length;
  const count = new Float64Array(n);
  const matching = new Float64Array(n);
  for (let t = 0; t < n; t++) {
    const { list, match } = byThread[t];
    if (mode !== 'samples') {
      count[t] = list.length;
      matching[t] = match[list.length];
      continue;
    }
    const { all, each } = listWeight(profile, list);
    count[t] = all;
    // The same count in every event (1 sample each, as often): the matches times it.
    if (!Number.isNaN(each)) {
      matching[t] = each * match[list.length];
      continue;
    }
    let kept = 0;
    for (let k = 0; k < list.length; k++) if (match[k + 1] !== match[k]) kept += eventWeight(profile, list[k], mode);
    matching[t] = kept;
  }
  return { count, matching };
}

const listWeights = new ListMemo<{ all: number; each: number }>();

/** A list's whole weight in samples, and the weight every one of its events has (NaN when they differ), once per list. */
function listWeight(profile: Profile, list: Int32Array): { all: number; each: number } {
  return listWeights.get(profile, list, () => {
    const w = profile.events.weight;
    let all = 0;
    let each = list.length ? w[list[0]] : 0;
    for (let k = 0; k < list.length; k++) {
      const x = w[list[k]];
      all += x;
      if (x !== each) each = NaN;
    }
    return { all, each };
  });
}

export interface LaneOptions {
  group: boolean;
  sort: 'name' | 'samples';
  hidden: ReadonlySet<string>;
  /** Per thread row, 1 when the thread filter keeps it; null keeps all. */
  threads?: Uint8Array | null;
  /** Thread names whose lanes go on top, in this order (a lock's holder pins itself). */
  pinned?: readonly string[];
  /**
   * Virtual threads (threads.virtual) go under one group lane, placed as one lane would be;
   * open, each virtual thread's lane follows it (marked virtual), closed, the group lane alone
   * draws them all.
   */
  virtualOpen?: boolean;
}

/**
 * One lane per thread that has events (or per name group), minus hidden threads and threads the
 * thread filter drops, in the order asked for.
 */
export function buildLanes(profile: Profile, index: ThreadIndex, counts: ThreadCounts, opts: LaneOptions): Lane[] {
  const lanes = new Map<string, Lane>();
  const virtualLanes = new Map<string, Lane>();
  const isVirtual = profile.threads.virtual;
  for (let t = 0; t < profile.threads.length; t++) {
    if (index.perThread[t] === 0) continue;
    if (opts.threads && !opts.threads[t]) continue;
    const name = profile.strings[profile.threads.name[t]];
    if (opts.hidden.has(threadLabel(profile, t))) continue;
    const key = opts.group ? groupKey(name) : `${name}\u0000${t}`;
    const into = isVirtual?.[t] ? virtualLanes : lanes;
    let lane = into.get(key);
    if (!lane) {
      lane = { threads: [], label: opts.group ? groupKey(name) : name, count: 0, matching: 0 };
      if (into === virtualLanes) lane.virtual = true;
      into.set(key, lane);
    }
    lane.threads.push(t);
    lane.count += counts.count[t];
    lane.matching += counts.matching[t];
  }
  const order = (v: Lane[]) => {
    for (const l of v) {
      l.label = l.threads.length === 1 ? threadLabel(profile, l.threads[0]) : `${l.label} (${l.threads.length})`;
    }
    if (opts.sort === 'samples') v.sort((a, b) => b.matching - a.matching || b.count - a.count || a.label.localeCompare(b.label));
    else v.sort((a, b) => a.label.localeCompare(b.label, 'en', { numeric: true }));
    return v;
  };
  const out = order([...lanes.values()]);
  const virtual = order([...virtualLanes.values()]);
  if (virtual.length) {
    const threads = virtual.flatMap((l) => l.threads);
    const head: Lane = {
      threads,
      label: virtualGroupLabel(threads.length),
      count: virtual.reduce((s, l) => s + l.count, 0),
      matching: virtual.reduce((s, l) => s + l.matching, 0),
      virtual: true,
      group: opts.virtualOpen ? 'open' : 'closed',
    };
    // The group takes the place one lane of its weight would take.
    const at = opts.sort === 'samples' ? out.findIndex((l) => l.matching < head.matching || (l.matching === head.matching && l.count < head.count)) : out.length;
    out.splice(at < 0 ? out.length : at, 0, head, ...(opts.virtualOpen ? virtual : []));
  }
  const pinned = opts.pinned ?? [];
  if (pinned.length === 0) return out;
  // Pinned lanes first, in pin order; a lane is pinned when one of its threads is.
  const pinAt = new Map<string, number>();
  pinned.forEach((p, i) => pinAt.has(p) || pinAt.set(p, i));
  const rank = (l: Lane) => {
    let r = Infinity;
    for (const t of l.threads) r = Math.min(r, pinAt.get(threadLabel(profile, t)) ?? Infinity);
    return r;
  };
  const ranked = out.map((l, k) => ({ l, k, r: rank(l) }));
  ranked.sort((a, b) => a.r - b.r || a.k - b.k);
  return ranked.map((x) => x.l);
}
