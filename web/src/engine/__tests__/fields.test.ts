/**
 * An event's fields as the side panel shows them, decoded by the wasm from a fixture the way a
 * worker does: pool references read as their values (as `jfr print` shows them), times in ms.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { decodeEvent } from '../pkg/jfrscope_wasm.js';
import { decodeInNode, initWasm } from '../node';
import { chunkLayout, originOf } from '../layout';
import { parseEventFields } from '../fields';
import { eventJson } from '../parts';

const file = resolve(__dirname, '../../../../fixtures/jdk17-profile.jfr');

/** Every integer anywhere in `v`. */
function integers(v: unknown, out: number[] = []): number[] {
  if (typeof v === 'number' && Number.isInteger(v)) out.push(v);
  else if (Array.isArray(v)) v.forEach((x) => integers(x, out));
  else if (v && typeof v === 'object') Object.values(v).forEach((x) => integers(x, out));
  return out;
}

describe('event fields', () => {
  it('a jdk.JavaMonitorEnter reads as jfr print shows it', () => {
    initWasm();
    const input = new Uint8Array(readFileSync(file));
    const profile = decodeInNode(input);
    const ty = profile.eventTypes.findIndex((t) => t.name === 'jdk.JavaMonitorEnter');
    expect(ty).toBeGreaterThanOrEqual(0);
    const event = profile.events.type.indexOf(ty);
    expect(event).toBeGreaterThanOrEqual(0);
    const offset = profile.events.offset[event];
    const buf = input.buffer.slice(input.byteOffset, input.byteOffset + input.byteLength) as ArrayBuffer;
    const spans = chunkLayout(buf);
    const span = spans.find((s) => offset >= s.offset && offset < s.offset + s.size)!;
    const originMs = originOf(spans);
    const f = parseEventFields(eventJson(decodeEvent, new Uint8Array(buf, span.offset, span.size), span, offset, originMs));

    expect(f.eventType).toBe('jdk.JavaMonitorEnter');
    expect(f.monitorClass).toBe('SearchService$Index');
    expect(f.eventThread).toMatch(/^search-worker-\d+ \(javaThreadId = \d+\)$/);
    expect(f.previousOwner).toMatch(/\(javaThreadId = \d+\)$/);
    expect(f.address).toMatch(/^0x[0-9A-F]+$/);
    // startTime in ms since the recording's start, matching the event's row.
    expect(f.startTime).toMatch(/^\+\d+\.\d{3} ms$/);
    expect(parseFloat((f.startTime as string).slice(1))).toBeCloseTo(profile.events.start[event], 2);
    expect(f.duration).toMatch(/^\d+\.\d{3} ms$/);
    expect(parseFloat(f.duration as string)).toBeCloseTo(profile.events.duration[event], 1);
    const frames = (f.stackTrace as { frames: string[] }).frames;
    expect(frames[0]).toMatch(/^SearchService\.serve line: \d+$/);
    // No pool id or tick count is left where the JDK shows a name or a time.
    expect(integers(f).filter((n) => Math.abs(n) >= 1 << 16)).toEqual([]);
  });
});
