import { describe, expect, it } from 'vitest';
import { elideMiddle } from '../names';

const chars = (t: string) => Array.from(t).length;

describe('elideMiddle', () => {
  it('leaves a name that fits alone', () => {
    expect(elideMiddle('search-worker-3', 15, chars)).toBe('search-worker-3');
  });

  it('cuts the middle, keeping the start and the end, to the room exactly', () => {
    const name = 'data-plane-kafka-request-handler-3';
    const out = elideMiddle(name, 29, chars);
    expect(out).toBe('data-plane-kaf…uest-handler-3');
    expect(chars(out)).toBeLessThanOrEqual(29);
    for (let room = 3; room < chars(name); room++) {
      const e = elideMiddle(name, room, chars);
      expect(chars(e)).toBeLessThanOrEqual(room);
      expect(chars(e)).toBeGreaterThanOrEqual(room - 1);
      const [head, tail] = e.split('…');
      expect(name.startsWith(head) && name.endsWith(tail)).toBe(true);
    }
  });

  it('keeps surrogate pairs whole and gives at least a character each side', () => {
    expect(elideMiddle('𝔸𝔹ℂ𝔻𝔼𝔽', 4, chars)).toBe('𝔸𝔹…𝔽');
    expect(elideMiddle('abcdef', 1, chars)).toBe('a…f');
  });
});
