/**
 * An event shown in full (the event panel's fields, decoded on demand by the worker holding its
 * chunk) names its thread as its row does and as the JDK does: by the thread chain across
 * chunks, not by its chunk's own pool. fixtures/jdk17-renamed.jfr (three chunks; `cruncher`
 * renames itself to `cruncher-renamed` at 1.5 s, `job-N` renames itself every 500 ms), opened by
 * two decoders; every event of the types below shown in full, its thread counted against the
 * JDK's reading (fixtures/expected/jdk17-renamed.jfr.per-type.threads.tsv: RecordingFile over
 * the file, tools/golden/PerType.java: sampledThread, else eventThread, by its Java name).
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { decodeEvent } from '../pkg/jfrscope_wasm.js';
import { parseEventFields } from '../fields';
import { chunkLayout } from '../layout';
import { eventFieldsInNode, sessionInNode } from '../node';
import { eventJson } from '../parts';

const root = resolve(__dirname, '../../../..');
const whole = new Uint8Array(readFileSync(resolve(root, 'fixtures/jdk17-renamed.jfr')));
const buf = whole.buffer.slice(whole.byteOffset, whole.byteOffset + whole.byteLength) as ArrayBuffer;
const spans = chunkLayout(buf);

/** type → thread name → events, as RecordingFile reads the file. */
const jdk = new Map<string, Map<string, number>>();
for (const line of readFileSync(resolve(root, 'fixtures/expected/jdk17-renamed.jfr.per-type.threads.tsv'), 'utf8').trim().split('\n')) {
  const [type, thread, n] = line.split('\t');
  if (!jdk.has(type)) jdk.set(type, new Map());
  jdk.get(type)!.set(thread, Number(n));
}

/**
 * The thread an event's fields show (sampledThread, else eventThread), without its Java id;
 * "(none)" without one, or for an id its chunk's pool lacks (the JDK reads null).
 */
function shownThread(f: Record<string, unknown>): string {
  const t = 'sampledThread' in f ? f.sampledThread : f.eventThread;
  return typeof t === 'string' && !/^Thread #\d+ \(not in the chunk\)$/.test(t) ? t.replace(/ \(javaThreadId = \d+\)$/, '') : '(none)';
}

const TYPES = ['jdk.ExecutionSample', 'jdk.ObjectAllocationSample', 'jdk.ThreadStart'];

describe('an event shown in full names its thread as the JDK does', () => {
  it('every event of the types, shown in full: its thread per type as RecordingFile reads the file', async () => {
    const session = sessionInNode(whole, 2);
    const p = await session.open(TYPES, () => {});
    const ours = new Map<string, Map<string, number>>();
    /** Events of a later chunk whose own pool names their thread otherwise than the chain does. */
    let renamedInChunk = 0;
    for (let i = 0; i < p.events.length; i++) {
      const type = p.eventTypes[p.events.type[i]].name;
      if (!TYPES.includes(type)) continue;
      const offset = p.events.offset[i];
      const name = shownThread(eventFieldsInNode(session, whole, offset));
      if (!ours.has(type)) ours.set(type, new Map());
      ours.get(type)!.set(name, (ours.get(type)!.get(name) ?? 0) + 1);
      // The row names the same thread.
      expect(p.strings[p.threads.name[p.events.thread[i]]] ?? '(none)').toBe(name);
      const span = spans.find((s) => offset >= s.offset && offset < s.offset + s.size)!;
      const alone = shownThread(parseEventFields(eventJson(decodeEvent, new Uint8Array(buf, span.offset, span.size), span, offset, session.originMs)));
      if (alone !== name) {
        expect(span.index).toBeGreaterThan(0);
        renamedInChunk++;
      }
    }
    // The fixture has such events (`cruncher` sampled after it renamed itself): read by its
    // chunk's pool alone, the panel would name them otherwise than the JDK.
    expect(renamedInChunk).toBeGreaterThan(0);
    for (const type of TYPES) {
      const sorted = (m: Map<string, number> | undefined) => [...(m ?? new Map<string, number>()).entries()].sort();
      expect([type, sorted(ours.get(type))]).toEqual([type, sorted(jdk.get(type))]);
    }
  });
});
