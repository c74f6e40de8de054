/**
 * Small profiles built by hand for unit tests: stacks given as "a;b;c" (root first), events as
 * (type, time, thread, stack, weight, duration, state, subject).
 */
import type { EventKind, Profile } from '../../columns/profile';

export interface Ev {
  type: number;
  t: number;
  thread: number;
  stack: string | null;
  weight?: number;
  duration?: number;
  state?: string;
  /** Monitor class, path, allocated class… */
  subject?: string;
  /** Monitor address, bytes read… */
  value?: number;
  /** The other thread (previous owner of a monitor, notifier): a thread row. */
  peer?: number;
}

export function buildProfile(types: { name: string; kind: EventKind }[], threads: string[], events: Ev[]): Profile {
  const strings: string[] = [''];
  const idx = new Map<string, number>([['', 0]]);
  const intern = (s: string) => {
    let i = idx.get(s);
    if (i === undefined) {
      i = strings.length;
      strings.push(s);
      idx.set(s, i);
    }
    return i;
  };
  const frames = new Map<string, number>();
  const frameName: number[] = [];
  const stackKey = new Map<string, number>();
  const sFrame: number[] = [];
  const sPrefix: number[] = [];
  const stackOf = (path: string | null): number => {
    if (path === null) return -1;
    let prefix = -1;
    for (const f of path.split(';')) {
      let fi = frames.get(f);
      if (fi === undefined) {
        fi = frameName.length;
        frames.set(f, fi);
        frameName.push(intern(f));
      }
      const k = `${prefix}|${fi}`;
      let s = stackKey.get(k);
      if (s === undefined) {
        s = sFrame.length;
        stackKey.set(k, s);
        sFrame.push(fi);
        sPrefix.push(prefix);
      }
      prefix = s;
    }
    return prefix;
  };
  const n = events.length;
  const ev = {
    type: new Uint16Array(n),
    start: new Float64Array(n),
    duration: new Float32Array(n),
    thread: new Int32Array(n),
    stack: new Int32Array(n),
    weight: new Float64Array(n),
    state: new Int32Array(n),
    subject: new Int32Array(n).fill(-1),
    value: new Float64Array(n).fill(NaN),
    peer: new Int32Array(n).fill(-1),
    offset: new Float64Array(n),
    length: n,
  };
  events.forEach((e, i) => {
    ev.type[i] = e.type;
    ev.start[i] = e.t;
    ev.duration[i] = e.duration ?? 0;
    ev.thread[i] = e.thread;
    ev.stack[i] = stackOf(e.stack);
    ev.weight[i] = e.weight ?? 1;
    ev.state[i] = e.state ? intern(e.state) : -1;
    ev.subject[i] = e.subject ? intern(e.subject) : -1;
    if (e.value !== undefined) ev.value[i] = e.value;
    if (e.peer !== undefined) ev.peer[i] = e.peer;
  });
  const threadName = Int32Array.from(threads.map(intern));
  const fn = Int32Array.from(frameName);
  return {
    strings,
    threads: { name: threadName, osId: new Float64Array(threads.length), javaId: new Float64Array(threads.length), virtual: new Uint8Array(threads.length), length: threads.length },
    frames: { name: fn, cls: fn, line: new Int32Array(fn.length), bci: new Int32Array(fn.length), kind: new Uint8Array(fn.length).fill(1), length: fn.length },
    stacks: { frame: Int32Array.from(sFrame), prefix: Int32Array.from(sPrefix), length: sFrame.length },
    events: ev,
    eventTypes: types.map((t) => ({ ...t, label: t.name, count: events.filter((e) => types[e.type] === t).length, hasStack: true, deferred: false })),
    info: { startMs: 0, durationMs: 100, dataEndMs: null, stacksLost: 0, chunks: 1, fileSize: 0, jvm: null, os: null, cpu: null, settings: [], properties: [], flags: [], chunkList: [], errors: [] },
    arrow: {} as Profile['arrow'],
  };
}
