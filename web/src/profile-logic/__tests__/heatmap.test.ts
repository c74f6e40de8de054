/** The latency heatmap against a brute-force binning, and the duration filter a box on it sets. */
import { describe, expect, it } from 'vitest';
import { eventsOfType, indexEvents, typeLists } from '../event-index';
import { filterLists, flagsOf } from '../filters';
import { durationAt, durationSpan, heatGrid, latencyHeatmap, rowOf } from '../heatmap';
import { buildProfile, type Ev } from './build';

const TYPES = [{ name: 'jdk.FileRead', kind: 'io' as const }];

describe('latency heatmap', () => {
  let seed = 5;
  const rnd = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
  const evs: Ev[] = Array.from({ length: 500 }, () => ({ type: 0, t: rnd() * 1000, thread: Math.floor(rnd() * 3), stack: null, duration: Math.exp(rnd() * 9 - 4) }));
  const p = buildProfile(TYPES, ['a', 'b', 'c'], evs);
  const idx = indexEvents(p);
  const lists = typeLists(p, idx, 0);
  const pass = (duration: [number, number] | null) =>
    filterLists(p, { type: 0, thread: null, stack: null, exclude: null, state: '', hiddenThreads: new Set(), duration }, lists.parts, flagsOf(p.events.length, eventsOfType(idx, 0)), null);

  it('maps durations to rows and back on a log scale', () => {
    for (const ms of [0.02, 0.5, 3, 70, 900]) {
      const r = rowOf(ms, 0.01, 1000, 40);
      expect(durationAt(r, 0.01, 1000, 40)).toBeLessThanOrEqual(ms * (1 + 1e-9));
      expect(durationAt(r + 1, 0.01, 1000, 40)).toBeGreaterThan(ms);
    }
  });

  it('counts each matching event once in its (time, duration) cell', () => {
    const cums = pass(null).cums;
    const span = durationSpan(p, cums);
    const h = latencyHeatmap(p, cums, 100, 900, 16, 20, span);
    const brute = new Float64Array(16 * 20);
    for (let i = 0; i < p.events.length; i++) {
      const t = p.events.start[i];
      if (t < 100 || t >= 900) continue;
      brute[rowOf(p.events.duration[i], h.minMs, h.maxMs, 20) * 16 + Math.floor((t - 100) / 50)]++;
    }
    expect(Array.from(h.counts)).toEqual(Array.from(brute));
    expect(h.max).toBe(Math.max(...brute));
  });

  it('sums the same counts from a grid binned once, when columns hold whole grid bins', () => {
    const cums = pass(null).cums;
    const span = durationSpan(p, cums);
    // 1,000 ms in 1,000 grid bins; 16 columns of 50 ms over [100, 900) hold 50 whole bins each.
    const grid = heatGrid(p, cums, 1000, 20, span, 1000);
    const walked = latencyHeatmap(p, cums, 100, 900, 16, 20, span);
    const summed = latencyHeatmap(p, cums, 100, 900, 16, 20, span, grid);
    expect(Array.from(summed.counts)).toEqual(Array.from(walked.counts));
    expect(summed.max).toBe(walked.max);
    // A window too narrow for the grid walks its events.
    expect(Array.from(latencyHeatmap(p, cums, 100, 110, 16, 20, span, grid).counts)).toEqual(Array.from(latencyHeatmap(p, cums, 100, 110, 16, 20, span).counts));
  });

  it('keeps only the durations a box selects', () => {
    const kept = pass([1, 10]).filtered.match;
    for (let i = 0; i < p.events.length; i++) {
      const d = p.events.duration[i];
      expect(kept[i] === 1).toBe(d >= 1 && d <= 10);
    }
  });
});
