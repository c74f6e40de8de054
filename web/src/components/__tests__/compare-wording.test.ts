/**
 * The Compare tab's sentence on how sure it is: for weights that are not counts (wait time,
 * bytes) the shares compared are of the weight, but the test is of the events under each method;
 * the sentence must say which changed, not let a significance be read as the share's.
 */
import { describe, expect, it } from 'vitest';
import type { Change, Rise } from '../../profile-logic/compare';
import { howSure } from '../Compare';

const change = (p: number, q: number, delta: number, countDelta: number): Change => ({ a: 1, b: 1, na: 1, nb: 1, share: 0, baseShare: 0, delta, countDelta, p, q, score: 0 });
const rise = (name: number, c: Change): Rise => ({ name, total: c, self: c });

describe('howSure', () => {
  // Two methods below 0.01 (one of them past the q cut), one above, one untested.
  const rises = [rise(0, change(0.001, 0.004, 0.2, 0.1)), rise(1, change(0.009, 0.02, 0.001, 0.07)), rise(2, change(0.5, 0.6, 0.1, 0.1)), rise(3, change(NaN, NaN, 0, 0))];

  it('counts the methods below the level and past the false-discovery cut', () => {
    const s = howSure(rises, 'total', 0.01, 'samples');
    expect(s).toMatch(/^2 of 3 methods changed at p < 0\.01, where chance alone would give at most about 0\.0; 1 still do/);
  });

  it('says the test counts events when the shares are of time or bytes', () => {
    expect(howSure(rises, 'total', 0.01, 'duration')).toMatch(/^2 of 3 methods' numbers of events changed \(the test counts events; the shares are of time\) at p < 0\.01/);
    expect(howSure(rises, 'self', 0.01, 'bytes')).toContain('the shares are of bytes');
    expect(howSure(rises, 'total', 0.01, 'events')).not.toContain('numbers of events');
  });
});
