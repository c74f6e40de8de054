/** What a recording says about itself, as the Recording panel reads it: flags and chunks. */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { decodeInNode } from '../node';

const fixture = (name: string) => new Uint8Array(readFileSync(resolve(__dirname, '../../../../fixtures', name)));

describe('recording info', () => {
  it('holds every JVM flag of the jdk.*Flag events, once', () => {
    const { info } = decodeInNode(fixture('jdk17-profile.jfr'));
    expect(info.flags.length).toBeGreaterThan(400);
    const names = new Set(info.flags.map((f) => f.name));
    expect(names.has('UseG1GC') || names.has('UseSerialGC') || names.has('UseParallelGC')).toBe(true);
    expect(info.flags.every((f) => f.name && f.origin)).toBe(true);
    const keys = info.flags.map((f) => `${f.name}=${f.value}@${f.origin}`);
    expect(new Set(keys).size).toBe(keys.length);
  });

  it('lists the chunks in file order, split or not', () => {
    const whole = decodeInNode(fixture('jdk17-multichunk.jfr')).info;
    const split = decodeInNode(fixture('jdk17-multichunk.jfr'), 3).info;
    expect(whole.chunkList.length).toBe(whole.chunks);
    expect(whole.chunkList.length).toBeGreaterThan(1);
    expect(split.chunkList).toEqual(whole.chunkList);
    expect(split.flags.length).toBe(whole.flags.length);
    for (let k = 1; k < whole.chunkList.length; k++) expect(whole.chunkList[k].offset).toBe(whole.chunkList[k - 1].offset + whole.chunkList[k - 1].size);
    expect(whole.chunkList[0].startMs).toBeGreaterThanOrEqual(whole.startMs);
  });
});
