/**
 * Picking a deferred type, in Node (one thread; the page spreads decoding over its workers): a
 * lazy session over two groups of chunks is opened as the page opens a link to EVENT's view
 * (default jdk.ExecutionSample: the first round decodes it and the lanes' waits), then the
 * largest deferred type (or PICK) is loaded, and each step of what the page does until the view
 * shows is timed, wall clock and CPU time (which a loaded machine disturbs less): the round
 * (decode, merge, profile), then the view's derived data of the type (selectors/derive.ts), one
 * function at a time. The round's CPU time is split into its parts: the wasm decoding, the copy of
 * each piece's columns out of wasm memory, and the merge into the page's columns.
 *   JFRSCOPE_BENCH=1 FILE=fixtures/large/large.jfr [EVENT=type] [PICK=type] npx vitest run bench/pick.bench.test.ts
 */
import { readFileSync } from 'node:fs';
import { it } from 'vitest';
import { sessionInNode } from '../web/src/engine/node';
import { Merger } from '../web/src/engine/merge';
import { EventBuffers } from '../web/src/engine/parts';
import { Parser } from '../web/src/engine/pkg/jfrscope_wasm.js';
import { callNodes, reduceNodes, withReduced } from '../web/src/profile-logic/callnodes';
import { callTree, LIGHT } from '../web/src/profile-logic/calltree';
import { activitySpikes, matchTracks } from '../web/src/profile-logic/activity';
import { eventsOfType, indexEvents, reachOf, typeLists } from '../web/src/profile-logic/event-index';
import { filterLists, flagsOf, typeStates } from '../web/src/profile-logic/filters';
import { gcEvents, intervals } from '../web/src/profile-logic/intervals';
import { firstView, KINDS, weightModeOf } from '../web/src/profile-logic/kinds';
import { buildLanes, threadCounts } from '../web/src/profile-logic/lanes';
import { entryWeightsInRange, sparseRows, weightsInRange } from '../web/src/profile-logic/ranges';
import { waitKinds, waitTracks } from '../web/src/profile-logic/waits';

const file = process.env.FILE ?? 'fixtures/large/large.jfr';

it(`pick on ${file}`, { timeout: 600_000 }, async () => {
  const s = sessionInNode(new Uint8Array(readFileSync(file)), 2);
  await s.open((types) => firstView(types, process.env.EVENT ?? 'jdk.ExecutionSample'), () => {});
  const d = s.description!;
  const deferred = s.deferred();
  const name = process.env.PICK ?? deferred.sort((a, b) => d.types.find((t) => t.name === b)!.count - d.types.find((t) => t.name === a)!.count)[0];
  const lines: string[] = [];
  let stepsCpu = 0;
  const step = <T>(what: string, f: () => T): T => {
    const t = performance.now();
    const c = process.cpuUsage();
    const r = f();
    const cpu = process.cpuUsage(c);
    stepsCpu += (cpu.user + cpu.system) / 1000;
    lines.push(`  ${what.padEnd(34)} ${(performance.now() - t).toFixed(0).padStart(6)} ms (CPU ${((cpu.user + cpu.system) / 1000).toFixed(0).padStart(6)} ms)`);
    return r;
  };
  const marks: [string, number][] = [];
  // CPU time inside the round's parts (each call timed; the parts take turns on this thread).
  const parts: [string, object, string][] = [
    ['wasm decoding', Parser.prototype, 'rowsChunks'],
    ['copied out of wasm', EventBuffers.prototype, 'read'],
    ['merged', Merger.prototype, 'add'],
  ];
  const spent = parts.map(() => 0);
  const originals = parts.map(([, proto, fn]) => (proto as Record<string, (...a: unknown[]) => unknown>)[fn]);
  parts.forEach(([, proto, fn], k) => {
    (proto as Record<string, unknown>)[fn] = function (this: unknown, ...a: unknown[]) {
      const c = process.cpuUsage();
      try {
        return originals[k].apply(this, a);
      } finally {
        const d = process.cpuUsage(c);
        spent[k] += (d.user + d.system) / 1000;
      }
    };
  });
  const t0 = performance.now();
  const c0 = process.cpuUsage();
  const p = await s.load([name], () => {});
  const roundMs = performance.now() - t0;
  const roundCpu = process.cpuUsage(c0);
  parts.forEach(([, proto, fn], k) => ((proto as Record<string, unknown>)[fn] = originals[k]));
  for (const m of performance.getEntriesByType('mark')) if (m.startTime >= t0 && m.name.startsWith('jfrscope:')) marks.push([m.name.slice(9), m.startTime - t0]);
  const ty = p.eventTypes.findIndex((t) => t.name === name);
  const t1 = performance.now();
  const index = step('indexEvents', () => indexEvents(p));
  const candidates = eventsOfType(index, ty);
  // The type's flags, made when first read (a click on a bar), as the page makes them.
  const ofType = () => flagsOf(p.events.length, candidates);
  step('typeStates', () => typeStates(p, ty, candidates));
  const lists = typeLists(p, index, ty);
  const pass = step('filterLists', () => filterLists(p, { type: ty, thread: null, stack: null, exclude: null, state: '', hiddenThreads: new Set() }, lists.parts, ofType, null));
  const interval = KINDS[p.eventTypes[ty].kind].interval;
  const reach = step('reachOf (the type)', () => (interval ? lists.parts.map((l) => reachOf(p, l)) : null));
  const cums = reach ? pass.cums.map((c, k) => ({ ...c, reach: reach[k] })) : pass.cums;
  const byThread = cums.slice(0, lists.byThread.length);
  const tracks = step('matchTracks', () => (interval ? matchTracks(p, byThread) : null));
  const weightMode = weightModeOf(p, ty);
  const counts = step('threadCounts', () => threadCounts(p, byThread, weightMode));
  step('activitySpikes', () => activitySpikes(p, cums, tracks, pass.filtered.threads, interval ? 'threads' : 'count'));
  const kinds = step('waitKinds', () => waitKinds(p));
  step('waitTracks', () => waitTracks(p, index, kinds));
  step('intervals', () => intervals(p, index));
  step('gcEvents', () => gcEvents(p, index));
  step('buildLanes', () => buildLanes(p, index, counts, { group: true, sort: 'samples', hidden: new Set(), threads: pass.filtered.threads }));
  step('hasSubjects', () => candidates.some((i) => p.events.subject[i] >= 0));
  step(`callNodes (${p.stacks.length.toLocaleString('en-US')} stack rows)`, () => callNodes(p));
  const reduced = step('reduceNodes (the type\'s stacks)', () => reduceNodes(p, candidates));
  // (As the page sums them: per reduced entry where the stack rows far outnumber the events.)
  const sparse = sparseRows(p, cums);
  const weights = step(sparse ? 'entryWeightsInRange' : 'weightsInRange', () => (sparse ? entryWeightsInRange(p, cums, null, weightMode, reduced) : null) ?? withReduced(weightsInRange(p, cums, null, weightMode), reduced));
  step('callTree (the flame graph\'s)', () => callTree(p, weights, 'all', LIGHT));
  const derivedMs = performance.now() - t1;
  console.log(
    [
      `${file}: picked ${name} (${lists.total.toLocaleString('en-US')} rows of ${p.events.length.toLocaleString('en-US')})`,
      `  round ${roundMs.toFixed(0)} ms: ${marks.map(([n, t]) => `${n} ${t.toFixed(0)}`).join(' · ')}`,
      `  round CPU ${((roundCpu.user + roundCpu.system) / 1000).toFixed(0)} ms: ${parts.map(([what], k) => `${what} ${spent[k].toFixed(0)}`).join(' · ')}`,
      `  derived data ${derivedMs.toFixed(0)} ms (CPU ${stepsCpu.toFixed(0)} ms):`,
      ...lines,
      `  pick → derived data: ${(roundMs + derivedMs).toFixed(0)} ms`,
    ].join('\n'),
  );
});
