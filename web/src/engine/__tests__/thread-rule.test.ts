/**
 * The page's thread chain (chainThreads) and the parser's (chain_step, which the CLI and every
 * decoder's own chain use) follow one rule for "the same thread": the same OS thread, under the
 * same Java id unless that OS thread is a real one (async-profiler keys its pool by OS id and
 * `main` attaches again as `DestroyJavaVM` under a new Java id); without an OS id (absent or 0,
 * virtual threads) the Java ids must match. Checked on the case the JDK's reader shows, and on
 * random pools against the parser's chain itself (wasm chainThreadPools), handed to chainThreads
 * as count passes hand them (whole, or as changes since the chunk before), so the two cannot
 * drift apart.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { initWasm } from '../node';
import { chainThreads, type ChunkThreads, type Description, type ThreadEntry, type ThreadOverrides } from '../parts';
import { chainThreadPools } from '../pkg/jfrscope_wasm.js';

beforeAll(() => {
  initWasm();
});

/** A count pass's description of `pools` (chunk k = pools[k - from]), split by `changes`. */
function described(pools: ThreadEntry[][], from = 0, changes = false): Description {
  const chunkThreads: ChunkThreads[] = [];
  let prev: Map<number, ThreadEntry> | null = null;
  pools.forEach((own, k) => {
    const chunk = from + k;
    const m = new Map(own.map((t) => [t[0], t]));
    if (!changes || !prev) chunkThreads.push({ chunk, whole: true, threads: own, gone: [] });
    else {
      const p = prev;
      const threads = own.filter((t) => JSON.stringify(p.get(t[0])) !== JSON.stringify(t));
      const gone = [...p.keys()].filter((id) => !m.has(id));
      chunkThreads.push({ chunk, whole: false, threads, gone });
    }
    prev = m;
  });
  return { types: [], chunks: [], errors: [], chunkThreads, info: { jvm: null, os: null, cpu: null, settings: [], properties: [] } };
}

type Row = [number, number, string, number | null, number | null, number];

function rows(o: ThreadOverrides): Row[] {
  const id = (v: number) => (Number.isFinite(v) ? v : null);
  return Array.from(o.chunk, (c, i): Row => [c, o.id[i], o.name[i], id(o.os[i]), id(o.java[i]), o.virt[i]]).sort((a, b) => a[0] - b[0] || a[1] - b[1]);
}

/** The parser's chain over the same pools. */
function parserChain(pools: ThreadEntry[][]): Row[] {
  const flat = pools.flatMap((own, c) => own.map((t) => ({ c, t })));
  const nan = (v: number | null) => (v === null ? NaN : v);
  const json = chainThreadPools(
    Uint32Array.from(flat, (e) => e.c),
    Float64Array.from(flat, (e) => e.t[0]),
    flat.map((e) => e.t[1]),
    Float64Array.from(flat, (e) => nan(e.t[2])),
    Float64Array.from(flat, (e) => nan(e.t[3])),
    Uint8Array.from(flat, (e) => e.t[4]),
  );
  return JSON.parse(json) as Row[];
}

/** A small deterministic generator (mulberry32). */
function random(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

describe('the page and the parser agree on which pool entries are the same thread', () => {
  it('main attaching again as DestroyJavaVM under a new Java id keeps the name main', () => {
    const pools: ThreadEntry[][] = [[[7, 'main', 7, 1, 0]], [[7, 'DestroyJavaVM', 7, 30, 0]]];
    const want: Row[] = [[1, 7, 'main', 7, 1, 0]];
    expect(rows(chainThreads([described(pools)]))).toEqual(want);
    expect(rows(chainThreads([described(pools, 0, true)]))).toEqual(want);
    // The parser's own rule says the same.
    expect(parserChain(pools)).toEqual(want);
  });

  it('a virtual thread (OS id 0) or one without an OS id is the same thread only under the same Java id', () => {
    for (const os of [0, null]) {
      const pools: ThreadEntry[][] = [[[5, 'v1', os, 100, 1]], [[5, 'v2', os, 101, 1]], [[5, 'v2-renamed', os, 101, 1]]];
      const want: Row[] = [[2, 5, 'v2', os, 101, 1]];
      expect(rows(chainThreads([described(pools)]))).toEqual(want);
      expect(parserChain(pools)).toEqual(want);
    }
  });

  it('random pools: the same overrides as the parser', () => {
    const rnd = random(20261124);
    const pick = <T,>(xs: T[]) => xs[Math.floor(rnd() * xs.length)];
    for (let round = 0; round < 200; round++) {
      const chunks = 2 + Math.floor(rnd() * 6);
      const pools: ThreadEntry[][] = [];
      let prev = new Map<number, ThreadEntry>();
      for (let c = 0; c < chunks; c++) {
        const own = new Map<number, ThreadEntry>();
        for (let id = 1; id <= 8; id++) {
          if (rnd() < 0.2) continue; // missing from this pool
          const p = prev.get(id);
          if (p && rnd() < 0.5) {
            own.set(id, p);
            continue;
          }
          // Small id ranges, so that OS or Java ids often match an earlier entry's and often not.
          const os = pick([null, 0, 1, 2, 3]);
          const java = pick([null, 1, 2, 3]);
          const name = pick(['a', 'b', 'c']);
          own.set(id, [id, name, os, java, os === 0 ? 1 : 0]);
        }
        pools.push([...own.values()]);
        prev = own;
      }
      const want = parserChain(pools);
      expect(rows(chainThreads([described(pools)])), JSON.stringify(pools)).toEqual(want);
      expect(rows(chainThreads([described(pools, 0, true)])), JSON.stringify(pools)).toEqual(want);
    }
  });
});
