/**
 * The stack chart of the chosen threads (profile-logic/stackchart.ts): one band per thread,
 * its frames stacked by depth (the root on top) along the time of the selected range (else the
 * timeline's visible window), boxes coloured by frame kind as the flame graph colours them.
 *
 *   ┌ axis ───────────────────────────────────────────┐
 *   │ search-worker-3 · 212 samples · ≤ 63 ms each     │  header row of a thread
 *   │ [Thread.run ─────────────]   [Thread.run ──]     │  depth 0
 *   │ [serve ──────][serve ─]      [serve ───────]     │  depth 1 …
 *
 * Hover names a box and its time span; a click chooses its method (the flame graph's and the
 * sandwich's); a drag selects a time range. Focused, the arrows walk the boxes (stackchart.ts
 * stepBox), Enter chooses the focused box's method, and a line under the chart names it. Drawn on one canvas sized to the view, never to the
 * data: boxes narrower than a pixel share it with their neighbours.
 */
import { useEffect, useMemo, useRef, useState } from 'react';
import type { Profile } from '../columns/profile';
import { formatCount, formatMs, formatTick } from '../profile-logic/format';
import { visibleName } from '../profile-logic/names';
import { boxAt, stepBox, type StackBox } from '../profile-logic/stackchart';
import type { StackCharts, ThreadStackChart } from '../selectors/derive';
import { FRAME_COLOR, THEME, type Palette } from './colors';
import { context, niceStep, useSize } from './timeline/geometry';
import { useThemeName } from './useTheme';

export const SC_AXIS_H = 20;
export const SC_HEADER_H = 20;
export const SC_ROW_H = 16;
const BAND_GAP = 6;
const HIGHLIGHT = '#e64980';

interface Props {
  profile: Profile;
  charts: StackCharts;
  selectedMethod: string | null;
  /** Thread names offered as choices (the lanes, in their order), and the pinned ones. */
  lanes: string[];
  pinned: readonly string[];
  onPin: (threads: string[]) => void;
  onSelectMethod: (name: string) => void;
  onSelectRange: (range: [number, number]) => void;
}

/** Top (px) of each thread's band, and the canvas height. */
function bands(threads: ThreadStackChart[]): { tops: number[]; height: number } {
  const tops: number[] = [];
  let y = SC_AXIS_H;
  for (const t of threads) {
    tops.push(y);
    y += SC_HEADER_H + Math.max(1, t.chart.maxDepth) * SC_ROW_H + BAND_GAP;
  }
  return { tops, height: y };
}

/** The name that fits `w` px: the whole, without its package, the method alone, or cut. */
function fitName(g: CanvasRenderingContext2D, name: string, w: number, cache: Map<string, number>): string | null {
  const width = (s: string) => {
    let v = cache.get(s);
    if (v === undefined) cache.set(s, (v = g.measureText(s).width));
    return v;
  };
  const parts = name.split('.');
  const candidates = [name, parts.slice(-2).join('.'), parts[parts.length - 1]];
  for (const c of candidates) if (width(c) <= w) return c;
  const last = candidates[2];
  const chars = Math.floor((w / Math.max(width(last), 1)) * last.length) - 1;
  return chars >= 3 ? `${last.slice(0, chars)}…` : null;
}

export function drawStackChart(g: CanvasRenderingContext2D, profile: Profile, charts: StackCharts, width: number, height: number, P: Palette, selected: number, drag: [number, number] | null, focused: StackBox | null = null): void {
  const [from, to] = charts.window;
  const xOf = (t: number) => ((t - from) / Math.max(to - from, 1e-9)) * width;
  g.fillStyle = P.lane;
  g.fillRect(0, 0, width, height);
  // Axis with round ticks.
  g.font = '11px system-ui, sans-serif';
  g.textBaseline = 'alphabetic';
  g.fillStyle = P.axisBg;
  g.fillRect(0, 0, width, SC_AXIS_H);
  g.fillStyle = P.rule;
  g.fillRect(0, SC_AXIS_H - 1, width, 1);
  const step = niceStep(to - from, width);
  g.fillStyle = P.muted;
  for (let k = Math.ceil(from / step); k * step <= to; k++) {
    const x = Math.round(xOf(k * step));
    g.fillRect(x, SC_AXIS_H - 6, 1, 5);
    g.fillText(formatTick(k * step, step), x + 3, 13);
  }
  const { tops } = bands(charts.threads);
  const widths = new Map<string, number>();
  charts.threads.forEach((th, k) => {
    const top = tops[k];
    g.fillStyle = P.labelBg;
    g.fillRect(0, top, width, SC_HEADER_H);
    g.fillStyle = P.text;
    g.font = '12px system-ui, sans-serif';
    g.fillText(
      `${visibleName(th.name)} · ${formatCount(th.chart.samples)} ${th.chart.samples === 1 ? 'sample' : 'samples'} · each stands up to ${formatMs(th.interval)} (or its duration)`,
      6,
      top + 14,
    );
    g.font = '11px ui-monospace, monospace';
    const y0 = top + SC_HEADER_H;
    // Per depth, the last pixel column drawn: boxes under a pixel share it.
    const lastX = new Float64Array(th.chart.maxDepth).fill(-Infinity);
    for (const b of th.chart.boxes) {
      const x0 = Math.max(0, xOf(b.start));
      const x1 = Math.min(width, xOf(b.end));
      if (x1 < 0 || x0 > width) continue;
      const w = Math.max(x1 - x0, 1);
      if (w <= 1 && Math.floor(x0) <= lastX[b.depth]) continue;
      lastX[b.depth] = Math.floor(x0 + w - 1);
      const y = y0 + b.depth * SC_ROW_H;
      g.fillStyle = b.name === selected ? HIGHLIGHT : (FRAME_COLOR[profile.frames.kind[b.frame]] ?? FRAME_COLOR[6]);
      g.fillRect(x0, y, w - (w > 3 ? 1 : 0), SC_ROW_H - 1);
      if (w > 24) {
        const label = fitName(g, visibleName(profile.strings[b.name]), w - 6, widths);
        if (label) {
          g.fillStyle = '#000';
          g.fillText(label, x0 + 3, y + 12);
        }
      }
    }
  });
  // The keyboard's box: outlined in the text colour, however narrow.
  if (focused) {
    const k = charts.threads.findIndex((t) => t.chart.boxes.includes(focused));
    if (k >= 0) {
      const x0 = Math.max(0, xOf(focused.start));
      const x1 = Math.min(width, Math.max(xOf(focused.end), x0 + 2));
      g.strokeStyle = P.text;
      g.lineWidth = 2;
      g.strokeRect(x0 + 1, tops[k] + SC_HEADER_H + focused.depth * SC_ROW_H + 1, Math.max(x1 - x0 - 2, 1), SC_ROW_H - 3);
    }
  }
  if (drag) {
    const a = Math.min(drag[0], drag[1]);
    g.fillStyle = P.selection;
    g.fillRect(a, 0, Math.abs(drag[1] - drag[0]), height);
  }
}

/** A time precise to 0.1 ms, in seconds since the start: "4.2123 s". */
const seconds = (ms: number) => `${(ms / 1000).toFixed(4)} s`;

interface Hit {
  thread: ThreadStackChart;
  box: StackBox;
  x: number;
  y: number;
}

export function StackChartView({ profile, charts, selectedMethod, lanes, pinned, onPin, onSelectMethod, onSelectRange }: Props) {
  const wrap = useRef<HTMLDivElement>(null);
  const canvas = useRef<HTMLCanvasElement>(null);
  const { w } = useSize(wrap);
  const width = Math.max(200, w);
  const { tops, height } = useMemo(() => bands(charts.threads), [charts]);
  const palette = THEME(useThemeName());
  const [hover, setHover] = useState<Hit | null>(null);
  const [drag, setDrag] = useState<[number, number] | null>(null);
  // The keyboard's box (arrows walk the boxes, Enter chooses its method).
  const [focused, setFocused] = useState<{ thread: number; box: StackBox } | null>(null);
  const focusBox = focused && charts.threads[focused.thread]?.chart.boxes.includes(focused.box) ? focused : null;
  const selected = useMemo(() => (selectedMethod === null ? -1 : profile.strings.indexOf(selectedMethod)), [profile, selectedMethod]);
  const [from, to] = charts.window;
  const tOf = (x: number) => from + (x / width) * (to - from);

  useEffect(() => {
    const c = canvas.current;
    if (!c) return;
    drawStackChart(context(c, width, height), profile, charts, width, height, palette, selected, drag, focusBox?.box ?? null);
  }, [profile, charts, width, height, palette, selected, drag, focusBox]);

  const firstBox = (k: number): { thread: number; box: StackBox } | null => {
    const th = charts.threads[k];
    return th && th.chart.boxes.length > 0 ? { thread: k, box: th.chart.boxes[0] } : null;
  };
  const onKey = (ev: React.KeyboardEvent) => {
    if (ev.altKey || ev.ctrlKey || ev.metaKey) return;
    const at = focusBox ?? firstBox(0);
    if (!at) return;
    let next: { thread: number; box: StackBox } | null = null;
    if (ev.key === 'ArrowUp' || ev.key === 'ArrowDown' || ev.key === 'ArrowLeft' || ev.key === 'ArrowRight') {
      next = focusBox ? { thread: at.thread, box: stepBox(charts.threads[at.thread].chart, at.box, ev.key) } : at;
    } else if (ev.key === 'Home') next = firstBox(at.thread);
    else if (ev.key === 'End') {
      const boxes = charts.threads[at.thread].chart.boxes.filter((b) => b.depth === 0);
      next = boxes.length ? { thread: at.thread, box: boxes[boxes.length - 1] } : at;
    } else if (ev.key === 'PageDown' || ev.key === 'PageUp') next = firstBox(at.thread + (ev.key === 'PageDown' ? 1 : -1)) ?? at;
    else if (ev.key === 'Enter') onSelectMethod(profile.strings[at.box.name]);
    else return;
    ev.preventDefault();
    ev.stopPropagation();
    if (next) setFocused(next);
  };
  const focusText = focusBox
    ? `${visibleName(profile.strings[focusBox.box.name])} · ${seconds(focusBox.box.start)} – ${seconds(focusBox.box.end)} (${formatMs(focusBox.box.end - focusBox.box.start)}) · ${focusBox.box.samples} ${focusBox.box.samples === 1 ? 'sample' : 'samples'} · depth ${focusBox.box.depth} · ${visibleName(charts.threads[focusBox.thread].name)}`
    : '';

  const hitAt = (x: number, y: number): Hit | null => {
    const k = tops.findIndex((top, i) => y >= top && (i + 1 === tops.length || y < tops[i + 1]));
    if (k < 0) return null;
    const th = charts.threads[k];
    const depth = Math.floor((y - tops[k] - SC_HEADER_H) / SC_ROW_H);
    if (depth < 0 || depth >= th.chart.maxDepth) return null;
    // Within half a pixel either side, so a box a pixel wide can be pointed at.
    const t = tOf(x);
    const slack = (0.5 * (to - from)) / width;
    const box = boxAt(th.chart, depth, t) ?? boxAt(th.chart, depth, t - slack) ?? boxAt(th.chart, depth, t + slack);
    return box ? { thread: th, box, x, y } : null;
  };
  const local = (ev: React.MouseEvent) => {
    const r = ev.currentTarget.getBoundingClientRect();
    return [ev.clientX - r.left, ev.clientY - r.top] as const;
  };

  const chosen = charts.threads.map((t) => t.name);
  const label =
    charts.threads.length === 0
      ? 'Stack chart: no thread chosen'
      : `Stack chart of ${chosen.map(visibleName).join(', ')} from ${formatMs(from)} to ${formatMs(to)}: ${charts.threads.map((t) => `${formatCount(t.chart.samples)} samples, ${t.chart.maxDepth} frames deep`).join('; ')}`;
  return (
    <div className="stackchart">
      <div className="view-bar">
        <label className="field inline">
          <span>Thread</span>
          <select
            aria-label="Stack chart thread"
            value={pinned.length > 0 ? pinned[0] : ''}
            onChange={(e) => onPin(e.currentTarget.value ? [e.currentTarget.value] : [])}
          >
            <option value="">{charts.chosenBy === 'event' ? 'the selected event’s thread' : 'the busiest in the window'}</option>
            {[...new Set([...pinned, ...lanes])].map((n) => (
              <option key={n} value={n}>
                {visibleName(n)}
              </option>
            ))}
          </select>
        </label>
        <p className="hint">
          {charts.chosenBy === 'pinned'
            ? 'The pinned lanes’ threads'
            : charts.chosenBy === 'event'
              ? 'The selected event’s thread'
              : 'The thread with the most matching events'}{' '}
          from{' '}
          {formatMs(from)} to {formatMs(to)} ({charts.threads.length > 0 ? 'the selected range, else the timeline’s window' : 'nothing to draw'}). A
          sample stands from its time to the thread’s next one, at most its usual gap; waits for their duration. Click a frame to choose its method;
          drag to select a range. Focused, ← → ↑ ↓ walk the frames, Enter chooses one, Page Up and Down change thread.
        </p>
      </div>
      <div ref={wrap} className="stackchart-canvas">
        <canvas
          ref={canvas}
          role="img"
          aria-label={label}
          aria-roledescription="stack chart"
          tabIndex={charts.threads.some((t) => t.chart.boxes.length > 0) ? 0 : undefined}
          onKeyDown={onKey}
          onFocus={() => !focusBox && setFocused(firstBox(0))}
          style={{ width, height, display: 'block', cursor: hover ? 'pointer' : 'default' }}
          onMouseMove={(ev) => {
            const [x, y] = local(ev);
            if (drag) setDrag([drag[0], x]);
            else setHover(hitAt(x, y));
          }}
          onMouseLeave={() => setHover(null)}
          onMouseDown={(ev) => {
            if (ev.button !== 0) return;
            const [x] = local(ev);
            setDrag([x, x]);
          }}
          onMouseUp={(ev) => {
            const [x, y] = local(ev);
            const d = drag;
            setDrag(null);
            if (d && Math.abs(x - d[0]) > 4) {
              const a = tOf(Math.max(0, Math.min(d[0], x)));
              const b = tOf(Math.min(width, Math.max(d[0], x)));
              onSelectRange([a, b]);
              return;
            }
            const h = hitAt(x, y);
            if (h) {
              setFocused({ thread: charts.threads.indexOf(h.thread), box: h.box });
              onSelectMethod(profile.strings[h.box.name]);
            }
          }}
        />
        <div className="flame-focus" role="note" aria-live="polite" aria-label="Stack chart: focused frame">
          {focusText}
        </div>
        {hover && !drag && (
          <div className="tip stack-tip" role="tooltip" style={{ left: Math.min(hover.x + 14, width - 320), top: hover.y + 16 }}>
            <div>{visibleName(profile.strings[hover.box.name])}</div>
            <div>
              {seconds(hover.box.start)} – {seconds(hover.box.end)} ({formatMs(hover.box.end - hover.box.start)}) · {hover.box.samples}{' '}
              {hover.box.samples === 1 ? 'sample' : 'samples'} · depth {hover.box.depth} · {visibleName(hover.thread.name)}
            </div>
          </div>
        )}
      </div>
    </div>
  );
}
