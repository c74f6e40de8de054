/**
 * Arrow keys over a flame graph laid out as d3-flame-graph lays it out (d3.partition of a
 * hierarchy): up and down follow the drawing, left and right the row, zoomed-away frames skipped.
 */
import { hierarchy, partition, type HierarchyRectangularNode } from 'd3';
import { describe, expect, it } from 'vitest';
import { step, type NavKey, type NavNode, type NavView } from '../flamenav';

interface T {
  name: string;
  value?: number;
  children?: T[];
}

const tree: T = {
  name: 'all',
  children: [
    { name: 'main', children: [{ name: 'a', value: 6 }, { name: 'b', children: [{ name: 'c', value: 3 }] }] },
    { name: 'other', children: [{ name: 'd', value: 1 }] },
  ],
};

function layout(): HierarchyRectangularNode<T> {
  const h = hierarchy(tree).sum((d) => d.value ?? 0);
  return partition<T>()(h);
}

const nameOf = (n: NavNode) => (n as unknown as HierarchyRectangularNode<T>).data.name;

function walk(view: NavView, from: NavNode, keys: NavKey[]): string[] {
  const came = new WeakMap<NavNode, NavNode>();
  const out: string[] = [];
  let at = from;
  for (const k of keys) {
    at = step(view, at, k, came);
    out.push(nameOf(at));
  }
  return out;
}

describe('flame graph keys', () => {
  it('walks a normal graph: up to the widest callee, down to the caller, back up where it came from', () => {
    const root = layout();
    const view: NavView = { root, width: 1000, minPx: 1, inverted: false };
    expect(walk(view, root, ['ArrowUp', 'ArrowUp', 'ArrowDown', 'ArrowRight', 'ArrowUp', 'ArrowDown', 'ArrowDown', 'ArrowUp', 'ArrowUp'])).toEqual([
      'main', // the widest child of the root (9 of 10)
      'a', // the widest callee of main (6 of 9)
      'main',
      'other', // the next frame along the row
      'd',
      'other',
      'all',
      'other', // back up where the focus came from, not the widest
      'd',
    ]);
  });

  it('moves along a row across parents and stops at its ends', () => {
    const root = layout();
    const view: NavView = { root, width: 1000, minPx: 1, inverted: false };
    const a = root.descendants().find((n) => n.data.name === 'a')!;
    expect(walk(view, a, ['ArrowRight', 'ArrowRight', 'ArrowRight', 'ArrowLeft', 'ArrowLeft', 'ArrowLeft'])).toEqual(['b', 'd', 'd', 'b', 'a', 'a']);
  });

  it('reads up and down the other way round when inverted (root at the top)', () => {
    const root = layout();
    const view: NavView = { root, width: 1000, minPx: 1, inverted: true };
    expect(walk(view, root, ['ArrowDown', 'ArrowDown', 'ArrowUp', 'ArrowUp', 'ArrowUp'])).toEqual(['main', 'a', 'main', 'all', 'all']);
  });

  it('skips frames too narrow to draw', () => {
    const root = layout();
    // 10 px wide: `d` (1 of 10) is 1 px, not over the 1 px minimum; `other` likewise.
    const view: NavView = { root, width: 10, minPx: 1, inverted: false };
    const a = root.descendants().find((n) => n.data.name === 'a')!;
    expect(walk(view, a, ['ArrowRight', 'ArrowRight'])).toEqual(['b', 'b']);
    expect(walk(view, root, ['ArrowUp', 'ArrowRight'])).toEqual(['main', 'main']);
  });
});
