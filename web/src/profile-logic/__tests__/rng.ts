/** A seeded random number generator for tests (mulberry32): the same seed, the same data. */
export function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = Math.imul(a ^ (a >>> 15), a | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * `n` random intervals (GC pauses, say) starting in [0, horizon): a share `longShare` of them up
 * to `longMax` long, the rest up to `shortMax`; with their indexes in start order.
 */
export function randomSpans(r: () => number, n: number, horizon: number, longShare: number, longMax: number, shortMax: number) {
  const start = new Float64Array(n);
  const duration = new Float32Array(n);
  for (let i = 0; i < n; i++) {
    start[i] = r() * horizon;
    duration[i] = r() < longShare ? r() * longMax : r() * shortMax;
  }
  const order = Int32Array.from([...start.keys()].sort((a, b) => start[a] - start[b]));
  return { start, duration, order };
}
