/**
 * Native memory from async-profiler's nativemem mode: which allocations were never freed, by
 * stack and over time.
 *
 *   profiler.Malloc (value = address, weight = size, stack) ┐ one pass in time order: a free
 *   profiler.Free   (value = address, no stack)             ┘ matches the latest malloc of its
 *     address ─ per malloc: freed or not ─ unfreed bytes per stack (a flame graph's weights)
 *                                         ─ outstanding bytes after each step (a line)
 *
 * A free of an address no malloc in the recording gave (allocated before it started) changes
 * nothing; a malloc at an address still live (its free went unrecorded) replaces the older one,
 * which counts as gone, as the JDK's reading of the same events does (tools/golden/Golden.java).
 */
import type { IndexIntoEvents, Profile } from '../columns/profile';
import { stackSlot, weightSlots } from './calltree';

export interface NativeMemory {
  /** 1 at each profiler.Malloc event that no free matched by the end of the recording. */
  unfreed: Uint8Array;
  /** Per stack slot (calltree's weightSlots): bytes allocated there and never freed. */
  unfreedWeights: Float64Array;
  /** Outstanding bytes (allocated in the recording, not yet freed) after each malloc or free, by time (ms). */
  t: Float64Array;
  bytes: Float64Array;
  allocations: number;
  allocatedBytes: number;
  /** Frees that matched a malloc of the recording, and the bytes they gave back. */
  frees: number;
  freedBytes: number;
  /** Frees of addresses the recording never saw allocated. */
  unmatchedFrees: number;
  unfreedCount: number;
  unfreedBytes: number;
}

/** Whether the profile holds async-profiler's malloc events. */
export function hasNativeMemory(profile: Profile): boolean {
  return profile.eventTypes.some((t) => t.name === 'profiler.Malloc' && t.count > 0);
}

/** Malloc and free events, matched by address in time order (file order among equal times). */
export function nativeMemory(profile: Profile): NativeMemory | null {
  const mallocType = profile.eventTypes.findIndex((t) => t.name === 'profiler.Malloc');
  if (mallocType < 0) return null;
  const freeType = profile.eventTypes.findIndex((t) => t.name === 'profiler.Free');
  const e = profile.events;
  const picked: number[] = [];
  for (let i = 0; i < e.length; i++) if (e.type[i] === mallocType || e.type[i] === freeType) picked.push(i);
  const order = Int32Array.from(picked).sort((a, b) => e.start[a] - e.start[b] || a - b);
  const live = new Map<number, IndexIntoEvents>();
  const unfreed = new Uint8Array(e.length);
  const t = new Float64Array(order.length);
  const bytes = new Float64Array(order.length);
  let outstanding = 0;
  let allocations = 0;
  let allocatedBytes = 0;
  let frees = 0;
  let freedBytes = 0;
  let unmatchedFrees = 0;
  for (let k = 0; k < order.length; k++) {
    const i = order[k];
    const address = e.value[i];
    if (e.type[i] === mallocType) {
      const size = e.weight[i];
      const older = live.get(address);
      if (older !== undefined) {
        unfreed[older] = 0;
        outstanding -= e.weight[older];
      }
      live.set(address, i);
      unfreed[i] = 1;
      outstanding += size;
      allocations++;
      allocatedBytes += size;
    } else {
      const m = live.get(address);
      if (m === undefined) unmatchedFrees++;
      else {
        live.delete(address);
        unfreed[m] = 0;
        outstanding -= e.weight[m];
        frees++;
        freedBytes += e.weight[m];
      }
    }
    t[k] = e.start[i];
    bytes[k] = outstanding;
  }
  const unfreedWeights = weightSlots(profile);
  let unfreedBytes = 0;
  for (const i of live.values()) {
    unfreedWeights[stackSlot(e.stack[i], profile.stacks.length)] += e.weight[i];
    unfreedBytes += e.weight[i];
  }
  return { unfreed, unfreedWeights, t, bytes, allocations, allocatedBytes, frees, freedBytes, unmatchedFrees, unfreedCount: live.size, unfreedBytes };
}

/** Unfreed allocations, and all allocations, made in a time range (ms, ends included). */
export interface UnfreedIn {
  /** 1 at each profiler.Malloc event made in the range that no free matched. */
  unfreed: Uint8Array;
  /** Per stack slot: bytes allocated in the range and never freed. */
  weights: Float64Array;
  count: number;
  bytes: number;
  allocations: number;
  allocatedBytes: number;
}

/**
 * What was allocated in `range` (a malloc happens in it when it starts inside, ends included, as
 * an instant does in ranges.ts) and never freed by the end of the recording; everything
 * without a range.
 */
export function unfreedIn(profile: Profile, nm: NativeMemory, range: [number, number] | null): UnfreedIn {
  if (!range) return { unfreed: nm.unfreed, weights: nm.unfreedWeights, count: nm.unfreedCount, bytes: nm.unfreedBytes, allocations: nm.allocations, allocatedBytes: nm.allocatedBytes };
  const e = profile.events;
  const mallocType = profile.eventTypes.findIndex((t) => t.name === 'profiler.Malloc');
  const unfreed = new Uint8Array(e.length);
  const weights = weightSlots(profile);
  const out = { unfreed, weights, count: 0, bytes: 0, allocations: 0, allocatedBytes: 0 };
  for (let i = 0; i < e.length; i++) {
    if (e.type[i] !== mallocType || e.start[i] < range[0] || e.start[i] > range[1]) continue;
    out.allocations++;
    out.allocatedBytes += e.weight[i];
    if (!nm.unfreed[i]) continue;
    unfreed[i] = 1;
    weights[stackSlot(e.stack[i], profile.stacks.length)] += e.weight[i];
    out.count++;
    out.bytes += e.weight[i];
  }
  return out;
}

export interface UnfreedSite {
  /** The stack's frames, leaf first, native frames of the allocator included. */
  frames: string[];
  /**
   * Where the code asked: the first frame, leaf first, that is neither the allocator's (malloc
   * hooks, os::malloc), nor native library code, nor the JDK's (java., jdk., sun.); else the
   * first that is not the allocator's.
   */
  site: string;
  /**
   * Where another row names the same site: the site's caller (the next frame, leaf first), so
   * the rows read apart; else null.
   */
  via: string | null;
  count: number;
  bytes: number;
}

/** Allocator frames skipped when naming where an allocation was asked for. */
const ALLOCATOR = /(^|\.)(malloc_hook|calloc_hook|realloc_hook|posix_memalign_hook|aligned_alloc_hook|malloc|calloc|realloc|os::malloc|os::realloc|AllocateHeap|ReallocateHeap)$|^libasyncProfiler\.so\./;

/** Native library and JDK frames, passed over when naming an allocation's site. */
const LIBRARY = /^(lib[^ ]*\.so[.\d]*\.|(java|javax|jdk|sun)\.)/;

/**
 * Unfreed allocations by stack, most bytes first: stacks of the same methods (as a flame graph
 * merges them: an interpreted and a compiled frame of one method are one) are one row.
 */
export function unfreedByStack(profile: Profile, nm: { unfreed: Uint8Array }, limit = 50): UnfreedSite[] {
  const e = profile.events;
  const { frame, prefix } = profile.stacks;
  const fname = profile.frames.name;
  const keyOf = new Map<number, string>();
  const by = new Map<string, { stack: number; count: number; bytes: number }>();
  for (let i = 0; i < e.length; i++) {
    if (!nm.unfreed[i]) continue;
    const s = e.stack[i];
    let key = keyOf.get(s);
    if (key === undefined) {
      const names: number[] = [s];
      for (let r = s; r >= 0; r = prefix[r]) names.push(fname[frame[r]]);
      key = s < 0 ? String(s) : names.slice(1).join(',');
      keyOf.set(s, key);
    }
    const cur = by.get(key) ?? { stack: s, count: 0, bytes: 0 };
    cur.count++;
    cur.bytes += e.weight[i];
    by.set(key, cur);
  }
  const rows = [...by.values()].sort((a, b) => b.bytes - a.bytes || b.count - a.count).slice(0, limit);
  const sites = rows.map(({ stack: s, ...v }) => {
    const frames: string[] = [];
    if (s === -2) frames.push('(stack lost: chunk cut)');
    for (let r = s; r >= 0; r = prefix[r]) frames.push(profile.strings[fname[frame[r]]]);
    const site = frames.find((f) => !ALLOCATOR.test(f) && !LIBRARY.test(f)) ?? frames.find((f) => !ALLOCATOR.test(f)) ?? frames[0] ?? '(no stack)';
    return { frames, site, via: null as string | null, count: v.count, bytes: v.bytes };
  });
  const named = new Map<string, number>();
  for (const x of sites) named.set(x.site, (named.get(x.site) ?? 0) + 1);
  for (const x of sites) if (named.get(x.site)! > 1) x.via = x.frames[x.frames.indexOf(x.site) + 1] ?? null;
  return sites;
}
