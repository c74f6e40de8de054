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
 * The running count of a list of `events` whose every event matches, `match[k] = k` for k in
 * [0, n]: a view of one array shared by the lists of those events, grown as longer lists ask
 * (running counts are never written once made), so a type whose events all pass the filters costs
 * no array of its size per thread. The array lives as long as the events (a closed recording's
 * goes with it).
 */
export function allMatch(events: Profile['events'], n: number): Int32Array {
  const s = sharedOf(events);
  if (s.counting.length <= n) {
    const next = new Int32Array(grown(s.counting.length, n));
    for (let k = 0; k < next.length; k++) next[k] = k;
    s.counting = next;
  }
  return s.counting.subarray(0, n + 1);
}

/** The running count of a list of `events` none of whose events match: zeros, shared as allMatch. */
export function noneMatch(events: Profile['events'], n: number): Int32Array {
  const s = sharedOf(events);
  if (s.zeros.length <= n) s.zeros = new Int32Array(grown(s.zeros.length, n));
  return s.zeros.subarray(0, n + 1);
}

const shared = new WeakMap<Profile['events'], { counting: Int32Array; zeros: Int32Array }>();

function sharedOf(events: Profile['events']): { counting: Int32Array; zeros: Int32Array } {
  let s = shared.get(events);
  if (!s) shared.set(events, (s = { counting: new Int32Array(0), zeros: new Int32Array(0) }));
  return s;
}

/** Room for n + 1, and a quarter more than before at least (few regrowths as longer lists come). */
function grown(length: number, n: number): number {
  return Math.max(n + 1, length + (length >> 2));
}

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
