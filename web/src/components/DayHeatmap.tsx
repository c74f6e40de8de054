/**
 * The day heatmap: the whole recording by minute (x, clock time) and second within the minute
 * (y), coloured by samples, allocation samples or waiting threads per second, from the count
 * pass (profile-logic/day.ts). Hovering reads a cell out; a click selects its minute, a drag the
 * seconds between two cells.
 */
import { useLayoutEffect, useMemo, useRef, useState } from 'react';
import type { RecordingShape } from '../columns/profile';
import { cellRange, cellSecond, dayGrid, type DayMetric } from '../profile-logic/day';
import { formatClock, formatCount, formatDate } from '../profile-logic/format';
import { Segmented } from './Tables';

const ROW_H = 3;
const AXIS_H = 16;
const LEFT = 28;

const METRICS: [DayMetric, string][] = [
  ['samples', 'Samples'],
  ['allocs', 'Allocations'],
  ['waiting', 'Waiting threads'],
];

/** "10:02–10:07 UTC", with the dates when it crosses midnight: "2026-11-23 00:01 – 2026-11-24 00:00 UTC". */
function spanText(fromMs: number, toMs: number): string {
  const a = formatClock(fromMs).slice(0, 5);
  const b = formatClock(toMs).slice(0, 5);
  return formatDate(fromMs) === formatDate(toMs - 1) ? `${a}–${b} UTC` : `${formatDate(fromMs)} ${a} – ${formatDate(toMs)} ${b} UTC`;
}

function describe(metric: DayMetric, v: number): string {
  if (Number.isNaN(v)) return 'outside the recording';
  if (metric === 'waiting') return `${v.toFixed(v >= 10 ? 0 : 2)} threads waiting`;
  return `${formatCount(v)} ${metric === 'samples' ? 'samples' : 'allocation samples'}`;
}

/** Light yellow to dark red by the square root of the share of the largest cell. */
function colour(v: number, max: number): string {
  if (Number.isNaN(v)) return 'transparent';
  if (v <= 0 || max <= 0) return 'rgba(128,128,128,0.12)';
  const f = Math.sqrt(v / max);
  return `hsl(${Math.round(50 - 50 * f)}, 100%, ${Math.round(88 - 50 * f)}%)`;
}

export function DayHeatmap({
  shape,
  originMs,
  range,
  onSelect,
  counting = false,
}: {
  shape: RecordingShape;
  /** The recording's start (epoch ms): ranges are ms since it. */
  originMs: number;
  range?: [number, number] | null;
  onSelect?: (range: [number, number]) => void;
  /** The count pass is still going: what is shown so far fills in. */
  counting?: boolean;
}) {
  const [metric, setMetric] = useState<DayMetric>(() => (shape.samples.some((v) => v > 0) ? 'samples' : shape.waiting.some((v) => v > 0) ? 'waiting' : 'allocs'));
  const grid = useMemo(() => dayGrid(shape, metric, originMs), [shape, metric, originMs]);
  const box = useRef<HTMLDivElement>(null);
  const canvas = useRef<HTMLCanvasElement>(null);
  const [width, setWidth] = useState(800);
  const [hover, setHover] = useState<[number, number] | null>(null);
  const [drag, setDrag] = useState<{ from: [number, number]; to: [number, number] } | null>(null);
  useLayoutEffect(() => {
    const el = box.current;
    if (!el) return;
    const ro = new ResizeObserver(() => setWidth(el.clientWidth));
    ro.observe(el);
    setWidth(el.clientWidth);
    return () => ro.disconnect();
  }, []);
  // A minute is at least 1 px wide (a day is 1,440 px: the box scrolls), at most 40.
  const cellW = Math.max(1, Math.min(40, Math.floor((width - LEFT) / grid.cols)));
  // Room for the first clock label however few the minutes.
  const w = LEFT + Math.max(grid.cols * cellW, 40);
  const h = 60 * ROW_H + AXIS_H;
  // Every how many minutes a clock label fits.
  const every = [1, 2, 5, 10, 15, 30, 60, 120, 240].find((m) => m * cellW >= 44) ?? 360;

  useLayoutEffect(() => {
    const c = canvas.current;
    const ctx = c?.getContext('2d');
    if (!c || !ctx) return;
    const dpr = window.devicePixelRatio || 1;
    c.width = w * dpr;
    c.height = h * dpr;
    ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    ctx.clearRect(0, 0, w, h);
    const { cols, values, max } = grid;
    for (let col = 0; col < cols; col++) {
      for (let row = 0; row < 60; row++) {
        const v = values[col * 60 + row];
        if (Number.isNaN(v)) continue;
        ctx.fillStyle = colour(v, max);
        ctx.fillRect(LEFT + col * cellW, row * ROW_H, cellW, ROW_H);
      }
    }
    // The selected range (or the one being dragged), shaded.
    const sel = drag ? cellRange(grid, drag.from, drag.to, originMs) : (range ?? null);
    if (sel) {
      const s0 = (originMs + sel[0]) / 1000;
      const s1 = (originMs + sel[1]) / 1000;
      ctx.fillStyle = 'rgba(40,110,220,0.35)';
      for (let col = 0; col < cols; col++) {
        const m = (grid.minute0 + col) * 60;
        if (m + 60 <= s0 || m >= s1) continue;
        const r0 = Math.max(0, Math.floor(s0 - m));
        const r1 = Math.min(60, Math.ceil(s1 - m));
        ctx.fillRect(LEFT + col * cellW, r0 * ROW_H, cellW, (r1 - r0) * ROW_H);
      }
    }
    const style = getComputedStyle(c);
    ctx.fillStyle = style.color || '#444';
    ctx.font = '10px system-ui, sans-serif';
    ctx.textBaseline = 'middle';
    for (const s of [0, 15, 30, 45]) ctx.fillText(`${s}s`, 2, s * ROW_H + ROW_H / 2 + 4);
    ctx.textBaseline = 'top';
    for (let col = 0; col < cols; col++) {
      const minute = grid.minute0 + col;
      if (minute % every !== 0 && col !== 0) continue;
      if (col !== 0 && col * cellW < 44) continue;
      ctx.fillText(formatClock(minute * 60_000).slice(0, 5), LEFT + col * cellW, 60 * ROW_H + 3);
      ctx.fillRect(LEFT + col * cellW, 60 * ROW_H, 1, 3);
    }
  }, [grid, cellW, w, h, every, range, originMs, drag]);

  const cellAt = (e: React.PointerEvent): [number, number] | null => {
    const r = e.currentTarget.getBoundingClientRect();
    const col = Math.floor((e.clientX - r.left - LEFT) / cellW);
    const row = Math.floor((e.clientY - r.top) / ROW_H);
    return col >= 0 && col < grid.cols && row >= 0 && row < 60 ? [col, row] : null;
  };
  const shown = drag?.to ?? hover;
  const readout = shown
    ? `${formatClock(cellSecond(grid, shown[0], shown[1]) * 1000)} UTC · ${describe(metric, grid.values[shown[0] * 60 + shown[1]])}`
    : `${spanText(grid.minute0 * 60_000, (grid.minute0 + grid.cols) * 60_000)}, ${grid.cols} minute${grid.cols === 1 ? '' : 's'}: click a minute or drag over seconds to select`;

  return (
    <section className="day-heatmap" aria-label="Recording overview">
      <div className="day-head">
        <strong>{counting ? 'Whole recording (counting: the rest fills in)' : 'Whole recording'}</strong>
        <Segmented label="Heatmap colour" value={metric} options={METRICS} onChange={setMetric} />
        <span className="day-readout" aria-label="Heatmap cell" aria-live="polite">
          {readout}
        </span>
      </div>
      <div className="day-box" ref={box}>
        <canvas
          ref={canvas}
          role="img"
          aria-label={`Heatmap of ${METRICS.find(([k]) => k === metric)![1].toLowerCase()} per second: minutes across, seconds down`}
          data-minute0={grid.minute0}
          data-cell-w={cellW}
          data-cell-h={ROW_H}
          data-left={LEFT}
          style={{ width: w, height: h, cursor: onSelect ? 'crosshair' : 'default' }}
          onPointerMove={(e) => {
            const c = cellAt(e);
            // A new state (and a redraw of every cell) only when the pointer reaches another cell.
            const same = (a: [number, number] | null) => (a === null || c === null ? a === c : a[0] === c[0] && a[1] === c[1]);
            if (!same(hover)) setHover(c);
            if (drag && c && !same(drag.to)) setDrag({ ...drag, to: c });
          }}
          onPointerLeave={() => setHover(null)}
          onPointerDown={(e) => {
            const c = cellAt(e);
            if (!c || !onSelect) return;
            e.currentTarget.setPointerCapture?.(e.pointerId);
            setDrag({ from: c, to: c });
          }}
          onPointerUp={(e) => {
            if (!drag || !onSelect) return;
            const c = cellAt(e) ?? drag.to;
            setDrag(null);
            onSelect(cellRange(grid, drag.from, c, originMs));
          }}
        />
      </div>
    </section>
  );
}
