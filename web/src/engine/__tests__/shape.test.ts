/**
 * The recording's shape as the page gets it: each decoder's count pass over its chunks, added up
 * bin by bin, against the JDK's per-second counts (fixtures/expected/NAME.shape.tsv).
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { sessionInNode } from '../node';
import { MAX_BINS, mergeShapes } from '../shape';

const root = resolve(__dirname, '../../../..');

describe('the shape of decoders counted apart, merged', () => {
  for (const name of ['jdk17-multichunk.jfr', 'ap-jfrsync.jfr']) {
    for (const parts of [1, 2, 3]) {
      it(`${name} in ${parts} decoder(s): per second as the JDK counts`, async () => {
        const bytes = new Uint8Array(readFileSync(resolve(root, 'fixtures', name)));
        const session = sessionInNode(bytes, parts, { budget: 0 });
        let counted: unknown = null;
        session.onCounted = (d) => (counted = d.shape);
        const p = await session.open([], () => {});
        const s = p.info.shape!;
        expect(counted).not.toBeNull();
        const got = new Map<number, [number, number, number]>();
        for (let i = 0; i < s.samples.length; i++) {
          if (s.samples[i] || s.allocs[i] || s.waiting[i]) got.set(s.startMs / 1000 + i, [s.samples[i], s.allocs[i], s.waiting[i]]);
        }
        const want = readFileSync(resolve(root, 'fixtures/expected', `${name}.shape.tsv`), 'utf8').trim().split('\n').map((l) => l.split('\t').map(Number));
        expect([...got.keys()]).toEqual(want.map((w) => w[0]));
        for (const [sec, samples, allocs, ns] of want) {
          const [gs, ga, gw] = got.get(sec)!;
          expect([gs, ga]).toEqual([samples, allocs]);
          expect(Math.abs(gw * 1e9 - ns)).toBeLessThan(1000);
        }
      });
    }
  }
});

describe('mergeShapes', () => {
  it('adds bins by their second, and leaves out a shape too far from the rest', () => {
    const a = { first: 100, samples: Uint32Array.of(3, 5), allocs: Uint32Array.of(0, 1), waiting: Float64Array.of(0, 0.5) };
    const b = { first: 101, samples: Uint32Array.of(1, 0, 2), allocs: new Uint32Array(3), waiting: Float64Array.of(1, 0, 0) };
    const far = { first: 100 + MAX_BINS, samples: Uint32Array.of(1), allocs: new Uint32Array(1), waiting: new Float64Array(1) };
    const m = mergeShapes([a, undefined, far, b])!;
    expect(m.first).toBe(100);
    expect([...m.samples]).toEqual([3, 6, 0, 2]);
    expect([...m.allocs]).toEqual([0, 1, 0, 0]);
    expect([...m.waiting]).toEqual([0, 1.5, 0, 0]);
  });
});
