/**
 * The Locks view lists, under each lock, the bursts with the most wait in the range first: on a
 * recording with many bursts per monitor, the pile-ups a user looks for are never cut off behind
 * a list of the earliest one-wait bursts.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { expect, it } from 'vitest';
import { decodeInNode } from '../../engine/node';
import { indexEvents } from '../../profile-logic/event-index';
import { lockBursts } from '../../profile-logic/locks';
import { waitKinds } from '../../profile-logic/waits';
import { largestFirst } from '../Locks';

it('lists the bursts of a lock with the most wait in the range, largest first', () => {
  const p = decodeInNode(new Uint8Array(readFileSync(resolve(__dirname, '../../../../fixtures/hostile.jfr'))));
  const index = indexEvents(p);
  const range: [number, number] = [0, p.info.durationMs / 2];
  const bursts = lockBursts(p, index, waitKinds(p), range);
  const byLock = new Map<string, typeof bursts>();
  for (const b of bursts) byLock.set(`${b.kind}:${b.cls}:${b.address}`, [...(byLock.get(`${b.kind}:${b.cls}:${b.address}`) ?? []), b]);
  const busy = [...byLock.values()].filter((l) => l.length > 30);
  expect(busy.length).toBeGreaterThan(0);
  for (const all of byLock.values()) {
    const shown = largestFirst(all);
    expect(shown.length).toBe(Math.min(30, all.length));
    for (let k = 1; k < shown.length; k++) expect(shown[k].clipped).toBeLessThanOrEqual(shown[k - 1].clipped);
    // No burst left out waited more in the range than one shown.
    const least = Math.min(...shown.map((b) => b.clipped));
    for (const b of all) if (!shown.includes(b)) expect(b.clipped).toBeLessThanOrEqual(least);
  }
});
