import { describe, expect, it } from 'vitest';
import { visibleName, visibleText } from '../names';

describe('visibleName', () => {
  it('leaves ordinary names alone, markup included (it is drawn as text)', () => {
    for (const s of ['java.util.HashMap.get', 'search-worker-3', 'ünïcode 名前 اسم', '<img src=x onerror=alert(1)>', 'C:\\temp\\a.jfr']) {
      expect(visibleName(s)).toBe(s);
    }
  });

  it('writes controls and bidi formatting characters as escapes', () => {
    expect(visibleName('evil\u202Egnp.exe')).toBe('evil\\u202egnp.exe');
    expect(visibleName('a\nb\r\tc')).toBe('a\\nb\\r\\tc');
    expect(visibleName('\u0000\u001b[31m\u007f\u0085\u009f')).toBe('\\u0000\\u001b[31m\\u007f\\u0085\\u009f');
    expect(visibleName('\u202a\u202b\u202c\u202d\u2066\u2067\u2068\u2069\u200e\u200f\u061c\u2028')).toBe(
      '\\u202a\\u202b\\u202c\\u202d\\u2066\\u2067\\u2068\\u2069\\u200e\\u200f\\u061c\\u2028',
    );
  });

  it('leaves no control character in any output', () => {
    let all = '';
    for (let c = 0; c < 0x2100; c++) all += String.fromCharCode(c);
    // eslint-disable-next-line no-control-regex -- the characters the escape must remove
    expect(/[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/.test(visibleName(all))).toBe(false);
  });
});

describe('visibleText', () => {
  it('keeps line breaks and escapes the rest line by line', () => {
    expect(visibleText('Linux 6.1\nx86_64\u202e\r')).toBe('Linux 6.1\nx86_64\\u202e\\r');
  });
  it('keeps tabs, which align a CPU description as /proc/cpuinfo writes it', () => {
    expect(visibleText('processor\t: 0\nmodel\t\t: 33\u0000')).toBe('processor\t: 0\nmodel\t\t: 33\\u0000');
  });
});
