/**
 * Numeric values over time as lines, on the timeline's time axis: the same window (its zoom),
 * the same selected range shaded, the plot starting after the same lane-name column.
 *
 *   ┌ label col: max / min ┬── line(s) over [viewport] ─────────────┐
 */
import { useEffect, useMemo, useRef, useState } from 'react';
import { cellText, type Series, type Unit } from '../profile-logic/event-table';
import { formatTime } from '../profile-logic/format';
import { elideMiddle, visibleName } from '../profile-logic/names';
import { THEME } from './colors';
import { context, useLabelWidth, useSize } from './timeline/geometry';
import { useThemeName } from './useTheme';

interface Props {
  series: Series[];
  unit: Unit;
  label: string;
  duration: number;
  viewport: [number, number] | null;
  range: [number, number] | null;
  clock: number | null;
}

const H = 120;
export const LINE_COLORS = ['#1c7ed6', '#e8590c', '#2b8a3e', '#ae3ec9', '#c92a2a', '#0c8599'];

/** A value as the column writes it. */
function valueText(unit: Unit, v: number): string {
  return cellText({ key: '', label: '', unit, num: () => v, text: () => String(v) }, 0, null);
}

export function LineChart({ series, unit, label, duration, viewport, range, clock }: Props) {
  const wrap = useRef<HTMLDivElement>(null);
  const canvas = useRef<HTMLCanvasElement>(null);
  const width = useSize(wrap).w;
  const [labelW] = useLabelWidth();
  const palette = THEME(useThemeName());
  const vp = useMemo<[number, number]>(() => viewport ?? [0, Math.max(duration, 1)], [viewport, duration]);
  const [lo, hi, points] = useMemo(() => {
    let min = Infinity;
    let max = -Infinity;
    let n = 0;
    for (const s of series) {
      n += s.v.length;
      for (const v of s.v) {
        if (v < min) min = v;
        if (v > max) max = v;
      }
    }
    if (!(max > min)) [min, max] = [Math.min(0, min), Math.max(min > 0 ? min * 1.1 : 1, max)];
    return [Math.min(0, min), max, n];
  }, [series]);
  useEffect(() => {
    const c = canvas.current;
    if (!c) return;
    const g = context(c, width, H);
    const plotW = Math.max(50, width - labelW);
    const xOf = (t: number) => labelW + ((t - vp[0]) / (vp[1] - vp[0])) * plotW;
    const yOf = (v: number) => H - 8 - ((v - lo) / (hi - lo || 1)) * (H - 20);
    g.fillStyle = palette.lane;
    g.fillRect(0, 0, width, H);
    g.fillStyle = palette.labelBg;
    g.fillRect(0, 0, labelW, H);
    if (range) {
      const a = Math.max(labelW, xOf(range[0]));
      g.fillStyle = palette.selection;
      g.fillRect(a, 0, Math.max(1, xOf(range[1]) - a), H);
    }
    g.fillStyle = palette.rule;
    g.fillRect(labelW, yOf(lo), plotW, 1);
    g.fillRect(labelW - 1, 0, 1, H);
    g.font = '11px system-ui, sans-serif';
    g.fillStyle = palette.muted;
    const right = (t: string, y: number) => g.fillText(t, labelW - 8 - g.measureText(t).width, y);
    right(valueText(unit, hi), 14);
    right(valueText(unit, lo), H - 6);
    g.save();
    g.beginPath();
    g.rect(labelW, 0, plotW, H);
    g.clip();
    series.forEach((s, k) => {
      g.strokeStyle = g.fillStyle = LINE_COLORS[k % LINE_COLORS.length];
      g.lineWidth = 1.5;
      g.beginPath();
      for (let i = 0; i < s.t.length; i++) {
        if (i === 0) g.moveTo(xOf(s.t[i]), yOf(s.v[i]));
        else g.lineTo(xOf(s.t[i]), yOf(s.v[i]));
      }
      g.stroke();
      // Points as dots when they are few enough to tell apart.
      if (s.t.length <= plotW / 4) for (let i = 0; i < s.t.length; i++) g.fillRect(xOf(s.t[i]) - 2, yOf(s.v[i]) - 2, 4, 4);
    });
    g.restore();
    // The column's name (when the lines' keys do not name them), cut short of the scale's top value.
    if (!series.some((x) => x.name)) {
      g.fillStyle = palette.text;
      const room = labelW - 24 - g.measureText(valueText(unit, hi)).width;
      g.fillText(elideMiddle(visibleName(label), room, (t) => g.measureText(t).width), 8, 14);
    }
    // A key per line, as many as fit; the rest counted.
    const room = Math.max(0, Math.floor((H - 40) / 14));
    const keyed = series.length > room ? room - 1 : series.length;
    series.slice(0, keyed).forEach((s, k) => {
      if (!s.name) return;
      g.fillStyle = LINE_COLORS[k % LINE_COLORS.length];
      g.fillRect(8, 22 + 14 * k, 8, 8);
      g.fillStyle = palette.text;
      g.fillText(visibleName(s.name).slice(0, 40), 20, 30 + 14 * k);
    });
    if (keyed < series.length) {
      g.fillStyle = palette.muted;
      g.fillText(`+ ${series.length - keyed} more lines`, 8, 30 + 14 * keyed);
    }
  }, [series, width, labelW, palette, vp, range, lo, hi, unit, label]);
  // The point nearest the pointer (in time, then in value), read out as the timeline's tooltips are.
  const [hover, setHover] = useState<{ x: number; y: number; lines: string[] } | null>(null);
  const onMove = (ev: React.PointerEvent<HTMLCanvasElement>) => {
    const rect = ev.currentTarget.getBoundingClientRect();
    const x = ev.clientX - rect.left;
    const plotW = Math.max(50, width - labelW);
    if (x < labelW) return setHover(null);
    const t = vp[0] + ((x - labelW) / plotW) * (vp[1] - vp[0]);
    const tol = ((vp[1] - vp[0]) / plotW) * 8;
    let best: { s: Series; i: number; d: number } | null = null;
    for (const s of series) {
      // The first point at or after t, and the one before it.
      let lo = 0;
      let hi = s.t.length;
      while (lo < hi) {
        const mid = (lo + hi) >> 1;
        if (s.t[mid] < t) lo = mid + 1;
        else hi = mid;
      }
      for (const i of [lo - 1, lo]) {
        if (i < 0 || i >= s.t.length) continue;
        const d = Math.abs(s.t[i] - t);
        if (d <= tol && (!best || d < best.d)) best = { s, i, d };
      }
    }
    setHover(
      best
        ? { x: ev.clientX, y: ev.clientY, lines: [`${best.s.name ? `${best.s.name}: ` : ''}${valueText(unit, best.s.v[best.i])}`, `at ${formatTime(best.s.t[best.i], clock, 0.001)}`] }
        : null,
    );
  };
  const summary = `Line of ${label} over time from ${formatTime(vp[0], clock)} to ${formatTime(vp[1], clock)}: ${points} points${series.length > 1 ? ` in ${series.length} lines (${series.map((s) => s.name).join(', ')})` : ''}, from ${valueText(unit, lo)} to ${valueText(unit, hi)}`;
  return (
    <div ref={wrap} className="line-chart">
      <canvas ref={canvas} role="img" aria-label={visibleName(summary)} style={{ width: '100%', height: H, display: 'block' }} onPointerMove={onMove} onPointerLeave={() => setHover(null)} />
      {hover && (
        <div className="tip" style={{ left: Math.min(hover.x + 14, window.innerWidth - 320), top: hover.y + 14 }} role="tooltip">
          {hover.lines.map((l, k) => (
            <div key={k}>{visibleName(l)}</div>
          ))}
        </div>
      )}
    </div>
  );
}
