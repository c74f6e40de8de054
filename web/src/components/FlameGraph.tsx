/**
 * d3-flame-graph of a call tree. d3-flame-graph sets labels and <title>s with `.text()`, and the
 * tooltip below is given `.text()` too, so names from the file are never parsed as HTML; both
 * show names through visibleName (controls and bidi overrides as escapes).
 *
 *   tree (memoised selector) ─ chart built once per tree/inverted ─ search and width applied
 *   to the live chart (no rebuild per keystroke or resize)
 *
 * Click a frame to zoom into it (and choose its method); the root resets the zoom. A comparison's
 * tree (diffTree) is drawn with `diff`: each frame coloured by its method's row of the table
 * (compare.ts direction at `level`): red where it rose, blue where it fell, the deeper the colour
 * the larger the change; grey where the change is not significant.
 */
import flamegraph, { tooltip, type FlameGraph as Chart, type FlameNode } from 'd3-flame-graph';
import { select } from 'd3';
import { useEffect, useRef } from 'react';
import type { CallNode } from '../profile-logic/calltree';
import { direction, formatP, type DiffNode } from '../profile-logic/compare';
import { formatPercent, formatWeight } from '../profile-logic/format';
import { visibleName } from '../profile-logic/names';
import type { WeightMode } from '../profile-logic/kinds';
import { FRAME_COLOR, FRAME_KIND_NAME } from './colors';

interface Props {
  tree: CallNode;
  mode: WeightMode;
  inverted: boolean;
  search: string;
  onSelect?: (name: string) => void;
  /** Colour by the method's change (DiffNode.change) instead of frame kind. */
  diff?: boolean;
  /** In a diff: the significance level under which a change is coloured. */
  level?: number;
}

/** The largest significant change below the root, so the strongest colour marks it. */
function maxDelta(n: DiffNode, level: number): number {
  let m = n.change && direction(n.change, level) !== 0 ? Math.abs(n.change.delta) : 0;
  for (const c of n.children) m = Math.max(m, maxDelta(c, level));
  return m;
}

/** White to red for a rise, white to blue for a fall; `v` in -1..1. */
function diffColor(v: number): string {
  const a = Math.min(1, Math.abs(v));
  if (a < 0.02) return '#e9ecef';
  const [r, g, b] = v > 0 ? [201, 42, 42] : [24, 100, 171];
  const mix = (c: number) => Math.round(255 + (c - 255) * (0.15 + 0.85 * a));
  return `rgb(${mix(r)},${mix(g)},${mix(b)})`;
}

const pt = (x: number) => `${x > 0 ? '+' : ''}${(x * 100).toFixed(1)} pt`;

const ROOT_COLOR = '#dee2e6';

export function FlameGraph({ tree, mode, inverted, search, onSelect, diff = false, level = 0.01 }: Props) {
  const el = useRef<HTMLDivElement>(null);
  const chart = useRef<Chart<CallNode> | null>(null);
  const onSelectRef = useRef(onSelect);
  const searchRef = useRef(search);
  useEffect(() => {
    onSelectRef.current = onSelect;
    searchRef.current = search;
  }, [onSelect, search]);

  useEffect(() => {
    const div = el.current;
    if (!div) return;
    div.replaceChildren();
    if (tree.value <= 0) return;
    const total = tree.value;
    const scale = diff ? maxDelta(tree as DiffNode, level) || 1 : 1;
    const tip = tooltip.defaultFlamegraphTooltip().text((d) => {
      const n = d.data as DiffNode;
      const c = n.change;
      if (d.depth === 0) return `${formatWeight(n.value, mode)} in the selection`;
      return [
        visibleName(n.name),
        `total ${formatWeight(n.value, mode)}  (${formatPercent(n.value, total)} of selection)`,
        `self  ${formatWeight(n.self, mode)}  (${formatPercent(n.self, total)})`,
        diff && c
          ? `the method in all: ${formatWeight(c.a, mode)} of the selection (${formatPercent(c.share, 1)}), ${formatWeight(c.b, mode)} of the baseline (${formatPercent(c.baseShare, 1)}): ${pt(c.delta)}, p = ${formatP(c.p)}${direction(c, level) === 0 ? ' (not significant)' : ''}`
          : '',
        FRAME_KIND_NAME[n.kind] ?? '',
      ]
        .filter((l) => l !== '')
        .join('\n');
    });
    const c = flamegraph<CallNode>()
      .width(Math.max(300, div.clientWidth))
      .cellHeight(18)
      .minFrameSize(1)
      .transitionDuration(0)
      .inverted(inverted)
      .sort(true)
      .getName((d) => visibleName(d.data.name))
      .tooltip(tip)
      .setColorMapper((d: FlameNode<CallNode>, original: string) => {
        if ((d as unknown as { highlight?: boolean }).highlight) return '#e64980';
        if (d.depth === 0) return ROOT_COLOR;
        if (diff) {
          const c = (d.data as DiffNode).change;
          const dir = c ? direction(c, level) : 0;
          return dir === 0 ? diffColor(0) : diffColor((dir * Math.max(0.02, Math.abs(c!.delta))) / scale);
        }
        return FRAME_COLOR[d.data.kind] ?? original;
      })
      .setSearchMatch((d, term) => term !== '' && d.data.name.toLowerCase().includes(term.toLowerCase()))
      .onClick((d) => {
        if (d.depth > 0) onSelectRef.current?.(d.data.name);
      });
    select(div).datum(tree).call(c);
    chart.current = c;
    if (searchRef.current) c.search(searchRef.current);
    // The root sits at the bottom of a normal flame graph: start there.
    const pane = div.closest('.flame-pane, .view-body');
    if (pane) pane.scrollTop = inverted ? 0 : pane.scrollHeight;
    return () => {
      chart.current = null;
      c.destroy();
      document.querySelectorAll('.d3-flame-graph-tip').forEach((t) => t.remove());
    };
  }, [tree, mode, inverted, diff, level]);

  useEffect(() => {
    const c = chart.current;
    if (!c) return;
    if (search) c.search(search);
    else c.clear();
  }, [search, tree, inverted]);

  useEffect(() => {
    const div = el.current;
    if (!div) return;
    let last = div.clientWidth;
    const ro = new ResizeObserver(() => {
      const w = div.clientWidth;
      if (Math.abs(w - last) < 4 || !chart.current) return;
      last = w;
      chart.current.width(Math.max(300, w));
      chart.current.update();
    });
    ro.observe(div);
    return () => ro.disconnect();
  }, []);

  return (
    <div className="flame" data-testid="flamegraph" aria-label="Flame graph" role="group">
      <div ref={el} />
      {tree.value <= 0 && <p className="empty">Nothing selected: no event of this type passes the filters in this range.</p>}
    </div>
  );
}
