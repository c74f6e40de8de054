/**
 * The count pass's shape over time, per decoder, added up: each decoder's bins are numbered from
 * the epoch (bin b is second b since 1970), so shapes of chunk groups add bin by bin.
 *
 *   decoder A: first 100, [3, 5]         decoder B: first 101, [1, 0, 2]
 *   merged:    first 100, [3, 6, 0, 2]
 */
import type { RecordingShape } from '../columns/profile';
import type { ShapeBins } from './parts';

/** Seconds a merged shape spans at most (as the parser's MAX_BINS: 48 days). */
export const MAX_BINS = 1 << 22;

/**
 * The shapes added bin by bin. A shape whose seconds lie too far from the others (a damaged
 * chunk's clock) is left out, the largest shapes kept first.
 */
export function mergeShapes(shapes: (ShapeBins | undefined)[]): ShapeBins | undefined {
  const all = shapes.filter((s): s is ShapeBins => !!s && s.samples.length > 0);
  if (all.length <= 1) return all[0] ?? shapes.find((s) => s);
  const weight = (s: ShapeBins) => s.samples.reduce((a, b) => a + b, 0) + s.allocs.reduce((a, b) => a + b, 0) + s.waiting.length;
  const some: ShapeBins[] = [];
  let first = Infinity;
  let end = -Infinity;
  for (const s of [...all].sort((a, b) => weight(b) - weight(a))) {
    const f = Math.min(first, s.first);
    const e = Math.max(end, s.first + s.samples.length);
    if (e - f > MAX_BINS) continue;
    some.push(s);
    first = f;
    end = e;
  }
  const out: ShapeBins = { first, samples: new Uint32Array(end - first), allocs: new Uint32Array(end - first), waiting: new Float64Array(end - first) };
  for (const s of some) {
    const at = s.first - first;
    for (let i = 0; i < s.samples.length; i++) {
      out.samples[at + i] += s.samples[i];
      out.allocs[at + i] += s.allocs[i];
      out.waiting[at + i] += s.waiting[i];
    }
  }
  return out;
}

/** The page's form of the bins: wall-clock ms. */
export function recordingShape(s: ShapeBins | undefined): RecordingShape | null {
  if (!s || s.samples.length === 0) return null;
  return { startMs: s.first * 1000, binMs: 1000, samples: s.samples, allocs: s.allocs, waiting: s.waiting };
}
