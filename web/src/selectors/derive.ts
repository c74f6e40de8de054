/**
 * Derived data for the view: memoised pure computations from (profile, view state), one hook so
 * a component never recomputes what another already has.
 *
 *   state ─ regexes ─ filterLists (the type's events only, with the running counts along its
 *     time-sorted lists) ─ lanes, histogram, range count ─ weights per stack ─ call tree, top
 *     methods, compare
 */
import { useCallback, useEffect, useMemo } from 'react';
import { reduceNodes, withReduced } from '../profile-logic/callnodes';
import { callTree, countNodes, invertedTree, LIGHT, lostOf, prune, totalWeight as totalOf, type CallNode } from '../profile-logic/calltree';
import { compareMethods, compareProfiles, diffTree, enoughEvents, type DiffNode, type Rise, type Totals } from '../profile-logic/compare';
import { activitySpikes, matchTracks, type ActivityWeight } from '../profile-logic/activity';
import { eventsOf, eventsOfType, indexEvents, mergeByStart, reachOf, typeLists, type ThreadIndex, type TypeLists } from '../profile-logic/event-index';
import { compileRegex, filterLists, flagsOf, keptByEntry, stackFilterSteps, typeStates, type FilterPass, type FilterSpec, type Filtered, type RegexResult } from '../profile-logic/filters';
import { formatWeight } from '../profile-logic/format';
import { durationSpan, heatGrid, latencyHeatmap, type Heatmap } from '../profile-logic/heatmap';
import { gcEvents, intervals, type Intervals } from '../profile-logic/intervals';
import { defaultEventType, hasInstances, KINDS, weightModeOf, type WeightMode } from '../profile-logic/kinds';
import { threadLabel } from '../profile-logic/names';
import { buildLanes, threadCounts, type Lane, type ThreadCounts } from '../profile-logic/lanes';
import { findings, type Finding } from '../profile-logic/findings';
import { lockBursts, lockRows, onCpuDuring, sampleTypesOf, threadWeights, waiterWeights, type Burst, type LockRow } from '../profile-logic/locks';
import { topMethods, type MethodRow } from '../profile-logic/methods';
import { countInRange, entryWeightsInRange, keptWeights, selectInRanges, sparseRows, timeBeforeStart, weightsInRange } from '../profile-logic/ranges';
import { allMatch, runningStates, type Cumulative } from '../profile-logic/running-counts';
import { sandwichTrees } from '../profile-logic/sandwich';
import { DEFAULT_INTERVAL_MS, matchingIn, samplingInterval, stackChart, type StackChart } from '../profile-logic/stackchart';
import { subjectsInRange, type SubjectRow } from '../profile-logic/subjects';
import { threadTimes, type ThreadTime } from '../profile-logic/threadtime';
import { covered, waitKinds, waitTracks, type Track, type WaitTracks } from '../profile-logic/waits';
import type { EventKind, Profile } from '../columns/profile';
import type { ViewState } from '../app/state';

export interface Derived {
  typeIndex: number;
  weightMode: WeightMode;
  regex: { thread: RegexResult; stack: RegexResult; exclude: RegexResult; subject: RegexResult; span: RegexResult };
  /** Events of the selected type, thread by thread (the index's groups). */
  candidates: Int32Array;
  filtered: Filtered;
  index: ThreadIndex;
  /** Events of the selected type in time order, per thread (and without one). */
  lists: TypeLists;
  /** Running counts of matching (and running-state) events along those lists. */
  cums: { byThread: Cumulative[]; parts: Cumulative[] };
  /** Per thread row, the union of its matching waits; null when the type is not a wait. */
  tracks: Track[] | null;
  /** How the activity histogram (and the spike finder) weighs the selected events. */
  activityWeight: ActivityWeight;
  /** Per event: its wait kind (waits.ts), 0 for events that are no wait. */
  kinds: Uint8Array;
  /** Per wait kind, per thread: every wait of that kind (filters aside). */
  waits: WaitTracks;
  /**
   * What the lanes tick: the selected type's running counts when it is a sample type, else the
   * recording's CPU (or wall) samples, all of them, so waits and samples line up on one screen.
   */
  laneTicks: { byThread: Cumulative[]; kind: EventKind; selected: boolean };
  /** Threads in a matching wait on average over the selection; null when the type is not a wait. */
  waitingInRange: number | null;
  /** With no range, of the matching events' durations the time before the recording began (0 with a range). */
  timeBefore: number;
  counts: ThreadCounts;
  intervals: Intervals;
  /** GC events (no thread, with a duration) in start order. */
  gc: Int32Array;
  /** Time ranges where matching events spike, in order. */
  spikes: [number, number][];
  lanes: Lane[];
  /** Matching events of the type in the range. */
  selectedCount: number;
  /** The selected events, built on demand. */
  select: () => Int32Array;
  typeTotal: number;
  /**
   * The selection's weights per stack row (calltree.ts weightSlots), made on first call: the flame
   * graph and its total do not need them (a stack-filter keystroke sums the type's reduced entries
   * instead), so only the views that read rows call it; one function per change of the weights.
   */
  stackWeights: () => Float64Array;
  totalWeight: number;
  /** The weight of the selected events whose stack was lost (calltree.ts weightSlots: "stack lost"). */
  stackLost: number;
  tree: CallNode;
  /** Self and total weight per method, heaviest first: only while the methods or sandwich view is open (else empty). */
  methods: MethodRow[];
  states: string[];
  /** The type's events name a subject (monitor, file, host, class): its filter and table apply. */
  hasSubjects: boolean;
}

const NO_METHODS: MethodRow[] = [];

export function useDerived(profile: Profile, s: ViewState): Derived {
  const typeIndex = useMemo(() => {
    const i = profile.eventTypes.findIndex((t) => t.name === s.eventType);
    return i >= 0 ? i : profile.eventTypes.findIndex((t) => t.name === defaultEventType(profile));
  }, [profile, s.eventType]);
  const weightMode = useMemo(() => weightModeOf(profile, typeIndex), [profile, typeIndex]);
  // Each compiled on its own, so a keystroke in one leaves the others' results (and what they feed) be.
  const threadRe = useMemo(() => compileRegex(s.threadFilter), [s.threadFilter]);
  const stackRe = useMemo(() => compileRegex(s.stackFilter), [s.stackFilter]);
  const excludeRe = useMemo(() => compileRegex(s.excludeFilter), [s.excludeFilter]);
  const subjectRe = useMemo(() => compileRegex(s.subjectFilter), [s.subjectFilter]);
  const spanRe = useMemo(() => compileRegex(s.spanFilter), [s.spanFilter]);
  const regex = useMemo(
    () => ({ thread: threadRe, stack: stackRe, exclude: excludeRe, subject: subjectRe, span: spanRe }),
    [threadRe, stackRe, excludeRe, subjectRe, spanRe],
  );
  // JSON, not a separator: a thread's name may hold any character, a newline too.
  const hiddenKey = JSON.stringify(s.hiddenThreads);
  const hidden = useMemo(() => new Set(JSON.parse(hiddenKey) as string[]), [hiddenKey]);
  const index = useMemo(() => indexEvents(profile), [profile]);
  const candidates = useMemo(() => eventsOfType(index, typeIndex), [index, typeIndex]);
  // The type's flags per event, made when first read (a click on a bar), then kept.
  const ofType = useMemo(() => {
    let flags: Uint8Array | null = null;
    return () => (flags ??= flagsOf(profile.events.length, candidates));
  }, [profile, candidates]);
  const lists = useMemo(() => typeLists(profile, index, typeIndex), [profile, index, typeIndex]);
  const states = useMemo(() => typeStates(profile, typeIndex, candidates).map((x) => profile.strings[x]).sort(), [profile, typeIndex, candidates]);
  const hasSubjects = useMemo(() => candidates.some((i) => profile.events.subject[i] >= 0), [profile, candidates]);
  // Running-state counts only where the type has states to tell apart.
  const running = useMemo(() => (states.length > 0 ? runningStates(profile) : null), [profile, states]);
  // The filters other than the stack filters, and the running counts along each thread's list,
  // in one pass; then, while stack filters are set, all of them in another. A keystroke in the
  // stack filters redoes only the second (and the weights: keptWeights of the first's), and
  // clearing them finds the first as it was.
  const baseSpec = useMemo(
    (): FilterSpec => ({
      type: typeIndex,
      thread: threadRe.ok ? threadRe.re : null,
      stack: null,
      exclude: null,
      state: s.threadState,
      hiddenThreads: hidden,
      subject: subjectRe.ok ? subjectRe.re : null,
      duration: s.durationFilter,
      span: spanRe.ok ? spanRe.re : null,
    }),
    [typeIndex, threadRe, subjectRe, spanRe, s.threadState, hidden, s.durationFilter],
  );
  const basePass = useMemo(() => filterLists(profile, baseSpec, lists.parts, ofType, running), [profile, baseSpec, lists, ofType, running]);
  const stack = stackRe.ok ? stackRe.re : null;
  const exclude = excludeRe.ok ? excludeRe.re : null;
  // The call nodes the type's stacks reach, chains merged: the stack filters resolve the type's
  // stacks and the call tree sums its weights over these (callnodes.ts reduceNodes), not over
  // every node of every type's stacks.
  const reduced = useMemo(() => reduceNodes(profile, candidates), [profile, candidates]);
  const pass = useMemo(
    () => (stack || exclude ? filterLists(profile, { ...baseSpec, stack, exclude, reduced }, lists.parts, ofType, running) : basePass),
    [profile, baseSpec, stack, exclude, basePass, lists, ofType, running, reduced],
  );
  // Once the type is shown, while the page is idle: what the first keystroke in a stack filter
  // would otherwise make (the chains' names, each long list's stack ids), a step per idle period
  // while it has time left, so a keystroke meanwhile waits for one step at most.
  useEffect(() => {
    const idle = (window as Window & { requestIdleCallback?: (f: (deadline: IdleDeadline) => void) => number }).requestIdleCallback;
    if (!idle) return;
    const steps = stackFilterSteps(profile, lists.parts, reduced);
    let k = 0;
    let id = 0;
    const run = (deadline: IdleDeadline) => {
      do steps[k++]();
      while (k < steps.length && deadline.timeRemaining() > 5);
      if (k < steps.length) id = idle(run);
    };
    if (steps.length > 0) id = idle(run);
    return () => window.cancelIdleCallback?.(id);
  }, [profile, lists, reduced]);
  const filtered = pass.filtered;
  // Interval types: each list's reach (running maximum of ends), so a range finds the waits
  // that began before it and last into it.
  const interval = KINDS[profile.eventTypes[typeIndex]?.kind ?? 'other'].interval;
  const reach = useMemo(() => (interval ? lists.parts.map((l) => reachOf(profile, l)) : null), [profile, lists, interval]);
  const withReach = useCallback((p: FilterPass) => (reach ? p.cums.map((c, k) => ({ ...c, reach: reach[k] })) : p.cums), [reach]);
  const baseParts = useMemo(() => withReach(basePass), [withReach, basePass]);
  const cums = useMemo(() => {
    const parts = pass === basePass ? baseParts : withReach(pass);
    return { byThread: parts.slice(0, lists.byThread.length), parts };
  }, [pass, basePass, baseParts, withReach, lists]);
  // Each thread's matching waits as one track (for threads waiting and wait time over time).
  const tracks = useMemo(() => (interval ? matchTracks(profile, cums.byThread) : null), [profile, cums, interval]);
  const activityWeight: ActivityWeight = s.activity === 'auto' ? (interval ? 'threads' : 'count') : tracks ? s.activity : 'count';
  // Lane labels count as the flame graph weighs: samples of batched wall-clock events.
  const counts = useMemo<ThreadCounts>(() => threadCounts(profile, cums.byThread, weightMode), [profile, cums, weightMode]);
  // Spikes of the selected events over the whole recording, on the activity's weight.
  const spikes = useMemo(
    () => activitySpikes(profile, cums.parts, tracks, filtered.threads, activityWeight),
    [profile, cums, tracks, filtered, activityWeight],
  );
  const kinds = useMemo(() => waitKinds(profile), [profile]);
  const laneTicks = useMemo(() => {
    const own = { byThread: cums.byThread, kind: profile.eventTypes[typeIndex]?.kind ?? 'cpu', selected: true };
    if (!interval) return own;
    const samples = sampleTypesOf(profile);
    if (samples.length === 0) return own;
    // Every sample counts: a running count of 1 per event along each thread's list.
    const byThread = Array.from({ length: profile.threads.length }, (_, t) => {
      const list = mergeByStart(profile.events.start, samples.map((ty) => eventsOf(index, ty, t)));
      const match = allMatch(profile.events, list.length);
      return { list, match, running: match };
    });
    return { byThread, kind: profile.eventTypes[samples[0]].kind, selected: false };
  }, [profile, index, cums, typeIndex, interval]);
  const waits = useMemo(() => waitTracks(profile, index, kinds), [profile, index, kinds]);
  const iv = useMemo(() => intervals(profile, index), [profile, index]);
  const gc = useMemo(() => gcEvents(profile, index), [profile, index]);
  const lanes = useMemo(
    () => buildLanes(profile, index, counts, { group: s.groupThreads, sort: s.sortLanes, hidden, threads: filtered.threads, pinned: s.pinnedThreads, virtualOpen: s.virtualOpen }),
    [profile, index, counts, s.groupThreads, s.sortLanes, hidden, filtered, s.pinnedThreads, s.virtualOpen],
  );
  const selectedCount = useMemo(() => countInRange(profile, cums.parts, s.range), [profile, cums, s.range]);
  const select = useCallback(() => selectInRanges(profile, cums.parts, s.range), [profile, cums, s.range]);
  const typeTotal = lists.total;
  // Threads in a matching wait, on average over the selection (the whole recording without one).
  const waitingInRange = useMemo(() => {
    if (!tracks) return null;
    const [a, b] = s.range ?? [0, Math.max(profile.info.durationMs, 1e-9)];
    let sum = 0;
    tracks.forEach((tr, t) => {
      if (filtered.threads[t]) sum += covered(tr, a, b);
    });
    return sum / Math.max(b - a, 1e-9);
  }, [tracks, filtered, s.range, profile]);
  // Waits going on when recording began count whole without a range: how much of them lay before it.
  const timeBefore = useMemo(() => (interval && !s.range && weightMode === 'duration' ? timeBeforeStart(profile, cums.parts) : 0), [interval, s.range, weightMode, profile, cums]);
  // Weights of the events without the stack filters, once per change of the others or the range:
  // per stack row when first read so (the sandwich, comparisons); for the flame graph, per entry
  // of the type's reduced nodes, without the array over every row where the rows far outnumber
  // the events (a type of deep, varied stacks).
  const baseRows = useMemo(() => {
    let w: Float64Array | null = null;
    return () => (w ??= withReduced(weightsInRange(profile, baseParts, s.range, weightMode), reduced));
  }, [profile, baseParts, s.range, weightMode, reduced]);
  const baseWeights = useMemo(
    () => (sparseRows(profile, baseParts) ? entryWeightsInRange(profile, baseParts, s.range, weightMode, reduced) : null) ?? baseRows(),
    [profile, baseParts, s.range, weightMode, reduced, baseRows],
  );
  const stackWeights = useMemo(() => {
    let w: Float64Array | null = null;
    return () => (w ??= pass.stack ? withReduced(keptWeights(profile, baseRows(), pass.stack, pass.noStack), reduced) : baseRows());
  }, [profile, baseRows, pass, reduced]);
  // With stack filters, what the flame graph reads: the kept weights per reduced entry.
  const weights = useMemo(
    () => (pass.stack ? (keptByEntry(profile, baseWeights, pass.stack, pass.noStack) ?? stackWeights()) : baseWeights),
    [profile, baseWeights, pass, stackWeights],
  );
  const totalWeight = useMemo(() => totalOf(profile, weights), [profile, weights]);
  const stackLost = useMemo(() => lostOf(weights, profile.stacks.length)[1], [profile, weights]);
  const tree = useMemo(() => {
    const root = `all · ${formatWeight(totalWeight, weightMode)}`;
    // Keep the SVG light: slivers under 1/5000 of the total are left out when the tree is large.
    return s.inverted ? invertedTree(profile, weights, root, LIGHT) : callTree(profile, weights, root, LIGHT);
  }, [profile, weights, s.inverted, totalWeight, weightMode]);
  // Only the views that show them: the rest of the time a keystroke need not sum every method.
  const wantMethods = s.view === 'methods' || s.view === 'sandwich';
  const methods = useMemo(() => (wantMethods ? topMethods(profile, weights) : NO_METHODS), [profile, weights, wantMethods]);
  // One object per change of what it holds, so components that take it redraw only then.
  return useMemo(
    () => ({ typeIndex, weightMode, regex, candidates, filtered, index, lists, cums, tracks, activityWeight, kinds, waits, laneTicks, counts, intervals: iv, gc, spikes, lanes, selectedCount, select, typeTotal, waitingInRange, timeBefore, stackWeights, totalWeight, stackLost, tree, methods, states, hasSubjects }),
    [typeIndex, weightMode, regex, candidates, filtered, index, lists, cums, tracks, activityWeight, kinds, waits, laneTicks, counts, iv, gc, spikes, lanes, selectedCount, select, typeTotal, waitingInRange, timeBefore, stackWeights, totalWeight, stackLost, tree, methods, states, hasSubjects],
  );
}

export interface Comparison {
  /** Every method's change, total and self, by score (empty when a side holds too few events). */
  rises: Rise[];
  /** Weight and events of the selection (a) and the baseline (b). */
  totals: Totals;
  /** Both sides hold enough events to compare (compare.ts MIN_EVENTS). */
  enough: boolean;
  /** The selection's tree, each frame with its method's change (only when shown as a flame graph). */
  tree: DiffNode | null;
  /** The rows' method names: the recording's strings, or the names two recordings share. */
  names: readonly string[];
}

/**
 * The other recording's side of a comparison: its events of the selected type (matched by name)
 * through the same filters (their texts applied to its strings), within its own range.
 */
export type OtherSide =
  | { kind: 'missing'; type: string }
  | { kind: 'deferred'; type: string; count: number; failed?: string }
  | { kind: 'ready'; profile: Profile; weights: Float64Array; counts: Float64Array };

/** The other recording's per-stack weights (and event counts) for the comparison; null without one. */
export function useOtherSide(other: Profile | null, failed: Record<string, string> | undefined, s: ViewState, d: Derived, typeName: string, enabled: boolean): OtherSide | null {
  const typeIndex = useMemo(() => (other ? other.eventTypes.findIndex((t) => t.name === typeName) : -1), [other, typeName]);
  const index = useMemo(() => (other ? indexEvents(other) : null), [other]);
  const hiddenKey = JSON.stringify(s.hiddenThreads);
  const side = useMemo((): OtherSide | null => {
    if (!other || !index || !enabled || !typeName) return null;
    const t = other.eventTypes[typeIndex];
    // Declared in its metadata but never recorded is missing too.
    if (!t || t.count === 0) return { kind: 'missing', type: typeName };
    if (t.deferred) return { kind: 'deferred', type: t.name, count: t.count, failed: failed?.[t.name] };
    const candidates = eventsOfType(index, typeIndex);
    const lists = typeLists(other, index, typeIndex);
    const spec = {
      type: typeIndex,
      thread: d.regex.thread.ok ? d.regex.thread.re : null,
      stack: d.regex.stack.ok ? d.regex.stack.re : null,
      exclude: d.regex.exclude.ok ? d.regex.exclude.re : null,
      state: s.threadState,
      hiddenThreads: new Set(JSON.parse(hiddenKey) as string[]),
      subject: d.regex.subject.ok ? d.regex.subject.re : null,
      duration: s.durationFilter,
    };
    const pass = filterLists(other, spec, lists.parts, flagsOf(other.events.length, candidates), null);
    const interval = KINDS[t.kind].interval;
    const cums = interval ? pass.cums.map((c, k) => ({ ...c, reach: reachOf(other, lists.parts[k]) })) : pass.cums;
    const weights = weightsInRange(other, cums, s.otherRange, d.weightMode);
    const counted = d.weightMode === 'samples' || d.weightMode === 'events';
    return { kind: 'ready', profile: other, weights, counts: counted ? weights : weightsInRange(other, cums, s.otherRange, 'events') };
  }, [other, failed, index, enabled, typeName, typeIndex, d.regex, d.weightMode, s.threadState, hiddenKey, s.durationFilter, s.otherRange]);
  return side;
}

/** What rose in the selection against the baseline (or the rest): methods, and the tree. */
export function useComparison(profile: Profile, s: ViewState, d: Derived, enabled: boolean, other: OtherSide | null = null): Comparison | null {
  const { stackWeights } = d;
  // Per-stack weights of the baseline: the range set aside, or everything outside the selection.
  const baseOf = useCallback(
    (selected: Float64Array, mode: WeightMode) => {
      if (s.baseline) return weightsInRange(profile, d.cums.parts, s.baseline, mode);
      // The whole recording's weights minus the selection's.
      const rest = weightsInRange(profile, d.cums.parts, null, mode);
      for (let k = 0; k < rest.length; k++) {
        const v = rest[k] - selected[k];
        rest[k] = v > 1e-9 * rest[k] ? v : 0; // no float residue where the selection held it all
      }
      return rest;
    },
    [profile, s.baseline, d.cums],
  );
  const sides = useMemo(() => {
    if (!enabled || other || (!s.range && !s.baseline)) return null;
    const base = baseOf(stackWeights(), d.weightMode);
    // Bytes and durations are tested on the events under each method: count them per stack too.
    if (d.weightMode === 'samples' || d.weightMode === 'events') return { base, selCounts: stackWeights(), baseCounts: base };
    const selCounts = weightsInRange(profile, d.cums.parts, s.range, 'events');
    return { base, selCounts, baseCounts: baseOf(selCounts, 'events') };
  }, [profile, s.range, s.baseline, d.cums, stackWeights, d.weightMode, enabled, baseOf, other]);
  // Against another recording: the selection (or all of this one) against its side, by method name.
  const selCounts = useMemo(
    () => (enabled && other?.kind === 'ready' && d.weightMode !== 'samples' && d.weightMode !== 'events' ? weightsInRange(profile, d.cums.parts, s.range, 'events') : null),
    [profile, d.cums, d.weightMode, s.range, enabled, other],
  );
  const methods = useMemo(() => {
    if (enabled && other?.kind === 'ready') return compareProfiles({ profile, weights: stackWeights(), counts: selCounts ?? stackWeights() }, { profile: other.profile, weights: other.weights, counts: other.counts });
    return sides ? { ...compareMethods(profile, stackWeights(), sides.base, sides.selCounts, sides.baseCounts), names: profile.strings } : null;
  }, [profile, stackWeights, sides, enabled, other, selCounts]);
  const enough = methods ? enoughEvents(methods.totals) : false;
  const tree = useMemo(() => {
    if (!methods || !enough || s.compareAs !== 'flame') return null;
    // The selection's tree is d.tree (built with the same weights and direction), renamed.
    const named = { ...d.tree, name: `selection · ${formatWeight(d.totalWeight, d.weightMode)}` };
    return diffTree(named, methods.rows, s.methodSort, (n) => methods.names[n]);
  }, [d.tree, d.totalWeight, d.weightMode, methods, enough, s.compareAs, s.methodSort]);
  return useMemo(
    () => (methods ? { rises: enough ? methods.rows : [], totals: methods.totals, enough, tree, names: methods.names } : null),
    [methods, enough, tree],
  );
}

/** The selection by subject, or by object instance for lock waits and parks (the subjects view). */
export function useSubjects(profile: Profile, s: ViewState, d: Derived, enabled: boolean): SubjectRow[] | null {
  const byInstance = hasInstances(profile.eventTypes[d.typeIndex]?.kind) && s.subjectBy === 'instance';
  return useMemo(
    () => (enabled ? subjectsInRange(profile, d.cums.parts, s.range, d.weightMode, byInstance) : null),
    [profile, d.cums, s.range, d.weightMode, byInstance, enabled],
  );
}

/** Each kept thread's time in waits within the selection, or the whole recording (thread time). */
export function useThreadTimes(profile: Profile, s: ViewState, d: Derived, enabled: boolean): ThreadTime[] | null {
  const [from, to] = s.range ?? [0, profile.info.durationMs];
  return useMemo(
    () => (enabled ? threadTimes(profile, d.waits, d.cums.byThread, d.filtered.threads, from, to, d.weightMode) : null),
    [profile, d.waits, d.cums, d.filtered, from, to, enabled, d.weightMode],
  );
}

/** Lock blame for the selection: bursts of waits per monitor or parked-on object, with holders (the Locks view). */
export function useLocks(profile: Profile, s: ViewState, d: Derived, enabled: boolean): LockRow[] | null {
  return useMemo(
    () => (enabled ? lockRows(profile, lockBursts(profile, d.index, d.kinds, s.range, (t) => t < 0 || d.filtered.threads[t] === 1)) : null),
    [profile, d.index, d.kinds, d.filtered, s.range, enabled],
  );
}

export interface BurstDetail {
  burst: Burst;
  /** What the holder ran during the burst (its samples); null when the holder is unknown. */
  holderTree: CallNode | null;
  /** The waiters' stacks at the wait, weighed by wait time. */
  waitersTree: CallNode;
  /** Threads on CPU meanwhile that were not waiting (the evidence when no holder is known). */
  onCpu: { thread: number; samples: number }[];
}

/** The burst the selection is (its range equals the burst's), with what its holder ran. */
export function useBurstDetail(profile: Profile, s: ViewState, d: Derived, rows: LockRow[] | null): BurstDetail | null {
  return useMemo(() => {
    const r = s.range;
    if (!rows || !r) return null;
    const burst = rows.flatMap((row) => row.bursts).find((b) => Math.abs(b.start - r[0]) < 1e-6 && Math.abs(b.end - r[1]) < 1e-6);
    if (!burst) return null;
    const types = sampleTypesOf(profile);
    const holderTree = burst.holder >= 0 ? callTree(profile, threadWeights(profile, d.index, burst.holder, burst.start, burst.end, types), 'holder') : null;
    return { burst, holderTree, waitersTree: callTree(profile, waiterWeights(profile, burst), 'waiters'), onCpu: onCpuDuring(profile, d.index, burst, types).slice(0, 5) };
  }, [profile, s.range, d.index, rows]);
}

/** What stands out in the selection, in words (the Findings view). */
export function useFindings(profile: Profile, s: ViewState, d: Derived, enabled: boolean): Finding[] | null {
  return useMemo(() => {
    if (!enabled) return null;
    const keep = (t: number) => t < 0 || d.filtered.threads[t] === 1;
    return findings(profile, s.range, { index: d.index, bursts: lockBursts(profile, d.index, d.kinds, s.range, keep), waits: d.waits, threads: d.filtered.threads, gc: d.gc });
  }, [profile, s.range, d.index, d.kinds, d.waits, d.filtered, d.gc, enabled]);
}

/** The latency heatmap of the selected waits over the visible window (the Latency view). */
export function useHeatmap(profile: Profile, s: ViewState, d: Derived, cols: number, rows: number, enabled: boolean): Heatmap | null {
  const span = useMemo(() => (enabled && d.tracks ? durationSpan(profile, d.cums.parts) : null), [profile, d.cums, d.tracks, enabled]);
  // Binned once per filter change; zoom and pan then sum its cells.
  const grid = useMemo(() => (span ? heatGrid(profile, d.cums.parts, Math.max(profile.info.durationMs, 1), rows, span) : null), [profile, d.cums, span, rows]);
  return useMemo(() => {
    if (!span || cols < 1) return null;
    const [from, to] = s.viewport ?? [0, Math.max(profile.info.durationMs, 1)];
    return latencyHeatmap(profile, d.cums.parts, from, to, cols, rows, span, grid);
  }, [profile, d.cums, span, grid, s.viewport, cols, rows]);
}

export interface SandwichView {
  method: string;
  /** The method's callers (root: the method) and callees (root: the method), recursion once per stack. */
  callers: CallNode;
  callees: CallNode;
  /** The method's total and self weight in the selection, and the selection's total. */
  total: number;
  self: number;
  selection: number;
}

/** The sandwich of the chosen method, weighed as the flame graph of the same filters and range; null without one. */
export function useSandwich(profile: Profile, s: ViewState, d: Derived, enabled: boolean): SandwichView | null {
  const method = s.selectedMethod;
  const { stackWeights } = d;
  return useMemo(() => {
    if (!enabled || method === null) return null;
    const name = profile.strings.indexOf(method);
    const row = name >= 0 ? d.methods.find((m) => m.name === name) : undefined;
    if (name < 0) return { method, callers: emptyNode(method), callees: emptyNode(method), total: 0, self: 0, selection: d.totalWeight };
    const t = sandwichTrees(profile, stackWeights(), name);
    // As the flame graph: hide slivers under 1/5000 of the total when a tree is large.
    const light = (n: CallNode) => (countNodes(n) > LIGHT.maxNodes ? prune(n, n.value * LIGHT.share) : n);
    return { method, callers: light(t.callers), callees: light(t.callees), total: row?.total ?? 0, self: row?.self ?? 0, selection: d.totalWeight };
  }, [profile, method, stackWeights, d.methods, d.totalWeight, enabled]);
}

function emptyNode(name: string): CallNode {
  return { name, value: 0, self: 0, kind: 6 as CallNode['kind'], children: [] };
}

export interface ThreadStackChart {
  thread: number;
  name: string;
  /** How long a sample stands for at most (ms): the thread's median gap between samples. */
  interval: number;
  chart: StackChart;
}

export interface StackCharts {
  /** The time window drawn: the selected range, else the timeline's visible window. */
  window: [number, number];
  /** Why these threads: pinned lanes, the selected event's thread, or the busiest in the window. */
  chosenBy: 'pinned' | 'event' | 'busiest' | 'none';
  threads: ThreadStackChart[];
}

/**
 * The stack charts of the chosen threads: the pinned lanes' threads, else the thread of the
 * selected event, else the thread with the most matching events in the window; the selected
 * type's events the filters keep.
 */
export function useStackCharts(profile: Profile, s: ViewState, d: Derived, selectedEvent: number | null, enabled: boolean): StackCharts | null {
  const pinKey = JSON.stringify(s.pinnedThreads);
  const eventThread = selectedEvent !== null && selectedEvent < profile.events.length ? profile.events.thread[selectedEvent] : -1;
  const [from, to] = s.range ?? s.viewport ?? [0, Math.max(profile.info.durationMs, 1e-9)];
  const chosen = useMemo((): { rows: number[]; by: StackCharts['chosenBy'] } => {
    if (!enabled) return { rows: [], by: 'none' };
    const pinned = JSON.parse(pinKey) as string[];
    if (pinned.length > 0) {
      const rows: number[] = [];
      for (const name of pinned) {
        for (let t = 0; t < profile.threads.length; t++) if (threadLabel(profile, t) === name && d.lists.byThread[t].length > 0) rows.push(t);
      }
      if (rows.length > 0) return { rows, by: 'pinned' };
    }
    if (eventThread >= 0 && d.lists.byThread[eventThread]?.length > 0) return { rows: [eventThread], by: 'event' };
    let best = -1;
    let most = 0;
    for (const l of d.lanes) {
      for (const t of l.threads) {
        const n = matchingIn(profile, d.cums.byThread[t], from, to);
        if (n > most) [best, most] = [t, n];
      }
    }
    return best >= 0 ? { rows: [best], by: 'busiest' } : { rows: [], by: 'none' };
  }, [enabled, pinKey, eventThread, profile, d.lists, d.lanes, d.cums, from, to]);
  return useMemo(() => {
    if (!enabled) return null;
    const { start } = profile.events;
    const intervals = chosen.rows.map((t) => samplingInterval(start, d.lists.byThread[t]));
    const known = intervals.filter((x): x is number => x !== null).sort((a, b) => a - b);
    const fallback = known.length ? known[known.length >> 1] : DEFAULT_INTERVAL_MS;
    const threads = chosen.rows.map((t, k) => {
      const interval = intervals[k] ?? fallback;
      return { thread: t, name: threadLabel(profile, t), interval, chart: stackChart(profile, d.cums.byThread[t], from, to, interval) };
    });
    return { window: [from, to] as [number, number], chosenBy: chosen.by, threads };
  }, [enabled, profile, chosen, d.lists, d.cums, from, to]);
}
