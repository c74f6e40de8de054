/**
 * A time range's events, with interval semantics: an instant (a sample) is in the range when it
 * happens inside it; an interval (a lock wait, a park, a read) when it overlaps the range, and
 * its duration counts only for the part inside (a 400 ms wait seen through a 100 ms window
 * weighs 100 ms).
 *
 *   list by start   [a────────]  [b──]   [c─]  [d───────]
 *   range                  |==========================|
 *   positions       lo (first reaching in)  mid (first starting in)   hi (first starting after)
 *
 * Positions come from binary searches over the list and its reach (running maximum of ends);
 * events in [mid, hi) overlap for sure; those in [lo, mid) only when they end inside.
 */
import { stackSlot, weightSlots } from './calltree';
import { callNodes, weighEntries, weightedRows, withSlots, type EntryWeights, type ReducedNodes } from './callnodes';
import type { StackFilter } from './filters';
import { firstAtOrAfter, firstPast } from './event-index';
import { eventWeight, type WeightMode } from './kinds';
import type { Cumulative } from './running-counts';
import type { Profile } from '../columns/profile';

export type Range = readonly [number, number];

/** Positions [lo, hi) of a time-sorted list whose events start in [from, to] (the whole list when no range). */
export function rangePositions(profile: Profile, list: Int32Array, range: Range | null): [number, number] {
  if (!range) return [0, list.length];
  const start = profile.events.start;
  const lo = firstAtOrAfter(start, list, range[0]);
  // First position starting after range[1]: the end is inclusive.
  let a = lo;
  let b = list.length;
  while (a < b) {
    const mid = (a + b) >> 1;
    if (start[list[mid]] <= range[1]) a = mid + 1;
    else b = mid;
  }
  return [lo, a];
}

/**
 * [lo, mid, hi]: events in [mid, hi) start inside the range; those in [lo, mid) started before
 * it and may reach into it (only for lists with a reach; lo = mid otherwise).
 */
export function overlapPositions(profile: Profile, cum: Cumulative, range: Range | null): [number, number, number] {
  const [mid, hi] = rangePositions(profile, cum.list, range);
  if (!range || !cum.reach) return [mid, mid, hi];
  return [Math.min(mid, firstPast(cum.reach, range[0])), mid, hi];
}

/** Whether event `i`, which started before the range, reaches into it. */
function reachesIn(profile: Profile, i: number, range: Range): boolean {
  return profile.events.start[i] + profile.events.duration[i] > range[0];
}

/** The part of event `i`'s duration inside the range (all of it without a range), ms. */
export function durationIn(profile: Profile, i: number, range: Range | null): number {
  const d = profile.events.duration[i];
  if (!range) return d;
  const s = profile.events.start[i];
  return Math.max(0, Math.min(s + d, range[1]) - Math.max(s, range[0]));
}

/** Event `i`'s weight as the view weighs it (kinds.ts), its duration clipped to the range. */
export function weightIn(profile: Profile, i: number, mode: WeightMode, range: Range | null): number {
  return mode === 'duration' ? durationIn(profile, i, range) : eventWeight(profile, i, mode);
}

/** Visit every matching event of the lists in the range (overlapping, for intervals), list by list. */
export function forEachInRange(profile: Profile, cums: readonly Cumulative[], range: Range | null, visit: (i: number, part: number) => void): void {
  cums.forEach((cum, part) => {
    const [lo, mid, hi] = overlapPositions(profile, cum, range);
    const { list, match: m } = cum;
    for (let k = lo; k < mid; k++) if (m[k + 1] !== m[k] && reachesIn(profile, list[k], range!)) visit(list[k], part);
    for (let k = mid; k < hi; k++) if (m[k + 1] !== m[k]) visit(list[k], part);
  });
}

/**
 * Of the matching events' durations, the time before the recording began (ms since its start
 * < 0): a wait already going on when recording started is written with its own start. Each list
 * is in start order, so only its first events are read.
 */
export function timeBeforeStart(profile: Profile, cums: readonly Cumulative[]): number {
  const { start, duration } = profile.events;
  let sum = 0;
  for (const { list, match: m } of cums) {
    for (let k = 0; k < list.length && start[list[k]] < 0; k++) {
      if (m[k + 1] === m[k]) continue;
      const i = list[k];
      sum += Math.min(start[i] + duration[i], 0) - start[i];
    }
  }
  return sum;
}

/** How many events of the lists match and are in the range. */
export function countInRange(profile: Profile, cums: readonly Cumulative[], range: Range | null): number {
  let n = 0;
  for (const cum of cums) {
    const [lo, mid, hi] = overlapPositions(profile, cum, range);
    n += cum.match[hi] - cum.match[mid];
    for (let k = lo; k < mid; k++) if (cum.match[k + 1] !== cum.match[k] && reachesIn(profile, cum.list[k], range!)) n++;
  }
  return n;
}

/** The matching events of the lists in the range (all when no range), list by list. */
export function selectInRanges(profile: Profile, cums: readonly Cumulative[], range: Range | null): Int32Array {
  const out: number[] = [];
  forEachInRange(profile, cums, range, (i) => out.push(i));
  return Int32Array.from(out);
}

/**
 * Weight per stack row (then "no stack" and "stack lost": calltree's weightSlots) of the matching
 * events in the range, durations clipped to it. The events starting inside the range are summed
 * in a loop per weight mode (the keystroke's pass over every selected event); those that began
 * before it and reach in, with their clipped durations.
 */
export function weightsInRange(profile: Profile, cums: readonly Cumulative[], range: Range | null, mode: WeightMode): Float64Array {
  const out = weightSlots(profile);
  const n = profile.stacks.length;
  const byWeight = mode === 'samples' || mode === 'bytes';
  const byDuration = mode === 'duration';
  // (The weights only when they count: a pick may leave the column unwritten until read.)
  const { stack, duration } = profile.events;
  const weight = byWeight ? profile.events.weight : null;
  // The slots that gain weight, each once (see callnodes.ts withSlots).
  const slots = new SlotList();
  const add = (slot: number, x: number) => {
    const before = out[slot];
    out[slot] = before + x;
    if (before === 0 && out[slot] > 0) slots.push(slot);
  };
  for (const cum of cums) {
    const [lo, mid, hi] = overlapPositions(profile, cum, range);
    const { list, match: m } = cum;
    for (let k = lo; k < mid; k++) {
      const i = list[k];
      if (m[k + 1] !== m[k] && reachesIn(profile, i, range!)) add(stackSlot(stack[i], n), weightIn(profile, i, mode, range));
    }
    // Every event inside matches and keeps its weight whole (no duration to clip): the plain sum.
    if (m[hi] - m[mid] === hi - mid && !(byDuration && range)) {
      addEvery(list, mid, hi, stack, weight ?? (byDuration ? duration : null), n, out, slots);
      continue;
    }
    // Inside the range: a duration is clipped only at the range's end (as durationIn reckons it).
    const end = range ? range[1] : Infinity;
    const start = profile.events.start;
    for (let k = mid; k < hi; k++) {
      if (m[k + 1] === m[k]) continue;
      const i = list[k];
      const s = stack[i];
      const slot = s >= 0 ? s : stackSlot(s, n);
      const x = weight ? weight[i] : byDuration ? (range ? Math.max(0, Math.min(start[i] + duration[i], end) - start[i]) : duration[i]) : 1;
      const before = out[slot];
      out[slot] = before + x;
      if (before === 0 && out[slot] > 0) slots.push(slot);
    }
  }
  return withSlots(out, slots.list());
}

/**
 * Whether a type's weights are better summed per entry of its reduced nodes than per stack row
 * (entryWeightsInRange): when the stack table has many times more rows than the lists have
 * events. An array over the rows costs its 8 bytes a row in fresh memory each time (107 MB for
 * the 13.4 M rows of a pick of 374 K allocations with deep, varied stacks, most of the time the
 * sum takes); a hash of the rows the events reach costs a probe an event.
 */
export function sparseRows(profile: Profile, cums: readonly Cumulative[]): boolean {
  let events = 0;
  for (const c of cums) events += c.list.length;
  return profile.stacks.length > 4 * events;
}

/**
 * weightsInRange summed per entry of the type's reduced nodes `r` (the flame graph's sums, as
 * callnodes.ts reducedWeights makes them from weightsInRange: each row's events in the same
 * order, then the rows in the order they gained weight, so equal to the bit), with "no stack"
 * and "stack lost", and no array over every stack row: the rows' sums are kept in a hash of the
 * rows the events reach. Null when a weighted row lies outside `r`.
 */
export function entryWeightsInRange(profile: Profile, cums: readonly Cumulative[], range: Range | null, mode: WeightMode, r: ReducedNodes): EntryWeights | null {
  const n = profile.stacks.length;
  const stack = profile.events.stack;
  const sums = new SlotSums();
  // Each event weighs weightIn (an event inside the range has its duration clipped at the range's
  // end alone, as weightsInRange's loops clip it); the weight column read once, not per event.
  const weight = mode === 'samples' || mode === 'bytes' ? profile.events.weight : null;
  const visit =
    mode === 'duration'
      ? (i: number) => sums.add(stackSlot(stack[i], n), durationIn(profile, i, range))
      : weight
        ? (i: number) => sums.add(stackSlot(stack[i], n), weight[i])
        : (i: number) => sums.add(stackSlot(stack[i], n), 1);
  forEachInRange(profile, cums, range, visit);
  const reduced = weighEntries(callNodes(profile), r, sums.order.list(), (s) => sums.get(s));
  return reduced && { reduced, noStack: sums.get(n), stackLost: sums.get(n + 1) };
}

/** Sums per slot of weightSlots' numbering, for a few of many slots: open addressing, linear probing. */
class SlotSums {
  /** Slot + 1 per place (0: empty), and its sum. */
  private keys = new Int32Array(1024);
  private sums = new Float64Array(1024);
  private count = 0;
  /** The slots in the order their sums first turned positive (as weightsInRange lists them). */
  readonly order = new SlotList();

  private place(slot: number): number {
    const mask = this.keys.length - 1;
    let h = Math.imul(slot, 0x9e3779b1) & mask;
    while (this.keys[h] !== 0 && this.keys[h] !== slot + 1) h = (h + 1) & mask;
    return h;
  }

  add(slot: number, x: number): void {
    let h = this.place(slot);
    if (this.keys[h] === 0) {
      if (2 * (this.count + 1) > this.keys.length) {
        this.grow();
        h = this.place(slot);
      }
      this.keys[h] = slot + 1;
      this.count++;
    }
    const before = this.sums[h];
    const after = before + x;
    this.sums[h] = after;
    if (before === 0 && after > 0) this.order.push(slot);
  }

  /** The slot's sum, 0 when it has none. */
  get(slot: number): number {
    const h = this.place(slot);
    return this.keys[h] === 0 ? 0 : this.sums[h];
  }

  private grow(): void {
    const { keys, sums } = this;
    this.keys = new Int32Array(keys.length * 2);
    this.sums = new Float64Array(keys.length * 2);
    for (let k = 0; k < keys.length; k++) {
      if (keys[k] === 0) continue;
      const h = this.place(keys[k] - 1);
      this.keys[h] = keys[k];
      this.sums[h] = sums[k];
    }
  }
}

/** Slots in the order they gained weight, in a typed array grown by doubling. */
class SlotList {
  private a = new Int32Array(1024);
  private n = 0;

  push(slot: number): void {
    if (this.n === this.a.length) {
      const more = new Int32Array(this.a.length * 2);
      more.set(this.a);
      this.a = more;
    }
    this.a[this.n++] = slot;
  }

  /** The slots: a view when they fill most of the room, else a copy so the rest is freed. */
  list(): Int32Array {
    return this.n > this.a.length >> 1 ? this.a.subarray(0, this.n) : this.a.slice(0, this.n);
  }
}

/**
 * Adds each event of list[from, to)'s weight (`values[i]`, 1 without) to its stack's slot of
 * `out`, noting in `slots` each slot that gains its first weight: the loop of a pick's millions
 * of events, with nothing to test per event.
 */
function addEvery(list: Int32Array, from: number, to: number, stack: Int32Array, values: Float64Array | Float32Array | null, n: number, out: Float64Array, slots: SlotList): void {
  for (let k = from; k < to; k++) {
    const i = list[k];
    const s = stack[i];
    const slot = s >= 0 ? s : stackSlot(s, n);
    const before = out[slot];
    const after = before + (values ? values[i] : 1);
    out[slot] = after;
    if (before === 0 && after > 0) slots.push(slot);
  }
}

/**
 * The weights of `base` (weightsInRange of the events the filters other than the stack filters
 * keep) on the stack rows `stack` keeps, "no stack" and "stack lost" when `noStack`: the stack
 * filters are a test per stack row, so this equals weightsInRange of the events all the filters
 * keep, in a pass over the rows that hold weight instead of over the events (a keystroke in the
 * stack filter changes only this).
 */
export function keptWeights(profile: Profile, base: Float64Array, stack: StackFilter, noStack: boolean): Float64Array {
  const out = weightSlots(profile);
  const n = profile.stacks.length;
  const rows = weightedRows(base, n + 2);
  const kept = new Int32Array(rows.length);
  let c = 0;
  for (let k = 0; k < rows.length; k++) {
    const s = rows[k];
    if (s < 0 || s >= out.length || !(base[s] > 0)) continue;
    if (s < n ? stack.test(s) : noStack) {
      out[s] = base[s];
      kept[c++] = s;
    }
  }
  return withSlots(out, kept.slice(0, c));
}
