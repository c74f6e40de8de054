/**
 * d3-flame-graph of a call tree. Labels and tooltips are set as text (names come from the file).
 * Click a frame to zoom; the search box highlights matching frames.
 */
import flamegraph, { tooltip, type FlameGraph as Chart, type FlameNode } from 'd3-flame-graph';
import { select } from 'd3';
import { useEffect, useRef } from 'react';
import type { CallNode } from '../profile-logic/calltree';
import { formatPercent, formatWeight } from '../profile-logic/format';
import type { WeightMode } from '../profile-logic/filters';
import { FRAME_COLOR, FRAME_KIND_NAME } from './colors';

interface Props {
  tree: CallNode;
  mode: WeightMode;
  inverted: boolean;
  search: string;
  onSelect?: (name: string) => void;
}

export function FlameGraph({ tree, mode, inverted, search, onSelect }: Props) {
  const el = useRef<HTMLDivElement>(null);
  const chart = useRef<Chart<CallNode> | null>(null);
  const total = tree.value;
  const onSelectRef = useRef(onSelect);
  useEffect(() => {
    onSelectRef.current = onSelect;
  }, [onSelect]);

  useEffect(() => {
    const div = el.current;
    if (!div) return;
    div.replaceChildren();
    const width = Math.max(300, div.clientWidth);
    const tip = tooltip.defaultFlamegraphTooltip().text((d) => {
      const n = d.data as CallNode;
      return `${n.name}\n${formatWeight(n.value, mode)} (${formatPercent(n.value, total)} of selection), self ${formatWeight(n.self, mode)}\n${FRAME_KIND_NAME[n.kind] ?? ''}`;
    });
    const c = flamegraph<CallNode>()
      .width(width)
      .cellHeight(18)
      .minFrameSize(1)
      .transitionDuration(0)
      .inverted(inverted)
      .sort(true)
      .tooltip(tip)
      .setColorMapper((d: FlameNode<CallNode>, original: string) => {
        if ((d.data as CallNode & { highlight?: boolean }).highlight) return original;
        return d.depth === 0 ? '#dee2e6' : (FRAME_COLOR[d.data.kind] ?? '#c0c0c0');
      })
      .setSearchMatch((d, term) => term !== '' && d.data.name.includes(term))
      .onClick((d) => onSelectRef.current?.(d.data.name));
    select(div).datum(tree).call(c);
    chart.current = c;
    if (search) c.search(search);
    return () => {
      c.destroy();
      document.querySelectorAll('.d3-flame-graph-tip').forEach((t) => t.remove());
    };
  }, [tree, mode, inverted, total, search]);

  return <div ref={el} className="flame" data-testid="flamegraph" aria-label="Flame graph" />;
}
