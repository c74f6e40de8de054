/** Inflating a .jfr.gz in the page stops at a budget set by the bytes really there, and says so with the real sizes. */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { GZIP_RATIO, gunzip } from '../index';

describe('gunzip in the page', () => {
  it('inflates a recording exactly', async () => {
    const gz = readFileSync(resolve(__dirname, '../../../../fixtures/example.jfr.gz'));
    const out = new Uint8Array(await gunzip(new Blob([gz]), () => {}));
    expect(Buffer.from(out).equals(gunzipSync(gz))).toBe(true);
  });

  it('stops a gzip bomb at its budget, naming the compressed size and where it stopped', async () => {
    const bomb = gzipSync(Buffer.alloc(256 * 1024 ** 2), { level: 9 });
    const budget = GZIP_RATIO * bomb.length + 64 * 1024 ** 2;
    expect(budget).toBeLessThan(256 * 1024 ** 2);
    const err = await gunzip(new Blob([bomb]), () => {}).then(
      () => null,
      (e: unknown) => e as Error,
    );
    expect(err).not.toBeNull();
    const kb = (bomb.length / 1024 ** 2).toFixed(1);
    expect(err!.message).toMatch(new RegExp(`^This gzip file of ${kb.replace('.', '\\.')} MB inflates past \\d+ MB, more than ${GZIP_RATIO} times its size`));
    const stopped = Number(/inflates past (\d+) MB/.exec(err!.message)![1]);
    expect(stopped * 1024 ** 2).toBeGreaterThan(budget - 1024 ** 2);
    expect(stopped * 1024 ** 2).toBeLessThan(budget + 2 * 1024 ** 2);
  });
});
