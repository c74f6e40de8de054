/**
 * What the page learns of the rows as the decoders hand them over, so the view need not read
 * every row again once a round is merged: the rows' extent (their latest end and the stacks
 * lost, the profile's summary) and the types none of whose rows holds a thread state. Each is
 * checked against a pass over every row of the merged columns, after the first round and after
 * each deferred type is picked, rows handed over and written into shared columns.
 */
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { STACK_LOST, type Profile } from '../../columns/profile';
import { eventsOfType, indexEvents } from '../../profile-logic/event-index';
import { typeStates } from '../../profile-logic/filters';
import { firstView } from '../../profile-logic/kinds';
import type { PartData } from '../merge';
import { sessionInNode } from '../node';
import { toProfile } from '../tables';

const root = resolve(__dirname, '../../../..');

/** A recording cut short: chunks whose stack pool was never written. */
const CUT = 'fixtures/damaged/truncated.jfr';
const files = ['fixtures/jdk17-profile.jfr', 'fixtures/ap-alloc-lock.jfr', 'fixtures/jdk25-virtual.jfr', CUT];

/** Each type's thread states, from every row. */
function statesByType(p: Profile): Set<number>[] {
  const out = p.eventTypes.map(() => new Set<number>());
  for (let i = 0; i < p.events.length; i++) if (p.events.state[i] >= 0) out[p.events.type[i]].add(p.events.state[i]);
  return out;
}

describe('what the page learns of the rows as they come', () => {
  it.each(files.flatMap((f) => [[f, false] as const, [f, true] as const]))('%s (shared columns: %s): extent and stateless types as a pass over every row finds them', async (file, shared) => {
    const seen = { lost: 0, none: 0, some: 0 };
    const bytes = new Uint8Array(readFileSync(join(root, file)));
    const session = sessionInNode(bytes, 2, { pieceRows: 64, wholeFirstBytes: 0, shared });
    let p = await session.open((types) => firstView(types, ''), () => {});
    const check = (profile: Profile) => {
      const cols = (session as unknown as { columns: PartData }).columns;
      const n = cols.eventStart.length;
      let end = -Infinity;
      let lost = 0;
      for (let i = 0; i < n; i++) {
        end = Math.max(end, cols.eventStart[i] + cols.eventDuration[i]);
        if (cols.eventStack[i] === STACK_LOST) lost++;
      }
      expect(cols.extent).toEqual({ end, stacksLost: lost });
      seen.lost += lost;
      // The summary made from it is the one a pass over the rows makes.
      const again = toProfile({ ...cols, extent: undefined, statesIn: undefined, description: session.description! }, profile.info.startMs, profile.info.fileSize);
      expect(again.info).toEqual(profile.info);
      const states = statesByType(profile);
      const index = indexEvents(profile);
      profile.eventTypes.forEach((t, k) => {
        // (No window replaces a type's rows here: known exactly, of the types decoded.)
        expect([t.name, t.noStates === true]).toEqual([t.name, !t.deferred && states[k].size === 0]);
        if (t.noStates && t.count > 0 && !t.deferred) seen.none++;
        if (states[k].size > 0) seen.some++;
        expect([t.name, typeStates(profile, k, eventsOfType(index, k)).sort()]).toEqual([t.name, [...states[k]].sort()]);
      });
    };
    check(p);
    for (const t of session.deferred()) {
      p = await session.load([t], () => {});
      check(p);
    }
    // Each whole recording holds types with states and types without; the cut one (no state
    // in what was written of it) lost stacks.
    expect(seen.none).toBeGreaterThan(0);
    expect([seen.some > 0, seen.lost > 0]).toEqual([file !== CUT, file === CUT]);
  });
});
