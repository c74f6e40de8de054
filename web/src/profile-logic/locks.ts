/**
 * Lock blame: who held the lock while everyone waited.
 *
 *   waits on one object (class + address) ─ sorted by start ─ overlapping waits form a burst
 *   ─ in a burst the waiters are granted one after another (by end): each grant's previous owner
 *   held the monitor since the grant before; the one that held it longest (most often the first
 *   grant's, through the burst) is the holder; each later grant's previous owner should be the
 *   waiter granted before it (or the holder again), which checks the chain
 *
 *   holder H ███████████████████████░ (not waiting: it holds the lock)
 *   w1         ░░░░░░░░░░░░░░░░░░░░░░▌ granted first, previous owner H
 *   w2          ░░░░░░░░░░░░░░░░░░░░░░▌ previous owner w1
 *   w3            ░░░░░░░░░░░░░░░░░░░░░▌ previous owner w2
 *
 * JDK monitor enters carry the previous owner; java.util.concurrent parks and async-profiler's
 * lock events do not, and then the holder is unknown: the burst says so, and names the threads
 * that were on CPU meanwhile (not waiting on it) as the only evidence there is.
 */
import type { IndexIntoEvents, Profile } from '../columns/profile';
import { stackSlot, weightSlots } from './calltree';
import { eventsOf, eventsOfType, firstAtOrAfter, type ThreadIndex } from './event-index';
import { instanceText } from './filters';
import type { Range } from './ranges';
import { waitKindOf } from './waits';

export interface Burst {
  /** String index of the object's class. */
  cls: number;
  /** The object's address (NaN when the recording has none). */
  address: number;
  start: number;
  end: number;
  /** The waits, in the order they were granted (by end). */
  waits: IndexIntoEvents[];
  /** Distinct waiting threads. */
  waiters: number;
  /** ms waited in all, and the part of it inside the range asked about. */
  total: number;
  clipped: number;
  /** Thread row of the holder (the previous owner that held it longest in the burst); -1 when the recording cannot tell. */
  holder: number;
  /** Grants whose previous owner is the waiter granted before them or the holder, of those after the first. */
  chainOk: number;
  chainBroken: number;
  /** Monitor contention (holder from previous owners), a park (no owner in JFR) or a native mutex (profiler.NativeLock: an address, no owner). */
  kind: LockKind;
}

export type LockKind = 'monitor' | 'park' | 'mutex';

export interface LockRow {
  cls: number;
  address: number;
  label: string;
  kind: LockKind;
  bursts: Burst[];
  waits: number;
  waiters: number;
  total: number;
  clipped: number;
  /**
   * Holders by the wait of the bursts they held (in the range), most first, then by bursts
   * held: one long hold outranks many short ones. -1 stands for "unknown".
   */
  holders: { thread: number; bursts: number; wait: number }[];
}

/**
 * The bursts of waits on monitors (monitor contention) and on parked-on objects (parks on
 * locks, not idle pool parks; at least two waiters) that overlap `range` (all without one),
 * `kinds` from waitKinds.
 * `keep(thread)` drops waits of threads the filters drop.
 */
export function lockBursts(profile: Profile, index: ThreadIndex, kinds: Uint8Array, range: Range | null, keep: (thread: number) => boolean = () => true): Burst[] {
  const e = profile.events;
  // Group by object: class, then address.
  const groups = new Map<string, IndexIntoEvents[]>();
  const lists = profile.eventTypes.flatMap((t, ty) => (t.kind === 'lock' || t.kind === 'park' ? [eventsOfType(index, ty)] : []));
  for (const list of lists) {
    for (let p = 0; p < list.length; p++) {
      const i = list[p];
      const k = waitKindOf(kinds, i);
      if (k !== 'monitor' && k !== 'park' && k !== 'mutex') continue;
      // A native mutex is known by its address alone.
      if (!(e.duration[i] > 0) || (e.subject[i] < 0 && k !== 'mutex') || !keep(e.thread[i])) continue;
      const key = `${k}\u0000${e.subject[i]}\u0000${e.value[i]}`;
      let g = groups.get(key);
      if (!g) groups.set(key, (g = []));
      g.push(i);
    }
  }
  const out: Burst[] = [];
  for (const [key, list] of groups) {
    const kind = key.slice(0, key.indexOf('\u0000')) as LockKind;
    list.sort((a, b) => e.start[a] - e.start[b] || a - b);
    let k = 0;
    while (k < list.length) {
      let end = e.start[list[k]] + e.duration[list[k]];
      let j = k + 1;
      while (j < list.length && e.start[list[j]] <= end) {
        end = Math.max(end, e.start[list[j]] + e.duration[list[j]]);
        j++;
      }
      const start = e.start[list[k]];
      const b = !range || (start <= range[1] && end > range[0]) ? burstOf(profile, list.slice(k, j), kind, start, end, range) : null;
      // A park with no one else waiting is a timed wait or a hand-off, not a pile-up on a lock.
      if (b && (b.kind !== 'park' || b.waiters >= 2)) out.push(b);
      k = j;
    }
  }
  return out.sort((a, b) => a.start - b.start || a.cls - b.cls);
}

function burstOf(profile: Profile, waits: IndexIntoEvents[], kind: LockKind, start: number, end: number, range: Range | null): Burst {
  const e = profile.events;
  waits.sort((a, b) => e.start[a] + e.duration[a] - (e.start[b] + e.duration[b]) || a - b);
  let total = 0;
  let clipped = 0;
  const threads = new Set<number>();
  for (const i of waits) {
    const s = e.start[i];
    const d = e.duration[i];
    total += d;
    clipped += range ? Math.max(0, Math.min(s + d, range[1]) - Math.max(s, range[0])) : d;
    threads.add(e.thread[i]);
  }
  // The holder: the previous owner that held the monitor longest while others waited, each grant's
  // previous owner holding it since the grant before (the first's, since the burst began). Most
  // often the first grant's: it held the monitor through the burst; but when the holder itself
  // waited to enter, its own grant comes first and names whoever held the monitor a moment before.
  const first = waits[0];
  let holder = -1;
  if (kind === 'monitor') {
    const held = new Map<number, number>();
    let since = start;
    for (const i of waits) {
      const until = e.start[i] + e.duration[i];
      if (e.peer[i] >= 0) held.set(e.peer[i], (held.get(e.peer[i]) ?? 0) + (until - since));
      since = until;
    }
    let most = -Infinity;
    for (const [t, ms] of held) if (ms > most || (ms === most && t === e.peer[first])) [holder, most] = [t, ms];
  }
  let chainOk = 0;
  let chainBroken = 0;
  if (holder >= 0) {
    for (let k = 1; k < waits.length; k++) {
      const prev = e.peer[waits[k]];
      if (prev === e.thread[waits[k - 1]] || prev === holder) chainOk++;
      else chainBroken++;
    }
  }
  return { cls: e.subject[first], address: e.value[first], start, end, waits, waiters: threads.size, total, clipped, holder, chainOk, chainBroken, kind };
}

/** Bursts by object (class @ address), most waited first; each with its holders. */
export function lockRows(profile: Profile, bursts: readonly Burst[]): LockRow[] {
  const rows = new Map<string, LockRow & { threads: Set<number>; byHolder: Map<number, { bursts: number; wait: number }> }>();
  for (const b of bursts) {
    const key = `${b.kind}\u0000${b.cls}\u0000${b.address}`;
    let r = rows.get(key);
    if (!r) {
      const label = b.kind === 'mutex' && b.cls < 0 ? instanceText('native mutex', b.address) : instanceText(profile.strings[b.cls], b.address);
      rows.set(key, (r = { cls: b.cls, address: b.address, label, kind: b.kind, bursts: [], waits: 0, waiters: 0, total: 0, clipped: 0, holders: [], threads: new Set(), byHolder: new Map() }));
    }
    r.bursts.push(b);
    r.waits += b.waits.length;
    r.total += b.total;
    r.clipped += b.clipped;
    for (const i of b.waits) r.threads.add(profile.events.thread[i]);
    const h = r.byHolder.get(b.holder);
    if (h) {
      h.bursts++;
      h.wait += b.clipped;
    } else r.byHolder.set(b.holder, { bursts: 1, wait: b.clipped });
  }
  return [...rows.values()]
    .map(({ threads, byHolder, ...r }) => ({
      ...r,
      waiters: threads.size,
      holders: [...byHolder].map(([thread, h]) => ({ thread, ...h })).sort((a, b) => b.wait - a.wait || b.bursts - a.bursts || a.thread - b.thread),
    }))
    .sort((a, b) => b.clipped - a.clipped || b.total - a.total);
}

/**
 * Threads on CPU during a burst that were not waiting in it, by samples (the samples' weight
 * per thread in [start, end]); for bursts with no known holder, the only evidence there is.
 */
export function onCpuDuring(profile: Profile, index: ThreadIndex, burst: Burst, sampleTypes: readonly number[]): { thread: number; samples: number }[] {
  const e = profile.events;
  const waiting = new Set(burst.waits.map((i) => e.thread[i]));
  const out: { thread: number; samples: number }[] = [];
  for (let t = 0; t < profile.threads.length; t++) {
    if (waiting.has(t)) continue;
    let n = 0;
    forSamples(profile, index, t, burst.start, burst.end, sampleTypes, (i) => (n += e.weight[i]));
    if (n > 0) out.push({ thread: t, samples: n });
  }
  return out.sort((a, b) => b.samples - a.samples || a.thread - b.thread);
}

/** The sample types a recording has, CPU first (what a holder "ran"): cpu, then wall, then native. */
export function sampleTypesOf(profile: Profile): number[] {
  for (const kind of ['cpu', 'wall', 'native'] as const) {
    const types = profile.eventTypes.flatMap((t, ty) => (t.kind === kind && t.count > 0 && !t.deferred ? [ty] : []));
    if (types.length) return types;
  }
  return [];
}

/** Visit thread `t`'s samples of `types` starting in [from, to], by binary search in the index. */
function forSamples(profile: Profile, index: ThreadIndex, t: number, from: number, to: number, types: readonly number[], visit: (i: number) => void): void {
  const start = profile.events.start;
  for (const ty of types) {
    const list = eventsOf(index, ty, t);
    for (let k = firstAtOrAfter(start, list, from); k < list.length && start[list[k]] <= to; k++) visit(list[k]);
  }
}

/** The samples of `thread` in [from, to] (the holder's work during a burst) as weights per stack (calltree's weightSlots). */
export function threadWeights(profile: Profile, index: ThreadIndex, thread: number, from: number, to: number, sampleTypes: readonly number[]): Float64Array {
  const e = profile.events;
  const out = weightSlots(profile);
  forSamples(profile, index, thread, from, to, sampleTypes, (i) => {
    out[stackSlot(e.stack[i], profile.stacks.length)] += e.weight[i];
  });
  return out;
}

/** The waits' stacks at the wait, weighed by the part of each wait inside the burst. */
export function waiterWeights(profile: Profile, burst: Burst): Float64Array {
  const e = profile.events;
  const out = weightSlots(profile);
  for (const i of burst.waits) {
    out[stackSlot(e.stack[i], profile.stacks.length)] += e.duration[i];
  }
  return out;
}
