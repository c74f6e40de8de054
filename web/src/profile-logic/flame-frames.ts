/**
 * The part of a call tree a flame graph can draw at a width, handed to the chart instead of the
 * whole tree: the chart lays out (hierarchy, sort, partition) every node it is given, and a tree
 * of tens of thousands of nodes draws a few hundred frames at 1 px or more.
 *
 *   tree ─ children sorted by name (as the chart sorts them) ─ a child at most `minPx` wide
 *   dropped with everything above it ─ the room dropped siblings took between kept ones kept as
 *   gaps (nameless nodes, each at most `minPx` wide: the chart never draws them), so every kept
 *   frame keeps its place and width
 *
 * A frame the chart might draw (wider than `minPx`, less a hair for rounding) is always kept, so
 * the chart's own filter decides exactly as it did on the whole tree. Zooming into a frame needs
 * what lies under it at the new scale: the chart is then given the whole tree (minPx 0).
 */
import type { CallNode } from './calltree';

/** A node handed to the chart: a copy of a tree node (`source`), or a gap (`source` null). */
export interface FrameNode extends CallNode {
  children: FrameNode[];
  source: CallNode | null;
}

/** How much narrower than `minPx` a dropped frame or a gap is: the chart's sums round. */
const SLACK = 1e-9;

/** The order of d3's `ascending` on names, stable as Array.prototype.sort is. */
function sortedByName(nodes: readonly CallNode[], nameOf: (n: CallNode) => string): CallNode[] {
  const keys = nodes.map(nameOf);
  const order = nodes.map((_, i) => i);
  order.sort((a, b) => (keys[a] < keys[b] ? -1 : keys[a] > keys[b] ? 1 : a - b));
  return order.map((i) => nodes[i]);
}

function gap(value: number): FrameNode {
  return { name: '', value, self: value, kind: 0 as CallNode['kind'], children: [], source: null };
}

/**
 * The frames of `root` that can be drawn `width` px wide (frames over `minPx` px), children in
 * name order (`nameOf`, the name the chart sorts by), dropped siblings' room kept as gaps.
 */
export function drawableFrames(root: CallNode, width: number, minPx: number, nameOf: (n: CallNode) => string): FrameNode {
  const total = root.value;
  // A frame of this value or less is surely at most minPx wide.
  const limit = total > 0 && width > 0 && minPx > 0 ? (minPx * (1 - SLACK) * total) / width : 0;
  const copy = (n: CallNode): FrameNode => {
    const out: FrameNode[] = [];
    let room = 0;
    for (const c of n.children.length > 1 ? sortedByName(n.children, nameOf) : n.children) {
      if (c.value > limit || c.value < 0) {
        if (room > 0) out.push(gap(room));
        room = 0;
        out.push(copy(c));
      } else {
        if (room > 0 && room + c.value > limit) {
          out.push(gap(room));
          room = 0;
        }
        room += c.value;
      }
    }
    // Room after the last kept child is the frame's own (self) room: nothing follows it.
    return { ...n, children: out, source: n };
  };
  return copy(root);
}
