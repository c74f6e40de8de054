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
 *
 * The keyboard walks the frames once the graph has the focus (profile-logic/flamenav.ts): arrows
 * move (up and down as drawn), Enter zooms, Escape zooms out, S opens the focused method's
 * sandwich; the focused frame is outlined and described in a line under the graph. Right-click
 * on a frame offers the same actions.
 */
import flamegraph, { tooltip, type FlameGraph as Chart, type FlameNode } from 'd3-flame-graph';
import { select } from 'd3';
import { useCallback, useEffect, useRef, useState } from 'react';
import type { CallNode } from '../profile-logic/calltree';
import { direction, formatP, type DiffNode } from '../profile-logic/compare';
import { drawableFrames, type FrameNode } from '../profile-logic/flame-frames';
import { formatPercent, formatWeight } from '../profile-logic/format';
import { step, type NavKey, type NavNode } from '../profile-logic/flamenav';
import { visibleName } from '../profile-logic/names';
import type { WeightMode } from '../profile-logic/kinds';
import { FRAME_COLOR, FRAME_KIND_NAME } from './colors';
import { settle } from './flame-settle';

interface Props {
  tree: CallNode;
  mode: WeightMode;
  inverted: boolean;
  search: string;
  onSelect?: (name: string) => void;
  /** Open the sandwich (callers and callees) of a method: S on the focused frame, or its menu. */
  onSandwich?: (name: string) => void;
  /** The graph's accessible name ("Flame graph", "Callers of …"). */
  label?: string;
  /** What the root's weight is, as the tooltips name it ("the selection", "the method"). */
  whole?: string;
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

type Node = FlameNode<CallNode> & NavNode & { id?: number };

const MIN_FRAME_PX = 1;
const CELL_PX = 18;

/** The name the chart shows and sorts frames by. */
const shownName = (n: CallNode) => visibleName(n.name);

/** A frame in words: name, total and self with their shares of the graph's root. */
function describeFrame(d: Node, mode: WeightMode, total: number): string {
  const n = d.data;
  return `${visibleName(n.name)} · total ${formatWeight(n.value, mode)} (${formatPercent(n.value, total)}) · self ${formatWeight(n.self, mode)} (${formatPercent(n.self, total)})`;
}

export function FlameGraph({ tree, mode, inverted, search, onSelect, onSandwich, label = 'Flame graph', whole = 'the selection', diff = false, level = 0.01 }: Props) {
  const el = useRef<HTMLDivElement>(null);
  const chart = useRef<Chart<CallNode> | null>(null);
  const onSelectRef = useRef(onSelect);
  const searchRef = useRef(search);
  // The search the live chart has applied ('' for none).
  const applied = useRef('');
  useEffect(() => {
    onSelectRef.current = onSelect;
    searchRef.current = search;
  }, [onSelect, search]);
  // The keyboard's frame (a node of the live chart), and the callee each caller was left from.
  const focused = useRef<Node | null>(null);
  const cameFrom = useRef(new WeakMap<NavNode, NavNode>());
  const [focusText, setFocusText] = useState('');
  const [menu, setMenu] = useState<{ x: number; y: number; node: Node } | null>(null);
  const wrap = useRef<HTMLDivElement>(null);
  const menuEl = useRef<HTMLDivElement>(null);
  // The menu takes the focus when it opens, gives it back to the graph when it closes, and
  // closes on a press anywhere else.
  useEffect(() => {
    if (!menu) return;
    menuEl.current?.querySelector('button')?.focus();
    const away = (ev: MouseEvent) => {
      if (!menuEl.current?.contains(ev.target as Element | null)) setMenu(null);
    };
    document.addEventListener('mousedown', away);
    return () => document.removeEventListener('mousedown', away);
  }, [menu]);
  const closeMenu = () => {
    setMenu(null);
    wrap.current?.focus();
  };

  /** Outline the focused frame, bring it into view and say what it is. */
  const showFocus = useCallback(
    (scroll: boolean) => {
      const div = el.current;
      const n = focused.current;
      if (!div) return;
      const frames = select(div).selectAll<SVGGElement, Node>('g.frame');
      frames.classed('kbd-focus', (d) => d === n);
      if (!n) return setFocusText('');
      setFocusText(describeFrame(n, mode, Math.max(tree.value, 1e-12)));
      const g = frames.filter((d) => d === n).node();
      if (scroll && g) g.scrollIntoView({ block: 'nearest', inline: 'nearest' });
    },
    [mode, tree],
  );

  // The tree the live chart shows (its tooltips and colours read it here, so a new tree of the
  // same kind updates the chart in place: no new chart, no new SVG elements).
  const treeRef = useRef(tree);
  // Whether the chart holds only the frames drawable unzoomed (drawableFrames), not the whole tree.
  const partial = useRef(false);
  // Writes the end of the chart's transitions at once (flame-settle.ts): after every update.
  const settled = useRef(() => {});
  const scaleRef = useRef(1);
  const shown = tree.value > 0;
  useEffect(() => {
    const div = el.current;
    if (!div) return;
    div.replaceChildren();
    if (!shown) return;
    const tip = tooltip.defaultFlamegraphTooltip().text((d) => {
      const n = d.data as DiffNode;
      const c = n.change;
      const total = treeRef.current.value;
      if (d.depth === 0) return `${formatWeight(n.value, mode)} in ${whole}`;
      return [
        visibleName(n.name),
        `total ${formatWeight(n.value, mode)}  (${formatPercent(n.value, total)} of ${whole})`,
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
      .cellHeight(CELL_PX)
      .minFrameSize(MIN_FRAME_PX)
      .transitionDuration(0)
      .inverted(inverted)
      // The trees handed over are sorted already (drawableFrames), the drawable frames only.
      .sort(false)
      .getName((d) => visibleName(d.data.name))
      .tooltip(tip)
      .setColorMapper((d: FlameNode<CallNode>, original: string) => {
        if ((d as unknown as { highlight?: boolean }).highlight) return '#e64980';
        if (d.depth === 0) return ROOT_COLOR;
        if (diff) {
          const c = (d.data as DiffNode).change;
          const dir = c ? direction(c, level) : 0;
          return dir === 0 ? diffColor(0) : diffColor((dir * Math.max(0.02, Math.abs(c!.delta))) / scaleRef.current);
        }
        return FRAME_COLOR[d.data.kind] ?? original;
      })
      .setSearchMatch((d, term) => term !== '' && d.data.name.toLowerCase().includes(term.toLowerCase()))
      .onClick((d) => {
        // Zooming into a frame of the drawable frames: the chart takes the whole tree, so what
        // is under the frame is there at the new scale, and zooms to the same frame in it.
        if (partial.current && d.depth > 0) {
          partial.current = false;
          const path: (CallNode | null)[] = [];
          for (let a = d as Node | null; a; a = a.parent as Node | null) path.push((a.data as FrameNode).source);
          c.update(drawableFrames(treeRef.current, c.width(), 0, shownName));
          if (applied.current) c.search(applied.current);
          let at = select(div).datum() as Node;
          for (let i = path.length - 2; i >= 0 && at; i--) at = (at.children as Node[] | undefined)?.find((k) => (k.data as FrameNode).source === path[i]) as Node;
          if (at) return c.zoomTo(at);
        }
        settled.current();
        // A click (or Enter) zooms: the keyboard's focus follows it.
        focused.current = d as Node;
        if (d.depth > 0) onSelectRef.current?.(d.data.name);
      });
    chart.current = c;
    settled.current = () => settle<CallNode>({ host: div, width: c.width(), height: c.height(), cell: CELL_PX, inverted, name: (d) => visibleName(d.data.name) });
    return () => {
      settled.current = () => {};
      chart.current = null;
      c.destroy();
      document.querySelectorAll('.d3-flame-graph-tip').forEach((t) => t.remove());
    };
  }, [shown, mode, inverted, diff, level, whole]);

  // Each tree: drawn by the live chart (the first time, or in place of the last one, its frames'
  // elements reused), unzoomed, with the search applied.
  useEffect(() => {
    const div = el.current;
    const c = chart.current;
    focused.current = null;
    cameFrom.current = new WeakMap();
    setFocusText('');
    setMenu(null);
    treeRef.current = tree;
    if (!div || !c || tree.value <= 0) return;
    scaleRef.current = diff ? maxDelta(tree as DiffNode, level) || 1 : 1;
    // The height follows the new tree's depth.
    c.height(0);
    const frames = drawableFrames(tree, c.width(), MIN_FRAME_PX, shownName);
    partial.current = true;
    if (div.querySelector('svg')) c.update(frames);
    else select(div).datum(frames).call(c);
    if (searchRef.current) c.search(searchRef.current);
    applied.current = searchRef.current;
    settled.current();
    // The root sits at the bottom of a normal flame graph: start there, at the next frame (the
    // scroll reads the layout; read now, it would be laid out once more before that frame).
    const pane = div.closest('.flame-pane, .view-body');
    if (!pane) return;
    const frame = requestAnimationFrame(() => {
      pane.scrollTop = inverted ? 0 : pane.scrollHeight;
    });
    return () => cancelAnimationFrame(frame);
  }, [tree, shown, mode, inverted, diff, level, whole]);

  // Each search (or its clearing) lays the chart out again: only when the text differs from
  // what the chart shows, not again after every new tree (a filter keystroke).
  useEffect(() => {
    const c = chart.current;
    if (!c) return;
    if (search !== applied.current) {
      if (search) c.search(search);
      else c.clear();
      applied.current = search;
      settled.current();
    }
    showFocus(false);
  }, [search, tree, inverted, showFocus]);

  // The observer is set up once: set up again with each tree, it read the width from a fresh
  // layout at every keystroke.
  const showFocusRef = useRef(showFocus);
  useEffect(() => {
    showFocusRef.current = showFocus;
  }, [showFocus]);
  useEffect(() => {
    const div = el.current;
    if (!div) return;
    let last = div.clientWidth;
    const ro = new ResizeObserver(() => {
      const w = div.clientWidth;
      if (Math.abs(w - last) < 4) return;
      last = w;
      const c = chart.current;
      if (!c) return;
      c.width(Math.max(300, w));
      // Unzoomed, the frames drawable at the new width; zoomed, the whole tree is there.
      if (partial.current) {
        c.update(drawableFrames(treeRef.current, c.width(), MIN_FRAME_PX, shownName));
        if (applied.current) c.search(applied.current);
        // The frames are new nodes: the keyboard's focus and an open menu held the old ones.
        focused.current = null;
        cameFrom.current = new WeakMap();
        setFocusText('');
        setMenu(null);
      } else c.update();
      settled.current();
      showFocusRef.current(false);
    });
    ro.observe(div);
    return () => ro.disconnect();
  }, []);

  const root = (): Node | null => {
    const div = el.current;
    return div && chart.current ? (select(div).datum() as Node) : null;
  };
  const zoom = (n: Node) => {
    // The chart's click handler takes the focus to the frame zoomed (in the whole tree, when
    // only the drawable frames were there).
    chart.current?.zoomTo(n);
    showFocus(true);
  };
  const zoomOut = () => {
    chart.current?.resetZoom();
    showFocus(true);
  };
  const onKey = (ev: React.KeyboardEvent) => {
    const r = root();
    if (!r || ev.altKey || ev.ctrlKey || ev.metaKey) return;
    if (menu) {
      // The menu's buttons take their own keys; Escape closes it.
      if (ev.key === 'Escape') {
        ev.preventDefault();
        ev.stopPropagation();
        closeMenu();
      }
      return;
    }
    const at = focused.current ?? r;
    let next: Node | null = null;
    if (ev.key === 'ArrowUp' || ev.key === 'ArrowDown' || ev.key === 'ArrowLeft' || ev.key === 'ArrowRight') {
      const width = chart.current?.width() ?? 0;
      next = focused.current ? (step({ root: r, width, minPx: MIN_FRAME_PX, inverted }, at, ev.key as NavKey, cameFrom.current) as Node) : r;
    } else if (ev.key === 'Home') next = r;
    else if (ev.key === 'Enter') {
      zoom(at);
    } else if (ev.key === 'Escape') {
      zoomOut();
    } else if ((ev.key === 's' || ev.key === 'S') && onSandwich && at.depth > 0) {
      onSandwich(at.data.name);
    } else return;
    ev.preventDefault();
    ev.stopPropagation();
    setMenu(null);
    if (next) {
      focused.current = next;
      showFocus(true);
    }
  };
  // Right-click on a frame, or the context-menu key (Shift+F10) on the focused one.
  const onContextMenu = (ev: React.MouseEvent) => {
    const g = (ev.target as Element).closest?.('g.frame') ?? null;
    const d = g ? (select(g).datum() as Node) : focused.current;
    if (!d) return;
    ev.preventDefault();
    focused.current = d;
    showFocus(false);
    const box = (ev.currentTarget as HTMLElement).getBoundingClientRect();
    const at = g ?? select(el.current!).selectAll<SVGGElement, Node>('g.frame').filter((x) => x === d).node();
    const r = g ? null : at?.getBoundingClientRect();
    setMenu(r ? { x: r.left - box.left + 8, y: r.bottom - box.top, node: d } : { x: ev.clientX - box.left, y: ev.clientY - box.top, node: d });
  };

  return (
    <div
      ref={wrap}
      className="flame"
      data-testid="flamegraph"
      aria-label={label}
      role="group"
      tabIndex={tree.value > 0 ? 0 : undefined}
      onKeyDown={onKey}
      onFocus={(ev) => {
        if (ev.target === ev.currentTarget && !focused.current) {
          focused.current = root();
          showFocus(false);
        }
      }}
      onContextMenu={onContextMenu}
    >
      <div ref={el} />
      {tree.value <= 0 && <p className="empty">Nothing selected: no event of this type passes the filters in this range.</p>}
      {tree.value > 0 && (
        <div className="flame-focus" role="note" aria-live="polite" aria-label={`${label}: focused frame`}>
          {focusText}
        </div>
      )}
      {menu && (
        <div ref={menuEl} className="flame-menu" role="menu" aria-label={`Frame ${visibleName(menu.node.data.name)}`} style={{ left: menu.x, top: menu.y }}>
          <button type="button" role="menuitem" onClick={() => (closeMenu(), zoom(menu.node))}>
            Zoom to this frame
          </button>
          {onSandwich && menu.node.depth > 0 && (
            <button type="button" role="menuitem" onClick={() => (closeMenu(), onSandwich(menu.node.data.name))}>
              Callers and callees (sandwich)
            </button>
          )}
          <button type="button" role="menuitem" onClick={closeMenu}>
            Close
          </button>
        </div>
      )}
    </div>
  );
}
