/**
 * Merges columns decoded by several workers or passes (each with its own string, thread, frame,
 * stack and type numbering) into one set of columns. Inputs come in order; rows keep it.
 *
 *   input k: strings_k, threads_k … events_k, type names_k ─ remap tables ─ concatenated columns
 *
 * A lazy load merges its first round of parts, and later merges the columns it already has with
 * the parts of each new round (the types decoded on demand), so rows are grouped by round.
 */
import type { Description, PartColumns, TypeRow } from './columns';

export type Columns = Omit<PartColumns, 'description'>;

/** Columns and the names of the event types their `eventType` indexes. */
export interface Numbered {
  cols: Columns;
  types: string[];
}

function remapInto(map: Int32Array, v: number): number {
  return v < 0 ? v : map[v];
}

/** One description from the parts' own: types by name (counts added), chunks, errors, info. */
export function mergeDescriptions(ds: Description[]): Description {
  if (ds.length === 1) return ds[0];
  const typeIdx = new Map<string, number>();
  const types: TypeRow[] = [];
  const desc: Description = { types, chunks: [], errors: [], info: { jvm: null, os: null, cpu: null, settings: [], properties: [] } };
  for (const d of ds) {
    for (const t of d.types) {
      const j = typeIdx.get(t.name);
      if (j === undefined) {
        typeIdx.set(t.name, types.length);
        types.push({ ...t });
      } else {
        const row = types[j];
        row.count += t.count;
        row.hasStack ||= t.hasStack;
        row.decoded ||= t.decoded;
      }
    }
    desc.chunks.push(...d.chunks);
    desc.errors.push(...d.errors);
    const info = desc.info;
    info.jvm ??= d.info.jvm;
    info.os ??= d.info.os;
    info.cpu ??= d.info.cpu;
    for (const s of d.info.settings) {
      if (!info.settings.some((x) => x.type === s.type && x.name === s.name && x.value === s.value)) info.settings.push(s);
    }
    for (const s of d.info.properties) {
      if (!info.properties.some((x) => x.key === s.key && x.value === s.value)) info.properties.push(s);
    }
  }
  return desc;
}

/** Every decoded type of the parts, together: the usual, eager load. */
export function mergeParts(parts: PartColumns[]): PartColumns {
  if (parts.length === 1) return parts[0];
  const description = mergeDescriptions(parts.map((p) => p.description));
  const names = description.types.map((t) => t.name);
  return { ...mergeColumns(parts.map((p) => ({ cols: p, types: p.description.types.map((t) => t.name) })), names), description };
}

const same = (a: string[], b: string[]) => a.length === b.length && a.every((x, i) => x === b[i]);

/** The inputs' columns as one, with `eventType` indexing `typeNames`. */
export function mergeColumns(inputs: Numbered[], typeNames: string[]): Columns {
  if (inputs.length === 1 && same(inputs[0].types, typeNames)) return inputs[0].cols;
  const typeIdx = new Map(typeNames.map((n, i) => [n, i]));
  const strings: string[] = [];
  const stringIdx = new Map<string, number>();
  const intern = (s: string) => {
    let i = stringIdx.get(s);
    if (i === undefined) {
      i = strings.length;
      strings.push(s);
      stringIdx.set(s, i);
    }
    return i;
  };
  intern('');
  const threadKey = new Map<string, number>();
  const tName: number[] = [], tOs: number[] = [], tJava: number[] = [];
  const frameKey = new Map<string, number>();
  const fName: number[] = [], fCls: number[] = [], fLine: number[] = [], fBci: number[] = [], fKind: number[] = [];
  const stackKey = new Map<number, Map<number, number>>();
  const sFrame: number[] = [], sPrefix: number[] = [];

  const nEvents = inputs.reduce((a, p) => a + p.cols.eventType.length, 0);
  const out = {
    eventType: new Uint32Array(nEvents),
    eventStart: new Float64Array(nEvents),
    eventDuration: new Float64Array(nEvents),
    eventThread: new Int32Array(nEvents),
    eventStack: new Int32Array(nEvents),
    eventWeight: new Float64Array(nEvents),
    eventState: new Int32Array(nEvents),
    eventSubject: new Int32Array(nEvents),
    eventValue: new Float64Array(nEvents),
    eventPeer: new Int32Array(nEvents),
    eventChunk: new Uint32Array(nEvents),
    eventOffset: new Float64Array(nEvents),
  };
  let base = 0;
  for (const { cols: p, types: names } of inputs) {
    const sMap = new Int32Array(p.strings.length);
    p.strings.forEach((s, i) => (sMap[i] = intern(s)));
    const thMap = new Int32Array(p.threadName.length);
    for (let i = 0; i < p.threadName.length; i++) {
      const name = sMap[p.threadName[i]];
      const k = `${name}|${p.threadOsId[i]}|${p.threadJavaId[i]}`;
      let t = threadKey.get(k);
      if (t === undefined) {
        t = tName.length;
        threadKey.set(k, t);
        tName.push(name);
        tOs.push(p.threadOsId[i]);
        tJava.push(p.threadJavaId[i]);
      }
      thMap[i] = t;
    }
    const frMap = new Int32Array(p.frameName.length);
    for (let i = 0; i < p.frameName.length; i++) {
      const name = sMap[p.frameName[i]], cls = sMap[p.frameClass[i]];
      const k = `${name}|${cls}|${p.frameLine[i]}|${p.frameBci[i]}|${p.frameKind[i]}`;
      let f = frameKey.get(k);
      if (f === undefined) {
        f = fName.length;
        frameKey.set(k, f);
        fName.push(name);
        fCls.push(cls);
        fLine.push(p.frameLine[i]);
        fBci.push(p.frameBci[i]);
        fKind.push(p.frameKind[i]);
      }
      frMap[i] = f;
    }
    // A stack's prefix always precedes it, so one pass remaps the tree.
    const stMap = new Int32Array(p.stackFrame.length);
    for (let i = 0; i < p.stackFrame.length; i++) {
      const prefix = remapInto(stMap, p.stackPrefix[i]);
      const frame = frMap[p.stackFrame[i]];
      let byFrame = stackKey.get(prefix);
      if (!byFrame) stackKey.set(prefix, (byFrame = new Map()));
      let s = byFrame.get(frame);
      if (s === undefined) {
        s = sFrame.length;
        byFrame.set(frame, s);
        sFrame.push(frame);
        sPrefix.push(prefix);
      }
      stMap[i] = s;
    }
    const tyMap = Int32Array.from(names, (name) => typeIdx.get(name) ?? -1);
    const n = p.eventType.length;
    for (let i = 0; i < n; i++) {
      const o = base + i;
      const ty = tyMap[p.eventType[i]];
      if (ty < 0) throw new Error(`Event type ${names[p.eventType[i]]} has rows but is missing from the recording's description.`);
      out.eventType[o] = ty;
      out.eventThread[o] = remapInto(thMap, p.eventThread[i]);
      out.eventStack[o] = remapInto(stMap, p.eventStack[i]);
      out.eventState[o] = remapInto(sMap, p.eventState[i]);
      out.eventSubject[o] = remapInto(sMap, p.eventSubject[i]);
      out.eventPeer[o] = remapInto(thMap, p.eventPeer[i]);
    }
    out.eventStart.set(p.eventStart, base);
    out.eventDuration.set(p.eventDuration, base);
    out.eventWeight.set(p.eventWeight, base);
    out.eventValue.set(p.eventValue, base);
    out.eventChunk.set(p.eventChunk, base);
    out.eventOffset.set(p.eventOffset, base);
    base += n;
  }
  return {
    strings,
    threadName: Uint32Array.from(tName),
    threadOsId: Float64Array.from(tOs),
    threadJavaId: Float64Array.from(tJava),
    frameName: Uint32Array.from(fName),
    frameClass: Uint32Array.from(fCls),
    frameLine: Int32Array.from(fLine),
    frameBci: Int32Array.from(fBci),
    frameKind: Uint8Array.from(fKind),
    stackFrame: Uint32Array.from(sFrame),
    stackPrefix: Int32Array.from(sPrefix),
    ...out,
  };
}
