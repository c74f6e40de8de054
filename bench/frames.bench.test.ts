/**
 * Cost per drawn frame of the time views, on one recording, in Node (one thread): the strip of
 * threads waiting (every kind of wait, one value per two pixels of a 1,200-px plot), the
 * activity histogram weighed by threads waiting, and the latency heatmap (300 × 40 cells) of the
 * recording's largest wait type, over the whole recording and over a 1% window. Median of 15.
 *   JFRSCOPE_BENCH=1 FILE=fixtures/large/large.jfr npx vitest run bench/frames.bench.test.ts
 */
import { readFileSync, statSync } from 'node:fs';
import { it } from 'vitest';
import { decodeInNode } from '../web/src/engine/node';
import { activity, matchTracks } from '../web/src/profile-logic/activity';
import { eventsOfType, indexEvents, reachOf, typeLists } from '../web/src/profile-logic/event-index';
import { filterLists, flagsOf } from '../web/src/profile-logic/filters';
import { durationSpan, heatGrid, latencyHeatmap } from '../web/src/profile-logic/heatmap';
import { KINDS } from '../web/src/profile-logic/kinds';
import { threadsWaiting, waitKinds, waitTracks, WAIT_KINDS } from '../web/src/profile-logic/waits';

const file = process.env.FILE ?? 'fixtures/large/large.jfr';

function median(f: () => void, n = 15): number {
  const t: number[] = [];
  for (let k = 0; k < n; k++) {
    const a = performance.now();
    f();
    t.push(performance.now() - a);
  }
  return t.sort((x, y) => x - y)[n >> 1];
}

it(`frames on ${file}`, () => {
  const t0 = performance.now();
  const p = decodeInNode(new Uint8Array(readFileSync(file)));
  const decoded = performance.now() - t0;
  const idx = indexEvents(p);
  const kinds = waitKinds(p);
  const t1 = performance.now();
  const waits = waitTracks(p, idx, kinds);
  const built = performance.now() - t1;
  // The wait type with the most events.
  const ty = p.eventTypes.map((t, i) => ({ t, i })).filter(({ t }) => KINDS[t.kind].interval).sort((a, b) => b.t.count - a.t.count)[0]?.i ?? -1;
  const lines = [`${file}: ${(statSync(file).size / 1e6).toFixed(0)} MB, ${p.events.length.toLocaleString('en-US')} events, ${p.threads.length} threads; decoded in ${decoded.toFixed(0)} ms, wait tracks built in ${built.toFixed(0)} ms`];
  const dur = Math.max(p.info.durationMs, 1);
  for (const [name, from, to] of [['whole recording', 0, dur], ['1% window', dur * 0.5, dur * 0.51]] as const) {
    const strip = median(() => {
      for (const k of WAIT_KINDS) threadsWaiting(waits[k], null, from, to, 600);
    });
    lines.push(`  ${name}: threads-waiting strip (8 kinds × 600 columns) ${strip.toFixed(2)} ms per frame`);
    if (ty >= 0) {
      const lists = typeLists(p, idx, ty);
      const pass = filterLists(p, { type: ty, thread: null, stack: null, exclude: null, state: '', hiddenThreads: new Set() }, lists.parts, flagsOf(p.events.length, eventsOfType(idx, ty)), null);
      const cums = pass.cums.map((c, k) => ({ ...c, reach: reachOf(p, lists.parts[k]) }));
      const tracks = matchTracks(p, cums.slice(0, p.threads.length));
      const hist = median(() => activity(p, cums, tracks, null, 'threads', from, to, 400));
      const span = durationSpan(p, cums);
      const g0 = performance.now();
      const grid = heatGrid(p, cums, dur, 40, span);
      const gridMs = performance.now() - g0;
      const heat = median(() => latencyHeatmap(p, cums, from, to, 300, 40, span, grid));
      lines.push(`  ${name}: ${p.eventTypes[ty].name} (${lists.total.toLocaleString('en-US')}): threads-waiting histogram (400 buckets) ${hist.toFixed(2)} ms, latency heatmap (300 × 40) ${heat.toFixed(2)} ms per frame (its grid binned once per filter change in ${gridMs.toFixed(0)} ms)`);
    }
  }
  console.log(lines.join('\n'));
});
