import { describe, expect, it } from 'vitest';
import { compileRegex } from '../filters';

const matcher = (text: string) => {
  const r = compileRegex(text);
  if (!r.ok || !r.re) throw new Error(`expected ${text} to compile`);
  return r.re;
};

describe('compileRegex (RE2)', () => {
  it('treats an empty text as no filter', () => {
    expect(compileRegex('  ')).toEqual({ ok: true, re: null });
  });

  it('matches anywhere in a name, as RegExp.test does', () => {
    const re = matcher('NativeThreadSet|skip&Bytes');
    expect(re.test('sun.nio.ch.NativeThreadSet.add')).toBe(true);
    expect(re.test('java.io.DataInputStream.skipBytes')).toBe(false);
    expect(matcher('^java\\.util\\.').test('java.util.HashMap.get')).toBe(true);
    expect(matcher('^java\\.util\\.').test('xjava.util.HashMap.get')).toBe(false);
    expect(matcher('worker-\\d+$').test('search-worker-12')).toBe(true);
    expect(matcher('(?i)hashmap').test('java.util.HashMap.get')).toBe(true);
  });

  it('runs a catastrophic pattern from a link in linear time', () => {
    const re = matcher('(\\w+\\.?)+$');
    const name = `${'a'.repeat(49)}!`;
    re.test(name); // warm up the compiled program
    const t = performance.now();
    expect(re.test(name)).toBe(false);
    expect(performance.now() - t).toBeLessThan(20);
    // RegExp would take seconds on the same name with a few more letters; RE2 stays linear.
    const long = `${'a.'.repeat(5000)}!`;
    const t2 = performance.now();
    expect(re.test(long)).toBe(false);
    expect(performance.now() - t2).toBeLessThan(500);
  });

  it('refuses backreferences and lookaround with a message that says so', () => {
    for (const text of ['(a)\\1', 'foo(?=bar)', '(?!x)y', '(?<=a)b', '(?<!a)b']) {
      const r = compileRegex(text);
      expect(r.ok, text).toBe(false);
      if (!r.ok) expect(r.error, text).toMatch(/Backreferences and lookaround are not supported/);
    }
  });

  it('reports other invalid patterns, never throws', () => {
    const r = compileRegex('[');
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.error).toMatch(/missing closing \]/);
  });
});
