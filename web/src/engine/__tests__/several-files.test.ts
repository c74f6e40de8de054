/**
 * Several files as one recording: chunks of every file in time order, laid end to end (layout's
 * joinLayouts, locate), files that are not recordings left out by name (index's joinFiles), and
 * a File source that keeps only part of what it reads between passes (parts' sourceOf).
 */
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { joinFiles } from '../index';
import { chainRuns, chunkLayout, fileKind, joinLayouts, locate, type ChunkSpan } from '../layout';
import { decodeInNode } from '../node';
import { sourceOf, streamChunks } from '../parts';
import { Counting } from './counting-blob';

const root = resolve(__dirname, '../../../..');
const span = (offset: number, size: number, startMs: number): ChunkSpan => ({ index: 0, offset, size, startMs, durationMs: 1000 });

describe('joinLayouts', () => {
  it('orders every chunk of every file by start time and gives each its place in one virtual file', () => {
    // a: two chunks at 10 s and 30 s; b: one at 20 s; c: one at 5 s.
    const a = [span(0, 100, 10_000), span(100, 50, 30_000)];
    const b = [span(0, 70, 20_000)];
    const c = [span(0, 30, 5_000)];
    const j = joinLayouts([a, b, c]);
    expect(j.spans.map((s) => s.startMs)).toEqual([5_000, 10_000, 20_000, 30_000]);
    expect(j.spans.map((s) => s.index)).toEqual([0, 1, 2, 3]);
    expect(j.spans.map((s) => [s.offset, s.size])).toEqual([
      [0, 30],
      [30, 100],
      [130, 70],
      [200, 50],
    ]);
    expect(j.size).toBe(250);
    // a's chunks are apart in time (b between them): two pieces of a.
    expect(j.pieces).toEqual([
      { file: 2, from: 0, size: 30, at: 0 },
      { file: 0, from: 0, size: 100, at: 30 },
      { file: 1, from: 0, size: 70, at: 130 },
      { file: 0, from: 100, size: 50, at: 200 },
    ]);
    expect(locate(j.pieces, 0)).toEqual({ file: 2, offset: 0 });
    expect(locate(j.pieces, 29)).toEqual({ file: 2, offset: 29 });
    expect(locate(j.pieces, 30)).toEqual({ file: 0, offset: 0 });
    expect(locate(j.pieces, 210)).toEqual({ file: 0, offset: 110 });
    expect(locate(j.pieces, 250)).toBeNull();
  });

  it('joins neighbouring chunks of one file into one piece, and keeps offsets past 4 GiB exact', () => {
    const big = 5 * 1024 ** 3;
    const a = [span(0, big, 0), span(big, big, 1_000)];
    const j = joinLayouts([a]);
    expect(j.pieces).toEqual([{ file: 0, from: 0, size: 2 * big, at: 0 }]);
    expect(j.spans[1].offset).toBe(big);
    expect(locate(j.pieces, big + 7)).toEqual({ file: 0, offset: big + 7 });
  });

  it("keeps each file's chunks in the file's order, and says which file each comes from", () => {
    // a's second chunk says it starts before its first (a clock set back): a's order stays.
    const a = [span(0, 100, 30_000), span(100, 50, 10_000)];
    const b = [span(0, 70, 20_000)];
    const j = joinLayouts([a, b]);
    expect(j.spans.map((s) => [s.file, s.size])).toEqual([
      [0, 100],
      [1, 70],
      [0, 50],
    ]);
  });

  it("chains one JVM's chunk files as one run, and files whose chunks interleave each alone", () => {
    const runs = (...layouts: ChunkSpan[][]) => chainRuns(joinLayouts(layouts).spans);
    // A repository folder: one chunk file after another.
    expect(runs([span(0, 10, 1_000)], [span(0, 10, 2_000)], [span(0, 10, 3_000), span(10, 10, 4_000)])).toEqual([0, 0, 0, 0]);
    // One recording: one run.
    expect(chainRuns(chunkLayout(new ArrayBuffer(0)))).toEqual([]);
    expect(runs([span(0, 10, 1_000), span(10, 10, 2_000)])).toEqual([0, 0]);
    // b's chunk lies between two of a's: a is one run across it, b its own; c, after a's last,
    // carries on a's run.
    expect(runs([span(0, 10, 1_000), span(10, 10, 3_000)], [span(0, 10, 2_000)], [span(0, 10, 4_000)])).toEqual([0, 1, 0, 0]);
    // Two recordings whose chunks interleave: neither carries on the other.
    expect(runs([span(0, 10, 1_000), span(10, 10, 3_000)], [span(0, 10, 2_000), span(10, 10, 4_000)])).toEqual([0, 1, 0, 1]);
    // One file after another, but written by different JVMs (their jdk.JVMInformation): apart;
    // by the same JVM, or where a chunk does not say (one without a jdk.JVMInformation event): one run.
    const spans = joinLayouts([[span(0, 10, 1_000)], [span(0, 10, 2_000)], [span(0, 10, 3_000)]]).spans;
    expect(chainRuns(spans, new Map([[0, '7@100'], [1, '9@200'], [2, '9@200']]))).toEqual([0, 1, 1]);
    expect(chainRuns(spans, new Map([[0, '7@100'], [2, '9@200']]))).toEqual([0, 0, 0]);
  });

  it('tells a recording from gzip and anything else by its first bytes', () => {
    expect(fileKind(new TextEncoder().encode('FLR\0xyz'))).toBe('jfr');
    expect(fileKind(new Uint8Array([0x1f, 0x8b, 8, 0]))).toBe('gzip');
    expect(fileKind(new TextEncoder().encode('FLR'))).toBe('other');
    expect(fileKind(new TextEncoder().encode('hello'))).toBe('other');
  });
});

describe('joinFiles', () => {
  const whole = new Uint8Array(readFileSync(join(root, 'fixtures/jdk17-multichunk.jfr')));
  const chunks = chunkLayout(whole.buffer.slice(whole.byteOffset, whole.byteOffset + whole.byteLength) as ArrayBuffer);
  // The JDK's counts for the whole recording (fixtures/expected, tools/golden).
  const rf = new Map(
    readFileSync(join(root, 'fixtures/expected/jdk17-multichunk.jfr.rf-counts.tsv'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => l.split('\t'))
      .map(([t, n]) => [t, Number(n)] as [string, number]),
  );

  it('reads the chunk files of a recording, given in any order, as the recording itself; a junk file is named and left out', async () => {
    expect(chunks.length).toBeGreaterThanOrEqual(3);
    // Each chunk its own file, named against time order (so name order is not time order).
    const files = chunks.map((c, k) => new File([whole.slice(c.offset, c.offset + c.size)], `part-${chunks.length - k}.jfr`));
    const junk = new File(['not a recording at all'], 'notes.txt');
    const empty = new File([], 'empty.jfr');
    const { blob, spans, sources } = await joinFiles([junk, ...files.reverse(), empty], () => {});
    expect(sources.skipped.map((s) => s.name)).toEqual(['empty.jfr', 'notes.txt']);
    expect(sources.skipped[1].why).toMatch(/not a JFR recording/);
    expect(sources.files.map((f) => f.chunks)).toEqual(chunks.map(() => 1));
    expect(spans.map((s) => s.startMs)).toEqual(chunks.map((c) => c.startMs));
    // In time order, the chunks laid end to end are the original file, byte for byte.
    const joined = new Uint8Array(await blob.arrayBuffer());
    expect(joined.length).toBe(whole.length);
    expect(Buffer.from(joined).equals(Buffer.from(whole))).toBe(true);
    // And they decode to the JDK's count of every type.
    const profile = decodeInNode(joined, 2);
    const counts = new Map(profile.eventTypes.map((t) => [t.name, t.count]));
    for (const [type, n] of rf) expect([type, counts.get(type) ?? 0]).toEqual([type, n]);
    // Every event's offset names a file and a place in it that holds the same bytes.
    const e = profile.events.offset[Math.floor(profile.events.length / 2)];
    const at = locate(sources.pieces, e)!;
    expect(files.map((f) => f.name)).toContain(sources.files[at.file].name);
    expect(at.offset).toBeLessThan(sources.files[at.file].size);
  });

  it('names every file when none is a recording', async () => {
    await expect(joinFiles([new File(['a'], 'a.txt'), new File(['PK\x03\x04'], 'b.zip')], () => {})).rejects.toThrow(
      /None of the 2 files is a JFR recording: a\.txt \(it is not a JFR recording.*\); b\.zip \(it is not a JFR recording/,
    );
  });
});

describe('a File source between passes', () => {
  it('keeps chunks up to its limit and reads the rest again, each pass seeing every chunk in order', async () => {
    const bytes = new Uint8Array(readFileSync(join(root, 'fixtures/jdk17-multichunk.jfr')));
    const spans = chunkLayout(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer);
    const blob = new Counting([bytes]);
    const src = sourceOf(blob, 0, spans);
    // Room for the first chunk only.
    src.hold(spans[0].size);
    const pass = async () => {
      const out: number[] = [];
      for await (const b of src.each()) out.push(b.length, b[0], b[b.length - 1]);
      return out;
    };
    const expected = spans.flatMap((s) => [s.size, bytes[s.offset], bytes[s.offset + s.size - 1]]);
    expect(await pass()).toEqual(expected);
    expect(blob.reads).toBe(spans.length);
    // The second pass takes the first chunk from memory and reads the rest again.
    expect(await pass()).toEqual(expected);
    expect(blob.reads).toBe(2 * spans.length - 1);
    src.release();
    expect(await pass()).toEqual(expected);
  });

  it('lets go of each held chunk as the pass it was held for takes it', async () => {
    const bytes = new Uint8Array(readFileSync(join(root, 'fixtures/jdk17-multichunk.jfr')));
    const spans = chunkLayout(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer);
    const src = sourceOf(new Blob([bytes]), 0, spans);
    src.hold();
    const counted: Uint8Array[] = [];
    for await (const b of src.each()) counted.push(b);
    // Held: a chunk read again is the very buffer the count pass had.
    expect(await src.read(spans[1].offset, spans[1].size)).toBe(counted[1]);
    const rows: Uint8Array[] = [];
    for await (const b of src.each(true)) rows.push(b);
    expect(rows).toEqual(counted);
    // Let go: the same bytes, read again from the file into a new buffer.
    const again = await src.read(spans[1].offset, spans[1].size);
    expect(again).not.toBe(counted[1]);
    expect(again).toEqual(counted[1]);
  });
});

describe('reading a File slice ahead of the pass', () => {
  /** A Blob whose slice reads resolve only when the test lets them, recording what is in flight. */
  class Gated extends Blob {
    waiting: { size: number; go: () => void }[] = [];
    maxInFlight = 0;
    fail = -1;
    override slice(start = 0, end = this.size): Blob {
      const s = super.slice(start, end);
      const arrayBuffer = s.arrayBuffer.bind(s);
      s.arrayBuffer = () =>
        new Promise<ArrayBuffer>((resolve, reject) => {
          const size = end - start;
          const go = () => {
            this.waiting = this.waiting.filter((w) => w.go !== go);
            if (start === this.fail) reject(new Error('gone'));
            else void arrayBuffer().then(resolve, reject);
          };
          this.waiting.push({ size, go });
          this.maxInFlight = Math.max(this.maxInFlight, this.waiting.reduce((a, w) => a + w.size, 0));
        });
      return s;
    }
  }
  const bytes = Uint8Array.from({ length: 1000 }, (_, i) => (i * 7 + 3) & 255);
  const spans = [span(0, 100, 0), span(100, 300, 1), span(400, 50, 2), span(450, 250, 3), span(700, 300, 4)];

  it('hands out every chunk in order while the next ones are read, never more than the bytes allowed ahead', async () => {
    const blob = new Gated([bytes]);
    const got: Uint8Array[] = [];
    const pass = (async () => {
      for await (const b of streamChunks(blob, 0, spans, 450)) got.push(b);
    })();
    // Let each read finish in turn, the oldest first.
    for (let i = 0; i < 100 && (blob.waiting.length || got.length < spans.length); i++) {
      await new Promise((r) => setTimeout(r, 0));
      blob.waiting[0]?.go();
    }
    await pass;
    expect(got.map((b) => Array.from(b))).toEqual(spans.map((s) => Array.from(bytes.subarray(s.offset, s.offset + s.size))));
    // 100 + 300 + 50 fit 450 bytes: three reads at once, never a fourth on top.
    expect(blob.maxInFlight).toBe(450);
  });

  it('reads a time window\'s chunks ahead too, in order, the others not at all', async () => {
    const blob = new Gated([bytes]);
    const src = sourceOf(blob, 0, spans);
    const window = [spans[1], spans[3], spans[4]];
    const got: Uint8Array[] = [];
    const pass = (async () => {
      for await (const b of src.each(true, window)) got.push(b);
    })();
    for (let i = 0; i < 100 && (blob.waiting.length || got.length < window.length); i++) {
      await new Promise((r) => setTimeout(r, 0));
      blob.waiting[0]?.go();
    }
    await pass;
    expect(got.map((b) => Array.from(b))).toEqual(window.map((s) => Array.from(bytes.subarray(s.offset, s.offset + s.size))));
    // All three asked for at once (300 + 250 + 300 bytes), not one after another.
    expect(blob.maxInFlight).toBe(850);
  });

  it('reads a chunk larger than the bytes allowed ahead on its own', async () => {
    const blob = new Gated([bytes]);
    const got: number[] = [];
    const pass = (async () => {
      for await (const b of streamChunks(blob, 0, spans, 10)) got.push(b.length);
    })();
    for (let i = 0; i < 100 && got.length < spans.length; i++) {
      await new Promise((r) => setTimeout(r, 0));
      expect(blob.waiting.length).toBeLessThanOrEqual(1);
      blob.waiting[0]?.go();
    }
    await pass;
    expect(got).toEqual(spans.map((s) => s.size));
  });

  it('says the file could not be read when a read fails or the file is shorter than its chunks', async () => {
    const blob = new Gated([bytes]);
    blob.fail = 400;
    const pass = (async () => {
      for await (const b of streamChunks(blob, 0, spans)) void b;
    })();
    const done = pass.catch((e: unknown) => e);
    for (let i = 0; i < 100 && blob.waiting.length; i++) {
      await new Promise((r) => setTimeout(r, 0));
      blob.waiting[0]?.go();
    }
    expect(String(await done)).toMatch(/could not be read.*gone/);
    const short = streamChunks(new Blob([bytes.subarray(0, 900)]), 0, spans);
    await expect((async () => {
      for await (const b of short) void b;
    })()).rejects.toThrow(/could not be read.*ended early/);
  });
});
