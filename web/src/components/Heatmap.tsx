/**
 * The latency heatmap of the selected waits (x time over the timeline's window, y duration on a
 * log scale, colour the count); dragging a box selects its time range and keeps only the
 * durations inside it.
 */
import { useEffect, useRef, useState } from 'react';
import { formatMs, formatTime } from '../profile-logic/format';
import { durationAt, type Heatmap } from '../profile-logic/heatmap';
import { THEME } from './colors';
import { useThemeName } from './useTheme';
import { context, useSize } from './timeline/geometry';

export const HEAT_ROWS = 40;
const LEFT = 64;
const BOTTOM = 18;
const HEIGHT = 260;

interface Props {
  heat: Heatmap | null;
  noun: string;
  /** Epoch ms of the start when times read as the clock, else null. */
  clock: number | null;
  durationFilter: [number, number] | null;
  /** The plot's width in columns, for the caller to size the heatmap to. */
  onColumns: (cols: number) => void;
  onSelect: (range: [number, number], durations: [number, number]) => void;
  onClearDurations: () => void;
}

/**
 * White through orange to dark red, by the cell's count on a log scale; in the dark theme dim
 * red through orange to pale yellow, so more is always further from the background.
 */
function heatColor(v: number, max: number, dark: boolean): string {
  const f = Math.log1p(v) / Math.log1p(max || 1);
  if (dark) return `rgb(${Math.round(120 + 135 * f)}, ${Math.round(30 + 200 * f)}, ${Math.round(20 + 140 * f * f)})`;
  const r = 255;
  const g = Math.round(245 - 200 * f);
  const b = Math.round(235 - 235 * f);
  return f > 0.85 ? `rgb(${Math.round(255 - 120 * (f - 0.85) / 0.15)}, ${Math.round(g * 0.8)}, ${b})` : `rgb(${r}, ${g}, ${b})`;
}

export function HeatmapView({ heat, noun, clock, durationFilter, onColumns, onSelect, onClearDurations }: Props) {
  const wrap = useRef<HTMLDivElement>(null);
  const canvas = useRef<HTMLCanvasElement>(null);
  const width = useSize(wrap).w;
  const plotW = Math.max(50, width - LEFT - 8);
  const cols = Math.max(10, Math.floor(plotW / 4));
  const [box, setBox] = useState<{ x0: number; y0: number; x1: number; y1: number } | null>(null);
  const theme = useThemeName();
  const palette = THEME(theme);
  useEffect(() => onColumns(cols), [cols, onColumns]);

  useEffect(() => {
    const c = canvas.current;
    if (!c || !heat) return;
    const g = context(c, width, HEIGHT);
    const plotH = HEIGHT - BOTTOM;
    const cw = plotW / heat.cols;
    const rh = plotH / heat.rows;
    g.fillStyle = palette.lane;
    g.fillRect(LEFT, 0, plotW, plotH);
    for (let r = 0; r < heat.rows; r++) {
      for (let col = 0; col < heat.cols; col++) {
        const v = heat.counts[r * heat.cols + col];
        if (!v) continue;
        g.fillStyle = heatColor(v, heat.max, theme === 'dark');
        g.fillRect(LEFT + col * cw, plotH - (r + 1) * rh, Math.ceil(cw), Math.ceil(rh));
      }
    }
    // Duration ticks at powers of ten.
    g.font = '11px system-ui, sans-serif';
    g.fillStyle = palette.muted;
    for (let p = Math.ceil(Math.log10(heat.minMs)); Math.pow(10, p) <= heat.maxMs; p++) {
      const ms = Math.pow(10, p);
      const y = plotH - (Math.log(ms / heat.minMs) / Math.log(heat.maxMs / heat.minMs)) * plotH;
      g.fillRect(LEFT - 4, y, 4, 1);
      g.fillText(formatMs(ms), 4, y + 4);
    }
    g.fillText(formatTime(heat.from, clock), LEFT, HEIGHT - 4);
    const end = formatTime(heat.to, clock);
    g.fillText(end, LEFT + plotW - g.measureText(end).width, HEIGHT - 4);
    if (box) {
      g.strokeStyle = palette.text;
      g.strokeRect(Math.min(box.x0, box.x1), Math.min(box.y0, box.y1), Math.abs(box.x1 - box.x0), Math.abs(box.y1 - box.y0));
    }
  }, [heat, width, plotW, box, clock, theme, palette]);

  if (!heat) return <p className="hint">The latency heatmap shows events with a duration: pick lock waits, parks, sleeps or I/O in the Event menu.</p>;
  const plotH = HEIGHT - BOTTOM;
  const tAt = (x: number) => heat.from + ((Math.min(Math.max(x, LEFT), LEFT + plotW) - LEFT) / plotW) * (heat.to - heat.from);
  const dAt = (y: number) => durationAt(((plotH - Math.min(Math.max(y, 0), plotH)) / plotH) * heat.rows, heat.minMs, heat.maxMs, heat.rows);
  const at = (ev: React.PointerEvent) => {
    const r = ev.currentTarget.getBoundingClientRect();
    return { x: ev.clientX - r.left, y: ev.clientY - r.top };
  };
  return (
    <div ref={wrap} className="heatmap">
      <p className="hint">
        {noun} by start (across) and duration (up, log scale), darker where there are more; drag a box to select its time and keep only its
        durations.{' '}
        {durationFilter && (
          <button type="button" className="chip" onClick={onClearDurations}>
            durations {formatMs(durationFilter[0])}–{formatMs(durationFilter[1])} ✕
          </button>
        )}
      </p>
      <canvas
        ref={canvas}
        role="img"
        aria-label={`Latency heatmap of ${noun}: ${heat.counts.reduce((a, b) => a + b, 0)} events from ${formatMs(heat.minMs)} to ${formatMs(heat.maxMs)}`}
        style={{ width: '100%', height: HEIGHT, cursor: 'crosshair', display: 'block' }}
        onPointerDown={(ev) => {
          const p = at(ev);
          ev.currentTarget.setPointerCapture(ev.pointerId);
          setBox({ x0: p.x, y0: p.y, x1: p.x, y1: p.y });
        }}
        onPointerMove={(ev) => {
          if (!box) return;
          const p = at(ev);
          setBox({ ...box, x1: p.x, y1: p.y });
        }}
        onPointerUp={() => {
          if (box && Math.abs(box.x1 - box.x0) > 3 && Math.abs(box.y1 - box.y0) > 3) {
            const t = [tAt(box.x0), tAt(box.x1)].sort((a, b) => a - b) as [number, number];
            const d = [dAt(box.y0), dAt(box.y1)].sort((a, b) => a - b) as [number, number];
            onSelect(t, d);
          }
          setBox(null);
        }}
      />
    </div>
  );
}
