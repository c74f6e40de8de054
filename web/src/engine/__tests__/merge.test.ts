/** mergeParts: each part's dictionaries renumbered into one; markers in index columns kept. */
import { describe, expect, it } from 'vitest';
import { STACK_LOST } from '../../columns/profile';
import { mergeParts } from '../merge';
import type { Description, PartColumns } from '../parts';

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
