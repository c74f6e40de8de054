import { describe, expect, it } from 'vitest';
import { escapeFrame } from '../collapsed';

describe('collapsed stacks', () => {
  it('escape frame names exactly as the CLI does, so a name cannot forge a line, a frame or an escape', () => {
    // The same string and expectation as parser/src/collapse.rs's test.
    const s = escapeFrame('a\nb\rc\td;e\u001b[2J\\f\u007f\u0085\u0000g h.é');
    expect(s).toBe('a\\nb\\rc\\td\\x3be\\x1b[2J\\\\f\\x7f\\u{85}\\x00g h.é');
    expect([...s].some((c) => c.codePointAt(0)! < 0x20 || (c.codePointAt(0)! >= 0x7f && c.codePointAt(0)! <= 0x9f) || c === ';')).toBe(false);
  });
});
