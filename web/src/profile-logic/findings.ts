/**
 * Findings: a few sentences with numbers about a time range, each computed by a function of
 * its own and each naming the view that shows it. Only what stands out: none when nothing does.
 *
 *   lock bursts in the range ─ holder and what it ran       "8 threads waited 3.2 s on …"
 *   contention over time ─ range against the rest, by kind  "7.9 threads were held up on average…"
 *   I/O durations ─ p95 in the range against the rest       "file reads took 4× longer…"
 *   GC pauses ─ their union over the range                  "GC pauses cover 12% of …"
 */
import type { Profile } from '../columns/profile';
import type { ThreadIndex } from './event-index';
import { threadLabel } from './names';
import { formatMs } from './format';
import { instanceText } from './filters';
import { onCpuDuring, sampleTypesOf, threadWeights, type Burst } from './locks';
import { topMethods } from './methods';
import type { Range } from './ranges';
import { covered, WAIT_INFO, WAIT_KINDS, type WaitKind, type WaitTracks } from './waits';

export interface Finding {
  text: string;
  /** Where it shows: a view, and a range to select (and a lane to pin) when it has one. */
  view: 'locks' | 'threads' | 'flame';
  range?: [number, number];
  pin?: string;
}

const threadName = (p: Profile, t: number) => threadLabel(p, t);
const pct = (x: number) => `${Math.round(x * 100)}%`;

/**
 * Who held the most waited-on lock of the range, and what it ran: the bursts of one object and
 * holder summed (waiters, wait inside the range), the holder's heaviest own method (its samples
 * over the bursts, the share of them under that method). Parks say the recording cannot tell.
 */
export function lockFinding(profile: Profile, index: ThreadIndex, bursts: readonly Burst[]): Finding | null {
  const groups = new Map<string, Burst[]>();
  for (const b of bursts) {
    const key = `${b.kind}\u0000${b.cls}\u0000${b.address}\u0000${b.holder}`;
    groups.set(key, [...(groups.get(key) ?? []), b]);
  }
  let best: Burst[] | null = null;
  let bestWait = 0;
  for (const g of groups.values()) {
    const w = g.reduce((a, b) => a + b.clipped, 0);
    if (w > bestWait) [best, bestWait] = [g, w];
  }
  if (!best || bestWait <= 0) return null;
  const e = profile.events;
  const waiters = new Set(best.flatMap((b) => b.waits.map((i) => e.thread[i]))).size;
  // A lone waiter is no pile-up.
  if (waiters < 2) return null;
  const b0 = best[0];
  const cls = profile.strings[b0.cls];
  const what = `${waiters} threads waited ${formatMs(bestWait)} in all on one ${instanceText(cls, b0.address)} ${b0.kind === 'monitor' ? 'monitor' : 'lock'}`;
  const range: [number, number] = [Math.min(...best.map((b) => b.start)), Math.max(...best.map((b) => b.end))];
  if (b0.holder < 0) {
    const onCpu = onCpuDuring(profile, index, b0, sampleTypesOf(profile));
    const who = onCpu.length ? `; on CPU meanwhile: ${onCpu.slice(0, 2).map((c) => threadName(profile, c.thread)).join(', ')}` : '';
    const why = b0.kind === 'park' ? 'JFR records no owner for java.util.concurrent locks' : 'this recording names no previous owner';
    return { text: `${what}; the recording cannot tell who held it (${why})${who}.`, view: 'locks', range };
  }
  const holder = threadName(profile, b0.holder);
  const types = sampleTypesOf(profile);
  const w = new Float64Array(profile.stacks.length + 1);
  for (const b of best) {
    const x = threadWeights(profile, index, b0.holder, b.start, b.end, types);
    for (let k = 0; k < w.length; k++) w[k] += x[k];
  }
  const total = w.reduce((a, b) => a + b, 0);
  // The method it spent its time in: the heaviest by self weight, with its share by total.
  const top = topMethods(profile, w).sort((a, b) => b.self - a.self)[0];
  const ran = top && total > 0 ? `, which ran ${profile.strings[top.name]} (${pct(top.total / total)} of its samples) meanwhile` : ', which has no samples in that time';
  return { text: `${what} held by ${holder}${ran}.`, view: 'locks', range: best.length === 1 ? range : undefined, pin: holder };
}

/** Average threads in waits of `kinds` over [a, b) for the kept threads. */
function meanWaiting(tracks: WaitTracks, kinds: readonly WaitKind[], keep: Uint8Array, a: number, b: number): number {
  if (!(b > a)) return 0;
  let sum = 0;
  for (const k of kinds) tracks[k].forEach((tr, t) => keep[t] && (sum += covered(tr, a, b)));
  return sum / (b - a);
}

/**
 * Threads held up (contention kinds) on average in the range against the rest, when clearly
 * higher: at least one on average and over twice the rest's (plus a half). Each kind is judged
 * on its own first, so that threads steadily blocked in one kind (idle servers in socket reads)
 * do not hide a pile-up of another; the kind that rose most is named. Failing that, all the kinds
 * together, naming the one that held them up most.
 */
export function contentionFinding(profile: Profile, tracks: WaitTracks, keep: Uint8Array, range: Range): Finding | null {
  const kinds = WAIT_KINDS.filter((k) => WAIT_INFO[k].contention);
  const end = Math.max(profile.info.durationMs, range[1]);
  const width = range[1] - range[0];
  const restWidth = end - width;
  const measure = (ks: readonly WaitKind[]) => {
    const inside = meanWaiting(tracks, ks, keep, range[0], range[1]);
    const rest = restWidth > 0 ? (meanWaiting(tracks, ks, keep, 0, end) * end - inside * width) / restWidth : 0;
    return { inside, rest };
  };
  const rises = ({ inside, rest }: { inside: number; rest: number }) => inside >= 1 && inside >= 2 * rest + 0.5;
  const sentence = (inside: number, rest: number, what: string) =>
    `${inside.toFixed(1)} threads were held up on average in the range (${what}), against ${rest.toFixed(1)} in the rest of the recording.`;
  const alone = kinds
    .map((k) => ({ k, ...measure([k]) }))
    .filter(rises)
    .sort((a, b) => b.inside - b.rest - (a.inside - a.rest))[0];
  if (alone) return { text: sentence(alone.inside, alone.rest, WAIT_INFO[alone.k].label.toLowerCase()), view: 'threads' };
  const all = measure(kinds);
  if (!rises(all)) return null;
  // The kind that held them up most.
  const by = kinds.map((k) => ({ k, v: meanWaiting(tracks, [k], keep, range[0], range[1]) })).sort((a, b) => b.v - a.v)[0];
  return { text: sentence(all.inside, all.rest, `mostly ${WAIT_INFO[by.k].label.toLowerCase()}`), view: 'threads' };
}

/** The p-th quantile (0..1) of the values, nearest rank. */
export function quantile(values: Float64Array | number[], p: number): number {
  if (values.length === 0) return NaN;
  const s = Float64Array.from(values).sort();
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil(p * s.length) - 1))];
}

/**
 * File or socket I/O (each type apart) slower in the range than in the rest: p95 at least twice
 * the rest's, with at least 20 events on each side.
 */
export function ioFindings(profile: Profile, index: ThreadIndex, range: Range, keep: Uint8Array): Finding[] {
  const e = profile.events;
  const out: Finding[] = [];
  profile.eventTypes.forEach((t, ty) => {
    if (t.kind !== 'io' || t.deferred) return;
    const inside: number[] = [];
    const rest: number[] = [];
    for (let row = 0; row <= profile.threads.length; row++) {
      if (row < profile.threads.length && !keep[row]) continue;
      const g = ty * index.rows + row;
      for (let k = index.off[g]; k < index.off[g + 1]; k++) {
        const i = index.order[k];
        const s = e.start[i];
        (s <= range[1] && s + e.duration[i] > range[0] ? inside : rest).push(e.duration[i]);
      }
    }
    if (inside.length < 20 || rest.length < 20) return;
    const a = quantile(inside, 0.95);
    const b = quantile(rest, 0.95);
    if (!(b > 0) || a < 2 * b) return;
    out.push({ text: `${t.label} took ${(a / b).toFixed(1)}× longer than in the rest of the recording (p95 ${formatMs(a)} vs ${formatMs(b)}, ${inside.length} against ${rest.length} events).`, view: 'threads' });
  });
  return out;
}

/** The share of the range that GC pauses cover (their union), when at least 5%. */
export function gcFinding(profile: Profile, gc: Int32Array, range: Range): Finding | null {
  const e = profile.events;
  let coveredMs = 0;
  let reach = range[0];
  for (const i of gc) {
    const a = Math.max(e.start[i], reach);
    const b = Math.min(e.start[i] + e.duration[i], range[1]);
    if (b > a) {
      coveredMs += b - a;
      reach = b;
    }
  }
  const share = coveredMs / Math.max(range[1] - range[0], 1e-9);
  if (share < 0.05) return null;
  return { text: `GC pauses cover ${pct(share)} of the range (${formatMs(coveredMs)}).`, view: 'flame' };
}

export interface FindingInputs {
  index: ThreadIndex;
  bursts: readonly Burst[];
  waits: WaitTracks;
  /** Per thread row, 1 when the filters keep it. */
  threads: Uint8Array;
  gc: Int32Array;
}

/** What stands out in the range (the whole recording without one), most telling first. */
export function findings(profile: Profile, range: Range | null, x: FindingInputs): Finding[] {
  const r: Range = range ?? [0, profile.info.durationMs];
  const out: Finding[] = [];
  const lock = lockFinding(profile, x.index, x.bursts);
  if (lock) out.push(lock);
  if (range) {
    const c = contentionFinding(profile, x.waits, x.threads, r);
    if (c) out.push(c);
    out.push(...ioFindings(profile, x.index, r, x.threads));
  }
  const g = gcFinding(profile, x.gc, r);
  if (g) out.push(g);
  return out;
}
