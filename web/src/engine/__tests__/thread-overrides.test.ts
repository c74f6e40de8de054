/**
 * The thread chain on a day-long repository: 800 chunks each listing 5,000 threads (4 M pool
 * entries), counted by two decoders. The count passes hand each pool over as its change since the
 * chunk before (the parser's PoolChange, tested on real bytes in parser/src/tests_unit.rs), the
 * page chains them once (chainThreads), and each decoder is handed only the overrides of its own
 * chunks (groupOverrides: what every rows pass, type table and event shown of that decoder gets).
 * The overrides are checked against the schedule the repository was made with, and their size
 * against the pools'.
 */
import { serialize } from 'node:v8';
import { describe, expect, it } from 'vitest';
import { groupOverrides, type ChunkThreads, type Description, type ThreadEntry, type ThreadOverrides } from '../parts';

const THREADS = 5_000;
const CHUNKS = 800;
/** Chunks 0–399 counted by one decoder, 400–799 by the other. */
const SPLIT = 400;

/** Every 125th thread renamed at a chunk of its own (40 of them); thread 4005 as below. */
const renamedAt = (id: number): number | null => (id === 4005 ? 200 : id % 125 === 0 ? (id * 7) % CHUNKS : null);
/** Thread 4005 is renamed at chunk 200, then missing from the pools of chunks 300–310. */
const missing = (id: number, c: number) => id >= 4001 && id <= 4100 && c >= 300 && c <= 310;
/** From chunk 500 on, id 250 (renamed at chunk 150) numbers another thread (other OS and Java ids). */
const reused = (id: number, c: number) => id === 250 && c >= 500;

function entry(id: number, c: number): ThreadEntry {
  if (reused(id, c)) return [id, 'other', 90_000 + id, 90_000 + id, 0];
  const r = renamedAt(id);
  return [id, r !== null && c >= r ? `t-${id}-renamed` : `t-${id}`, 10_000 + id, id, 0];
}

function pool(c: number): Map<number, ThreadEntry> {
  const m = new Map<number, ThreadEntry>();
  for (let id = 1; id <= THREADS; id++) if (!missing(id, c)) m.set(id, entry(id, c));
  return m;
}

/** A decoder's count pass over chunks [from, to): its first pool whole, then each one's change. */
function counted(from: number, to: number): Description {
  const chunkThreads: ChunkThreads[] = [];
  let prev: Map<number, ThreadEntry> | null = null;
  for (let c = from; c < to; c++) {
    const own = pool(c);
    if (!prev) chunkThreads.push({ chunk: c, whole: true, threads: [...own.values()], gone: [] });
    else {
      const threads = [...own.values()].filter((t) => JSON.stringify(prev!.get(t[0])) !== JSON.stringify(t));
      const gone = [...prev.keys()].filter((id) => !own.has(id));
      chunkThreads.push({ chunk: c, whole: false, threads, gone });
    }
    prev = own;
  }
  return { types: [], chunks: [], errors: [], chunkThreads, info: { jvm: null, os: null, cpu: null, settings: [], properties: [] } };
}

/** What the JDK's reader names differently from a chunk's own pool, by the schedule: chunk → id → name. */
function expected(): Map<number, Map<number, string>> {
  const out = new Map<number, Map<number, string>>();
  for (let c = 0; c < CHUNKS; c++) {
    const m = new Map<number, string>();
    for (let id = 1; id <= THREADS; id++) {
      const r = renamedAt(id);
      // Renamed after the first chunk: its first name while every pool since lists it; thread
      // 4005's run ends where the pools lose it (chunk 300), and id 250, reused for another
      // thread at 500, takes that thread's entry.
      if (r === null || r === 0 || c < r || missing(id, c) || reused(id, c)) continue;
      if (id === 4005 && c > 310) continue;
      m.set(id, `t-${id}`);
    }
    if (m.size) out.set(c, m);
  }
  return out;
}

function asMap(o: ThreadOverrides): Map<number, Map<number, string>> {
  const out = new Map<number, Map<number, string>>();
  for (let i = 0; i < o.chunk.length; i++) {
    if (!out.has(o.chunk[i])) out.set(o.chunk[i], new Map());
    out.get(o.chunk[i])!.set(o.id[i], o.name[i]);
    // The carried thread is the same thread: its OS and Java ids.
    expect([o.os[i], o.java[i]]).toEqual([10_000 + o.id[i], o.id[i]]);
  }
  return out;
}

describe('thread chain on a day of chunks', () => {
  const decoders = [counted(0, SPLIT), counted(SPLIT, CHUNKS)];
  const sent = groupOverrides(decoders);

  it("each decoder is handed its own chunks' overrides, as the schedule says the JDK names them", () => {
    expect(sent).toHaveLength(2);
    const want = expected();
    const of = (from: number, to: number) => new Map([...want].filter(([c]) => c >= from && c < to));
    expect(asMap(sent[0])).toEqual(of(0, SPLIT));
    // The chain crosses from one decoder's chunks to the other's.
    expect(asMap(sent[1])).toEqual(of(SPLIT, CHUNKS));
    expect(asMap(sent[1]).get(SPLIT)?.get(125)).toBe('t-125');
    expect(asMap(sent[0]).get(299)?.get(4005)).toBe('t-4005');
    expect(asMap(sent[0]).get(311)?.has(4005)).toBe(false);
    expect(asMap(sent[1]).get(499)?.get(250)).toBe('t-250');
    expect(asMap(sent[1]).get(500)?.has(250)).toBe(false);
  });

  it('what a decoder is handed is the overrides, a small part of the pools', () => {
    const entries = sent.reduce((a, o) => a + o.chunk.length, 0);
    const pools = CHUNKS * THREADS;
    // The renamed threads over the chunks after their renaming, not 4 M pool entries.
    expect(entries).toBe([...expected().values()].reduce((a, m) => a + m.size, 0));
    expect(entries).toBeLessThan(pools / 100);
    // In bytes, as a worker's message carries them (the structured clone postMessage makes):
    // every pool, as the rows passes were handed before, against the overrides of each decoder.
    const allPools = CHUNKS * serialize([...pool(0).values()]).byteLength;
    const each = sent.map((o) => serialize(o).byteLength);
    for (const b of each) expect(b).toBeLessThan(allPools / 100);
  });
});
