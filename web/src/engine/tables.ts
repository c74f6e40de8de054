/**
 * Columns → `Profile`: Arrow tables (strings dictionary-encoded against the one string table)
 * and typed-array views of the same buffers for profile-logic.
 */
import { Dictionary, Float32, Float64, Int32, Table, Uint16, Uint8, Utf8, makeData, makeVector, type Data } from 'apache-arrow';
import type { Profile, RecordingInfo } from '../columns/profile';
import { decodable, rowsExtent, type PartColumns } from './parts';
import { recordingShape } from './shape';
import { LAZY_COLUMNS, LAZY_PROFILE_NAMES } from './merge';

function i32(a: Uint32Array | Int32Array): Int32Array {
  return a instanceof Int32Array ? a : new Int32Array(a.buffer, a.byteOffset, a.length);
}

/**
 * Strings as an Arrow Utf8 column, built from its offsets and bytes directly (Arrow's builders
 * compile validity checks with `Function`, which the page's CSP forbids).
 */
export function utf8Data(strings: string[]): Data<Utf8> {
  const enc = new TextEncoder();
  const parts = strings.map((s) => enc.encode(s));
  const valueOffsets = new Int32Array(strings.length + 1);
  let total = 0;
  parts.forEach((p, i) => {
    total += p.length;
    valueOffsets[i + 1] = total;
  });
  const data = new Uint8Array(total);
  parts.forEach((p, i) => data.set(p, valueOffsets[i]));
  return makeData({ type: new Utf8(), length: strings.length, nullCount: 0, valueOffsets, data });
}

/** `loaded`: the types whose rows are in `c` (a lazy load); every decodable type when absent. */
export function toProfile(c: PartColumns, originMs: number, fileSize: number, loaded?: Set<string>): Profile {
  const threadName = i32(c.threadName);
  const frameName = i32(c.frameName);
  const frameCls = i32(c.frameClass);
  const stackFrame = i32(c.stackFrame);
  const evType = c.eventType;
  // The Arrow tables serve the SQL console alone: built the first time it asks, not on every
  // round (their validity bitmaps are a pass over every row).
  let arrow: Profile['arrow'] | null = null;
  const arrowTables = (): Profile['arrow'] => {
    c.pending?.fillAll(c);
    const dictionary = makeVector(utf8Data(c.strings));
    // One dictionary type (one id) shared by every string column: they index the same table.
    const dictType = new Dictionary(new Utf8(), new Int32(), 0);
    // -1 ("none") is null in Arrow: a validity bitmap marks it, the key itself stays -1.
    const dict = (keys: Int32Array) => {
      let nullCount = 0;
      const valid = new Uint8Array((keys.length + 7) >> 3);
      for (let i = 0; i < keys.length; i++) {
        if (keys[i] >= 0) valid[i >> 3] |= 1 << (i & 7);
        else nullCount++;
      }
      const nullBitmap = nullCount ? valid : undefined;
      return makeVector(makeData({ type: dictType, length: keys.length, nullCount, data: keys, nullBitmap, dictionary }));
    };
    const num = (_type: Int32 | Uint16 | Float32 | Float64 | Uint8, data: Int32Array | Uint16Array | Float32Array | Float64Array | Uint8Array) => makeVector(data);

    const threads = new Table({
      name: dict(threadName),
      osId: num(new Float64(), c.threadOsId),
      javaId: num(new Float64(), c.threadJavaId),
      virtual: num(new Uint8(), c.threadVirtual),
    });
    const frames = new Table({
      name: dict(frameName),
      cls: dict(frameCls),
      line: num(new Int32(), c.frameLine),
      bci: num(new Int32(), c.frameBci),
      kind: num(new Uint8(), c.frameKind),
    });
    const stacks = new Table({ frame: num(new Int32(), stackFrame), prefix: num(new Int32(), c.stackPrefix) });
    const events = new Table({
      type: num(new Uint16(), evType),
      start: num(new Float64(), c.eventStart),
      duration: num(new Float32(), c.eventDuration),
      thread: num(new Int32(), c.eventThread),
      stack: num(new Int32(), c.eventStack),
      weight: num(new Float64(), c.eventWeight),
      state: dict(c.eventState),
      subject: dict(c.eventSubject),
      value: num(new Float64(), c.eventValue),
      peer: num(new Int32(), c.eventPeer),
      offset: num(new Float64(), c.eventOffset),
    });
    return { threads, frames, stacks, events };
  };
  const d = c.description;
  const ends = d.chunks.map((ch) => Number(BigInt(ch.startNs) + BigInt(ch.durationNs)) / 1e6);
  const headerEnd = ends.length ? Math.max(...ends) : originMs;
  // Where the data really ends: the parser's dataEndNs over the rows it decoded, and the rows
  // here (a lazy load's description comes from the count pass, which decodes none).
  let dataEnd = d.info.dataEndNs != null ? Number(BigInt(d.info.dataEndNs)) / 1e6 : -Infinity;
  // Found as the rows were read, when they were (a pass over every row otherwise).
  const extent = c.extent ?? rowsExtent(c.eventStart, c.eventDuration, c.eventStack, 0, c.eventStart.length);
  if (extent.end > -Infinity) dataEnd = Math.max(dataEnd, originMs + extent.end);
  const stacksLost = extent.stacksLost;
  const dataEndMs = dataEnd > -Infinity ? dataEnd : null;
  // A cut file's header claims the whole chunk: a damaged recording lasts as long as its data.
  const end = dataEndMs === null ? headerEnd : d.errors.length > 0 && dataEndMs < headerEnd ? dataEndMs : Math.max(headerEnd, dataEndMs);
  const info: RecordingInfo = {
    startMs: originMs,
    durationMs: Math.max(0, end - originMs),
    dataEndMs,
    stacksLost,
    chunks: d.chunks.length,
    fileSize,
    jvm: d.info.jvm,
    os: d.info.os,
    cpu: d.info.cpu,
    settings: d.info.settings,
    properties: d.info.properties,
    flags: d.info.flags ?? [],
    chunkList: [...d.chunks]
      .sort((a, b) => a.offset - b.offset)
      .map((ch) => ({ offset: ch.offset, size: ch.size, startMs: Number(BigInt(ch.startNs)) / 1e6, durationMs: Number(BigInt(ch.durationNs)) / 1e6 })),
    errors: d.errors,
    shape: recordingShape(d.shape),
  };
  // (Weight, state, value and peer are added below.)
  const events = {
    type: evType,
    start: c.eventStart,
    duration: c.eventDuration,
    thread: c.eventThread,
    stack: c.eventStack,
    subject: c.eventSubject,
    offset: c.eventOffset,
    length: evType.length,
  } as Profile['events'];
  // Columns a pick left unwritten where they hold one value: written when first read. Each stays
  // a getter (turning it into a plain property made the object a slow dictionary: 15 ms more
  // per filter keystroke over 16.6 M events), and every profile has the same four.
  const pending = c.pending;
  for (const k of LAZY_COLUMNS) {
    const name = LAZY_PROFILE_NAMES[k];
    let filled = !pending?.has(k);
    const column = c[k];
    Object.defineProperty(events, name, {
      enumerable: true,
      get() {
        if (!filled) {
          pending!.fill(c, k);
          filled = true;
        }
        return column;
      },
    });
  }
  const wallClock = info.settings.some((x) => x.type === 'jdk.ActiveRecording' && x.name === 'event' && x.value === 'wall');
  return {
    strings: c.strings,
    threads: { name: threadName, osId: c.threadOsId, javaId: c.threadJavaId, virtual: c.threadVirtual, length: threadName.length },
    frames: { name: frameName, cls: frameCls, line: c.frameLine, bci: c.frameBci, kind: c.frameKind, length: frameName.length },
    stacks: { frame: stackFrame, prefix: c.stackPrefix, length: stackFrame.length, calls: c.calls },
    events,
    eventTypes: d.types.map((t, i) => {
      const deferred = loaded !== undefined && decodable(t) && !loaded.has(t.name);
      return {
        name: t.name,
        label: t.label,
        // Object.wait is idling until notified, not contention: its own kind (the parser files it
        // with monitor enters). async-profiler sampling wall-clock time alone (its own setting
        // event=wall, under jdk.ActiveRecording) writes its samples as jdk.ExecutionSample.
        kind: t.name === 'jdk.JavaMonitorWait' ? 'wait' : t.name === 'jdk.ExecutionSample' && wallClock ? 'wall' : t.kind,
        count: t.count,
        hasStack: t.hasStack,
        deferred,
        // (Of the rows decoded: not said of a type whose rows are still in the file.)
        ...(c.statesIn && c.statesIn[i] === 0 && !deferred ? { noStates: true } : {}),
      };
    }),
    info,
    get arrow() {
      return (arrow ??= arrowTables());
    },
  };
}
