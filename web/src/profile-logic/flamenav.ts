/**
 * Walking a drawn flame graph with the arrow keys. The graph is a partition: each frame spans
 * [x0, x1) of its root's width at its depth; a frame narrower than the graph draws (zoomed away,
 * or under the minimum size) cannot take the focus.
 *
 *   normal (root at the bottom):  ↑ a callee (a child)   ↓ the caller (the parent)
 *   inverted (root at the top):   ↓ a callee              ↑ the caller
 *   ← →  the frame drawn just left or right at the same depth (siblings first, then cousins)
 *
 * Going to a callee goes back to the one the focus last came up from, else the widest.
 */
export interface NavNode {
  x0: number;
  x1: number;
  depth: number;
  parent: NavNode | null;
  children?: NavNode[];
}

export type NavKey = 'ArrowUp' | 'ArrowDown' | 'ArrowLeft' | 'ArrowRight';

export interface NavView {
  /** The root of the whole graph (its x0..x1 is the full width). */
  root: NavNode;
  /** Drawn width in px, and the smallest frame drawn (px): as the chart filters frames. */
  width: number;
  minPx: number;
  /** Root at the top (callees grow downward). */
  inverted: boolean;
}

/** Whether a frame is drawn: wider than the minimum at the current zoom. */
export function drawn(v: NavView, n: NavNode): boolean {
  const kx = v.width / Math.max(v.root.x1 - v.root.x0, 1e-12);
  return (n.x1 - n.x0) * kx > v.minPx;
}

/** The widest drawn child, or null. */
function widestChild(v: NavView, n: NavNode): NavNode | null {
  let best: NavNode | null = null;
  for (const c of n.children ?? []) {
    if (drawn(v, c) && (!best || c.x1 - c.x0 > best.x1 - best.x0)) best = c;
  }
  return best;
}

/** Drawn frames at `depth`, left to right. */
function row(v: NavView, depth: number): NavNode[] {
  const out: NavNode[] = [];
  const walk = (n: NavNode) => {
    if (!drawn(v, n)) return;
    if (n.depth === depth) {
      out.push(n);
      return;
    }
    for (const c of n.children ?? []) walk(c);
  };
  walk(v.root);
  return out.sort((a, b) => a.x0 - b.x0);
}

/**
 * The frame the key moves the focus to from `at` (itself when there is none that way).
 * `cameFrom` remembers, per frame, the child the focus last left it for its caller.
 */
export function step(v: NavView, at: NavNode, key: NavKey, cameFrom: WeakMap<NavNode, NavNode>): NavNode {
  const toCallee = key === (v.inverted ? 'ArrowDown' : 'ArrowUp');
  const toCaller = key === (v.inverted ? 'ArrowUp' : 'ArrowDown');
  if (toCaller) {
    if (!at.parent) return at;
    cameFrom.set(at.parent, at);
    return at.parent;
  }
  if (toCallee) {
    const back = cameFrom.get(at);
    if (back && back.parent === at && drawn(v, back)) return back;
    return widestChild(v, at) ?? at;
  }
  const r = row(v, at.depth);
  const k = r.indexOf(at);
  if (k < 0) return r[0] ?? at;
  return r[key === 'ArrowLeft' ? k - 1 : k + 1] ?? at;
}
