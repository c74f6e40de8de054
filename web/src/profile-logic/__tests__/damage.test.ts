/** Damaged recordings in plain sentences: one per problem, the lost stacks counted as the parser counted them. */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { afterChunks } from '../../engine';
import { chunkLayout } from '../../engine/layout';
import { decodeInNode } from '../../engine/node';
import { damageNotice, damageReport } from '../damage';

const fixtures = resolve(__dirname, '../../../../fixtures');

/**
 * The header of the newest chunk of a live JFR repository, copied while a JDK 25 recording ran,
 * before the chunk's first flush: size 68, no constant pool, no metadata, file state 1. The
 * JDK's RecordingFile refuses such a file ("stuck in locked stream state"); the JDK writer had
 * written 11,183 bytes of events after it, not yet named by the header.
 */
const LIVE_HEADER = Buffer.from('464c52000002000100000000000000440000000000000000000000000000000018eafb674727262000000000' + '0022ba000000000cbe46c688000000003b9aca0001000001', 'hex');

/** A recording followed by a chunk still being written, as a live repository's files are given. */
function withLiveChunk(name: string): Buffer {
  return Buffer.concat([readFileSync(resolve(fixtures, name)), LIVE_HEADER, Buffer.alloc(11_183, 0x2a)]);
}

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

  it('calls a chunk still being written by its name, not damage, and reads the rest as the JDK does', () => {
    expect(LIVE_HEADER.length).toBe(68);
    const p = decodeInNode(new Uint8Array(withLiveChunk('example.jfr')));
    const jdk = readFileSync(resolve(fixtures, 'expected/example.jfr.rf-counts.tsv'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => l.split('\t'));
    for (const [type, n] of jdk) expect([type, p.eventTypes.filter((t) => t.name === type).reduce((a, t) => a + t.count, 0)]).toEqual([type, Number(n)]);
    const s = damageReport(p.info);
    expect(s[0]).toBe(`Chunk 2 is still being written (as the newest file of a running JVM's repository is): nothing in it can be read yet, so it was left out.`);
    expect(s.join(' ')).not.toMatch(/damaged/);
    const notice = damageNotice(p.info);
    expect(notice?.damaged).toBe(false);
    expect(notice?.text.startsWith('Showing what could be read. Chunk 2 is still')).toBe(true);
    // The chunk's writes after its header are not bytes after the recording (as junk would be).
    const layout = (b: Buffer) => chunkLayout(b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength) as ArrayBuffer);
    const live = withLiveChunk('example.jfr');
    expect(layout(live).map((c) => c.writing ?? false)).toEqual([false, true]);
    expect(afterChunks(layout(live), live.length)).toEqual([]);
    const junk = Buffer.concat([readFileSync(resolve(fixtures, 'example.jfr')), Buffer.alloc(500, 0x2a)]);
    expect(afterChunks(layout(junk), junk.length).map((e) => e.message)).toEqual([expect.stringMatching(/^The 500 bytes after the last chunk/)]);
    // Real damage beside it is still called damage.
    const corrupt = decodeInNode(new Uint8Array(Buffer.concat([readFileSync(resolve(fixtures, 'damaged/corrupt-metadata.jfr')), LIVE_HEADER])));
    expect(damageNotice(corrupt.info)?.damaged).toBe(true);
    expect(damageNotice(decodeInNode(new Uint8Array(readFileSync(resolve(fixtures, 'jdk17-profile.jfr')))).info)).toBeNull();
  });
});
