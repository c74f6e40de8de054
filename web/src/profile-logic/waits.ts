/**
 * What kind of wait each interval event is, and how many threads wait at each moment.
 *
 *   interval event ─ waitKindOf (type, subject class, stack) ─ monitor | wait | join | park |
 *     idle | sleep | file | socket
 *   a thread's waits of one kind ─ union of their spans (nested reads once) ─ prefix sums ─
 *     time covered in any window by two binary searches (tracks)
 *
 * Threads waiting in a window = Σ over threads of the time their spans cover in it ÷ its width,
 * so a curve of one value per pixel column costs threads × columns × log n, whatever the count
 * of events.
 */
import type { EventKind, IndexIntoEvents, Profile } from '../columns/profile';
import { CUM_STEP, eventsOf, firstSpanPast, ListMemo, mergeByStart, reachAt, reachOf, spanCount, spanPos, type Reach, type ThreadIndex } from './event-index';
import { KINDS } from './kinds';

export const WAIT_KINDS = ['monitor', 'mutex', 'pinned', 'wait', 'join', 'park', 'idle', 'sleep', 'file', 'socket'] as const;
export type WaitKind = (typeof WAIT_KINDS)[number];

export interface WaitInfo {
  /** Legend and column label. */
  label: string;
  /** What it covers, for headers' titles. */
  title: string;
  color: string;
  /** Contention (threads held up by others) rather than idling until there is work. */
  contention: boolean;
}

export const WAIT_INFO: Record<WaitKind, WaitInfo> = {
  monitor: { label: 'Monitor', title: 'Blocked entering a monitor (synchronized) that another thread holds', color: '#d6336c', contention: true },
  mutex: { label: 'Native lock', title: 'Blocked on a native mutex (pthread_mutex_lock) that another thread holds', color: '#e8590c', contention: true },
  pinned: { label: 'Pinned', title: 'A virtual thread blocked while pinned to its carrier thread, which no other virtual thread can use meanwhile', color: '#c2255c', contention: true },
  wait: { label: 'Object.wait', title: 'In Object.wait until notified: idle, not contention', color: '#f783ac', contention: false },
  join: { label: 'Thread.join', title: 'In Thread.join, waiting for another thread to end', color: '#a61e4d', contention: false },
  park: { label: 'Park (locks)', title: 'Parked on a java.util.concurrent lock, condition or future', color: '#7950f2', contention: true },
  idle: { label: 'Park (pool idle)', title: 'A pool thread parked while waiting for work', color: '#b197fc', contention: false },
  sleep: { label: 'Sleep', title: 'In Thread.sleep', color: '#868e96', contention: false },
  file: { label: 'File I/O', title: 'In file reads and writes', color: '#2b8a3e', contention: true },
  socket: { label: 'Socket I/O', title: 'In socket reads and writes', color: '#0c8599', contention: true },
};

/**
 * Whether a kind's intervals are waits (a thread held up or idle): every interval kind but the
 * ones that measure work (method traces, spans).
 */
export function isWaitKind(kind: EventKind): boolean {
  return KINDS[kind].interval && kind !== 'method' && kind !== 'span';
}

/** Frames whose presence on a park's stack mean a thread waiting for work: a pool's worker, a queue's consumer. */
const IDLE_FRAME = /^java\.util\.concurrent\.(ThreadPoolExecutor\.getTask|ForkJoinPool\.(awaitWork|runWorker)|ScheduledThreadPoolExecutor\$DelayedWorkQueue\.(take|poll)|(SynchronousQueue|LinkedTransferQueue|ArrayBlockingQueue|LinkedBlockingQueue|LinkedBlockingDeque|PriorityBlockingQueue|DelayQueue)\.(take|poll|takeFirst|pollFirst))$/;
/**
 * Frames that acquire a java.util.concurrent lock (JDK 17's AbstractQueuedSynchronizer.acquire,
 * JDK 8–11's acquireQueued and doAcquire…, a ReentrantLock's or a read-write lock's lock…):
 * a park under one of them, nearer the park than any frame of IDLE_FRAME, waits for the lock,
 * not for work. A blocking queue's poll and take take the queue's own lock first; a thread
 * parked there is held up by the thread holding it.
 */
const ACQUIRE_FRAME = /^java\.util\.concurrent\.locks\.(AbstractQueued(Long)?Synchronizer\.(acquire\w*|doAcquire\w*|tryAcquire\w*Nanos)|ReentrantLock(\$Sync)?\.(lock|lockInterruptibly|tryLock)|ReentrantReadWriteLock\$(ReadLock|WriteLock)\.(lock|lockInterruptibly|tryLock))$/;
/** Parked-on classes that only ever idle: a hand-off queue waiting for its other side. */
const IDLE_CLASS = /^java\.util\.concurrent\.(SynchronousQueue\$|LinkedTransferQueue|ForkJoinPool)/;
const JOIN_FRAME = /^java\.lang\.Thread\.join$/;

/**
 * Whether stack row s (or a caller) has a frame whose name matches `re`, found on demand: a row
 * is resolved with its callers up to the first one known, each name tested once, so classifying
 * the parks costs the rows they reach, not the whole stack table (millions of rows in a recording
 * of deep, varied stacks). With `unless`: the frame nearest the leaf that matches either decides,
 * and one matching `unless` says no.
 */
function stacksWith(profile: Profile, re: RegExp, unless?: RegExp): (s: number) => boolean {
  const { frame, prefix, length } = profile.stacks;
  const names = profile.frames.name;
  // Per name and per row: 0 not known yet, 1 no, 2 yes; per name, 3: a frame of `unless` (a
  // row under one is no until a frame of `re` nearer the leaf).
  const byName = new Uint8Array(profile.strings.length);
  const memo = new Uint8Array(length);
  const path: number[] = [];
  return (s) => {
    if (s < 0 || s >= length) return false;
    let q = s;
    while (q >= 0 && memo[q] === 0) {
      path.push(q);
      // A caller always precedes its callee: anything else ends the walk (no loop on bad input).
      const up = prefix[q];
      q = up < q ? up : -1;
    }
    let v = q >= 0 ? memo[q] : 1;
    while (path.length > 0) {
      const r = path.pop()!;
      // (Without `unless`, nothing under a yes can say otherwise: its names need no test.)
      if (v !== 2 || unless) {
        const n = names[frame[r]];
        if (byName[n] === 0) byName[n] = re.test(profile.strings[n]) ? 2 : unless?.test(profile.strings[n]) ? 3 : 1;
        if (byName[n] !== 1) v = byName[n] === 2 ? 2 : 1;
      }
      memo[r] = v;
    }
    return memo[s] === 2;
  };
}

/** A type code: each of its events decides its kind by its stack and subject (parks, waits). */
const SPLIT = 255;

/** Per event type: the code (1 + index into WAIT_KINDS, 0: no wait) all its events have, or SPLIT. */
function typeCodes(profile: Profile): Uint8Array {
  const byType = profile.eventTypes.map((t): WaitKind | 'split' | null => {
    switch (t.kind) {
      case 'lock':
        return t.name === 'profiler.NativeLock' ? 'mutex' : 'monitor';
      case 'pinned':
        return 'pinned';
      case 'wait':
      case 'park':
        return 'split';
      case 'sleep':
        return 'sleep';
      case 'io':
        return /Socket/.test(t.name) ? 'socket' : 'file';
      default:
        return isWaitKind(t.kind) ? 'monitor' : null;
    }
  });
  return Uint8Array.from(byType, (k) => (k === null ? 0 : k === 'split' ? SPLIT : WAIT_KINDS.indexOf(k) + 1));
}

/**
 * Per event: 1 + index into WAIT_KINDS, or 0 for events that are not waits (samples, allocations…).
 * One pass; subject classes and stacks are classified once each.
 */
export function waitKinds(profile: Profile): Uint8Array {
  const e = profile.events;
  const out = new Uint8Array(e.length);
  const code = (k: WaitKind) => WAIT_KINDS.indexOf(k) + 1;
  const byCode = typeCodes(profile);
  let idleStack: ((s: number) => boolean) | null = null;
  let joinStack: ((s: number) => boolean) | null = null;
  const idleClass = new Map<number, boolean>();
  const type = e.type;
  const n = e.length;
  // Rows come in runs of one type (a thread's buffer): a run of a type of one kind is filled at once.
  for (let i = 0; i < n; ) {
    const ty = type[i];
    let j = i + 1;
    while (j < n && type[j] === ty) j++;
    const c = byCode[ty];
    if (c !== SPLIT) {
      if (c) out.fill(c, i, j);
    } else for (let k = i; k < j; k++) out[k] = splitKind(k);
    i = j;
  }
  return out;

  /** The kind of event i of a type whose events differ by stack and subject. */
  function splitKind(i: number): number {
    const s = e.stack[i];
    const subj = e.subject[i];
    if (profile.eventTypes[e.type[i]].kind === 'wait') {
      joinStack ??= stacksWith(profile, JOIN_FRAME);
      const onThread = subj >= 0 && profile.strings[subj] === 'java.lang.Thread';
      return code(onThread || joinStack(s) ? 'join' : 'wait');
    }
    idleStack ??= stacksWith(profile, IDLE_FRAME, ACQUIRE_FRAME);
    let cls = false;
    if (subj >= 0) {
      const known = idleClass.get(subj);
      cls = known ?? IDLE_CLASS.test(profile.strings[subj]);
      if (known === undefined) idleClass.set(subj, cls);
    }
    return code(cls || idleStack(s) ? 'idle' : 'park');
  }
}

export function waitKindOf(kinds: Uint8Array, i: IndexIntoEvents): WaitKind | null {
  return kinds[i] ? WAIT_KINDS[kinds[i] - 1] : null;
}

/**
 * One thread's waits as disjoint spans in time order, with prefix sums of their lengths:
 * covered time in any window is two binary searches.
 *
 * A list's own events, when nearly all are disjoint already (waits on one thread seldom
 * overlap), make the spans themselves: the track then reads them through the list's reach
 * (`of`: starts, ends, the few events merged into the span before them, and one prefix sum in
 * CUM_STEP spans), so millions of waits cost no copy of their times (spanStart, spanEnd, spanCum
 * read either form).
 */
export interface Track {
  /** Spans. */
  length: number;
  /** Span k is [start[k], end[k]) (empty when `of` is set). */
  start: Float64Array;
  end: Float64Array;
  /** cum[k]: total length of the spans before span k, length + 1 of them (empty when `of` is set). */
  cum: Float64Array;
  /** The list whose events make the spans (its reach has `merged`), with its sums; null for a track of its own arrays. */
  of: Reach | null;
}

/** Where span k of the track starts. */
export function spanStart(tr: Track, k: number): number {
  const of = tr.of;
  return of ? of.start[of.list[spanPos(of, k)]] : tr.start[k];
}

/** Where span k of the track ends. */
export function spanEnd(tr: Track, k: number): number {
  const of = tr.of;
  if (!of) return tr.end[k];
  if (of.disjoint) {
    const i = of.list[k];
    return of.start[i] + of.duration[i];
  }
  // At the reach of its last event (the events before it ended before it began).
  return reachAt(of, (k + 1 < tr.length ? spanPos(of, k + 1) : of.list.length) - 1);
}

/**
 * Total length of the spans before span k (k ≤ length). The lengths are added in the order the
 * reach's pass summed them, so both forms of a track give the very same number.
 */
export function spanCum(tr: Track, k: number): number {
  const of = tr.of;
  if (!of) return tr.cum[k];
  const { list, start, duration } = of;
  const j0 = k - (k % CUM_STEP);
  let sum = of.cum![j0 / CUM_STEP];
  if (of.disjoint) {
    for (let j = j0; j < k; j++) {
      const a = start[list[j]];
      sum += a + duration[list[j]] - a;
    }
    return sum;
  }
  // Span by span from the block's first: each its first event's start to the last end of the
  // events merged into it.
  const merged = of.merged!;
  let p = spanPos(of, j0);
  let x = p - j0;
  for (let j = j0; j < k; j++) {
    const a = start[list[p]];
    let e = a + duration[list[p]];
    p++;
    while (x < merged.length && merged[x] === p) {
      const f = start[list[p]] + duration[list[p]];
      if (f > e) e = f;
      p++;
      x++;
    }
    sum += e - a;
  }
  return sum;
}

const EMPTY_TRACK: Track = { length: 0, start: new Float64Array(0), end: new Float64Array(0), cum: new Float64Array(1), of: null };
const NONE = new Float64Array(0);

/**
 * The union of the spans of the events of `list` (sorted by start) that `keep` accepts (event,
 * position; null accepts all), in typed arrays: a list of millions of waits grows no array.
 */
export function trackOf(profile: Profile, list: Int32Array, keep: ((i: number, k: number) => boolean) | null): Track {
  // The track of a whole list (a thread's waits of one type, unfiltered) serves both the wait
  // strip and the selected type's activity: once per list.
  if (keep === null && list.length >= 1024) return wholeTracks.get(profile, list, () => wholeTrack(profile, list));
  return spansOf(profile, list, null, keep);
}

/** The track of a whole list: its own events, read through its reach, when nearly all are disjoint. */
function wholeTrack(profile: Profile, list: Int32Array): Track {
  const reach = reachOf(profile, list);
  if (reach.merged === null || list.length === 0) return spansOf(profile, list, null, null);
  return { length: spanCount(reach), start: NONE, end: NONE, cum: NONE, of: reach };
}

const wholeTracks = new ListMemo<Track>();

/**
 * The union of the spans of a list's events with a duration that match: those whose running
 * count `match` steps (null: all), and that `keep` accepts (null: all). Arrays sized by the
 * matches, filled in one pass; most used, they are views, else copies so the rest is freed.
 */
export function spansOf(profile: Profile, list: Int32Array, match: Int32Array | null, keep: ((i: number, k: number) => boolean) | null): Track {
  const { start, duration } = profile.events;
  // Room for one span per matching event: waits seldom overlap on a thread.
  const room = match ? match[list.length] - match[0] : list.length;
  const s = new Float64Array(room);
  const en = new Float64Array(room);
  let last = -1;
  for (let k = 0; k < list.length; k++) {
    if (match !== null && match[k + 1] === match[k]) continue;
    const i = list[k];
    const d = duration[i];
    if (!(d > 0) || (keep !== null && !keep(i, k))) continue;
    const a = start[i];
    const b = a + d;
    if (last >= 0 && !(a > en[last])) {
      if (b > en[last]) en[last] = b;
    } else {
      s[++last] = a;
      en[last] = b;
    }
  }
  const spans = last + 1;
  if (spans === 0) return EMPTY_TRACK;
  const fit = (a: Float64Array<ArrayBuffer>) => (spans > room >> 1 ? a.subarray(0, spans) : a.slice(0, spans));
  const cum = new Float64Array(spans + 1);
  for (let k = 0; k < spans; k++) cum[k + 1] = cum[k] + (en[k] - s[k]);
  return { length: spans, start: fit(s), end: fit(en), cum, of: null };
}

/** Time the track covers within [a, b), ms. */
export function covered(track: Track, a: number, b: number): number {
  const n = track.length;
  if (n === 0 || !(b > a)) return 0;
  // First span ending after a; first span starting at or after b.
  let lo = 0;
  let hi = n;
  if (track.of) lo = firstSpanPast(track.of, a, 0);
  else {
    while (lo < hi) {
      const m = (lo + hi) >> 1;
      if (spanEnd(track, m) <= a) lo = m + 1;
      else hi = m;
    }
  }
  const i = lo;
  hi = n;
  while (lo < hi) {
    const m = (lo + hi) >> 1;
    if (spanStart(track, m) < b) lo = m + 1;
    else hi = m;
  }
  const j = lo;
  if (j <= i) return 0;
  let t = spanCum(track, j) - spanCum(track, i);
  const si = spanStart(track, i);
  if (si < a) t -= a - si;
  const ej = spanEnd(track, j - 1);
  if (ej > b) t -= ej - b;
  return Math.max(0, t);
}

/** Per wait kind, per thread row: the track of all its waits of that kind (filters aside). */
export type WaitTracks = Record<WaitKind, Track[]>;

/** The tracks of every wait kind, from the index's per-thread lists of the interval types. */
export function waitTracks(profile: Profile, index: ThreadIndex, kinds: Uint8Array): WaitTracks {
  const ivTypes = profile.eventTypes.flatMap((t, ty) => (KINDS[t.kind].interval ? [ty] : []));
  const out = Object.fromEntries(WAIT_KINDS.map((k) => [k, [] as Track[]])) as unknown as WaitTracks;
  const codes = typeCodes(profile);
  const perKind = new Map<number, Int32Array[]>();
  // Lists holding events of several wait kinds (or none): a track keeps only its kind's.
  const mixed = new Set<Int32Array>();
  // Per code (0: no wait), whether a list holds events of it.
  const seen = new Uint8Array(WAIT_KINDS.length + 1);
  for (let t = 0; t < profile.threads.length; t++) {
    perKind.clear();
    mixed.clear();
    for (const ty of ivTypes) {
      const l = eventsOf(index, ty, t);
      if (l.length === 0) continue;
      // A type's events can be of several wait kinds (parks: locks or idle), each on its own track;
      // the other types' events are all of their type's kind.
      seen.fill(0);
      if (codes[ty] !== SPLIT) seen[codes[ty]] = 1;
      else for (let k = 0; k < l.length; k++) seen[kinds[l[k]]] = 1;
      const several = seen.reduce((a, b) => a + b, 0) > 1;
      for (let code = 1; code < seen.length; code++) {
        if (!seen[code]) continue;
        const lists = perKind.get(code) ?? [];
        lists.push(l);
        perKind.set(code, lists);
        if (several) mixed.add(l);
      }
    }
    WAIT_KINDS.forEach((k, c) => {
      const lists = perKind.get(c + 1);
      if (!lists) {
        out[k].push(EMPTY_TRACK);
        return;
      }
      // Lists of different types overlap in time: merge them by start before the union.
      const merged = lists.length === 1 ? lists[0] : mergeByStart(profile.events.start, lists);
      const pure = lists.every((l) => !mixed.has(l));
      out[k].push(trackOf(profile, merged, pure ? null : (i) => kinds[i] === c + 1));
    });
  }
  return out;
}


/**
 * Average number of the tracks' threads waiting in each of `columns` equal windows of
 * [from, to) (`keep[t]` 1 for the threads counted; null counts all).
 */
export function threadsWaiting(tracks: readonly Track[], keep: Uint8Array | null, from: number, to: number, columns: number): Float64Array {
  const out = new Float64Array(columns);
  const w = (to - from) / columns;
  if (!(w > 0)) return out;
  for (let t = 0; t < tracks.length; t++) {
    const tr = tracks[t];
    const n = tr.length;
    if (n === 0 || (keep && !keep[t])) continue;
    // Only the columns the thread's spans can touch.
    const first = Math.max(0, Math.floor((spanStart(tr, 0) - from) / w));
    const last = Math.min(columns - 1, Math.floor((spanEnd(tr, n - 1) - from) / w));
    if (first > last) continue;
    // The time covered before x, F(x) = cum[j] + the part of span j before x (j: the first span
    // ending after x), read at each column's edges left to right: a column's share is the
    // difference of its edges'. j only moves forward, by galloping, so a frame costs per column
    // a step or a short search, however many spans a column holds.
    let x = from + first * w;
    let j = firstEndAfter(tr, x, 0);
    const all = spanCum(tr, n);
    let before = j < n ? spanCum(tr, j) + Math.max(0, x - spanStart(tr, j)) : all;
    for (let c = first; c <= last; c++) {
      x = from + (c + 1) * w;
      j = firstEndAfter(tr, x, j);
      const upTo = j < n ? spanCum(tr, j) + Math.max(0, x - spanStart(tr, j)) : all;
      out[c] += (upTo - before) / w;
      before = upTo;
    }
  }
  return out;
}

/** The first span k ≥ from ending after x (ends ascend), by galloping from `from`. */
function firstEndAfter(tr: Track, x: number, from: number): number {
  if (tr.of) return firstSpanPast(tr.of, x, from);
  const n = tr.length;
  if (from >= n || spanEnd(tr, from) > x) return from;
  // Span lo ends at or before x; widen until hi ends after x (or the end), then search between.
  let lo = from;
  let step = 1;
  let hi = from + 1;
  while (hi < n && spanEnd(tr, hi) <= x) {
    lo = hi;
    step *= 2;
    hi = lo + step;
  }
  if (hi > n) hi = n;
  lo++;
  while (lo < hi) {
    const m = (lo + hi) >> 1;
    if (spanEnd(tr, m) <= x) lo = m + 1;
    else hi = m;
  }
  return lo;
}
