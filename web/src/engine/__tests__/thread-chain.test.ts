/**
 * Threads across chunks as the JDK reads them: jdk.jfr.consumer.RecordingFile reuses a thread
 * the previous chunk's pool resolved for every id that chunk's pool also holds, so a thread
 * renamed while recording keeps the name of the first chunk of the run of chunks listing it.
 * fixtures/jdk17-renamed.jfr (three chunks; `cruncher` renames itself at 1.5 s, `job-N` every
 * 500 ms) against the JDK's events per type and thread (fixtures/expected/
 * jdk17-renamed.jfr.per-type.threads.tsv, tools/golden/PerType.java), decoded by two decoders
 * each owning some of the chunks: opened lazily, after picking every deferred type, and as a
 * folder of its chunks, each its own file (the JDK's repository stream reads those as one
 * recording, carrying threads from file to file).
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Profile } from '../../columns/profile';
import { joinFiles } from '../index';
import { chainRuns, chunkLayout, type ChunkSpan } from '../layout';
import { sessionInNode, typeTableInNode } from '../node';
import { chunkJvms, type Description } from '../parts';

const root = resolve(__dirname, '../../../..');
const whole = new Uint8Array(readFileSync(resolve(root, 'fixtures/jdk17-renamed.jfr')));
const chunks = chunkLayout(whole.buffer.slice(whole.byteOffset, whole.byteOffset + whole.byteLength) as ArrayBuffer);

/** type → thread name → events, as RecordingFile reads the whole file. */
const jdk = new Map<string, Map<string, number>>();
for (const line of readFileSync(resolve(root, 'fixtures/expected/jdk17-renamed.jfr.per-type.threads.tsv'), 'utf8').trim().split('\n')) {
  const [type, thread, n] = line.split('\t');
  if (!jdk.has(type)) jdk.set(type, new Map());
  jdk.get(type)!.set(thread, Number(n));
}

/** The JDK's whole-file counts (jdk) plus those of another file's golden per-type threads file, summed. */
function withJdk(expected: string): Map<string, Map<string, number>> {
  const want = new Map<string, Map<string, number>>();
  const add = (type: string, thread: string, n: number) => {
    if (!want.has(type)) want.set(type, new Map());
    want.get(type)!.set(thread, (want.get(type)!.get(thread) ?? 0) + n);
  };
  for (const [type, m] of jdk) for (const [thread, n] of m) add(type, thread, n);
  for (const line of readFileSync(resolve(root, 'fixtures/expected', expected), 'utf8').trim().split('\n')) {
    const [type, thread, n] = line.split('\t');
    add(type, thread, Number(n));
  }
  return want;
}

/** type → thread name → rows, for the types with rows in `p`. */
function threadsOf(p: Profile, loaded: Set<string>): Map<string, Map<string, number>> {
  const out = new Map<string, Map<string, number>>();
  for (let i = 0; i < p.events.length; i++) {
    const type = p.eventTypes[p.events.type[i]].name;
    if (!loaded.has(type)) continue;
    const k = p.events.thread[i];
    const name = k < 0 ? '(none)' : (p.strings[p.threads.name[k]] ?? '');
    if (!out.has(type)) out.set(type, new Map());
    const m = out.get(type)!;
    m.set(name, (m.get(name) ?? 0) + 1);
  }
  return out;
}

/** Each loaded type's events per thread, beside the JDK's. */
function compare(p: Profile, loaded: Set<string>): { type: string; ours: [string, number][]; jdk: [string, number][] }[] {
  const ours = threadsOf(p, loaded);
  const sorted = (m: Map<string, number> | undefined) => [...(m ?? new Map<string, number>()).entries()].sort();
  return [...loaded].sort().map((type) => ({ type, ours: sorted(ours.get(type)), jdk: sorted(jdk.get(type)) }));
}

const sortedCounts = (m: Map<string, number> | undefined) => [...(m ?? new Map<string, number>()).entries()].sort();

/** Several files joined (`spans`), opened on `parts` decoders with every type then picked: each type's events per thread. */
async function joinedThreads(bytes: Uint8Array, spans: ChunkSpan[], parts: number): Promise<{ ours: Map<string, Map<string, number>>; loaded: Set<string> }> {
  const session = sessionInNode(bytes, parts);
  session.joined = spans;
  await session.open(['jdk.ExecutionSample'], () => {});
  const p = await session.load(session.deferred(), () => {});
  const loaded = new Set(session.loaded);
  return { ours: threadsOf(p, loaded), loaded };
}

/** Two decoders; the first round decodes the view's types only (no row budget for the rest). */
const lazy = (bytes: Uint8Array) => sessionInNode(bytes, 2, { budget: 0, wholeFirstBytes: 0 });

describe('threads renamed across chunks are named as the JDK names them', () => {
  it('the fixture has a thread whose name changes between chunks (each chunk alone names it otherwise)', async () => {
    expect(chunks.length).toBeGreaterThanOrEqual(3);
    const session = sessionInNode(whole, 2);
    await session.open(['jdk.ExecutionSample'], () => {});
    const counted = (session as unknown as { counted: Description[] }).counted;
    const written = new Set(counted.flatMap((d) => d.chunkThreads ?? []).flatMap((c) => c.threads.map((t) => t[1])));
    expect(written.has('cruncher-renamed')).toBe(true);
    // The JDK never names it so: the id is in every chunk's pool since the first.
    expect([...jdk.values()].some((m) => m.has('cruncher-renamed'))).toBe(false);
    expect(jdk.get('jdk.ExecutionSample')?.get('cruncher')).toBeGreaterThan(0);
    // The two decoders own different chunks: the chain crosses from one to the other.
    expect(counted.map((d) => d.chunks.length).every((n) => n > 0)).toBe(true);
  });

  // Or its chunks shared out as the decoders go (steal.ts): the second starts late, so the first
  // decodes chunks of the second's group with the overrides of the whole file.
  const sharedOut = () =>
    sessionInNode(whole, 2, { budget: 0, wholeFirstBytes: 0, shared: true, blob: (b) => new Blob([b]), start: (g) => new Promise((r) => setTimeout(r, g === 1 ? 100 : 0)) });
  it.each([
    ['each decoder its own chunks', () => lazy(whole)],
    ['the chunks shared out', sharedOut],
  ])('opened lazily, then after picking every deferred type: each type per thread as the JDK reads it (%s)', async (_, make) => {
    const session = make();
    let p = await session.open(['jdk.ExecutionSample'], () => {});
    const first = new Set(session.loaded);
    expect(first.has('jdk.ExecutionSample')).toBe(true);
    for (const c of compare(p, first)) expect(c.ours, c.type).toEqual(c.jdk);
    const deferred = session.deferred();
    p = await session.load(deferred, () => {});
    expect(session.deferred()).toEqual([]);
    const all = new Set(session.loaded);
    expect(all.size).toBeGreaterThan(first.size);
    for (const c of compare(p, all)) expect(c.ours, c.type).toEqual(c.jdk);
  });

  it('as a folder of its chunks, each its own file: one chain in time order', async () => {
    const files = chunks.map((c, k) => new File([whole.slice(c.offset, c.offset + c.size)], `chunk-${chunks.length - k}.jfr`));
    const { blob, spans } = await joinFiles(files, () => {});
    const joined = new Uint8Array(await blob.arrayBuffer());
    const session = lazy(joined);
    // One JVM's chunk files, one after another: one run, as the page opens them.
    expect(chainRuns(spans)).toEqual(spans.map(() => 0));
    session.joined = spans;
    await session.open(['jdk.ExecutionSample'], () => {});
    expect(session.deferred().length).toBeGreaterThan(0);
    const p = await session.load(session.deferred(), () => {});
    const all = new Set(session.loaded);
    expect(all.has('jdk.ThreadStart')).toBe(true);
    for (const c of compare(p, all)) expect(c.ours, c.type).toEqual(c.jdk);
  });

  it("two recordings of different JVMs opened together: each file's threads as the JDK reads that file", async () => {
    // Their thread pools number threads alike (small ids in start order): no thread may take
    // the other JVM's identity at the boundary between the files.
    const other = readFileSync(resolve(root, 'fixtures/jdk17-ledger.jfr'));
    const files = [new File([whole], 'renamed.jfr'), new File([other], 'ledger.jfr')];
    const { blob } = await joinFiles(files, () => {});
    const session = sessionInNode(new Uint8Array(await blob.arrayBuffer()), 2);
    const p = await session.open(['jdk.ExecutionSample'], () => {});
    const want = new Map(jdk.get('jdk.ExecutionSample'));
    for (const line of readFileSync(resolve(root, 'fixtures/expected/jdk17-ledger.jfr.threads.tsv'), 'utf8').trim().split('\n')) {
      const [thread, n] = line.split('\t');
      want.set(thread, (want.get(thread) ?? 0) + Number(n));
    }
    const ours = threadsOf(p, new Set(['jdk.ExecutionSample'])).get('jdk.ExecutionSample')!;
    expect([...ours.entries()].sort()).toEqual([...want.entries()].sort());
  });

  it("another JVM's chunk whose time falls between a recording's chunks: each file's threads as the JDK reads that file alone", async () => {
    // Chunk 0 of jdk17-multichunk.jfr, its header's start (offset 32, i64 big-endian) set to 1 ms
    // after jdk17-renamed.jfr's second chunk starts: joined in time order, renamed's chunks come
    // before and after it. The truth: the JDK reading each alone (tools/golden/golden.sh), summed.
    const multi = new Uint8Array(readFileSync(resolve(root, 'fixtures/jdk17-multichunk.jfr')));
    const size = Number(new DataView(multi.buffer, multi.byteOffset).getBigInt64(8));
    const other = multi.slice(0, size);
    const secondStart = new DataView(whole.buffer, whole.byteOffset).getBigInt64(chunks[1].offset + 32);
    new DataView(other.buffer).setBigInt64(32, secondStart + 1_000_000n);
    const want = withJdk('jdk17-multichunk.jfr.chunk0.per-type.threads.tsv');
    const files = [new File([whole], 'renamed.jfr'), new File([other], 'other.jfr')];
    const { blob, spans } = await joinFiles(files, () => {});
    const b = spans.findIndex((s) => s.size === size && spans.filter((x) => x.file === s.file).length === 1);
    // The other JVM's chunk lies between two of renamed's.
    expect(b).toBeGreaterThan(0);
    expect(b).toBeLessThan(spans.length - 1);
    const runs = chainRuns(spans);
    expect(new Set(runs).size).toBe(2);
    const bytes = new Uint8Array(await blob.arrayBuffer());
    for (const parts of [1, 2]) {
      const { ours, loaded } = await joinedThreads(bytes, spans, parts);
      expect(loaded.has('jdk.ExecutionSample')).toBe(true);
      for (const type of [...loaded].sort()) expect([parts, type, sortedCounts(ours.get(type))]).toEqual([parts, type, sortedCounts(want.get(type))]);
      expect(ours.get('jdk.ExecutionSample')?.get('cruncher')).toBe(jdk.get('jdk.ExecutionSample')?.get('cruncher'));
    }
  });

  it('the count pass says which JVM wrote each chunk, as its jdk.JVMInformation does', async () => {
    const session = sessionInNode(whole, 2);
    await session.open(['jdk.ExecutionSample'], () => {});
    const counted = (session as unknown as { counted: Description[] }).counted;
    const jvms = counted.flatMap((d) => d.chunkJvms ?? []);
    expect(jvms.map((j) => j[0])).toEqual(chunks.map((c) => c.index));
    const pidSum = readFileSync(resolve(root, 'fixtures/expected/jdk17-renamed.jfr.fields.tsv'), 'utf8')
      .split('\n')
      .find((l) => l.startsWith('jdk.JVMInformation\tpid\tsum\t'))!
      .split('\t')[3];
    expect(jvms.reduce((a, j) => a + j[1]!, 0)).toBe(Number(pidSum));
    expect(new Set(chunkJvms(counted).values()).size).toBe(1);
  });

  it("another JVM's file right after a recording's last chunk, its pool numbering a thread alike: each read alone", async () => {
    // The recording's last chunk, as another JVM's: its jdk.JVMInformation's pid (the event's
    // last field, a varint) one more, its start 1 ms after the recording's end. Its pool lists the
    // renamed thread under the same ids, by its new name; the JDK reading it alone says so.
    const last = chunks[chunks.length - 1];
    const other = whole.slice(last.offset, last.offset + last.size);
    const printed = execFileSync(resolve(root, 'target/release/jfrscope'), ['print', resolve(root, 'fixtures/jdk17-renamed.jfr'), '--event', 'jdk.JVMInformation'], { encoding: 'utf8' });
    const at = printed
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { offset: number; fields: { pid: number } })
      .find((e) => e.offset >= last.offset)!;
    const pos = at.offset - last.offset;
    let size = 0;
    for (let i = 0, shift = 1; i < 9; i++, shift *= 128) {
      size += (other[pos + i] & 0x7f) * shift;
      if (other[pos + i] < 0x80) break;
    }
    expect([other[pos + size - 2], other[pos + size - 1]]).toEqual([(at.fields.pid & 0x7f) | 0x80, at.fields.pid >> 7]);
    other[pos + size - 2] += 1;
    const head = new DataView(whole.buffer, whole.byteOffset + last.offset);
    new DataView(other.buffer).setBigInt64(32, head.getBigInt64(32) + head.getBigInt64(40) + 1_000_000n);
    const want = withJdk('jdk17-renamed.jfr.last-chunk.per-type.threads.tsv');
    expect(want.get('jdk.ExecutionSample')?.get('cruncher-renamed')).toBeGreaterThan(0);
    const { blob, spans } = await joinFiles([new File([whole], 'a.jfr'), new File([other], 'b.jfr')], () => {});
    // Laid out as a repository would be: the other file's chunk right after the recording's last.
    expect(spans.map((s) => s.file)).toEqual([...chunks.map(() => 0), 1]);
    const bytes = new Uint8Array(await blob.arrayBuffer());
    for (const parts of [1, 2]) {
      const { ours, loaded } = await joinedThreads(bytes, spans, parts);
      for (const type of [...loaded].sort()) expect([parts, type, sortedCounts(ours.get(type))]).toEqual([parts, type, sortedCounts(want.get(type))]);
    }
  });

  it("a type table of every field names each event's thread as the JDK does", async () => {
    for (const [type, field] of [
      ['jdk.ExecutionSample', 'sampledThread'],
      ['jdk.ObjectAllocationSample', 'eventThread'],
    ]) {
      const t = await typeTableInNode(whole, type, 2);
      const col = t.getChild(field)!;
      const ours = new Map<string, number>();
      for (let i = 0; i < t.numRows; i++) {
        const name = col.get(i) === null ? '(none)' : String(col.get(i));
        ours.set(name, (ours.get(name) ?? 0) + 1);
      }
      expect([type, [...ours.entries()].sort()]).toEqual([type, [...(jdk.get(type) ?? new Map<string, number>()).entries()].sort()]);
    }
  });
});
