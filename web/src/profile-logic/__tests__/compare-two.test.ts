/**
 * Two recordings compared method by method: built by hand with different string tables and stack
 * numbering, their rows (matched by method name) equal the rows of the same events held in one
 * profile and split by time.
 */
import { describe, expect, it } from 'vitest';
import { compareMethods, compareProfiles, methodsByName, type MethodComparison } from '../compare';
import { buildProfile, type Ev } from './build';
import { weightPerStack } from './reference';
import type { WeightMode } from '../kinds';
import type { Profile } from '../../columns/profile';
import { rng } from './rng';

/** A small deterministic generator (mulberry32). */

const STACKS_A = ['main;run;Search.parse', 'main;run;Search.parse;Buf.skip', 'main;run;Index.merge', 'main;run;run;Search.parse', 'main;Log.write'];
// B: an extra method, another order (so other string indexes and stack numbers), one of A's gone.
const STACKS_B = ['Gc.work', 'main;run;Index.merge', 'main;run;Search.parse;Buf.skip', 'main;run;Search.parse', 'main;run;run;Search.parse'];

function events(stacks: string[], n: number, seed: number, t0: number): Ev[] {
  const r = rng(seed);
  return Array.from({ length: n }, (_, k) => ({ type: 0, t: t0 + (k / n) * 50, thread: 0, stack: r() < 0.05 ? null : stacks[Math.floor(r() * r() * stacks.length)], weight: 1 + Math.floor(r() * 1000) }));
}

const all = (p: Profile) => Int32Array.from({ length: p.events.length }, (_, i) => i);
const within = (p: Profile, from: number, to: number) => Int32Array.from(all(p).filter((i) => p.events.start[i] >= from && p.events.start[i] < to));

/** Rows with names spelled out, for comparing comparisons made on different string tables. */
const spelled = (c: MethodComparison, nameOf: (n: number) => string) => ({ totals: c.totals, rows: c.rows.map((r) => ({ ...r, name: nameOf(r.name) })) });

describe('comparing two recordings', () => {
  const types = [{ name: 'jdk.ObjectAllocationSample', kind: 'alloc' as const }];
  const evA = events(STACKS_A, 400, 1, 0);
  const evB = events(STACKS_B, 300, 2, 0);
  const a = buildProfile(types, ['main'], evA);
  const b = buildProfile(types, ['worker', 'main'], evB.map((e) => ({ ...e, thread: 1 })));
  // The same events in one profile: A's in the first 50 ms, B's after.
  const one = buildProfile(types, ['main'], [...evA, ...evB.map((e) => ({ ...e, t: e.t + 50 }))]);

  it('the two profiles really number strings and stacks differently', () => {
    const name = (p: Profile, s: number) => p.strings[p.frames.name[p.stacks.frame[s]]];
    expect(a.strings).not.toEqual(b.strings);
    expect(name(a, 0)).not.toBe(name(b, 0));
  });

  for (const mode of ['events', 'bytes'] as WeightMode[]) {
    it(`rows by method name equal those of one profile (${mode})`, () => {
      const wa = weightPerStack(a, all(a), mode);
      const wb = weightPerStack(b, all(b), mode);
      const na = weightPerStack(a, all(a), 'events');
      const nb = weightPerStack(b, all(b), 'events');
      const two = compareProfiles({ profile: a, weights: wa, counts: mode === 'events' ? undefined : na }, { profile: b, weights: wb, counts: mode === 'events' ? undefined : nb });
      const sel = within(one, 0, 50);
      const base = within(one, 50, 100);
      const ws = weightPerStack(one, sel, mode);
      const wbase = weightPerStack(one, base, mode);
      const same =
        mode === 'events'
          ? compareMethods(one, ws, wbase)
          : compareMethods(one, ws, wbase, weightPerStack(one, sel, 'events'), weightPerStack(one, base, 'events'));
      expect(two.rows.length).toBeGreaterThan(4);
      expect(spelled(two, (n) => two.names[n])).toEqual(spelled(same, (n) => one.strings[n]));
      // A method only one side holds is a row with nothing on the other side.
      const gc = two.rows.find((r) => two.names[r.name] === 'Gc.work');
      const log = two.rows.find((r) => two.names[r.name] === 'Log.write');
      expect(gc && gc.total.a === 0 && gc.total.b > 0).toBe(true);
      expect(log && log.total.b === 0 && log.total.a > 0).toBe(true);
    });
  }

  it('methodsByName counts a recursive method once per stack and keys by name', () => {
    const w = weightPerStack(a, all(a), 'events');
    const m = methodsByName(a, w);
    const parse = evA.filter((e) => e.stack?.includes('Search.parse')).length;
    expect(m.get('Search.parse')?.total).toBe(parse);
    expect(m.get('main')?.total).toBe(evA.filter((e) => e.stack !== null).length);
    expect(m.get('main')?.self).toBe(0);
  });
});
