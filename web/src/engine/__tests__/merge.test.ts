/** mergeParts: each part's dictionaries renumbered into one; markers in index columns kept. */
import { describe, expect, it } from 'vitest';
import { STACK_LOST } from '../../columns/profile';
import { Merger, mergeParts } from '../merge';
import { EventBuffers, type Description, type PartColumns, type WasmParser } from '../parts';

/** A part with one thread and one frame `name`, a stack per frame list, and events on `stacks`. */
function part(strings: string[], stackFrames: number[], stackPrefix: number[], stacks: number[], extra: Partial<Description['info']> = {}): PartColumns {
  const n = stacks.length;
  return {
    strings,
    threadName: Uint32Array.of(1),
    threadOsId: Float64Array.of(7),
    threadJavaId: Float64Array.of(1),
    threadVirtual: Uint8Array.of(0),
    frameName: Uint32Array.from(strings.slice(2).map((_, i) => i + 2)),
    frameClass: Uint32Array.from(strings.slice(2).map(() => 0)),
    frameLine: Int32Array.from(strings.slice(2).map(() => -1)),
    frameBci: Int32Array.from(strings.slice(2).map(() => -1)),
    frameKind: Uint8Array.from(strings.slice(2).map(() => 1)),
    stackFrame: Uint32Array.from(stackFrames),
    stackPrefix: Int32Array.from(stackPrefix),
    eventType: new Uint16Array(n),
    eventStart: Float64Array.from(stacks.map((_, i) => i)),
    eventDuration: new Float32Array(n),
    eventThread: new Int32Array(n),
    eventStack: Int32Array.from(stacks),
    eventWeight: new Float64Array(n).fill(1),
    eventState: new Int32Array(n).fill(-1),
    eventSubject: new Int32Array(n).fill(-1),
    eventValue: new Float64Array(n).fill(NaN),
    eventPeer: new Int32Array(n).fill(-1),
    eventOffset: Float64Array.from(stacks.map((_, i) => 100 + i)),
    description: {
      types: [{ name: 'jdk.ExecutionSample', label: 'Method Profiling Sample', kind: 'cpu', count: n, hasStack: true, decoded: true }],
      chunks: [],
      errors: [],
      info: { jvm: null, os: null, cpu: null, settings: [], properties: [], ...extra },
    },
  };
}

describe('mergeParts', () => {
  it('keeps -1 (no stack) and -2 (stack lost) as they are, and renumbers real stacks', () => {
    // Part a: stacks main (0), main;work (1). Part b numbers its own: other (0), main (1), main;work (2).
    const a = part(['', 'worker', 'main', 'work'], [0, 1], [-1, 0], [1, -1, 0], { dataEndNs: '5000000', stacksLost: 0 });
    const b = part(['', 'worker', 'other', 'main', 'work'], [0, 1, 2], [-1, -1, 1], [STACK_LOST, 2, -1, 0, STACK_LOST], { dataEndNs: '9000000', stacksLost: 2 });
    const m = mergeParts([a, b]);
    const path = (s: number): string => {
      const names: string[] = [];
      for (let q = s; q >= 0; q = m.stackPrefix[q]) names.unshift(m.strings[m.frameName[m.stackFrame[q]]]);
      return names.join(';');
    };
    const got = Array.from(m.eventStack, (s) => (s < 0 ? s : path(s)));
    expect(got).toEqual(['main;work', -1, 'main', STACK_LOST, 'main;work', -1, 'other', STACK_LOST]);
    // No real stack index equals a marker, and every index is a row of the merged stacks.
    for (const s of m.eventStack) expect(s === -1 || s === STACK_LOST || (s >= 0 && s < m.stackFrame.length)).toBe(true);
    expect(m.description.info.stacksLost).toBe(2);
    expect(m.description.info.dataEndNs).toBe('9000000');
  });
});

/**
 * The same pieces, handed over (copied) or written by their decoder into shared columns first
 * (placed, in its own numbering, the columns it sends as one value left unwritten), give the
 * same merged columns, the lazy ones once read; a source that gives fewer rows than counted (a
 * damaged chunk) closes up either way.
 */
describe('Merger with shared columns', () => {
  const names = ['jdk.ExecutionSample'];
  const columns = ['eventType', 'eventStart', 'eventDuration', 'eventThread', 'eventStack', 'eventWeight', 'eventState', 'eventSubject', 'eventValue', 'eventPeer', 'eventOffset'] as const;
  // Source a: two pieces, the second with only its new dictionary rows; source b numbers its own.
  const a1 = part(['', 'worker', 'main', 'work'], [0, 1], [-1, 0], [1, -1, 0]);
  const a2 = { ...part([], [], [], [0, STACK_LOST, 1]), threadName: new Uint32Array(0), threadOsId: new Float64Array(0), threadJavaId: new Float64Array(0), threadVirtual: new Uint8Array(0) };
  a2.eventSubject = Int32Array.of(3, -1, 2);
  const b = part(['', 'worker', 'other', 'main', 'work'], [0, 1, 2], [-1, -1, 1], [STACK_LOST, 2, -1, 0]);
  b.eventState = Int32Array.of(2, 2, 2, 2);
  // One value in every row of a column: sent as that value (its array empty).
  const one = (p: PartColumns, k: 'eventState' | 'eventWeight', v: number) => ({ ...p, [k]: k === 'eventState' ? new Int32Array(0) : new Float64Array(0), constant: { ...p.constant, [k]: v } });
  const pieces: [number, PartColumns][] = [[0, a1], [1, b], [0, one(a2, 'eventWeight', 1)]];
  pieces[1][1] = one(b, 'eventState', 2);
  const rows = (p: PartColumns) => p.eventOffset.length;

  function merged(shared: boolean, counted: number[]) {
    const m = new Merger(names, shared);
    const sources = counted.map((n) => m.source(n));
    const into = shared ? sources.map((s) => m.into(s)) : [];
    for (const [k, p] of pieces) {
      const types = p.description.types.map((t) => t.name);
      if (!shared) {
        m.add(sources[k], p, types);
        continue;
      }
      // As a decoder does: its rows written raw at its next position, constants not at all.
      const n = rows(p);
      const at = into[k].at;
      columns.forEach((c, j) => {
        const T = { eventType: Uint16Array, eventStart: Float64Array, eventDuration: Float32Array, eventWeight: Float64Array, eventValue: Float64Array, eventOffset: Float64Array }[c as string] ?? Int32Array;
        const to = new T(into[k].columns[j] as unknown as ArrayBuffer, at * T.BYTES_PER_ELEMENT, n);
        if (p.constant?.[c] === undefined) to.set(p[c] as never);
      });
      into[k].at += n;
      m.add(sources[k], { ...p, ...Object.fromEntries(columns.map((c) => [c, new Int32Array(0)])), placed: n }, types);
    }
    return m.finish();
  }

  for (const counted of [[6, 4], [7, 4]]) {
    it(`gives the columns of the copied pieces${counted[0] > 6 ? ', a source one row short closed up' : ''}`, () => {
      const copied = merged(false, counted);
      const placed = merged(true, counted);
      expect(copied.eventOffset.length).toBe(10);
      // b's one state and a2's one weight: left to be written when read (rows 6–9 and 3–5), or,
      // where a source came short and its rows moved, written before they moved.
      const whole = counted[0] === 6;
      expect([placed.pending?.has('eventState'), placed.pending?.has('eventWeight')]).toEqual([whole, whole]);
      if (whole) expect([Array.from(placed.eventState.subarray(6, 10)), Array.from(placed.eventWeight.subarray(3, 6))]).toEqual([[0, 0, 0, 0], [0, 0, 0]]);
      placed.pending?.fillAll(placed);
      // The extent and the types with thread states, as the copied pieces give them.
      expect([placed.extent, Array.from(placed.statesIn!)]).toEqual([copied.extent, Array.from(copied.statesIn!)]);
      expect(placed.extent?.stacksLost).toBe(2);
      for (const c of columns) expect([c, Array.from(placed[c])]).toEqual([c, Array.from(copied[c])]);
      expect([placed.strings, Array.from(placed.stackFrame), Array.from(placed.stackPrefix)]).toEqual([copied.strings, Array.from(copied.stackFrame), Array.from(copied.stackPrefix)]);
      // Still the shared memory the decoders wrote (a short source leaves a view, not a copy).
      expect(placed.eventStack.buffer instanceof SharedArrayBuffer).toBe(true);
      expect(copied.eventStack.buffer instanceof SharedArrayBuffer).toBe(false);
    });
  }

  it('has a decoder refuse rows past its range, writing none: the rows after it are another decoder’s', () => {
    const m = new Merger(names, true);
    const into = m.into(m.source(2));
    const decoder = { pendingRows: () => 3 } as unknown as WasmParser;
    expect(() => new EventBuffers().place(decoder, new WebAssembly.Memory({ initial: 1 }), into)).toThrow(/more rows than its count pass found \(1 more\)/);
    expect(into.at).toBe(0);
    expect(Array.from(new Float64Array(into.columns[10]))).toEqual([0, 0]);
  });
});

describe('the call nodes the merge makes', () => {
  /** A part of random stacks over `names` (two lines each, so rows differ where names do not). */
  function randomPart(seed: number, names: string[], rows: number): PartColumns {
    let a = seed;
    const below = (n: number) => ((a = (Math.imul(a, 1103515245) + 12345) >>> 0) >>> 8) % n;
    const strings = ['', 'worker', ...names];
    const frames = names.length * 2;
    const stackFrames: number[] = [];
    const stackPrefix: number[] = [];
    for (let s = 0; s < rows; s++) {
      stackFrames.push(below(frames));
      // Mostly chains (a row's prefix the row before), as deep varied stacks make them.
      stackPrefix.push(s === 0 || below(5) === 0 ? -1 : below(3) === 0 ? below(s) : s - 1);
    }
    const p = part(strings, stackFrames, stackPrefix, [0]);
    const f = (i: number) => 2 + (i >> 1);
    return { ...p, frameName: Uint32Array.from({ length: frames }, (_, i) => f(i)), frameClass: new Uint32Array(frames), frameLine: Int32Array.from({ length: frames }, (_, i) => i & 1), frameBci: new Int32Array(frames).fill(-1), frameKind: Uint8Array.from({ length: frames }, (_, i) => i % 3) };
  }

  it('give each stack row the node of its name path, numbered as rows first reach them, round after round', () => {
    const names = Array.from({ length: 9 }, (_, i) => `C.m${i}`);
    const m = new Merger(['jdk.ExecutionSample']);
    const rounds = [];
    for (let round = 0; round < 3; round++) {
      if (round > 0) m.next();
      const parts = [randomPart(7 + round, names, 400), randomPart(100 + round, names.slice(2), 300)];
      const sources = parts.map(() => m.source(1));
      parts.forEach((p, i) => m.add(sources[i], p, ['jdk.ExecutionSample']));
      const c = m.finish();
      rounds.push({ c, calls: c.calls!, copy: { ofStack: Array.from(c.calls!.ofStack), prefix: Array.from(c.calls!.prefix), name: Array.from(c.calls!.name), stackFrame: Array.from(c.stackFrame), stackPrefix: Array.from(c.stackPrefix) } });
    }
    for (const { c, calls, copy } of rounds) {
      // The truth, from the merged columns alone: a node per distinct path of names, in row order.
      const rowPath = (s: number): string => (s < 0 ? '' : `${rowPath(c.stackPrefix[s])}/${c.strings[c.frameName[c.stackFrame[s]]]}`);
      const nodeOf = new Map<string, number>();
      const want = Array.from({ length: c.stackFrame.length }, (_, s) => {
        const path = rowPath(s);
        if (!nodeOf.has(path)) nodeOf.set(path, nodeOf.size);
        return nodeOf.get(path)!;
      });
      expect(Array.from(calls.ofStack)).toEqual(want);
      expect(calls.length).toBe(nodeOf.size);
      const nodePath = (n: number): string => (n < 0 ? '' : `${nodePath(calls.prefix[n])}/${c.strings[calls.name[n]]}`);
      for (const [path, n] of nodeOf) {
        expect(nodePath(n)).toBe(path);
        expect(calls.depth[n]).toBe(path.split('/').length - 2);
      }
      // Each node's kind is its first row's frame's.
      for (let s = c.stackFrame.length - 1; s >= 0; s--) if (want.indexOf(want[s]) === s) expect(calls.kind[want[s]]).toBe(c.frameKind[c.stackFrame[s]]);
      // A later round only wrote past what an earlier one gave out.
      expect([Array.from(calls.ofStack), Array.from(calls.prefix), Array.from(calls.name)]).toEqual([copy.ofStack, copy.prefix, copy.name]);
      expect([Array.from(c.stackFrame), Array.from(c.stackPrefix)]).toEqual([copy.stackFrame, copy.stackPrefix]);
    }
    expect(rounds[2].c.stackFrame.length).toBeGreaterThan(rounds[0].c.stackFrame.length);
  });
});
