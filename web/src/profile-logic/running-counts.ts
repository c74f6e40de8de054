/**
 * Running counts along a time-sorted list (matching events, and matching events in a running
 * state), so any time window's count is two binary searches and a subtraction:
 *
 *   list   [e7  e2  e9  e4  e5]        starts 1 2 2 5 8 ms
 *   match   0   1   1   0   1
 *   cum   0   0   1   2   2   3        window [2, 6) ms: positions 1..4 → cum[4]-cum[1] = 2 match
 */
import type { Profile } from '../columns/profile';
import { gallopAtOrAfter, type Reach } from './event-index';

/** Thread states that count as running (drawn strong); others (sleeping, waiting…) drawn light. */
export function runningStates(profile: Profile): Uint8Array {
  const out = new Uint8Array(profile.strings.length);
  profile.strings.forEach((s, i) => {
    if (/^STATE_(RUNNABLE|RUNNING|DEFAULT|IN_JAVA|IN_VM)$/.test(s)) out[i] = 1;
  });
  return out;
}

/**
 * The running count of a list whose every event matches, `match[k] = k` for k in [0, n]: a view of
 * one shared array, grown as longer lists ask (running counts are never written once made), so a
 * type whose events all pass the filters costs no array of its size per thread.
 */
export function allMatch(n: number): Int32Array {
  if (counting.length <= n) {
    const next = new Int32Array(Math.max(n + 1, counting.length * 2));
    for (let k = 0; k < next.length; k++) next[k] = k;
    counting = next;
  }
  return counting.subarray(0, n + 1);
}

/** The running count of a list none of whose events match: zeros, shared as allMatch. */
export function noneMatch(n: number): Int32Array {
  if (zeros.length <= n) zeros = new Int32Array(Math.max(n + 1, zeros.length * 2));
  return zeros.subarray(0, n + 1);
}

let counting = new Int32Array(0);
let zeros = new Int32Array(0);

/** Running counts over one time-sorted list: `match[k]` events among the first k match. */
export interface Cumulative {
  list: Int32Array;
  /** length list.length + 1 */
  match: Int32Array;
  /** Matching events in a running state (or with no state); length list.length + 1. */
  running: Int32Array;
  /**
   * For lists of intervals: the running maximum of end times along the list (reachOf), so a
   * range finds the intervals that started before it and reach into it. Absent for instants.
   */
  reach?: Reach | null;
}

/**
 * Whether event `i` matches, read off `cum` (its thread's running counts): looked for from
 * position `from` on, as events met in time order are (each search starts where the last one
 * ended: `next`). `matches` is null when `i` is not in the list at or after `from`.
 */
export function matchAt(start: Float64Array, cum: Cumulative, i: number, from: number): { next: number; matches: boolean | null } {
  const { list, match } = cum;
  const next = gallopAtOrAfter(start, list, start[i], Math.min(Math.max(from, 0), list.length));
  for (let p = next; p < list.length && start[list[p]] === start[i]; p++) if (list[p] === i) return { next, matches: match[p + 1] > match[p] };
  return { next, matches: null };
}
