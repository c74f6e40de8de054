/**
 * The stack chart's boxes against a per-sample reconstruction: each drawn sample's span (up to
 * the thread's next event, capped at the interval) and its path of methods from the root,
 * computed here one sample at a time; then every box is checked against those samples: each
 * sample is covered at each of its depths by exactly one box naming its method there, boxes at
 * a depth never overlap, and no two boxes that touch could have merged.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Profile } from '../../columns/profile';
import { decodeInNode } from '../../engine/node';
import { eventsOfType, indexEvents, typeLists } from '../event-index';
import { compileRegex, filterLists, flagsOf, type FilterSpec } from '../filters';
import type { Cumulative } from '../running-counts';
import { boxAt, matchingIn, samplingInterval, stackChart, stepBox, type StackChart } from '../stackchart';
import { buildProfile } from './build';

interface Sample {
  event: number;
  start: number;
  end: number;
  /** Method names from the root. */
  path: string[];
}

/** The thread's drawn samples, one by one: all events of the type on the thread by start, the matching ones kept. */
function reconstruct(profile: Profile, thread: number, type: number, matches: (i: number) => boolean, interval: number): Sample[] {
  const e = profile.events;
  const all: number[] = [];
  for (let i = 0; i < e.length; i++) if (e.type[i] === type && e.thread[i] === thread) all.push(i);
  all.sort((a, b) => e.start[a] - e.start[b] || a - b);
  const out: Sample[] = [];
  all.forEach((i, k) => {
    if (!matches(i) || e.stack[i] < 0) return;
    const next = k + 1 < all.length ? e.start[all[k + 1]] : Infinity;
    const end = e.duration[i] > 0 ? e.start[i] + e.duration[i] : Math.min(next, e.start[i] + interval);
    const path: string[] = [];
    for (let s = e.stack[i]; s >= 0; s = profile.stacks.prefix[s]) path.unshift(profile.strings[profile.frames.name[profile.stacks.frame[s]]]);
    out.push({ event: i, start: e.start[i], end, path });
  });
  return out;
}

/** Checks a chart against the samples in [from, to]; returns how many (sample, depth) cells were checked. */
function check(profile: Profile, chart: StackChart, samples: Sample[], from: number, to: number): number {
  const inRange = samples.filter((s) => s.end >= from && s.start <= to);
  expect(chart.samples).toBe(inRange.length);
  expect(chart.maxDepth).toBe(Math.max(0, ...inRange.map((s) => s.path.length)));
  const name = (n: number) => profile.strings[n];
  let cells = 0;
  for (const s of inRange) {
    const mid = (s.start + s.end) / 2;
    for (let d = 0; d < s.path.length; d++) {
      const covering = chart.boxes.filter((b) => b.depth === d && b.start <= s.start && s.end <= b.end);
      expect(covering.length, `sample at ${s.start}, depth ${d}`).toBe(1);
      expect(name(covering[0].name)).toBe(s.path[d]);
      expect(boxAt(chart, d, mid)).toBe(covering[0]);
      cells++;
    }
    expect(boxAt(chart, s.path.length, mid)).toBeNull();
  }
  // Per depth: sorted, not overlapping, and the samples each box holds are exactly those it spans.
  for (let d = 0; d < chart.maxDepth; d++) {
    const row = chart.boxes.filter((b) => b.depth === d);
    for (let k = 1; k < row.length; k++) expect(row[k].start).toBeGreaterThanOrEqual(row[k - 1].end);
    for (const b of row) {
      const inside = inRange.filter((s) => s.start >= b.start && s.end <= b.end);
      expect(inside.length).toBe(b.samples);
      expect(inside.every((s) => s.path.length > d && s.path[d] === name(b.name))).toBe(true);
      // All the samples of a box share the path down to its depth (boxes nest).
      expect(new Set(inside.map((s) => s.path.slice(0, d + 1).join(';'))).size).toBe(1);
    }
    // Touching boxes could not have merged: the samples either side differ somewhere down to d.
    for (let k = 1; k < row.length; k++) {
      if (row[k].start !== row[k - 1].end) continue;
      const before = inRange.find((s) => s.end === row[k - 1].end && s.start >= row[k - 1].start)!;
      const after = inRange.find((s) => s.start === row[k].start)!;
      expect(before.path.slice(0, d + 1).join(';')).not.toBe(after.path.slice(0, d + 1).join(';'));
    }
  }
  return cells;
}

const spec = (type: number, stack: string | null = null): FilterSpec => {
  const re = stack ? compileRegex(stack) : null;
  return { type, thread: null, stack: re && re.ok ? re.re : null, exclude: null, state: '', hiddenThreads: new Set() };
};

function cumOf(profile: Profile, type: number, thread: number, stack: string | null = null): Cumulative {
  const index = indexEvents(profile);
  const lists = typeLists(profile, index, type);
  return filterLists(profile, spec(type, stack), lists.parts, flagsOf(profile.events.length, eventsOfType(index, type)), null).cums[thread];
}

describe('stack chart boxes', () => {
  const types = [
    { name: 'jdk.ExecutionSample', kind: 'cpu' as const },
    { name: 'jdk.JavaMonitorEnter', kind: 'lock' as const },
  ];
  // One thread sampled every 10 ms with a pause (60 → 100), a stack change in the middle of a
  // run, a recursion, a sample without a stack; another thread's samples interleaved.
  const p = buildProfile(types, ['w1', 'w2'], [
    { type: 0, t: 0, thread: 0, stack: 'run;serve;parse' },
    { type: 0, t: 10, thread: 0, stack: 'run;serve;parse;skip' },
    { type: 0, t: 20, thread: 0, stack: 'run;serve;read' },
    { type: 0, t: 30, thread: 0, stack: 'run;serve;read' },
    { type: 0, t: 40, thread: 0, stack: 'run;other;read' },
    { type: 0, t: 50, thread: 0, stack: 'run;other;read;read' },
    { type: 0, t: 60, thread: 0, stack: 'run;other;read;read' },
    { type: 0, t: 100, thread: 0, stack: 'run;other;read;read' },
    { type: 0, t: 110, thread: 0, stack: null },
    { type: 0, t: 120, thread: 0, stack: 'run;serve' },
    { type: 0, t: 15, thread: 1, stack: 'main;loop' },
    { type: 0, t: 25, thread: 1, stack: 'main;loop' },
    { type: 1, t: 5, thread: 1, stack: 'main;lock', duration: 7 },
    { type: 1, t: 12, thread: 1, stack: 'main;lock', duration: 30 },
  ]);

  it('takes the sampling interval as the median gap', () => {
    const cum = cumOf(p, 0, 0);
    expect(samplingInterval(p.events.start, cum.list)).toBe(10);
    expect(samplingInterval(p.events.start, new Int32Array([0]))).toBeNull();
  });

  it('merges touching samples with the same methods down to a depth, and breaks at gaps', () => {
    const chart = stackChart(p, cumOf(p, 0, 0), 0, 200, 10);
    const row = (d: number) => chart.boxes.filter((b) => b.depth === d).map((b) => [p.strings[b.name], b.start, b.end, b.samples]);
    // `run` holds 0..70 (seven samples, the last capped at 60 + 10), then again after the pause;
    // the sample without a stack ends nothing drawn but breaks the run (110 → 120 is its span).
    expect(row(0)).toEqual([
      ['run', 0, 70, 7],
      ['run', 100, 110, 1],
      ['run', 120, 130, 1],
    ]);
    expect(row(1)).toEqual([
      ['serve', 0, 40, 4],
      ['other', 40, 70, 3],
      ['other', 100, 110, 1],
      ['serve', 120, 130, 1],
    ]);
    // read under serve and read under other touch at 40 but are two boxes: their callers differ.
    expect(row(2)).toEqual([
      ['parse', 0, 20, 2],
      ['read', 20, 40, 2],
      ['read', 40, 70, 3],
      ['read', 100, 110, 1],
    ]);
    expect(row(3)).toEqual([
      ['skip', 10, 20, 1],
      ['read', 50, 70, 2],
      ['read', 100, 110, 1],
    ]);
    expect(check(p, chart, reconstruct(p, 0, 0, () => true, 10), 0, 200)).toBeGreaterThan(20);
  });

  it('keeps only what the filters keep, and a dropped sample still ends the one before', () => {
    const chart = stackChart(p, cumOf(p, 0, 0, 'other'), 0, 200, 10);
    const samples = reconstruct(p, 0, 0, (i) => pathHas(p, i, 'other'), 10);
    check(p, chart, samples, 0, 200);
    expect(chart.boxes.filter((b) => b.depth === 0).map((b) => [b.start, b.end])).toEqual([
      [40, 70],
      [100, 110],
    ]);
  });

  it('walks the boxes with the arrow keys: along a row, to the caller above, to the first callee below', () => {
    const chart = stackChart(p, cumOf(p, 0, 0), 0, 200, 10);
    const at = (d: number, t: number) => boxAt(chart, d, t)!;
    const say = (b: ReturnType<typeof at>) => `${p.strings[b.name]}@${b.depth}:${b.start}`;
    expect(say(stepBox(chart, at(2, 45), 'ArrowLeft'))).toBe('read@2:20');
    expect(say(stepBox(chart, at(2, 45), 'ArrowRight'))).toBe('read@2:100');
    expect(say(stepBox(chart, at(2, 45), 'ArrowUp'))).toBe('other@1:40');
    expect(say(stepBox(chart, at(2, 45), 'ArrowDown'))).toBe('read@3:50');
    expect(say(stepBox(chart, at(1, 5), 'ArrowDown'))).toBe('parse@2:0');
    expect(say(stepBox(chart, at(0, 5), 'ArrowUp'))).toBe('run@0:0');
    expect(say(stepBox(chart, at(3, 15), 'ArrowDown'))).toBe('skip@3:10');
    expect(say(stepBox(chart, at(0, 5), 'ArrowLeft'))).toBe('run@0:0');
    expect(say(stepBox(chart, at(0, 125), 'ArrowRight'))).toBe('run@0:120');
  });

  it('counts a thread’s drawn events starting in a window (the busiest thread is chosen by it)', () => {
    const cum = cumOf(p, 0, 0, 'other');
    for (const [a, b] of [[0, 200], [40, 60], [41, 59], [60, 60], [61, 99], [100, 130]]) {
      let n = 0;
      for (let i = 0; i < p.events.length; i++) if (p.events.type[i] === 0 && p.events.thread[i] === 0 && pathHas(p, i, 'other') && p.events.start[i] >= a && p.events.start[i] <= b) n++;
      expect(matchingIn(p, cum, a, b), `${a}-${b}`).toBe(n);
    }
  });

  it('draws waits for their own duration, and only what overlaps the window', () => {
    const chart = stackChart(p, cumOf(p, 1, 1), 10, 20, 10);
    // The wait 5..12 reaches into 10..20; the one from 12 lasts 30 ms.
    expect(chart.boxes.filter((b) => b.depth === 1).map((b) => [b.start, b.end, b.samples])).toEqual([[5, 42, 2]]);
    check(p, chart, reconstruct(p, 1, 1, () => true, 10), 10, 20);
    const windowed = stackChart(p, cumOf(p, 0, 0), 45, 55, 10);
    check(p, windowed, reconstruct(p, 0, 0, () => true, 10), 45, 55);
    expect(windowed.samples).toBe(2);
  });
});

function pathHas(p: Profile, i: number, name: string): boolean {
  for (let s = p.events.stack[i]; s >= 0; s = p.stacks.prefix[s]) if (p.strings[p.frames.name[p.stacks.frame[s]]] === name) return true;
  return false;
}

describe('stack chart of the example recording', () => {
  const profile = decodeInNode(new Uint8Array(readFileSync(resolve(__dirname, '../../../../fixtures/example.jfr'))));
  const cpu = profile.eventTypes.findIndex((t) => t.name === 'jdk.ExecutionSample');
  const worker = [...Array(profile.threads.length).keys()].find((t) => profile.strings[profile.threads.name[t]] === 'search-worker-3')!;

  it('covers every sample of a search worker with boxes naming its frames, depth by depth', () => {
    const cum = cumOf(profile, cpu, worker);
    const interval = samplingInterval(profile.events.start, cum.list)!;
    // Half the gaps between the worker's samples are at most the interval, half at least.
    const gaps = Array.from(cum.list.subarray(1), (i, k) => profile.events.start[i] - profile.events.start[cum.list[k]]).filter((g) => g > 0);
    expect(gaps.filter((g) => g <= interval).length).toBeGreaterThanOrEqual(gaps.length / 2);
    expect(gaps.filter((g) => g >= interval).length).toBeGreaterThanOrEqual(gaps.length / 2);
    const samples = reconstruct(profile, worker, cpu, () => true, interval);
    expect(samples.length).toBeGreaterThan(40);
    const chart = stackChart(profile, cum, 0, profile.info.durationMs, interval);
    expect(check(profile, chart, samples, 0, profile.info.durationMs)).toBeGreaterThan(500);
    // Samples merge: fewer boxes than (sample, depth) cells.
    expect(chart.boxes.length).toBeLessThan(samples.reduce((a, s) => a + s.path.length, 0));
    // Through a stack filter too.
    const filtered = stackChart(profile, cumOf(profile, cpu, worker, 'skipBytes'), 0, profile.info.durationMs, interval);
    check(profile, filtered, reconstruct(profile, worker, cpu, (i) => pathHas(profile, i, 'java.io.DataInputStream.skipBytes'), interval), 0, profile.info.durationMs);
  });
});
