/**
 * Lane labels and the thread-time table count as the flame graph does: on async-profiler's
 * batched wall-clock samples (one event carries `samples` = n), samples, not events. Truth is
 * the JDK's own reading of ap-wall.jfr (tools/golden: jdk.jfr.consumer.RecordingFile, the sum of
 * `samples` per stack and per Java thread name), never the app's output.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { decodeInNode } from '../../engine/node';
import { callTree } from '../calltree';
import { eventsOfType, indexEvents, typeLists } from '../event-index';
import { filterLists, flagsOf, type FilterSpec } from '../filters';
import { buildLanes, threadCounts } from '../lanes';
import { weightModeOf } from '../kinds';
import { weightsInRange } from '../ranges';
import { threadTimes } from '../threadtime';
import { waitKinds, waitTracks } from '../waits';

const dir = resolve(__dirname, '../../../../fixtures');
const profile = decodeInNode(new Uint8Array(readFileSync(resolve(dir, 'ap-wall.jfr'))));
const TYPE = 'profiler.WallClockSample';
const type = profile.eventTypes.findIndex((t) => t.name === TYPE);
const index = indexEvents(profile);

/** The golden collapsed stacks: "a;b;c <samples>" per line. */
const golden = gunzipSync(readFileSync(resolve(dir, `expected/ap-wall.jfr.${TYPE}.collapsed.gz`)))
  .toString('utf8')
  .split('\n')
  .filter((l) => l.trim() !== '')
  .map((l) => {
    const cut = l.lastIndexOf(' ');
    return { frames: l.slice(0, cut).split(';'), samples: Number(l.slice(cut + 1)) };
  });
/** Samples per Java thread name, as the JDK reads them ('' for threads without one). */
const goldenThreads = new Map(
  readFileSync(resolve(dir, `expected/ap-wall.jfr.${TYPE}.threads.tsv`), 'utf8')
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => {
      const [name, n] = l.split('\t');
      return [name, Number(n)] as const;
    }),
);

function pass(stack: RegExp | null) {
  const spec: FilterSpec = { type, thread: null, stack, exclude: null, state: '', hiddenThreads: new Set<string>() };
  const lists = typeLists(profile, index, type);
  return { lists, ...filterLists(profile, spec, lists.parts, flagsOf(profile.events.length, eventsOfType(index, type)), null) };
}

describe('weights of batched wall-clock samples', () => {
  it('the fixture batches: more samples than events', () => {
    expect(type).toBeGreaterThanOrEqual(0);
    expect(weightModeOf(profile, type)).toBe('samples');
    const total = golden.reduce((a, g) => a + g.samples, 0);
    expect(total).toBeGreaterThan(profile.eventTypes[type].count);
  });

  it('lane labels sum to the flame graph root, and each thread to the JDK’s samples for it', () => {
    const { lists, cums } = pass(null);
    const byThread = cums.slice(0, lists.byThread.length);
    const counts = threadCounts(profile, byThread, 'samples');
    const lanes = buildLanes(profile, index, counts, { group: false, sort: 'samples', hidden: new Set() });
    const labels = lanes.reduce((a, l) => a + l.matching, 0);
    const goldenRoot = golden.reduce((a, g) => a + g.samples, 0);
    // Every sample of the type sits on a thread's lane.
    expect(labels).toBe(goldenRoot);
    expect(lanes.reduce((a, l) => a + l.count, 0)).toBe(goldenRoot);
    // The flame graph's root, from the view's own weights: the same total.
    const root = callTree(profile, weightsInRange(profile, cums, null, 'samples'), 'all');
    expect(root.value).toBe(goldenRoot);
    // Per Java thread name: the JDK's count of samples (not of events).
    const named = new Map<string, number>();
    for (const l of lanes) named.set(l.label, (named.get(l.label) ?? 0) + l.matching);
    let checked = 0;
    for (const [name, n] of goldenThreads) {
      if (name === '') continue;
      expect(named.get(name), name).toBe(n);
      checked++;
    }
    expect(checked).toBeGreaterThan(5);
    // Events would have said less: the labels do not count events.
    expect(lanes.reduce((a, l) => a + lists.byThread[l.threads[0]].length, 0)).toBeLessThan(goldenRoot);
  });

  it('with a stack filter, the kept samples per lane sum to the golden stacks holding the frame', () => {
    const re = /Thread\.sleep|LockSupport\.park/;
    const { lists, cums } = pass(re);
    const counts = threadCounts(profile, cums.slice(0, lists.byThread.length), 'samples');
    const lanes = buildLanes(profile, index, counts, { group: true, sort: 'samples', hidden: new Set() });
    const kept = golden.filter((g) => g.frames.some((f) => re.test(f))).reduce((a, g) => a + g.samples, 0);
    expect(kept).toBeGreaterThan(0);
    expect(lanes.reduce((a, l) => a + l.matching, 0)).toBe(kept);
  });

  it('the thread-time table counts samples too', () => {
    const { lists, cums } = pass(null);
    const byThread = cums.slice(0, lists.byThread.length);
    const all = new Uint8Array(profile.threads.length).fill(1);
    const rows = threadTimes(profile, waitTracks(profile, index, waitKinds(profile)), byThread, all, -1, profile.info.durationMs + 1, 'samples');
    const goldenRoot = golden.reduce((a, g) => a + g.samples, 0);
    expect(rows.reduce((a, r) => a + r.matching, 0)).toBe(goldenRoot);
    const events = threadTimes(profile, waitTracks(profile, index, waitKinds(profile)), byThread, all, -1, profile.info.durationMs + 1);
    expect(events.reduce((a, r) => a + r.matching, 0)).toBe(profile.eventTypes[type].count);
  });
});
