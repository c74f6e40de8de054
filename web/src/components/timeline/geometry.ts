/**
 * The timeline's geometry (strip heights, label column) and the small helpers its canvases share:
 * element size, round tick steps, a device-pixel-ratio-scaled 2D context.
 */
import { useCallback, useEffect, useState } from 'react';

/** The lane-name column's default width (px); the reader may drag it between LABEL_MIN and LABEL_MAX. */
export const LABEL_W = 220;
export const LABEL_MIN = 120;
export const LABEL_MAX = 600;
const LABEL_KEY = 'jfrscope:labelWidth';

const clampLabel = (w: number) => Math.round(Math.min(LABEL_MAX, Math.max(LABEL_MIN, w)));

/** The lane-name column's width and its setter, kept in localStorage. */
export function useLabelWidth(): [number, (w: number) => void] {
  const [w, setW] = useState(() => {
    try {
      const v = Number(localStorage.getItem(LABEL_KEY));
      return v ? clampLabel(v) : LABEL_W;
    } catch {
      return LABEL_W;
    }
  });
  const set = useCallback((v: number) => {
    const c = clampLabel(v);
    setW(c);
    try {
      localStorage.setItem(LABEL_KEY, String(c));
    } catch {
      // storage refused: the width lasts for this page only
    }
  }, []);
  return [w, set];
}
export const HIST_H = 64;
export const AXIS_H = 20;
/** The strip of threads waiting, by kind of wait, between the histogram and the axis. */
export const WAIT_H = 36;
export const AXIS_TOP = HIST_H + WAIT_H;
export const HEAD_H = AXIS_TOP + AXIS_H;
export const LANE_H = 22;
export const TICK_TOP = 2;
export const TICK_H = 12;
export const BAR_TOP = TICK_TOP + TICK_H + 1;
export const BAR_H = 5;

export function useSize(ref: React.RefObject<HTMLElement | null>): { w: number; h: number } {
  const [size, setSize] = useState({ w: 800, h: 300 });
  useEffect(() => {
    const el = ref.current;
    if (!el) return;
    const update = () => setSize((s) => (s.w === el.clientWidth && s.h === el.clientHeight ? s : { w: el.clientWidth, h: el.clientHeight }));
    const ro = new ResizeObserver(update);
    ro.observe(el);
    update();
    return () => ro.disconnect();
  }, [ref]);
  return size;
}

export function niceStep(span: number, px: number): number {
  const raw = (span / px) * 90;
  const p = Math.pow(10, Math.floor(Math.log10(raw)));
  for (const m of [1, 2, 5, 10]) if (p * m >= raw) return p * m;
  return p * 10;
}

/** Tick spacing on a clock: round seconds, minutes and hours (1, 2, 5, 10, 15, 30 of each). */
const CLOCK_STEPS = [1, 2, 5, 10, 15, 30, 60, 120, 300, 600, 900, 1800, 3600, 7200, 10800, 21600, 43200, 86400].map((s) => s * 1000);
export function clockStep(span: number, px: number): number {
  const raw = (span / px) * 90;
  return raw < 1000 ? niceStep(span, px) : (CLOCK_STEPS.find((s) => s >= raw) ?? CLOCK_STEPS[CLOCK_STEPS.length - 1]);
}

/** A canvas 2D context scaled for the device's pixel ratio, its backing store sized to w × h CSS px. */
export function context(c: HTMLCanvasElement, w: number, h: number): CanvasRenderingContext2D {
  const dpr = window.devicePixelRatio || 1;
  if (c.width !== Math.round(w * dpr) || c.height !== Math.round(h * dpr)) {
    c.width = Math.round(w * dpr);
    c.height = Math.round(h * dpr);
  }
  const g = c.getContext('2d')!;
  g.setTransform(dpr, 0, 0, dpr, 0, 0);
  g.clearRect(0, 0, w, h);
  return g;
}

