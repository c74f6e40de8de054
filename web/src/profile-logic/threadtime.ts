/**
 * Where each thread's time went in a time range: how long it spent in each kind of wait
 * (monitor contention, Object.wait, join, parks on locks, idle parks, sleeps, file and socket
 * I/O; waits.ts), next to its matching events of the selected type. Waits of one kind that
 * overlap (a read inside a read) count once; each wait counts only inside the range.
 */
import type { Profile } from '../columns/profile';
import { eventWeight, type WeightMode } from './kinds';
import { countInRange, forEachInRange } from './ranges';
import type { Cumulative } from './running-counts';
import { covered, WAIT_INFO, WAIT_KINDS, type WaitKind, type WaitTracks } from './waits';

export interface ThreadTime {
  thread: number;
  /** Matching events of the selected type in the range (samples, where events carry a sample count). */
  matching: number;
  /** ms of the range covered by each kind's waits. */
  ms: Record<WaitKind, number>;
  /** ms held up by others: the contention kinds (monitor, parks on locks, I/O). */
  blocked: number;
  /** ms idle: Object.wait, join, idle parks, sleeps. */
  idle: number;
}

/**
 * Per thread row (`threads[t]` 1 when the filters keep it): time in each kind of wait within
 * [from, to], most blocked first; threads with neither waits nor matching events are left out.
 * `mode` 'samples' counts the samples batched wall-clock events carry, as the flame graph does.
 */
export function threadTimes(profile: Profile, waits: WaitTracks, byThread: readonly Cumulative[], threads: Uint8Array, from: number, to: number, mode: WeightMode = 'events'): ThreadTime[] {
  const out: ThreadTime[] = [];
  for (let t = 0; t < profile.threads.length; t++) {
    if (!threads[t]) continue;
    const ms = Object.fromEntries(WAIT_KINDS.map((k) => [k, covered(waits[k][t], from, to)])) as Record<WaitKind, number>;
    let blocked = 0;
    let idle = 0;
    for (const k of WAIT_KINDS) {
      if (WAIT_INFO[k].contention) blocked += ms[k];
      else idle += ms[k];
    }
    const cum = byThread[t];
    let matching = 0;
    if (cum && mode === 'samples') forEachInRange(profile, [cum], [from, to], (i) => (matching += eventWeight(profile, i, mode)));
    else if (cum) matching = countInRange(profile, [cum], [from, to]);
    if (blocked > 0 || idle > 0 || matching > 0) out.push({ thread: t, matching, ms, blocked, idle });
  }
  return out.sort((x, y) => y.blocked - x.blocked || y.matching - x.matching || y.idle - x.idle || x.thread - y.thread);
}
