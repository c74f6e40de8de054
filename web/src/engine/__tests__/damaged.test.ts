/**
 * A recording cut before its chunk's constant pools (fixtures/damaged/truncated.jfr, the first
 * two thirds of example.jfr): the samples keep their rows, their stacks are lost (-2), and the
 * page says so apart from events without a stack, with the CLI's count; the recording lasts as
 * long as its data, not as long as its chunk header claims.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { STACK_LOST } from '../../columns/profile';
import { callTree, invertedTree, stackSlot, weightSlots } from '../../profile-logic/calltree';
import { decodeInNode } from '../node';

const root = resolve(__dirname, '../../../..');
const file = join(root, 'fixtures/damaged/truncated.jfr');
const bytes = new Uint8Array(readFileSync(file));
const profile = decodeInNode(bytes);

/** What `jfrscope collapse FILE --event TYPE --partial` counts under the lost-stack frame. */
function cliLost(type: string): number {
  let out: string;
  try {
    out = execFileSync(join(root, 'target/release/jfrscope'), ['collapse', file, '--event', type, '--partial'], {
      encoding: 'utf8',
      maxBuffer: 1 << 28,
      stdio: ['ignore', 'pipe', 'ignore'],
    });
  } catch (e) {
    // A damaged file ends with status 1 (its errors on stderr), the stacks on stdout all the same.
    const r = e as { status?: number; stdout?: string };
    if (r.status !== 1 || typeof r.stdout !== 'string') throw e;
    out = r.stdout;
  }
  const line = out.split('\n').find((l) => l.startsWith('(stack lost: chunk cut) '));
  return line ? Number(line.slice(line.lastIndexOf(' ') + 1)) : 0;
}

describe('a recording cut before its constant pools', () => {
  const ty = profile.eventTypes.findIndex((t) => t.name === 'jdk.ExecutionSample');
  const weights = weightSlots(profile);
  for (let i = 0; i < profile.events.length; i++) {
    if (profile.events.type[i] === ty) weights[stackSlot(profile.events.stack[i], profile.stacks.length)] += 1;
  }

  it('counts the lost stacks apart, as many as the CLI does', () => {
    const lost = cliLost('jdk.ExecutionSample');
    expect(lost).toBeGreaterThan(0);
    expect(weights[profile.stacks.length + 1]).toBe(lost);
    let all = 0;
    for (let i = 0; i < profile.events.length; i++) all += profile.events.stack[i] === STACK_LOST ? 1 : 0;
    expect(profile.info.stacksLost).toBe(all);
    for (const tree of [callTree(profile, weights), invertedTree(profile, weights)]) {
      const node = tree.children.find((c) => c.name === '(stack lost: chunk cut)');
      expect(node?.value).toBe(lost);
      expect(node?.self).toBe(lost);
      expect(node?.children).toEqual([]);
      // Kept apart from events without a stack (samples always have one).
      expect(tree.children.find((c) => c.name === '(no stack)')).toBeUndefined();
    }
  });

  it("lasts as long as its data, not as long as its chunk header says", () => {
    // The chunk header's duration: nanoseconds at bytes 40..47.
    const headerMs = Number(new DataView(bytes.buffer, bytes.byteOffset).getBigInt64(40)) / 1e6;
    let end = -Infinity;
    for (let i = 0; i < profile.events.length; i++) end = Math.max(end, profile.events.start[i] + profile.events.duration[i]);
    expect(profile.info.errors.length).toBeGreaterThan(0);
    expect(profile.info.dataEndMs).not.toBeNull();
    expect(profile.info.durationMs).toBeCloseTo(profile.info.dataEndMs! - profile.info.startMs, 6);
    expect(profile.info.durationMs).toBeCloseTo(end, 3);
    expect(profile.info.durationMs).toBeLessThan(headerMs);
  });
});
