/**
 * d3-flame-graph (5.0) moves frames by transitions even at transitionDuration(0): each update
 * schedules, per frame, a transform, a rect width and a label text that are only written at the
 * next animation frame, after building interpolators for them (an SVG transform is parsed by an
 * element of its own); a frame entering the chart even grows its rect over 250 ms (the chart sets
 * only a delay there), a page redrawn at every animation frame meanwhile. `settle` cancels those transitions right after an update and writes their
 * end values at once, as the chart computes them:
 *
 *   transform  translate(x0 · width, inverted ? depth · cell : height − depth · cell − cell)
 *   rect       width (x1 − x0) · width / (root.x1 − root.x0)
 *   label      the chart's name of the frame
 *
 * Everything else of an update (which frames, classes, fills, label display) the chart writes
 * itself, at once.
 */
import { select } from 'd3';
import type { FlameNode } from 'd3-flame-graph';

interface Laid {
  x0: number;
  x1: number;
  depth: number;
}

export interface SettleView<T> {
  /** The element the chart was called on (its datum is the laid-out root). */
  host: Element;
  width: number;
  /** The svg's height as the chart set it, and the height of a frame. */
  height: number;
  cell: number;
  inverted: boolean;
  name: (d: FlameNode<T>) => string;
}

export function settle<T>(v: SettleView<T>): void {
  const root = select(v.host).datum() as Laid | undefined;
  if (!root) return;
  const kx = v.width / (root.x1 - root.x0);
  const g = select(v.host).select('svg').selectAll<SVGGElement, FlameNode<T> & Laid>('g');
  g.interrupt().attr('transform', (d) => `translate(${d.x0 * v.width},${v.inverted ? d.depth * v.cell : v.height - d.depth * v.cell - v.cell})`);
  g.select('rect').interrupt().attr('width', (d) => (d.x1 - d.x0) * kx);
  g.select('foreignObject')
    .select('div')
    .interrupt()
    .text((d) => v.name(d as FlameNode<T>));
}
