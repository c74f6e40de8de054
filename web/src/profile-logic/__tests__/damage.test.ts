/** Damaged recordings in plain sentences: one per problem, the lost stacks counted as the parser counted them. */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { decodeInNode } from '../../engine/node';
import { damageReport } from '../damage';

const open = (name: string) => decodeInNode(new Uint8Array(readFileSync(resolve(__dirname, '../../../../fixtures/damaged', name))));

describe('damage in words', () => {
  it('says where a recording was cut, once, and counts the events whose stacks were lost', () => {
    const p = open('truncated.jfr');
    const s = damageReport(p.info);
    const declared = readFileSync(resolve(__dirname, '../../../../fixtures/example.jfr')).length;
    const present = readFileSync(resolve(__dirname, '../../../../fixtures/damaged/truncated.jfr')).length;
    expect(s[0]).toBe(`The recording was cut in chunk 1 of 1: it declares ${declared.toLocaleString('en-US')} bytes but only ${present.toLocaleString('en-US')} are there; what was written before the cut is shown.`);
    // The end of data met again while decoding the cut chunk is not a second problem.
    expect(s.filter((x) => /unexpected end of data/.test(x))).toEqual([]);
    expect(p.info.stacksLost).toBeGreaterThan(0);
    expect(s).toContain(`${p.info.stacksLost.toLocaleString('en-US')} events of the cut chunk lost their stacks (its constant pools were never written): they are shown apart, as “(stack lost: chunk cut)”, not mixed with whole ones.`);
    expect(new Set(s).size).toBe(s.length);
  });

  it('names the chunk and byte of other damage, and says nothing of a whole recording', () => {
    const s = damageReport(open('corrupt-metadata.jfr').info);
    expect(s[0]).toMatch(/^Chunk 1 is damaged at byte \d+: malformed metadata: string index out of range\.$/);
    expect(damageReport(decodeInNode(new Uint8Array(readFileSync(resolve(__dirname, '../../../../fixtures/jdk17-profile.jfr')))).info)).toEqual([]);
  });
});
