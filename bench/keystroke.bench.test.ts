/**
 * Cost of one stack-filter keystroke in Node (one thread), through every computation the view
 * redoes when the filter's text changes (selectors/derive.ts from filterLists on): the filters
 * and running counts, the lanes' counts, the activity's spikes, the selection's count, the
 * weights the stack filters keep, the flame graph's call tree and its total (over the type's reduced call
 * nodes, pruned as the view prunes it; top methods are summed only for the views that show them),
 * and d3's layout of the tree (hierarchy, sort, partition: the flame graph's data path, not its
 * SVG). Per text typed, the median of 5 runs (REPEAT) and each stage's median; the goal beside it.
 *   1 M CPU samples over deep stacks (up to 256 frames), built here:
 *     JFRSCOPE_BENCH=1 npx vitest run bench/keystroke.bench.test.ts
 *   A recording, each event type named (all decoded, as after picking them):
 *     JFRSCOPE_BENCH=1 FILE=fixtures/large/mixed.jfr TYPES=jdk.ExecutionSample,jdk.ObjectAllocationInNewTLAB npx vitest run bench/keystroke.bench.test.ts
 */
import { readFileSync } from 'node:fs';
import { hierarchy, partition } from 'd3';
import { it } from 'vitest';
import type { Profile } from '../web/src/columns/profile';
import { decodeInNode } from '../web/src/engine/node';
import { activitySpikes, matchTracks } from '../web/src/profile-logic/activity';
import { reduceNodes, withReduced, type ReducedNodes } from '../web/src/profile-logic/callnodes';
import { callTree, LIGHT, totalWeight, type CallNode } from '../web/src/profile-logic/calltree';
import { eventsOfType, indexEvents, reachOf, typeLists, type ThreadIndex } from '../web/src/profile-logic/event-index';
import { compileRegex, filterLists, flagsOf, keptByEntry, type Matcher } from '../web/src/profile-logic/filters';
import { KINDS, weightModeOf } from '../web/src/profile-logic/kinds';
import { threadCounts } from '../web/src/profile-logic/lanes';
import { topMethods } from '../web/src/profile-logic/methods';
import { countInRange, keptWeights, weightsInRange } from '../web/src/profile-logic/ranges';
import { runningStates } from '../web/src/profile-logic/running-counts';

function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * `samples` CPU samples on 64 threads over 60 s, on `leaves` distinct stacks of 32 to 256 frames
 * that share prefixes as a real program's do (each new stack forks an earlier one at a random
 * depth), frames drawn from 4,000 methods with 4 lines each.
 */
function syntheticProfile(samples: number, leaves: number, seed = 1): Profile {
  const rnd = mulberry32(seed);
  const strings: string[] = ['', 'RUNNABLE'];
  const METHODS = 4000;
  for (let m = 0; m < METHODS; m++) strings.push(`com.example.p${m % 37}.Class${m % 613}.method${m}`);
  const THREADS = 64;
  for (let t = 0; t < THREADS; t++) strings.push(`worker-${t}`);
  const LINES = 4;
  const fname = new Int32Array(METHODS * LINES);
  for (let f = 0; f < fname.length; f++) fname[f] = 2 + Math.floor(f / LINES);
  const frame: number[] = [];
  const prefix: number[] = [];
  const leafRows = new Int32Array(leaves);
  const path: number[] = [];
  for (let l = 0; l < leaves; l++) {
    const depth = 32 + Math.floor(rnd() * 225);
    let row = -1;
    let d = 0;
    if (l > 0) {
      // Fork an earlier stack at a random depth: walk it up to there.
      let q = leafRows[Math.floor(rnd() * l)];
      path.length = 0;
      for (; q >= 0; q = prefix[q]) path.push(q);
      d = Math.min(path.length, Math.floor(rnd() * Math.min(path.length, depth)));
      row = d > 0 ? path[path.length - d] : -1;
    }
    for (; d < depth; d++) {
      frame.push(Math.floor(rnd() * fname.length));
      prefix.push(row);
      row = frame.length - 1;
    }
    leafRows[l] = row;
  }
  const ev = {
    type: new Uint16Array(samples),
    start: new Float64Array(samples),
    duration: new Float32Array(samples),
    thread: new Int32Array(samples),
    stack: new Int32Array(samples),
    weight: new Float64Array(samples).fill(1),
    state: new Int32Array(samples).fill(1),
    subject: new Int32Array(samples).fill(-1),
    value: new Float64Array(samples).fill(NaN),
    peer: new Int32Array(samples).fill(-1),
    offset: new Float64Array(samples),
    length: samples,
  };
  for (let i = 0; i < samples; i++) {
    ev.start[i] = (i / samples) * 60_000;
    ev.thread[i] = Math.floor(rnd() * THREADS);
    // Skewed: a few stacks hot, most seen a few times.
    ev.stack[i] = leafRows[Math.floor(leaves * rnd() ** 2)];
  }
  return {
    strings,
    threads: { name: Int32Array.from({ length: THREADS }, (_, t) => 2 + METHODS + t), osId: new Float64Array(THREADS), javaId: new Float64Array(THREADS), virtual: new Uint8Array(THREADS), length: THREADS },
    frames: { name: fname, cls: fname, line: new Int32Array(fname.length), bci: new Int32Array(fname.length), kind: new Uint8Array(fname.length).fill(1), length: fname.length },
    stacks: { frame: Int32Array.from(frame), prefix: Int32Array.from(prefix), length: frame.length },
    events: ev,
    eventTypes: [{ name: 'jdk.ExecutionSample', label: 'Method Profiling Sample', kind: 'cpu', count: samples, hasStack: true, deferred: false }],
    info: { startMs: 0, durationMs: 60_000, dataEndMs: null, stacksLost: 0, chunks: 1, fileSize: 0, jvm: null, os: null, cpu: null, settings: [], properties: [], flags: [], chunkList: [], errors: [] },
    arrow: {} as Profile['arrow'],
  };
}

function median(f: () => void, n = Number(process.env.REPEAT ?? 5)): number {
  const t: number[] = [];
  for (let k = 0; k < n; k++) {
    const a = performance.now();
    f();
    t.push(performance.now() - a);
  }
  return t.sort((x, y) => x - y)[n >> 1];
}

const reducedNodes = new Map<string, ReducedNodes>();

/** The type's reduced call nodes (callnodes.ts), made once per type as the view makes them. */
function reducedOf(p: Profile, ty: number, idx: ThreadIndex): ReducedNodes {
  const key = `${p.events.length}:${ty}`;
  let r = reducedNodes.get(key);
  if (!r) {
    const t0 = performance.now();
    r = reduceNodes(p, eventsOfType(idx, ty));
    console.log(`  ${p.eventTypes[ty].name}: ${r.length.toLocaleString('en-US')} reduced call nodes, made once in ${(performance.now() - t0).toFixed(0)} ms`);
    reducedNodes.set(key, r);
  }
  return r;
}

/** What the view redoes when the stack filter's text becomes `text`, stage by stage (ms). */
function keystroke(p: Profile, idx: ThreadIndex, ty: number, text: string): { stages: Record<string, number>; nodes: number } {
  const stages: Record<string, number> = {};
  let at = performance.now();
  const lap = (name: string) => {
    const now = performance.now();
    stages[name] = (stages[name] ?? 0) + now - at;
    at = now;
  };
  const re = compileRegex(text);
  const stack: Matcher | null = re.ok ? re.re : null;
  const lists = typeLists(p, idx, ty);
  const ofType = flagsOf(p.events.length, eventsOfType(idx, ty));
  // Running-state counts only where the type has states, as the view counts them.
  const running = lists.parts.some((l) => l.some((i) => p.events.state[i] >= 0)) ? runningStates(p) : null;
  const interval = KINDS[p.eventTypes[ty].kind].interval;
  const mode = weightModeOf(p, ty);
  // The events without the stack filters and their weights: once per change of the other
  // filters or the range, as the view keeps them (derive.ts), not per keystroke.
  const base = filterLists(p, { type: ty, thread: null, stack: null, exclude: null, state: '', hiddenThreads: new Set() }, lists.parts, ofType, running);
  const baseParts = interval ? base.cums.map((c, k) => ({ ...c, reach: reachOf(p, lists.parts[k]) })) : base.cums;
  // The type's reduced call nodes: once per type, as the view keeps them.
  const reduced = reducedOf(p, ty, idx);
  const baseWeights = withReduced(weightsInRange(p, baseParts, null, mode), reduced);
  // Their sums over the reduced nodes too, as the view has them from before the keystroke.
  totalWeight(p, baseWeights);
  lap('setup (not per keystroke)');
  // Without stack filters, the events and weights of the other filters are the view's as they were.
  const pass = stack ? filterLists(p, { type: ty, thread: null, stack, exclude: null, state: '', hiddenThreads: new Set(), reduced }, lists.parts, ofType, running) : base;
  lap('filters');
  const parts = pass === base ? baseParts : interval ? pass.cums.map((c, k) => ({ ...c, reach: reachOf(p, lists.parts[k]) })) : pass.cums;
  const byThread = parts.slice(0, lists.byThread.length);
  const tracks = interval ? matchTracks(p, byThread) : null;
  threadCounts(p, byThread, mode);
  activitySpikes(p, parts, tracks, pass.filtered.threads, interval ? 'threads' : 'count');
  countInRange(p, parts, null);
  lap('lanes, spikes, count');
  // Kept per entry of the reduced nodes (per stack row only where they do not serve).
  const weights = pass.stack ? (keptByEntry(p, baseWeights, pass.stack, pass.noStack) ?? withReduced(keptWeights(p, baseWeights, pass.stack, pass.noStack), reduced)) : baseWeights;
  lap('weights kept');
  const total = totalWeight(p, weights);
  const tree = callTree(p, weights, `all · ${total}`, LIGHT);
  lap('call tree');
  const h = hierarchy<CallNode>(tree, (d) => d.children)
    .sum((d) => d.self)
    .sort((a, b) => (a.data.name < b.data.name ? -1 : 1));
  partition<CallNode>()(h);
  lap('d3 layout');
  return { stages, nodes: h.descendants().length };
}

function measure(label: string, p: Profile, types: number[], lines: string[]): void {
  const idx = indexEvents(p);
  const t0 = performance.now();
  callTree(p, new Float64Array(p.stacks.length + 2), 'all');
  lines.push(`${label}: ${p.events.length.toLocaleString('en-US')} events, ${p.stacks.length.toLocaleString('en-US')} stack rows; call-node table built once in ${(performance.now() - t0).toFixed(0)} ms`);
  for (const ty of types) {
    const t = p.eventTypes[ty];
    // Two method-name fragments that occur in the type's stacks, typed as the browser bench types them.
    const names = topMethods(p, weightsInRange(p, filterLists(p, { type: ty, thread: null, stack: null, exclude: null, state: '', hiddenThreads: new Set() }, typeLists(p, idx, ty).parts, flagsOf(p.events.length, eventsOfType(idx, ty)), null).cums, null, 'events'))
      .map((r) => /([A-Za-z_$][\w$]*)\.[\w$<>]+$/.exec(p.strings[r.name])?.[1] ?? '')
      .filter((s) => s.length > 2);
    const w1 = names[3] ?? 'a';
    const w2 = names.find((n) => n !== w1 && n.length > 2) ?? 'e';
    const texts = [w1[0], w1.slice(0, 2), w1, `${w1}|${w2}`, '', w2, ''];
    const totals: number[] = [];
    const parts: string[] = [];
    for (const text of texts) {
      // Each stage's median over the runs, and the median of the runs' sums (setup left out).
      const runs: ReturnType<typeof keystroke>[] = [];
      median(() => runs.push(keystroke(p, idx, ty, text)));
      const mid = (xs: number[]) => xs.sort((a, b) => a - b)[xs.length >> 1];
      const names = Object.keys(runs[0].stages).filter((k) => !k.startsWith('setup'));
      const per = mid(runs.map((r) => names.reduce((a, k) => a + r.stages[k], 0)));
      totals.push(per);
      parts.push(`${JSON.stringify(text)} ${per.toFixed(0)} ms (${names.map((k) => `${k} ${mid(runs.map((r) => r.stages[k])).toFixed(0)}`).join(', ')}; ${runs[0].nodes.toLocaleString('en-US')} nodes laid out)`);
    }
    const med = [...totals].sort((a, b) => a - b)[totals.length >> 1];
    lines.push(`  ${t.name} (${t.count.toLocaleString('en-US')} events): keystroke median ${med.toFixed(0)} ms, max ${Math.max(...totals).toFixed(0)} ms; goal < 100 ms at 1 M samples, < 150 ms on 15 M interval events`);
    for (const s of parts) lines.push(`    ${s}`);
  }
}

it('one stack-filter keystroke, stage by stage', () => {
  const lines: string[] = [];
  const file = process.env.FILE;
  if (file) {
    const p = decodeInNode(new Uint8Array(readFileSync(file)));
    const names = (process.env.TYPES ?? '').split(',').filter(Boolean);
    const types = names.length ? names.map((n) => p.eventTypes.findIndex((t) => t.name === n)).filter((i) => i >= 0) : [p.eventTypes.map((t, i) => ({ t, i })).sort((a, b) => b.t.count - a.t.count)[0].i];
    measure(file, p, types, lines);
  } else {
    const t0 = performance.now();
    const p = syntheticProfile(Number(process.env.SAMPLES ?? 1_000_000), Number(process.env.LEAVES ?? 20_000));
    measure(`synthetic (built in ${(performance.now() - t0).toFixed(0)} ms)`, p, [0], lines);
  }
  console.log(lines.join('\n'));
}, 3_600_000);
