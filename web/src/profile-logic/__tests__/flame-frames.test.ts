// @vitest-environment jsdom
/**
 * The frames handed to the chart at a width draw exactly what d3-flame-graph draws of the whole
 * tree: the chart itself (in jsdom) draws random deep trees whole (sorted by the chart) and
 * pruned (pre-sorted, gaps in place of dropped siblings); every drawn frame's name, place,
 * width, value and self must match, and the pruned tree must be smaller.
 */
import flamegraph from 'd3-flame-graph';
import { select } from 'd3';
import { describe, expect, it } from 'vitest';
import type { CallNode } from '../calltree';
import { drawableFrames, type FrameNode } from '../flame-frames';
import { rng } from './rng';

const NAMES = ['a.A.run', 'b.B.call', 'a.A.apply', 'c.C.get', 'z.Z.x', 'b.B.call', 'Ä.ü', 'a.A.run2', 'x', 'y.Y.y'];

/** A random call tree: wide near the root, deep, many narrow branches, some equal names. */
function randomTree(seed: number, depth: number): CallNode {
  const r = rng(seed);
  // `budget` samples under the node: split among a few children (some a single sample), the
  // rest its own.
  const grow = (name: string, d: number, budget: number): CallNode => {
    const n: CallNode = { name, value: 0, self: 0, kind: 0 as CallNode['kind'], children: [] };
    let left = budget;
    const k = d >= depth || budget < 2 ? 0 : 1 + Math.floor(r() * (d < 4 ? 12 : 4));
    const used = new Set<string>();
    for (let i = 0; i < k && left > 0; i++) {
      const nm = NAMES[Math.floor(r() * NAMES.length)] + (r() < 0.5 ? '' : String(Math.floor(r() * 5)));
      if (used.has(nm)) continue;
      used.add(nm);
      const share = r() < 0.4 ? 1 + Math.floor(r() * 3) : Math.max(1, Math.floor(left * r() * 0.7));
      left -= share;
      n.children.push(grow(nm, d + 1, share));
    }
    n.self = Math.max(0, left);
    n.value = n.self + n.children.reduce((s, c) => s + c.value, 0);
    return n;
  };
  return grow('all', 0, 200_000);
}

function count(n: CallNode): number {
  return 1 + n.children.reduce((s, c) => s + count(c), 0);
}

interface Drawn {
  name: string;
  transform: string;
  width: number;
  value: number;
  self: number;
}

/** What the chart draws of `data` `width` px wide (frames over 1 px), in drawing order. */
function draw(data: CallNode, width: number, sort: boolean): Drawn[] {
  const div = document.createElement('div');
  document.body.append(div);
  const chart = flamegraph<CallNode>()
    .width(width)
    .cellHeight(18)
    .minFrameSize(1)
    .transitionDuration(0)
    .sort(sort)
    .getName((d) => d.data.name);
  select(div).datum(data).call(chart);
  const out = [...div.querySelectorAll('g.frame')].map((g) => {
    const d = (g as unknown as { __data__: { data: CallNode } }).__data__.data;
    return { name: g.getAttribute('name')!, transform: g.getAttribute('transform')!, width: Number(g.getAttribute('width')), value: d.value, self: d.self };
  });
  div.remove();
  return out.sort((a, b) => (a.transform < b.transform ? -1 : a.transform > b.transform ? 1 : 0));
}

const place = (t: string) => /translate\(([^,]+),([^)]+)\)/.exec(t)!.slice(1).map(Number);

describe('drawableFrames', () => {
  const byName = (n: CallNode) => n.name;
  for (const [seed, depth, width] of [
    [1, 12, 1200],
    [2, 30, 800],
    [3, 60, 1500],
    [4, 8, 300],
  ] as const) {
    it(`draws what the whole tree draws (seed ${seed}, depth ${depth}, ${width} px)`, () => {
      const tree = randomTree(seed, depth);
      const whole = draw(tree, width, true);
      const pruned = drawableFrames(tree, width, 1, byName);
      const part = draw(pruned, width, false);
      expect(part.length).toBe(whole.length);
      expect(whole.length).toBeGreaterThan(20);
      for (let i = 0; i < whole.length; i++) {
        const [a, b] = [whole[i], part[i]];
        expect(b.name).toBe(a.name);
        expect(b.value).toBe(a.value);
        expect(b.self).toBe(a.self);
        expect(b.width).toBeCloseTo(a.width, 6);
        const [ax, ay] = place(a.transform);
        const [bx, by] = place(b.transform);
        expect(bx).toBeCloseTo(ax, 6);
        expect(by).toBe(ay);
      }
      // The point: far fewer nodes to lay out.
      expect(count(pruned)).toBeLessThan(count(tree) / 2);
    });
  }

  it('keeps every node at minPx 0 (the tree for zooming), sorted, none a gap', () => {
    const tree = randomTree(5, 10);
    const all = drawableFrames(tree, 1000, 0, byName);
    expect(count(all)).toBe(count(tree));
    const check = (n: FrameNode) => {
      expect(n.source).not.toBeNull();
      expect(n.source!.name).toBe(n.name);
      const names = n.children.map((c) => c.name);
      expect(names).toEqual([...names].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)));
      n.children.forEach(check);
    };
    check(all);
  });

  it('gaps are never wider than minPx and keep the room of what they replace', () => {
    const tree = randomTree(6, 20);
    const width = 900;
    const pruned = drawableFrames(tree, width, 1, byName);
    const check = (n: FrameNode) => {
      let sum = 0;
      for (const c of n.children) {
        if (!c.source) expect((c.value / tree.value) * width).toBeLessThanOrEqual(1);
        sum += c.value;
        check(c);
      }
      // Children (with gaps) never exceed the frame, and only trailing dropped room is missing.
      expect(sum).toBeLessThanOrEqual(n.value);
    };
    check(pruned);
  });
});
