import { describe, expect, it } from 'vitest';
import { callTree, invertedTree, type CallNode } from '../calltree';
import { collapsedStacks } from '../collapsed';
import { compareMethods } from '../compare';
import { threadName } from '../describe';
import { eventsOf, eventsOfType, indexEvents, typeLists } from '../event-index';
import { compileRegex, flagsOf, threadsMatching } from '../filters';
import { buildLanes, groupKey } from '../lanes';
import { ROW_LABEL, threadLabel } from '../names';
import { sandwich, topMethods } from '../methods';
import { findSpikes, nextSpike, poissonAtLeast } from '../spikes';
import { subjectsInRange, subjectText } from '../subjects';
import { cumulate, filterEvents, histogram, lowerBound, selectInRange, threadCounts, weightPerStack } from './reference';
import { buildProfile } from './build';

const types = [
  { name: 'jdk.ExecutionSample', kind: 'cpu' as const },
  { name: 'jdk.JavaMonitorEnter', kind: 'lock' as const },
];
const threads = ['search-worker-1', 'search-worker-2', 'main'];
const p = buildProfile(types, threads, [
  { type: 0, t: 10, thread: 0, stack: 'run;serve;read;NativeThreadSet.add' },
  { type: 0, t: 20, thread: 1, stack: 'run;serve;read;NativeThreadSet.add' },
  { type: 0, t: 30, thread: 1, stack: 'run;serve;parse;skipBytes' },
  { type: 0, t: 40, thread: 2, stack: 'main;idle' },
  { type: 0, t: 55, thread: 0, stack: 'run;serve;parse;skipBytes', state: 'STATE_RUNNABLE' },
  { type: 0, t: 56, thread: 0, stack: 'run;serve;parse;parse;skipBytes' },
  { type: 0, t: 60, thread: 0, stack: null },
  { type: 1, t: 50, thread: 1, stack: 'run;serve;read;NativeThreadSet.add', duration: 4 },
]);
const spec = (over: Partial<Parameters<typeof filterEvents>[1]> = {}) => ({
  type: 0,
  thread: null,
  stack: null,
  exclude: null,
  state: '',
  hiddenThreads: new Set<string>(),
  ...over,
});
const count = (m: Uint8Array) => m.reduce((a, b) => a + b, 0);
const child = (n: CallNode, name: string) => n.children.find((c) => c.name === name)!;

describe('filters', () => {
  it('compiles regexes and reports invalid ones instead of throwing', () => {
    expect(compileRegex('').ok).toBe(true);
    expect(compileRegex('Native.*Set').ok).toBe(true);
    const bad = compileRegex('(');
    expect(bad.ok).toBe(false);
    if (!bad.ok) expect(bad.error).toMatch(/Invalid|Unterminated/i);
  });

  it('keeps events with a matching frame, drops excluded ones, by thread and state', () => {
    expect(count(filterEvents(p, spec()).match)).toBe(7);
    expect(count(filterEvents(p, spec()).ofType)).toBe(7);
    expect(count(filterEvents(p, spec({ stack: /NativeThreadSet/ })).match)).toBe(2);
    expect(count(filterEvents(p, spec({ exclude: /skipBytes/ })).match)).toBe(4);
    expect(count(filterEvents(p, spec({ thread: /^search-worker-1$/ })).match)).toBe(4);
    expect(count(filterEvents(p, spec({ hiddenThreads: new Set(['main']) })).match)).toBe(6);
    expect(count(filterEvents(p, spec({ state: 'STATE_RUNNABLE' })).match)).toBe(1);
    // An event without a stack never matches a stack filter but survives an exclusion.
    expect(filterEvents(p, spec({ stack: /./ })).match[6]).toBe(0);
    expect(filterEvents(p, spec({ exclude: /./ })).match[6]).toBe(1);
  });

  it('visits only the candidates of the type and gets the same answer', () => {
    const idx = indexEvents(p);
    const byType = [0, 1].map((t) => eventsOfType(idx, t));
    expect(Array.from(byType[0]).sort((a, b) => a - b)).toEqual([0, 1, 2, 3, 4, 5, 6]);
    expect(Array.from(byType[1])).toEqual([7]);
    for (const over of [{}, { stack: /NativeThreadSet/ }, { exclude: /skipBytes/, thread: /worker/ }]) {
      const a = filterEvents(p, spec(over));
      const b = filterEvents(p, spec(over), byType[0]);
      expect(Array.from(b.match)).toEqual(Array.from(a.match));
      expect(Array.from(b.ofType)).toEqual(Array.from(a.ofType));
    }
  });

  it('shares the type flags as the match when nothing filters', () => {
    const byType = [eventsOfType(indexEvents(p), 0)];
    const flags = flagsOf(p.events.length, byType[0]);
    const f = filterEvents(p, spec(), byType[0], flags);
    expect(f.match).toBe(flags);
    expect(count(f.match)).toBe(7);
    const g = filterEvents(p, spec({ stack: /NativeThreadSet/ }), byType[0], flags);
    expect(g.ofType).toBe(flags);
    expect(count(g.match)).toBe(2);
    expect(count(flags)).toBe(7);
  });

  it('selects a time range inclusively', () => {
    const m = filterEvents(p, spec()).match;
    expect(Array.from(selectInRange(p, m, [20, 55]))).toEqual([1, 2, 3, 4]);
    expect(selectInRange(p, m, null).length).toBe(7);
  });
});

describe('call trees', () => {
  const sel = selectInRange(p, filterEvents(p, spec()).match, null);
  const w = weightPerStack(p, sel, 'samples');

  it('merges by name and sums totals and selves', () => {
    const t = callTree(p, w);
    expect(t.value).toBe(7);
    const serve = child(child(t, 'run'), 'serve');
    expect(serve.value).toBe(5);
    expect(child(serve, 'read').value).toBe(2);
    expect(child(child(serve, 'parse'), 'skipBytes').self).toBe(2);
    expect(child(t, '(no stack)').value).toBe(1);
  });

  it('inverts to callers of each leaf', () => {
    const t = invertedTree(p, w);
    const skip = child(t, 'skipBytes');
    expect(skip.value).toBe(3);
    expect(skip.self).toBe(3);
    expect(child(skip, 'parse').value).toBe(3);
    expect(child(child(skip, 'parse'), 'parse').value).toBe(1);
  });

  it('weighs lock events by wait time', () => {
    const lock = selectInRange(p, filterEvents(p, spec({ type: 1 })).match, null);
    expect(callTree(p, weightPerStack(p, lock, 'duration')).value).toBe(4);
  });
});

describe('methods', () => {
  const sel = selectInRange(p, filterEvents(p, spec()).match, null);
  const w = weightPerStack(p, sel, 'samples');
  const name = (s: string) => p.strings.indexOf(s);

  it('ranks self and total, counting recursion once per stack', () => {
    const rows = topMethods(p, w);
    const parse = rows.find((r) => r.name === name('parse'))!;
    expect(parse.total).toBe(3);
    expect(parse.self).toBe(0);
    expect(rows[0].name).toBe(name('run'));
  });

  it('builds the sandwich of a method', () => {
    const s = sandwich(p, w, name('parse'));
    expect(s.total).toBe(3);
    expect(s.callees.find((c) => c.name === name('skipBytes'))!.weight).toBe(3);
    expect(s.callers.find((c) => c.name === name('serve'))!.weight).toBe(3);
    expect(s.callers.find((c) => c.name === name('parse'))!.weight).toBe(1);
  });

  it('finds what rose between two selections', () => {
    const m = filterEvents(p, spec()).match;
    const spike = weightPerStack(p, selectInRange(p, m, [50, 60]), 'samples');
    const calm = weightPerStack(p, selectInRange(p, m, [0, 49]), 'samples');
    const { rows } = compareMethods(p, spike, calm);
    expect(p.strings[rows[0].name]).toMatch(/parse|skipBytes/);
    expect(rows.find((r) => r.name === name('NativeThreadSet.add'))!.total.delta).toBeLessThan(0);
    // spike: 2 of its 3 samples end in skipBytes (the third has no stack); calm: 1 of 4. serve is
    // under 2 of 3 and 3 of 4, never a leaf.
    const skip = rows.find((r) => r.name === name('skipBytes'))!;
    expect(skip.self.share).toBeCloseTo(2 / 3);
    expect(skip.self.baseShare).toBeCloseTo(1 / 4);
    expect(skip.self.delta).toBeCloseTo(2 / 3 - 1 / 4);
    const serve = rows.find((r) => r.name === name('serve'))!;
    expect(serve.total.share).toBeCloseTo(2 / 3);
    expect(serve.total.baseShare).toBeCloseTo(3 / 4);
    expect(serve.self.delta).toBe(0);
  });
});

describe('subjects', () => {
  // Lock waits on two monitors, from three threads; one wait names no monitor.
  const q = buildProfile(types, threads, [
    { type: 1, t: 10, thread: 0, stack: 'run;read;NativeThreadSet.add', duration: 5, subject: 'sun.nio.ch.NativeThreadSet', value: 0x690933d20 },
    { type: 1, t: 12, thread: 1, stack: 'run;read;NativeThreadSet.add', duration: 7, subject: 'sun.nio.ch.NativeThreadSet', value: 0x690933d20 },
    { type: 1, t: 14, thread: 1, stack: 'run;read;NativeThreadSet.remove', duration: 1, subject: 'sun.nio.ch.NativeThreadSet', value: 0x69cd34678 },
    { type: 1, t: 30, thread: 2, stack: 'main;log', duration: 2, subject: 'java.lang.Object' },
    { type: 1, t: 40, thread: 2, stack: 'main;log', duration: 3 },
    { type: 0, t: 11, thread: 0, stack: 'run;read', subject: 'sun.nio.ch.NativeThreadSet' },
  ]);
  const idx = indexEvents(q);
  const cums = (f: ReturnType<typeof filterEvents>) => typeLists(q, idx, 1).parts.map((l) => cumulate(q, l, f.match, null));
  const lockSpec = (subject: RegExp | null) => ({ ...spec({ subject }), type: 1 });

  it('filters on the subject, and drops events that name none', () => {
    expect(count(filterEvents(q, lockSpec(null)).match)).toBe(5);
    expect(count(filterEvents(q, lockSpec(/NativeThreadSet @/)).match)).toBe(3);
    expect(count(filterEvents(q, lockSpec(/^java\.lang/)).match)).toBe(1);
    // The candidates' path and the full scan agree.
    const cand = eventsOfType(idx, 1);
    expect(Array.from(filterEvents(q, lockSpec(/Object/), cand).match)).toEqual(Array.from(filterEvents(q, lockSpec(/Object/)).match));
  });

  it('sums the selection by subject: events, threads, wait time, heaviest first', () => {
    const rows = subjectsInRange(q, cums(filterEvents(q, lockSpec(null))), null, 'duration');
    expect(rows.map((r) => [r.subject >= 0 ? q.strings[r.subject] : null, r.events, r.threads, r.weight])).toEqual([
      ['sun.nio.ch.NativeThreadSet', 3, 2, 13],
      [null, 1, 1, 3],
      ['java.lang.Object', 1, 1, 2],
    ]);
    // A range and the filters narrow it like everything else.
    const inRange = subjectsInRange(q, cums(filterEvents(q, lockSpec(/NativeThreadSet/))), [11, 20], 'events');
    expect(inRange.map((r) => [q.strings[r.subject], r.events, r.threads, r.weight])).toEqual([['sun.nio.ch.NativeThreadSet', 2, 1, 2]]);
  });

  it('tells lock instances apart by address, in the table and in the filter', () => {
    const rows = subjectsInRange(q, cums(filterEvents(q, lockSpec(null))), null, 'duration', true);
    expect(rows.map((r) => [r.label, r.events, r.threads, r.weight])).toEqual([
      ['sun.nio.ch.NativeThreadSet @ 0x690933d20', 2, 2, 12],
      ['(none)', 1, 1, 3],
      ['java.lang.Object', 1, 1, 2],
      ['sun.nio.ch.NativeThreadSet @ 0x69cd34678', 1, 1, 1],
    ]);
    expect(subjectText(q, 0)).toBe('sun.nio.ch.NativeThreadSet @ 0x690933d20');
    expect(subjectText(q, 3)).toBe('java.lang.Object');
    expect(subjectText(q, 4)).toBeNull();
    expect(count(filterEvents(q, lockSpec(/@ 0x690933d20$/)).match)).toBe(2);
    // A class pattern still finds every instance of the class.
    expect(count(filterEvents(q, lockSpec(/^sun\.nio\.ch\.NativeThreadSet( @ 0x[0-9a-f]+)?$/)).match)).toBe(3);
  });
});

describe('timeline', () => {
  const f = filterEvents(p, spec({ stack: /NativeThreadSet/ }));

  it('buckets matching and other events', () => {
    const h = histogram(p, f.ofType, f.match, 0, 100, 10);
    expect(Array.from(h.matching).slice(0, 3)).toEqual([0, 1, 1]);
    expect(h.other.reduce((a, b) => a + b, 0)).toBe(5);
  });

  it('indexes events per thread by time and builds lanes', () => {
    const idx = indexEvents(p);
    const w1 = eventsOf(idx, 0, 1);
    expect(Array.from(w1).map((i) => p.events.start[i])).toEqual([20, 30]);
    expect(Array.from(eventsOf(idx, 1, 1))).toEqual([7]);
    expect(Array.from(idx.perThread)).toEqual([4, 3, 1]);
    expect(lowerBound(p, w1, 25)).toBe(1);
    const counts = threadCounts(p, idx, f.ofType, f.match);
    expect(Array.from(counts.count)).toEqual([4, 2, 1]);
    expect(Array.from(counts.matching)).toEqual([1, 1, 0]);
    const lanes = buildLanes(p, idx, counts, { group: false, sort: 'samples', hidden: new Set() });
    expect(lanes.map((l) => l.label)).toEqual(['search-worker-1', 'search-worker-2', 'main']);
    const grouped = buildLanes(p, idx, counts, { group: true, sort: 'name', hidden: new Set(['main']) });
    expect(grouped).toHaveLength(1);
    expect(grouped[0].label).toBe('search-worker-* (2)');
    expect(grouped[0].matching).toBe(2);
    expect(groupKey('pool-3-thread-12')).toBe('pool-#-thread-*');
    // The thread filter drops lanes; names sort numerically.
    const kept = buildLanes(p, idx, counts, { group: false, sort: 'name', hidden: new Set(), threads: Uint8Array.from([0, 1, 0]) });
    expect(kept.map((l) => l.label)).toEqual(['search-worker-2']);
    expect(groupKey('search-worker-12')).toBe('search-worker-*');
  });

  it('names a thread without a name by its id, the recorded name kept for filters', () => {
    const q = buildProfile([{ name: 'jdk.ExecutionSample', kind: 'cpu' }], ['main', '', ''], [
      { type: 0, t: 1, thread: 0, stack: 'a' },
      { type: 0, t: 2, thread: 1, stack: 'a' },
      { type: 0, t: 3, thread: 2, stack: 'a' },
    ]);
    q.threads.javaId.set([1, 42, 0]);
    q.threads.osId.set([7, 0, 0]);
    q.threads.virtual.set([0, 1, 0]);
    const idx = indexEvents(q);
    const all = Uint8Array.from([1, 1, 1]);
    const lanes = buildLanes(q, idx, threadCounts(q, idx, all, all), { group: false, sort: 'name', hidden: new Set(), virtualOpen: true });
    const labels = lanes.map((l) => l.label);
    expect(labels).toContain('(unnamed virtual thread #42)');
    expect(labels).toContain('(unnamed thread row 2)');
    expect(threadName(q, 1)).toBe('(unnamed virtual thread #42)');
    expect(threadName(q, 0)).toBe('main');
    // Only the label by row is left out of links.
    expect([0, 1, 2].map((t) => ROW_LABEL.test(threadLabel(q, t)))).toEqual([false, false, true]);
    // The thread filter's pattern matches the recorded name.
    expect(q.strings[q.threads.name[1]]).toBe('');
    expect(Array.from(threadsMatching(q, { test: (s: string) => s === '' }, new Set()))).toEqual([0, 1, 1]);
    // Hidden and pinned by the label: one unnamed thread's lane alone, not every unnamed one.
    const hidden = new Set(['(unnamed virtual thread #42)']);
    const without = buildLanes(q, idx, threadCounts(q, idx, all, all), { group: false, sort: 'name', hidden, virtualOpen: true });
    expect(without.map((l) => l.label).sort()).toEqual(['(unnamed thread row 2)', 'main']);
    expect(Array.from(threadsMatching(q, null, hidden))).toEqual([1, 0, 1]);
    const pinned = buildLanes(q, idx, threadCounts(q, idx, all, all), { group: false, sort: 'name', hidden: new Set(), pinned: ['(unnamed thread row 2)'], virtualOpen: true });
    expect(pinned[0].label).toBe('(unnamed thread row 2)');
    expect(pinned.filter((l) => l.label.startsWith('(unnamed')).length).toBe(2);
  });

  it('writes collapsed stacks like the CLI', () => {
    expect(collapsedStacks(p, 0, 'events')).toEqual([
      ' 1',
      'main;idle 1',
      'run;serve;parse;parse;skipBytes 1',
      'run;serve;parse;skipBytes 2',
      'run;serve;read;NativeThreadSet.add 2',
    ]);
  });
});

describe('spikes', () => {
  it('finds each burst above the calm level once, from where it rises to where it falls back', () => {
    //                          0  1  2  3  4  5  6  7  8  9 10 11 12 13
    const s = findSpikes(Float64Array.from([0, 0, 9, 8, 0, 9, 0, 0, 0, 0, 9, 9, 0, 0]), 0, 10, { smooth: 1, bridge: 1 });
    // The one-bin dip at 4 is bridged; 10–11 is a second burst.
    expect(s.ranges).toEqual([
      [20, 60],
      [100, 120],
    ]);
    expect(s.baseline).toBe(0);
    expect(findSpikes(new Float64Array(14), 0, 10).ranges).toEqual([]);
    // A flat busy curve has no spike either.
    expect(findSpikes(new Float64Array(14).fill(5), 0, 10).ranges).toEqual([]);
  });

  it('gives the Poisson tail as a direct sum of its terms does', () => {
    // P(X ≥ n) = 1 − Σ_{k<n} e^−μ μ^k / k!, each term from the one before.
    const direct = (n: number, mu: number) => {
      let t = Math.exp(-mu);
      let head = 0;
      for (let k = 0; k < n; k++) {
        head += t;
        t *= mu / (k + 1);
      }
      return 1 - head;
    };
    for (const [n, mu] of [[1, 0.5], [2, 1], [5, 1.5], [15, 5], [30, 20], [7, 9], [3, 0.01]] as const) {
      const want = direct(n, mu);
      expect(Math.abs(poissonAtLeast(n, mu) - want), `n ${n} mu ${mu}`).toBeLessThan(1e-12 + 1e-9 * want);
    }
    expect(poissonAtLeast(0, 3)).toBe(1);
    expect(poissonAtLeast(4, 0)).toBe(0);
    // Far in the tail, where 1 − head would round to 0: 60 where 2 were expected.
    expect(poissonAtLeast(60, 2)).toBeGreaterThan(0);
    expect(poissonAtLeast(60, 2)).toBeLessThan(1e-50);
  });

  it('calls no cluster of sparse events at a steady rate a spike, and finds a burst among them', () => {
    // Half an event per bin on average (a few samples a second on a fine grid): most bins are
    // empty, so the median and its deviation are 0 and every cluster once read as a spike.
    let seed = 7;
    const uniform = () => ((seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) / 2 ** 32);
    const poisson = (mu: number) => {
      let k = 0;
      for (let p = Math.exp(-mu), s = p, u = uniform(); u > s; k++) {
        p *= mu / (k + 1);
        s += p;
      }
      return k;
    };
    const steady = Float64Array.from({ length: 2000 }, () => poisson(0.5));
    // (The thresholds alone call some of the scatter spikes.)
    expect(findSpikes(steady, 0, 10, { smooth: 3, bridge: 3 }).ranges.length).toBeGreaterThan(0);
    expect(findSpikes(steady, 0, 10, { smooth: 3, bridge: 3, counts: true }).ranges).toEqual([]);
    // Thirty more events over bins 1200–1209: that burst, and nothing else.
    const burst = steady.slice();
    for (let i = 1200; i < 1210; i++) burst[i] += 3;
    const found = findSpikes(burst, 0, 10, { smooth: 3, bridge: 3, counts: true }).ranges;
    expect(found.length).toBe(1);
    expect(found[0][0]).toBeGreaterThanOrEqual(11_900);
    expect(found[0][0]).toBeLessThanOrEqual(12_000);
    expect(found[0][1]).toBeGreaterThanOrEqual(12_100);
    expect(found[0][1]).toBeLessThanOrEqual(12_200);
  });

  it('steps to the next and previous spike from the selection', () => {
    const r: [number, number][] = [
      [10, 70],
      [90, 120],
    ];
    expect(nextSpike(r, null, 1)).toEqual([10, 70]);
    expect(nextSpike(r, null, -1)).toEqual([90, 120]);
    expect(nextSpike(r, [10, 70], 1)).toEqual([90, 120]);
    expect(nextSpike(r, [90, 120], 1)).toBeNull();
    expect(nextSpike(r, [90, 120], -1)).toEqual([10, 70]);
    expect(nextSpike(r, [75, 80], -1)).toEqual([10, 70]);
    expect(nextSpike(r, [75, 80], 1)).toEqual([90, 120]);
  });
});
