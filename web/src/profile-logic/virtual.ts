/**
 * Virtual threads and their carriers, as far as the recording says.
 *
 *   threads.virtual ─ which lanes are virtual
 *   jdk.VirtualThreadPinned (peer = carrierThread) per virtual thread, by start ─ the carrier
 *     at a moment: the pinned interval holding it, by binary search
 *
 * JDK 25 names a virtual thread's carrier only on its pinned events; at any other moment the
 * carrier is not recorded, and the page says so rather than guess.
 */
import type { IndexIntoEvents, IndexIntoThreads, Profile } from '../columns/profile';
import { eventsOf, mergeByStart, type ThreadIndex } from './event-index';

/** Whether thread row `t` is a virtual thread. */
export function isVirtual(profile: Profile, t: IndexIntoThreads): boolean {
  return t >= 0 && profile.threads.virtual?.[t] === 1;
}

/** Per thread row: its pinned events (jdk.VirtualThreadPinned) by start. */
export function pinnedByThread(profile: Profile, index: ThreadIndex): Int32Array[] {
  const types = profile.eventTypes.flatMap((t, ty) => (t.kind === 'pinned' ? [ty] : []));
  const out: Int32Array[] = [];
  for (let t = 0; t < profile.threads.length; t++) out.push(mergeByStart(profile.events.start, types.map((ty) => eventsOf(index, ty, t))));
  return out;
}

/** The pinned event of thread `t` whose interval holds `time` (ms), or -1. */
export function pinnedAt(profile: Profile, pinned: readonly Int32Array[], t: IndexIntoThreads, time: number): IndexIntoEvents {
  const list = pinned[t];
  if (!list || list.length === 0) return -1;
  const { start, duration } = profile.events;
  // Last pinned event starting at or before `time`; pins of one thread never overlap.
  let lo = 0;
  let hi = list.length;
  while (lo < hi) {
    const m = (lo + hi) >> 1;
    if (start[list[m]] <= time) lo = m + 1;
    else hi = m;
  }
  const i = lo > 0 ? list[lo - 1] : -1;
  return i >= 0 && time <= start[i] + duration[i] ? i : -1;
}

/**
 * A virtual thread's carrier at `time` in words: "carrier ForkJoinPool-1-worker-2 (recorded by
 * a pinned event)", or "carrier not recorded"; null for a platform thread.
 */
export function carrierText(profile: Profile, pinned: readonly Int32Array[], t: IndexIntoThreads, time: number): string | null {
  if (!isVirtual(profile, t)) return null;
  const i = pinnedAt(profile, pinned, t, time);
  const c = i >= 0 ? profile.events.peer[i] : -1;
  return c >= 0 ? `carrier ${profile.strings[profile.threads.name[c]]} (recorded by a pinned event)` : 'carrier not recorded';
}

/** The carriers the recording names for thread `t`, with how many pinned events name each, most first. */
export function carriersOf(profile: Profile, pinned: readonly Int32Array[], t: IndexIntoThreads): { name: string; pinned: number }[] {
  const counts = new Map<string, number>();
  for (const i of pinned[t] ?? []) {
    const c = profile.events.peer[i];
    if (c < 0) continue;
    const name = profile.strings[profile.threads.name[c]];
    counts.set(name, (counts.get(name) ?? 0) + 1);
  }
  return [...counts].map(([name, n]) => ({ name, pinned: n })).sort((a, b) => b.pinned - a.pinned || a.name.localeCompare(b.name));
}
