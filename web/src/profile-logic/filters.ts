/**
 * What the filters select, as plain arrays over the profile's columns:
 *
 *   regex text ─ compileRegex ─ per frame name (tested once) ─ per stack (propagated along
 *   the prefix tree, from the first known caller, for the rows events reach) ─ per event:
 *   selected or not
 *
 * Every function is pure and allocation-light so a keystroke re-filters a million events fast.
 */
import { RE2JS } from 're2js';
import type { IndexIntoEventTypes, Profile } from '../columns/profile';
import { callNodes, entryOf, keptEntries, nameEntries, reducedWeights, type CallNodeTable, type EntryWeights, type ReducedNodes } from './callnodes';
import { firstReachingPast, ListMemo } from './event-index';
import { threadLabel } from './names';
import { hasInstances } from './kinds';
import { allMatch, noneMatch, type Cumulative } from './running-counts';

/** What a compiled filter answers: whether a name matches (anywhere in it, as RegExp.test). */
export interface Matcher {
  test(s: string): boolean;
}

export type RegexResult = { ok: true; re: Matcher | null } | { ok: false; error: string };

/**
 * An empty text means "no filter"; an invalid one is reported, never thrown. Filters come from
 * links as well as the keyboard, so they run on RE2 (re2js): time linear in the name whatever
 * the pattern (`(\w+\.?)+$` cannot freeze the tab as it does with RegExp), at the price of
 * backreferences and lookaround, which RE2 refuses and the message says so.
 */
export function compileRegex(text: string): RegexResult {
  if (text.trim() === '') return { ok: true, re: null };
  try {
    const re = RE2JS.compile(text);
    return { ok: true, re: { test: (s) => re.test(s) } };
  } catch (e) {
    const why = (e instanceof Error ? e.message : String(e)).replace(/^error parsing regexp: /, '');
    const unsupported = /\\[1-9]|\(\?<?[=!]/.test(text);
    return {
      ok: false,
      error: unsupported
        ? `Backreferences and lookaround are not supported (filters run on RE2, in time linear in the name): ${why}`
        : `Invalid regular expression: ${why}`,
    };
  }
}

/**
 * The stack filters (include and exclude) per call node (callnodes.ts: the stack table merged by
 * frame name, once per profile), found on demand: an event's node is resolved with its callers up
 * to the first node already known, each name tested once, so a keystroke costs the nodes the
 * selected events reach, not the whole stack table (tens of millions of rows in a recording of
 * deep, varied stacks). Whether a path matches depends only on its names, so a node answers for
 * every stack row merged into it.
 *
 *   memo[node]: 0 not known yet, else 1 + (the include matches on its path) + 2 × (the exclude does)
 */
export class StackFilter {
  readonly memo: Uint8Array;
  /** Per memo value: 1 where the filters keep the row. */
  readonly keeps: Uint8Array;
  /** Per stack row, its call node. */
  readonly ofStack: Int32Array;
  /** Per string: 0 untested, else 1 + include matches + 2 × exclude matches. */
  private readonly names: Uint8Array;
  private readonly nodes: CallNodeTable;
  private readonly path: Int32Array;
  /** Per entry of `reduced`: its memo value, all made on first use; null without reduced nodes. */
  private entryMemo: Uint8Array | null = null;
  constructor(
    private readonly profile: Profile,
    private readonly inc: Matcher | null,
    private readonly exc: Matcher | null,
    /** The type's reduced call nodes: its rows are resolved per entry, each chain's names matched once. */
    readonly reduced: ReducedNodes | null = null,
  ) {
    this.nodes = callNodes(profile);
    this.ofStack = this.nodes.ofStack;
    this.memo = new Uint8Array(this.nodes.length);
    this.names = new Uint8Array(profile.strings.length);
    this.path = new Int32Array(this.nodes.maxDepth + 2);
    this.keeps = new Uint8Array(5);
    for (let v = 1; v <= 4; v++) {
      const i = (v - 1) & 1;
      const e = (v - 1) & 2;
      this.keeps[v] = (!inc || i) && !(exc && e) ? 1 : 0;
    }
  }

  /** The profile the filter reads. */
  profileOf(): Profile {
    return this.profile;
  }

  private nameBits(n: number): number {
    let v = this.names[n];
    if (v === 0) {
      const text = this.profile.strings[n] ?? '';
      v = 1 + (this.inc?.test(text) ? 1 : 0) + (this.exc?.test(text) ? 2 : 0);
      this.names[n] = v;
    }
    return v - 1;
  }

  /** The memo value of call node `g`, resolving it and its unknown callers. */
  resolveNode(g: number): number {
    const { memo, path } = this;
    const { prefix, name } = this.nodes;
    let top = 0;
    let q = g;
    // Callers are always lower nodes: the walk ends.
    while (q >= 0 && memo[q] === 0) {
      path[top++] = q;
      q = prefix[q];
    }
    let bits = q >= 0 ? memo[q] - 1 : 0;
    while (top > 0) {
      const r = path[--top];
      bits |= this.nameBits(name[r]);
      memo[r] = bits + 1;
    }
    return memo[g];
  }

  /**
   * Every node at once, in index order (callers come first): typed reads only, cheaper than the
   * walks once the events reach more than a few nodes in ten.
   */
  resolveAll(): void {
    const { memo } = this;
    const { prefix, name, length } = this.nodes;
    const names = this.names;
    for (let g = 0; g < length; g++) {
      const p = prefix[g];
      const n = name[g];
      const b = names[n];
      memo[g] = ((p >= 0 ? memo[p] - 1 : 0) | (b === 0 ? this.nameBits(n) : b - 1)) + 1;
    }
  }

  /** The memo value of stack row `s` (a row outside the table matches no name). */
  resolve(s: number): number {
    const g = s >= 0 && s < this.ofStack.length ? this.ofStack[s] : -1;
    if (g < 0) return 1;
    const v = this.memo[g];
    if (v !== 0) return v;
    if (this.reduced) {
      const e = entryOf(this.reduced, g);
      // Kept for the node too: the row is looked up again (its weight kept or not).
      if (e >= 0) return (this.memo[g] = this.entryValue(e));
    }
    return this.resolveNode(g);
  }

  /** The memo value of entry `e` of the reduced nodes. */
  entryValue(e: number): number {
    return (this.entryMemo ?? this.resolveEntries())[e];
  }

  /**
   * Every entry of the reduced nodes: the names of the entries' chains each tested once, the
   * entries of those matched marked (callnodes.ts nameEntries), then callers first, each entry
   * with its caller's bits: a pass over the entries and the marks of the names matched.
   */
  private resolveEntries(): Uint8Array {
    const r = this.reduced!;
    const { names, start, entries } = nameEntries(this.nodes, r, this.profile.strings.length);
    const out = new Uint8Array(r.length);
    for (let k = 0; k < names.length; k++) {
      const b = this.nameBits(names[k]);
      if (b === 0) continue;
      for (let j = start[k]; j < start[k + 1]; j++) out[entries[j]] |= b;
    }
    // Callers have lower entries: each caller's value is final when its callees read it.
    const up = r.up;
    for (let e = 0; e < r.length; e++) {
      const u = up[e];
      out[e] = 1 + (out[e] | (u >= 0 ? out[u] - 1 : 0));
    }
    this.entryMemo = out;
    return out;
  }

  /** Whether the filters keep stack row `s`. */
  test(s: number): boolean {
    return this.keeps[this.resolve(s)] === 1;
  }

  /** Per entry of the reduced nodes (none without them): 1 where the filters keep its rows. */
  entryKeeps(): Uint8Array {
    if (!this.reduced) return new Uint8Array(0);
    const values = this.entryMemo ?? this.resolveEntries();
    const out = new Uint8Array(values.length);
    for (let e = 0; e < values.length; e++) out[e] = this.keeps[values[e]];
    return out;
  }
}

/**
 * The weights of `base` (the events the other filters keep: per stack row, recorded with the
 * type's reduced nodes by callnodes.ts withReduced, or per entry of those nodes, ranges.ts
 * entryWeightsInRange) that the stack filters keep, per entry of those nodes, with "no stack"
 * and "stack lost" when `noStack`: what ranges.ts keptWeights keeps, summed as the flame graph
 * sums it, in a pass over the entries instead of the weighted rows and without an array over
 * every stack row (tens of megabytes per keystroke). Null when the base is not summed over the
 * filter's reduced nodes (a row outside them, or none).
 */
export function keptByEntry(profile: Profile, base: Float64Array | EntryWeights, filter: StackFilter, noStack: boolean): EntryWeights | null {
  if (!filter.reduced) return null;
  const dense = base instanceof Float64Array;
  const w = dense ? reducedWeights(callNodes(profile), base) : base.reduced;
  if (!w || w.r !== filter.reduced) return null;
  const rows = profile.stacks.length;
  const [lostNone, lostCut] = dense ? [base[rows] ?? 0, base[rows + 1] ?? 0] : [base.noStack, base.stackLost];
  return {
    reduced: keptEntries(w, filter.entryKeeps()),
    noStack: noStack ? lostNone : 0,
    stackLost: noStack ? lostCut : 0,
  };
}

/** For each thread row, whether its name matches `re` (all when `re` is null). */
export function threadsMatching(profile: Profile, re: Matcher | null, hidden: ReadonlySet<string>): Uint8Array {
  const out = new Uint8Array(profile.threads.length);
  for (let t = 0; t < profile.threads.length; t++) {
    const name = profile.strings[profile.threads.name[t]];
    out[t] = !hidden.has(threadLabel(profile, t)) && (re === null || re.test(name)) ? 1 : 0;
  }
  return out;
}

/** "class @ 0xaddress" of an address that is there, else the class. */
export function instanceText(cls: string, address: number): string {
  return Number.isFinite(address) && address > 0 ? `${cls} @ 0x${address.toString(16)}` : cls;
}

export interface FilterSpec {
  type: IndexIntoEventTypes;
  thread: Matcher | null;
  stack: Matcher | null;
  exclude: Matcher | null;
  /** Thread state name to keep, or '' for all. */
  state: string;
  hiddenThreads: ReadonlySet<string>;
  /**
   * Keep events whose subject matches: the monitor class, path, host or allocated class, and for
   * lock waits and parks the instance too ("java.lang.Object @ 0x1a2b3c40", subjects.ts).
   */
  subject?: Matcher | null;
  /** Keep events whose duration lies in [min, max] ms (a box on the latency heatmap). */
  duration?: readonly [number, number] | null;
  /**
   * Keep events that start inside a span (async-profiler's profiler.Span) of their own thread
   * whose tag matches.
   */
  span?: Matcher | null;
  /** The type's reduced call nodes (callnodes.ts reduceNodes): the stack filters resolve its rows per entry. */
  reduced?: ReducedNodes | null;
}

/** Per thread row: the union of its spans whose tag `re` matches, by start. */
export interface SpanTracks {
  start: Map<number, Float64Array>;
  end: Map<number, Float64Array>;
}

export function spanTracks(profile: Profile, re: Matcher): SpanTracks {
  const e = profile.events;
  const spanTypes = new Set(profile.eventTypes.flatMap((t, ty) => (t.kind === 'span' ? [ty] : [])));
  const tagOk = new Map<number, boolean>();
  const per = new Map<number, number[]>();
  for (let i = 0; i < e.length; i++) {
    if (!spanTypes.has(e.type[i]) || e.thread[i] < 0) continue;
    const tag = e.subject[i];
    let ok = tagOk.get(tag);
    if (ok === undefined) tagOk.set(tag, (ok = re.test(tag >= 0 ? profile.strings[tag] : '')));
    if (!ok) continue;
    const l = per.get(e.thread[i]) ?? [];
    l.push(i);
    per.set(e.thread[i], l);
  }
  const start = new Map<number, Float64Array>();
  const end = new Map<number, Float64Array>();
  for (const [t, l] of per) {
    l.sort((a, b) => e.start[a] - e.start[b]);
    const s: number[] = [];
    const en: number[] = [];
    for (const i of l) {
      const a = e.start[i];
      const b = a + e.duration[i];
      if (en.length && a <= en[en.length - 1]) en[en.length - 1] = Math.max(en[en.length - 1], b);
      else {
        s.push(a);
        en.push(b);
      }
    }
    start.set(t, Float64Array.from(s));
    end.set(t, Float64Array.from(en));
  }
  return { start, end };
}

/** Whether time `at` on thread `t` lies inside one of its spans in `tracks`. */
export function inSpan(tracks: SpanTracks, t: number, at: number): boolean {
  const s = tracks.start.get(t);
  if (!s) return false;
  // The first span starting after `at` (the same search as the first reach past a time).
  const lo = firstReachingPast(s, at);
  return lo > 0 && at <= tracks.end.get(t)![lo - 1];
}

export interface Filtered {
  /** 1 where the event is of the type and passes thread, stack, exclude and state filters (made when first read). */
  readonly match: Uint8Array;
  /** 1 where the event is of the selected type at all (matching or not; made when first read). */
  readonly ofType: Uint8Array;
  /** Per thread row: 1 when the thread filter keeps it and it is not hidden. */
  threads: Uint8Array;
}

/**
 * The thread states (string indexes) the events of `type` hold, `candidates` being them: read
 * through the candidates when they are few; when they are most of the rows, along the columns in
 * order (a gather of millions costs more than a scan).
 */
export function typeStates(profile: Profile, type: IndexIntoEventTypes, candidates: Int32Array): number[] {
  // Known from the decoding (every piece of its rows said "no state"): no pass over the rows.
  if (profile.eventTypes[type]?.noStates) return [];
  const { type: types, state, length: n } = profile.events;
  const seen = new Set<number>();
  let last = -1;
  if (candidates.length * 4 < n) {
    for (let k = 0; k < candidates.length; k++) {
      const s = state[candidates[k]];
      if (s >= 0 && s !== last) seen.add((last = s));
    }
  } else {
    for (let i = 0; i < n; i++) {
      if (types[i] !== type) continue;
      const s = state[i];
      if (s >= 0 && s !== last) seen.add((last = s));
    }
  }
  return [...seen];
}

/** 1 at each of `candidates` (the events of one type). */
export function flagsOf(length: number, candidates: Int32Array): Uint8Array {
  const out = new Uint8Array(length);
  for (let k = 0; k < candidates.length; k++) out[candidates[k]] = 1;
  return out;
}

/**
 * The per-event part of the filters (stack, exclude, state, subject; not type or thread),
 * compiled once per filter change: regexes are tested once per frame name, stack row, subject or
 * instance, never per event. Null when none applies.
 */
export interface EventTest {
  /** The stack filters per stack row; null without stack filters. */
  stackOk: StackFilter | null;
  /** Whether an event without a stack passes the stack filters. */
  noStack: boolean;
  /** String index of the thread state to keep; -2 for any. */
  state: number;
  /** Per subject string: 0 untested, 1 matches, 2 does not; null without a subject filter. */
  subjectOk: Uint8Array | null;
  /** The same per (class, address), for lock waits and parks. */
  instanceOk: Map<number, Map<number, boolean>> | null;
  subject: Matcher | null;
  /** [min, max] ms of duration to keep; null for any. */
  duration: readonly [number, number] | null;
  /** The spans whose tag the span filter keeps; null without one. */
  spans: SpanTracks | null;
  profile: Profile;
}

export function eventTest(profile: Profile, spec: FilterSpec): EventTest | null {
  const inc = spec.stack ?? null;
  const exc = spec.exclude ?? null;
  const state = spec.state ? profile.strings.indexOf(spec.state) : -2;
  const subject = spec.subject ?? null;
  const duration = spec.duration ?? null;
  const spans = spec.span ? spanTracks(profile, spec.span) : null;
  if (!inc && !exc && state === -2 && !subject && !duration && !spans) return null;
  const stackOk = inc || exc ? new StackFilter(profile, inc, exc, spec.reduced ?? null) : null;
  const instances = hasInstances(profile.eventTypes[spec.type]?.kind);
  return {
    stackOk,
    noStack: inc === null,
    state,
    subjectOk: subject && !instances ? new Uint8Array(profile.strings.length) : null,
    instanceOk: subject && instances ? new Map() : null,
    subject,
    duration,
    spans,
    profile,
  };
}

/** Whether event `i` passes the compiled test. */
export function passes(f: EventTest, i: number): boolean {
  const e = f.profile.events;
  if (f.stackOk) {
    const s = e.stack[i];
    if (s < 0 ? !f.noStack : !f.stackOk.test(s)) return false;
  }
  if (f.state !== -2 && e.state[i] !== f.state) return false;
  if (f.duration && (e.duration[i] < f.duration[0] || e.duration[i] > f.duration[1])) return false;
  if (f.spans && !inSpan(f.spans, e.thread[i], e.start[i])) return false;
  if (f.subjectOk) {
    const j = e.subject[i];
    if (j < 0) return false;
    if (f.subjectOk[j] === 0) f.subjectOk[j] = f.subject!.test(f.profile.strings[j]) ? 1 : 2;
    return f.subjectOk[j] === 1;
  }
  if (f.instanceOk) {
    const j = e.subject[i];
    if (j < 0) return false;
    let byAddress = f.instanceOk.get(j);
    if (!byAddress) f.instanceOk.set(j, (byAddress = new Map()));
    let ok = byAddress.get(e.value[i]);
    if (ok === undefined) byAddress.set(e.value[i], (ok = f.subject!.test(instanceText(f.profile.strings[j], e.value[i]))));
    return ok;
  }
  return true;
}

/**
 * Running counts along `list` of the events the stack filters keep (the keystroke's loop), and
 * of those in a running state when `running` is given: one byte per stack row read per event
 * (`rowKeep`: 0 not known yet, 1 dropped, 2 kept), the row's node resolved the first time; without
 * it (fewer events than rows), the node's byte.
 */
function countKept(list: Int32Array, events: Profile['events'], filter: StackFilter, rowKeep: Uint8Array | null, noStack: number, running: Uint8Array | null, m: Int32Array, r: Int32Array): void {
  const stack = events.stack;
  // (The states only with running counts to make: a pick may leave them unwritten until read.)
  const state = running ? events.state : null;
  const keeps = filter.keeps;
  let cm = 0;
  let cr = 0;
  for (let k = 0; k < list.length; k++) {
    const i = list[k];
    const s = stack[i];
    let keep = noStack;
    if (s >= 0) {
      if (rowKeep) {
        let v = rowKeep[s];
        if (v === 0) rowKeep[s] = v = 1 + keeps[filter.resolve(s)];
        keep = v - 1;
      } else keep = keeps[filter.resolve(s)];
    }
    cm += keep;
    m[k + 1] = cm;
    if (running) {
      if (keep) {
        const st = state![i];
        if (st < 0 || running[st]) cr++;
      }
      r[k + 1] = cr;
    }
  }
}

/** Running count of a list's events in a running state (or with no state), all of them matching. */
function runningCounts(list: Int32Array, state: Int32Array, running: Uint8Array): Int32Array {
  const r = new Int32Array(list.length + 1);
  let cr = 0;
  for (let k = 0; k < list.length; k++) {
    const s = state[list[k]];
    if (s < 0 || running[s]) cr++;
    r[k + 1] = cr;
  }
  return r;
}

/** A list's events by stack: per position, an id into the list's distinct stack rows. */
interface ListStacks {
  /** The distinct stack rows (negative: no stack, stack lost), in the order first met. */
  rows: Int32Array;
  ids: Uint8Array | Uint16Array | Int32Array;
  /** Per distinct row, its entry in `of` (reduced nodes), -1 for none; made on first use. */
  entries?: { of: ReducedNodes; entry: Int32Array };
}

const listStacks = new ListMemo<ListStacks>();

/** Lists at least this long are read by stack ids (listStacks), made once per list. */
const BY_IDS = 4096;

/**
 * The stack ids of a list (once per list): a keystroke then reads them in order, one byte or two
 * per event, and a byte per distinct stack, instead of each event's stack row wherever the event
 * lies among all the others (a type's events are spread over the whole event table).
 */
function stacksOf(profile: Profile, list: Int32Array): ListStacks {
  return listStacks.get(profile, list, () => {
    const stack = profile.events.stack;
    const ids = new Int32Array(list.length);
    const seen = new Map<number, number>();
    const rows: number[] = [];
    let last = NaN;
    let lastId = -1;
    for (let k = 0; k < list.length; k++) {
      const s = stack[list[k]];
      if (s !== last) {
        let id = seen.get(s);
        if (id === undefined) {
          id = rows.length;
          seen.set(s, id);
          rows.push(s);
        }
        last = s;
        lastId = id;
      }
      ids[k] = lastId;
    }
    const small = rows.length <= 0x100 ? Uint8Array.from(ids) : rows.length <= 0x10000 ? Uint16Array.from(ids) : ids;
    return { rows: Int32Array.from(rows), ids: small };
  });
}

/**
 * Make ahead what the first stack-filter keystroke on a type would make: the names of its
 * reduced nodes' chains (nameEntries), each long list's stack ids, and their entries.
 */
export function prepareStackFilters(profile: Profile, lists: readonly Int32Array[], reduced: ReducedNodes | null): void {
  for (const step of stackFilterSteps(profile, lists, reduced)) step();
}

/**
 * prepareStackFilters in steps (the names, then a list at a time), each a task short enough to
 * leave the page free between them (a type of millions of events takes hundreds of ms in all).
 */
export function stackFilterSteps(profile: Profile, lists: readonly Int32Array[], reduced: ReducedNodes | null): (() => void)[] {
  const steps: (() => void)[] = [];
  if (reduced) steps.push(() => void nameEntries(callNodes(profile), reduced, profile.strings.length));
  for (const list of lists) {
    if (list.length < BY_IDS) continue;
    steps.push(() => {
      if (reduced) entriesOf(stacksOf(profile, list), profile, reduced);
    });
  }
  return steps;
}

/** Per distinct stack of a list (ls.rows), its entry of `reduced` (-1: none), made once per reduced nodes. */
function entriesOf(ls: ListStacks, profile: Profile, reduced: ReducedNodes): Int32Array {
  if (ls.entries?.of !== reduced) {
    const ofStack = callNodes(profile).ofStack;
    ls.entries = { of: reduced, entry: Int32Array.from(ls.rows, (s) => (s >= 0 && s < ofStack.length ? entryOf(reduced, ofStack[s]) : -1)) };
  }
  return ls.entries.entry;
}

/**
 * countKept over a list's stack ids: the filters tested once per distinct stack of the list; a
 * list whose stacks the filters all keep, or all drop, shares the running counts of every event
 * matching or none (allMatch, noneMatch), with no pass over its events (a filter typed on a name
 * every stack holds keeps all of them).
 */
function countKeptByIds(ls: ListStacks, list: Int32Array, events: Profile['events'], filter: StackFilter, noStack: number, running: Uint8Array | null): Cumulative {
  const { rows, ids } = ls;
  const keeps = filter.keeps;
  const keepOf = new Uint8Array(rows.length);
  const reduced = filter.reduced;
  const entry = reduced ? entriesOf(ls, filter.profileOf(), reduced) : null;
  let kept = 0;
  for (let j = 0; j < rows.length; j++) {
    const s = rows[j];
    kept += keepOf[j] = s < 0 ? noStack : keeps[entry && entry[j] >= 0 ? filter.entryValue(entry[j]) : filter.resolve(s)];
  }
  if (kept === rows.length) {
    const all = allMatch(events, list.length);
    return { list, match: all, running: running ? runningCounts(list, events.state, running) : all };
  }
  if (kept === 0) {
    const none = noneMatch(events, list.length);
    return { list, match: none, running: none };
  }
  const m = new Int32Array(list.length + 1);
  let cm = 0;
  if (!running) {
    for (let k = 0; k < ids.length; k++) {
      cm += keepOf[ids[k]];
      m[k + 1] = cm;
    }
    return { list, match: m, running: m };
  }
  const r = new Int32Array(list.length + 1);
  let cr = 0;
  const state = events.state;
  for (let k = 0; k < ids.length; k++) {
    const keep = keepOf[ids[k]];
    cm += keep;
    m[k + 1] = cm;
    if (keep) {
      const st = state[list[k]];
      if (st < 0 || running[st]) cr++;
    }
    r[k + 1] = cr;
  }
  return { list, match: m, running: r };
}

/**
 * The filters and the running counts (running-counts.ts) in one pass over the type's lists, one per thread row
 * by start (the last: events with no thread): a thread the filters drop is skipped whole, and
 * each event is read once. `ofType` flags the type's events (or makes them, when first read:
 * flagsOf); `running` as for cumulate.
 */
export interface FilterPass {
  filtered: Filtered;
  cums: Cumulative[];
  /**
   * The stack filters' test per stack row (null without stack filters), and whether they keep an
   * event without a stack: the selection is the events without the stack filters, on the rows
   * this keeps (ranges.ts keptWeights).
   */
  stack: StackFilter | null;
  noStack: boolean;
}

export function filterLists(profile: Profile, spec: FilterSpec, lists: readonly Int32Array[], ofType: Uint8Array | (() => Uint8Array), running: Uint8Array | null): FilterPass {
  const threads = threadsMatching(profile, spec.thread, spec.hiddenThreads);
  const test = eventTest(profile, spec);
  const rows = profile.threads.length;
  const kept = (t: number) => (t < rows ? threads[t] === 1 : spec.thread === null);
  let every = test === null;
  for (let t = 0; t < lists.length && every; t++) if (lists[t].length && !kept(t)) every = false;
  // (Read only with running counts to make: a pick may leave the column unwritten until read.)
  const state = running ? profile.events.state : null;
  // Only the stack filters: one byte per event's stack row, read inline (the keystroke's case).
  const stackOnly = test !== null && test.stackOk !== null && test.state === -2 && !test.duration && !test.spans && !test.subjectOk && !test.instanceOk;
  const filter = test?.stackOk ?? null;
  const noStack = test?.noStack ? 1 : 0;
  // Events reaching many nodes: every node in one typed pass beats walks from each; and a byte
  // per stack row read per event, where the events outnumber the rows (else the node's byte).
  let many = false;
  if (filter) {
    // Stacks to resolve: an event's each, or a long list's distinct ones (stacksOf).
    let events = 0;
    let reads = 0;
    for (const list of lists) {
      events += list.length;
      reads += stackOnly && list.length >= BY_IDS ? stacksOf(profile, list).rows.length : list.length;
    }
    if (reads * 4 >= filter.memo.length && !filter.reduced) filter.resolveAll();
    many = events * 4 >= profile.stacks.length;
  }
  const rowKeep = stackOnly && many && lists.some((l) => l.length > 0 && l.length < BY_IDS) ? new Uint8Array(profile.stacks.length) : null;
  const cums = lists.map((list, t): Cumulative => {
    // A list the filters drop whole, or keep whole: shared running counts (allMatch), no pass.
    if (!kept(t)) {
      const none = noneMatch(profile.events, list.length);
      return { list, match: none, running: none };
    }
    if (!test) {
      const all = allMatch(profile.events, list.length);
      return { list, match: all, running: running ? runningCounts(list, state!, running) : all };
    }
    if (stackOnly && list.length >= BY_IDS) return countKeptByIds(stacksOf(profile, list), list, profile.events, filter!, noStack, running);
    const m = new Int32Array(list.length + 1);
    const r = running ? new Int32Array(list.length + 1) : m;
    let cm = 0;
    let cr = 0;
    if (stackOnly) {
      countKept(list, profile.events, filter!, rowKeep, noStack, running, m, r);
      return { list, match: m, running: r };
    }
    for (let k = 0; k < list.length; k++) {
      const i = list[k];
      if (passes(test, i)) {
        cm++;
        if (running) {
          const s = state![i];
          if (s < 0 || running[s]) cr++;
        }
      }
      m[k + 1] = cm;
      if (running) r[k + 1] = cr;
    }
    return { list, match: m, running: r };
  });
  // Per-event flags only when asked (a click on the timeline): read off the running counts.
  // Every event of the type matches: the type's flags serve (shared, never written).
  let flags = typeof ofType === 'function' ? null : ofType;
  const typeFlags = () => (flags ??= (ofType as () => Uint8Array)());
  let match: Uint8Array | null = null;
  const filtered: Filtered = {
    get match() {
      if (!match && every) match = typeFlags();
      if (!match) {
        match = new Uint8Array(profile.events.length);
        for (const { list, match: m } of cums) for (let k = 0; k < list.length; k++) if (m[k + 1] > m[k]) match[list[k]] = 1;
      }
      return match;
    },
    get ofType() {
      return typeFlags();
    },
    threads,
  };
  return { filtered, cums, stack: filter, noStack: noStack === 1 };
}
