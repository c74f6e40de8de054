/**
 * The timeline: an activity histogram (matching vs other events per time bucket), a time axis,
 * and one lane per thread; GC pauses as a band across the lanes.
 *
 *   ┌ label ┬──────────── histogram (drag: select · wheel: zoom) ───────────┐
 *   │       ├──────────── axis (drag: pan) ───────────────────────────────────┤
 *   │ lane  │ ▂▅█▃ sample density per pixel column (colour: matching/state) │
 *   │       │ ▬▬▬  ▬  lock / park / sleep / I-O bars with their duration     │
 *   └───────┴───────────────────────────────────────────────────────────────┘
 *
 * Canvases are sized to the viewport, never to the data: a frame draws only the visible lanes,
 * and per pixel column it reads running counts (profile-logic/density) with two binary
 * searches, so its cost does not grow with the number of events.
 *
 * Mouse: drag to select a range, shift-drag or drag on the axis to pan, wheel over the
 * histogram/axis (or ctrl+wheel anywhere) to zoom, shift+wheel to pan, click a sample or bar
 * for its details, right-click a lane name to hide its thread. Keys (timeline focused): + −
 * zoom, ← → pan, 0 whole recording, Enter select the visible window, Esc clear the selection.
 */
import { useCallback, useEffect, useMemo, useRef, useState, type Dispatch } from 'react';
import type { Derived } from '../app/derive';
import type { Action, ViewState } from '../app/state';
import { histogramOf, nextSpike } from '../profile-logic/histogram';
import { addColumns, clearColumns, firstAtOrAfter, firstReaching, gallopAtOrAfter, newColumns, type Columns } from '../profile-logic/density';
import type { Profile } from '../profile-logic/profile';
import { formatClock, formatCount, formatDate, formatMs, formatTime } from '../profile-logic/format';
import { subjectText } from '../profile-logic/subjects';
import { stackNames } from '../profile-logic/collapsed';
import { KIND_COLOR, KIND_LIGHT, THEME } from './colors';

const LABEL_W = 220;
const HIST_H = 64;
const AXIS_H = 20;
const LANE_H = 22;
const TICK_TOP = 2;
const TICK_H = 12;
const BAR_TOP = TICK_TOP + TICK_H + 1;
const BAR_H = 5;

interface Props {
  profile: Profile;
  derived: Derived;
  state: ViewState;
  dispatch: Dispatch<Action>;
  selectedEvent: number | null;
  onSelectEvent: (i: number | null) => void;
}

interface Hover {
  x: number;
  y: number;
  lines: string[];
}

interface Drag {
  x0: number;
  x1: number;
  pan: boolean;
  vp0: [number, number];
}

function useSize(ref: React.RefObject<HTMLElement | null>): { w: number; h: number } {
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

function niceStep(span: number, px: number): number {
  const raw = (span / px) * 90;
  const p = Math.pow(10, Math.floor(Math.log10(raw)));
  for (const m of [1, 2, 5, 10]) if (p * m >= raw) return p * m;
  return p * 10;
}

/** Tick spacing on a clock: round seconds, minutes and hours (1, 2, 5, 10, 15, 30 of each). */
const CLOCK_STEPS = [1, 2, 5, 10, 15, 30, 60, 120, 300, 600, 900, 1800, 3600, 7200, 10800, 21600, 43200, 86400].map((s) => s * 1000);
function clockStep(span: number, px: number): number {
  const raw = (span / px) * 90;
  return raw < 1000 ? niceStep(span, px) : (CLOCK_STEPS.find((s) => s >= raw) ?? CLOCK_STEPS[CLOCK_STEPS.length - 1]);
}

/** A canvas 2D context scaled for the device's pixel ratio, its backing store sized to w × h CSS px. */
function context(c: HTMLCanvasElement, w: number, h: number): CanvasRenderingContext2D {
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

export function Timeline({ profile, derived, state, dispatch, selectedEvent, onSelectEvent }: Props) {
  const wrap = useRef<HTMLDivElement>(null);
  const head = useRef<HTMLCanvasElement>(null);
  const body = useRef<HTMLCanvasElement>(null);
  const scroller = useRef<HTMLDivElement>(null);
  const width = useSize(wrap).w;
  const viewH = useSize(scroller).h;
  const [scrollTop, setScrollTop] = useState(0);
  const [drag, setDrag] = useState<Drag | null>(null);
  const [hover, setHover] = useState<Hover | null>(null);
  const [cursorX, setCursorX] = useState<number | null>(null);
  const duration = Math.max(profile.info.durationMs, 1);
  // Epoch ms of the recording's start when times read as the clock, else null.
  const clock = state.clock ? profile.info.startMs : null;
  const vp = useMemo<[number, number]>(() => state.viewport ?? [0, duration], [state.viewport, duration]);
  const plotW = Math.max(50, Math.floor(width - LABEL_W));
  const xOf = useCallback((t: number) => LABEL_W + ((t - vp[0]) / (vp[1] - vp[0])) * plotW, [vp, plotW]);
  const tOf = useCallback((x: number) => vp[0] + ((x - LABEL_W) / plotW) * (vp[1] - vp[0]), [vp, plotW]);
  const kinds = useMemo(() => profile.eventTypes.map((t) => t.kind), [profile]);
  const typeKind = kinds[derived.typeIndex] ?? 'cpu';
  const hasStates = derived.states.length > 1;
  const buckets = Math.max(10, Math.floor(plotW / 3));
  const hist = useMemo(() => histogramOf(profile, derived.density.parts, vp[0], vp[1], buckets), [profile, derived.density, vp, buckets]);
  const histSummary = useMemo(() => {
    let m = 0;
    let o = 0;
    let peak = 0;
    for (let i = 0; i < hist.matching.length; i++) {
      m += hist.matching[i];
      o += hist.other[i];
      if (hist.matching[i] > hist.matching[peak]) peak = i;
    }
    const w = (vp[1] - vp[0]) / hist.matching.length;
    return (
      `Activity from ${formatTime(vp[0], clock)} to ${formatTime(vp[1], clock)}: ${formatCount(m)} matching, ${formatCount(o)} other` +
      (m > 0 ? `; most matching around ${formatTime(vp[0] + (peak + 0.5) * w, clock, w)}` : '')
    );
  }, [hist, vp, clock]);
  const gcEvents = derived.gc;
  const selectionTimes = useMemo(
    () => (drag && !drag.pan && Math.abs(drag.x1 - drag.x0) > 3 ? [tOf(Math.min(drag.x0, drag.x1)), tOf(Math.max(drag.x0, drag.x1))] : state.range),
    [drag, tOf, state.range],
  );

  // Histogram and axis.
  useEffect(() => {
    const c = head.current;
    if (!c) return;
    const g = context(c, width, HIST_H + AXIS_H);
    g.fillStyle = THEME.labelBg;
    g.fillRect(0, 0, LABEL_W, HIST_H + AXIS_H);
    g.font = '12px system-ui, sans-serif';
    g.fillStyle = THEME.text;
    g.fillText('Activity', 8, 16);
    g.fillStyle = THEME.muted;
    const n = hist.matching.length;
    let max = 1;
    for (let i = 0; i < n; i++) max = Math.max(max, hist.matching[i] + hist.other[i]);
    g.fillText(`max ${formatCount(max)} per ${formatMs((vp[1] - vp[0]) / n)}`, 8, 32);
    const bw = plotW / n;
    const colour = KIND_COLOR[typeKind];
    for (let i = 0; i < n; i++) {
      const total = hist.matching[i] + hist.other[i];
      if (total === 0) continue;
      const x = LABEL_W + i * bw;
      const hm = (hist.matching[i] / max) * (HIST_H - 6);
      const ho = (hist.other[i] / max) * (HIST_H - 6);
      g.fillStyle = THEME.other;
      g.fillRect(x, HIST_H - hm - ho, Math.max(1, bw - 0.5), ho);
      g.fillStyle = colour;
      // A matching bucket stays visible however small its share.
      g.fillRect(x, HIST_H - Math.max(hm, hist.matching[i] > 0 ? 2 : 0), Math.max(1, bw - 0.5), Math.max(hm, hist.matching[i] > 0 ? 2 : 0));
    }
    for (const i of gcEvents) {
      const e = profile.events;
      if (e.start[i] > vp[1] || e.start[i] + e.duration[i] < vp[0]) continue;
      const x0 = Math.max(LABEL_W, xOf(e.start[i]));
      g.fillStyle = THEME.gcMark;
      g.fillRect(x0, 0, Math.max(1, xOf(e.start[i] + e.duration[i]) - x0), 3);
    }
    // Axis.
    g.fillStyle = THEME.axisBg;
    g.fillRect(LABEL_W, HIST_H, plotW, AXIS_H);
    g.fillStyle = THEME.rule;
    g.fillRect(0, HIST_H, width, 1);
    // Ticks on round times: since the start, or of the clock (14:03:20, 14:03:30…).
    const step = clock === null ? niceStep(vp[1] - vp[0], plotW) : clockStep(vp[1] - vp[0], plotW);
    const offset = clock === null ? 0 : clock % step;
    g.fillStyle = THEME.muted;
    for (let k = Math.ceil((vp[0] + offset) / step); k * step - offset <= vp[1]; k++) {
      const t = k * step - offset;
      const x = Math.round(xOf(t));
      g.fillRect(x, HIST_H, 1, 5);
      g.fillText(clock === null ? formatMs(t) : formatClock(clock + t, step), x + 3, HIST_H + 15);
    }
    g.fillStyle = THEME.text;
    g.fillText(
      clock !== null ? `${formatDate(clock + vp[0])} UTC` : state.viewport ? `${formatMs(vp[0])} – ${formatMs(vp[1])}` : 'whole recording',
      8,
      HIST_H + 15,
    );
    if (selectionTimes) {
      const a = Math.max(LABEL_W, xOf(selectionTimes[0]));
      g.fillStyle = THEME.selection;
      g.fillRect(a, 0, Math.max(1, xOf(selectionTimes[1]) - a), HIST_H + AXIS_H);
    }
    if (state.baseline) {
      const a = Math.max(LABEL_W, xOf(state.baseline[0]));
      g.fillStyle = THEME.baseline;
      g.fillRect(a, 0, Math.max(1, xOf(state.baseline[1]) - a), HIST_H);
      g.fillStyle = THEME.muted;
      g.fillText('baseline', a + 3, 12);
    }
  }, [profile, width, hist, plotW, vp, xOf, selectionTimes, state.baseline, state.viewport, typeKind, gcEvents, clock]);

  // Per-frame column buffers, reused across frames.
  const colsRef = useRef<Columns[]>([]);

  // Lanes.
  useEffect(() => {
    const c = body.current;
    if (!c) return;
    const h = viewH;
    const g = context(c, width, h);
    const e = profile.events;
    const lanes = derived.lanes;
    const first = Math.floor(scrollTop / LANE_H);
    const last = Math.min(lanes.length, Math.ceil((scrollTop + h) / LANE_H));
    const visible = Math.max(0, last - first);
    while (colsRef.current.length < visible) colsRef.current.push(newColumns(plotW));
    const cols = colsRef.current.map((x) => (x.total.length === plotW ? x : newColumns(plotW)));
    colsRef.current = cols;
    // Counts per pixel column for every visible lane, then one scale for all of them.
    let max = 1;
    for (let v = 0; v < visible; v++) {
      const col = cols[v];
      clearColumns(col);
      for (const t of lanes[first + v].threads) addColumns(profile, derived.density.byThread[t], vp[0], vp[1], col);
      for (let x = 0; x < plotW; x++) if (col.total[x] > max) max = col.total[x];
    }
    // Backgrounds.
    for (let li = first; li < last; li++) {
      const y = li * LANE_H - scrollTop;
      g.fillStyle = li % 2 ? THEME.laneAlt : THEME.lane;
      g.fillRect(LABEL_W, y, plotW, LANE_H);
    }
    // GC band under the ticks.
    g.fillStyle = THEME.gcBand;
    for (const i of gcEvents) {
      if (e.start[i] > vp[1] || e.start[i] + e.duration[i] < vp[0]) continue;
      const x0 = Math.max(LABEL_W, xOf(e.start[i]));
      g.fillRect(x0, 0, Math.max(1, xOf(e.start[i] + e.duration[i]) - x0), h);
    }
    // Density ticks: one path per colour for all lanes.
    const other = new Path2D();
    const strong = new Path2D();
    const light = new Path2D();
    for (let v = 0; v < visible; v++) {
      const col = cols[v];
      const base = (first + v) * LANE_H - scrollTop + TICK_TOP + TICK_H;
      for (let x = 0; x < plotW; x++) {
        const total = col.total[x];
        if (total === 0) continue;
        const hh = Math.max(2, Math.round(TICK_H * Math.sqrt(total / max)));
        const m = col.match[x];
        let hm = m > 0 ? Math.max(2, Math.round((hh * m) / total)) : 0;
        if (hm > hh) hm = hh;
        const hr = m > 0 ? Math.round((hm * col.running[x]) / m) : 0;
        if (hh > hm) other.rect(LABEL_W + x, base - hh, 1, hh - hm);
        if (hr > 0) strong.rect(LABEL_W + x, base - hr, 1, hr);
        if (hm > hr) light.rect(LABEL_W + x, base - hm, 1, hm - hr);
      }
    }
    g.fillStyle = THEME.other;
    g.fill(other);
    g.fillStyle = KIND_COLOR[typeKind];
    g.fill(strong);
    g.fillStyle = hasStates ? KIND_LIGHT[typeKind] : KIND_COLOR[typeKind];
    g.fill(light);
    // Interval bars: merged per pixel (a run of bars starting inside one pixel is skipped by a
    // galloping search), then one path per colour.
    const { match, ofType } = derived.filtered;
    const px = (vp[1] - vp[0]) / plotW;
    // One path per event type (drawn in its kind's colour), one for bars the filters drop.
    const typePaths: (Path2D | undefined)[] = new Array(profile.eventTypes.length);
    const droppedPath = new Path2D();
    for (let li = first; li < last; li++) {
      const y = li * LANE_H - scrollTop + BAR_TOP;
      for (const t of lanes[li].threads) {
        const list = derived.intervals.byThread[t];
        const reach = derived.intervals.reach[t];
        let k = firstReaching(derived.intervals, t, vp[0]);
        let runPath: Path2D | null = null;
        let runX0 = 0;
        let runX1 = -1;
        while (k < list.length) {
          const i = list[k];
          const t0 = e.start[i];
          if (t0 > vp[1]) break;
          const x0 = Math.max(LABEL_W, Math.floor(xOf(t0)));
          let end = t0 + e.duration[i];
          // Everything starting within the next pixel is drawn as part of this bar.
          const next = gallopAtOrAfter(e.start, list, t0 + px, k + 1);
          if (next > k + 1) end = Math.max(end, reach[next - 1]);
          const x1 = Math.min(LABEL_W + plotW, Math.max(x0 + 1, Math.ceil(xOf(end))));
          const filteredOut = ofType[i] === 1 && match[i] === 0;
          const path = filteredOut ? droppedPath : (typePaths[e.type[i]] ??= new Path2D());
          if (path === runPath && x0 <= runX1) runX1 = Math.max(runX1, x1);
          else {
            if (runPath) runPath.rect(runX0, y, runX1 - runX0, BAR_H);
            runPath = path;
            runX0 = x0;
            runX1 = x1;
          }
          k = next;
        }
        if (runPath) runPath.rect(runX0, y, runX1 - runX0, BAR_H);
      }
    }
    typePaths.forEach((path, type) => {
      if (!path) return;
      g.globalAlpha = type === derived.typeIndex ? 1 : 0.7;
      g.fillStyle = KIND_COLOR[kinds[type]];
      g.fill(path);
    });
    g.globalAlpha = 0.35;
    g.fillStyle = THEME.other;
    g.fill(droppedPath);
    g.globalAlpha = 1;
    // Selection and the selected event.
    if (selectionTimes) {
      const a = Math.max(LABEL_W, xOf(selectionTimes[0]));
      g.fillStyle = THEME.selection;
      g.fillRect(a, 0, Math.max(1, xOf(selectionTimes[1]) - a), h);
    }
    if (selectedEvent !== null && selectedEvent < e.length) {
      const li = lanes.findIndex((l) => l.threads.includes(e.thread[selectedEvent]));
      if (li >= 0) {
        const x = xOf(e.start[selectedEvent]);
        g.strokeStyle = THEME.text;
        g.lineWidth = 1.5;
        g.strokeRect(x - 3, li * LANE_H - scrollTop + 1, Math.max(6, xOf(e.start[selectedEvent] + e.duration[selectedEvent]) - x + 6), LANE_H - 2);
        g.lineWidth = 1;
      }
    }
    // Labels last, over anything that spilled left.
    g.font = '12px system-ui, sans-serif';
    for (let li = first; li < last; li++) {
      const lane = lanes[li];
      const y = li * LANE_H - scrollTop;
      g.fillStyle = THEME.labelBg;
      g.fillRect(0, y, LABEL_W, LANE_H);
      g.fillStyle = THEME.rule;
      g.fillRect(LABEL_W - 1, y, 1, LANE_H);
      const cnt = lane.matching === lane.count ? formatCount(lane.count) : `${formatCount(lane.matching)}/${formatCount(lane.count)}`;
      const cw = g.measureText(cnt).width;
      g.fillStyle = THEME.muted;
      g.fillText(cnt, LABEL_W - 8 - cw, y + 15);
      g.fillStyle = lane.matching ? THEME.text : THEME.muted;
      let label = lane.label;
      const room = LABEL_W - 22 - cw;
      if (g.measureText(label).width > room) {
        while (label.length > 1 && g.measureText(`${label}…`).width > room) label = label.slice(0, -1);
        label += '…';
      }
      g.fillText(label, 8, y + 15);
    }
    if (lanes.length === 0) {
      g.fillStyle = THEME.muted;
      g.fillText('No thread matches the thread filter.', LABEL_W + 12, 18);
    }
  }, [profile, derived, width, viewH, scrollTop, vp, xOf, plotW, selectionTimes, kinds, typeKind, hasStates, selectedEvent, gcEvents]);

  const setViewport = useCallback(
    (a: number, b: number) => {
      const span = Math.max(b - a, 0.01);
      if (span >= duration) return dispatch({ type: 'set', patch: { viewport: null } });
      let from = a;
      let to = a + span;
      if (from < 0) [from, to] = [0, span];
      if (to > duration) [from, to] = [duration - span, duration];
      dispatch({ type: 'set', patch: { viewport: [from, to] } });
    },
    [dispatch, duration],
  );

  const zoomAt = useCallback((t: number, factor: number) => setViewport(t - (t - vp[0]) * factor, t + (vp[1] - t) * factor), [setViewport, vp]);

  // Wheel zoom needs a non-passive listener.
  useEffect(() => {
    const els = [head.current, body.current].filter((x): x is HTMLCanvasElement => x !== null);
    const onWheel = (ev: WheelEvent) => {
      const onHead = ev.currentTarget === head.current;
      const span = vp[1] - vp[0];
      if (ev.shiftKey || Math.abs(ev.deltaX) > Math.abs(ev.deltaY)) {
        ev.preventDefault();
        const d = (ev.shiftKey ? ev.deltaY || ev.deltaX : ev.deltaX) / plotW;
        setViewport(vp[0] + d * span, vp[1] + d * span);
        return;
      }
      if (!onHead && !ev.ctrlKey && !ev.metaKey) return; // plain wheel on the lanes scrolls them
      ev.preventDefault();
      const rect = (ev.currentTarget as HTMLElement).getBoundingClientRect();
      const x = ev.clientX - rect.left;
      zoomAt(x < LABEL_W ? (vp[0] + vp[1]) / 2 : tOf(x), Math.pow(1.0015, ev.deltaY));
    };
    els.forEach((el) => el.addEventListener('wheel', onWheel, { passive: false }));
    return () => els.forEach((el) => el.removeEventListener('wheel', onWheel));
  }, [zoomAt, tOf, vp, plotW, setViewport]);

  /** The event under (x, y) in the lanes: a bar when y is in the bar strip, else the nearest sample. */
  const eventAt = useCallback(
    (x: number, yInBody: number): number | null => {
      const lane = derived.lanes[Math.floor((yInBody + scrollTop) / LANE_H)];
      if (!lane || x < LABEL_W) return null;
      const inLane = (yInBody + scrollTop) % LANE_H;
      const t = tOf(x);
      const tol = ((vp[1] - vp[0]) / plotW) * 3;
      const e = profile.events;
      let best: number | null = null;
      let bestD = Infinity;
      if (inLane >= BAR_TOP - 2) {
        for (const th of lane.threads) {
          const list = derived.intervals.byThread[th];
          for (let k = firstReaching(derived.intervals, th, t - tol); k < list.length; k++) {
            const i = list[k];
            if (e.start[i] > t + tol) break;
            const d = t < e.start[i] ? e.start[i] - t : Math.max(0, t - e.start[i] - e.duration[i]);
            if (d <= tol && d < bestD) {
              bestD = d;
              best = i;
            }
          }
        }
        if (best !== null) return best;
      }
      for (const th of lane.threads) {
        const list = derived.lists.byThread[th];
        const k = firstAtOrAfter(e.start, list, t);
        for (const j of [k - 1, k]) {
          if (j < 0 || j >= list.length) continue;
          const i = list[j];
          const d = Math.abs(e.start[i] - t);
          if (d <= tol && d < bestD) {
            bestD = d;
            best = i;
          }
        }
      }
      return best;
    },
    [derived, scrollTop, tOf, vp, plotW, profile],
  );

  const describe = useCallback(
    (i: number): string[] => {
      const e = profile.events;
      const type = profile.eventTypes[e.type[i]];
      const th = e.thread[i] >= 0 ? profile.strings[profile.threads.name[e.thread[i]]] : '–';
      const lines = [`${type.label} at ${formatTime(e.start[i], clock)}${e.duration[i] > 0 ? `, lasting ${formatMs(e.duration[i])}` : ''}`, `thread ${th}`];
      if (e.state[i] >= 0) lines.push(profile.strings[e.state[i]]);
      const subject = subjectText(profile, i);
      if (subject !== null) lines.push(subject);
      if (e.peer[i] >= 0) {
        const peer = profile.strings[profile.threads.name[e.peer[i]]];
        lines.push(type.name === 'jdk.JavaMonitorWait' ? `notified by ${peer}` : `previous owner ${peer}`);
      }
      if (derived.filtered.ofType[i] && !derived.filtered.match[i]) lines.push('(filtered out)');
      if (e.stack[i] >= 0) {
        const frames = stackNames(profile, e.stack[i]).reverse();
        lines.push(...frames.slice(0, 6).map((f) => `  ${f}`));
        if (frames.length > 6) lines.push(`  … ${frames.length - 6} more (click for all)`);
      }
      return lines;
    },
    [profile, derived.filtered, clock],
  );

  const describeBucket = useCallback(
    (x: number): string[] => {
      const n = hist.matching.length;
      const b = Math.min(n - 1, Math.max(0, Math.floor(((x - LABEL_W) / plotW) * n)));
      const w = (vp[1] - vp[0]) / n;
      return [
        `${formatTime(vp[0] + b * w, clock, w)} – ${formatTime(vp[0] + (b + 1) * w, clock, w)}`,
        `${formatCount(hist.matching[b])} matching, ${formatCount(hist.other[b])} other`,
      ];
    },
    [hist, plotW, vp, clock],
  );

  const onDown = (ev: React.PointerEvent, onAxis: boolean) => {
    if (ev.button !== 0 && ev.button !== 1) return;
    const rect = ev.currentTarget.getBoundingClientRect();
    const x = ev.clientX - rect.left;
    if (x < LABEL_W) return;
    ev.currentTarget.setPointerCapture(ev.pointerId);
    setDrag({ x0: x, x1: x, pan: onAxis || ev.shiftKey || ev.button === 1, vp0: vp });
  };
  const onMove = (ev: React.PointerEvent, inBody: boolean) => {
    const rect = ev.currentTarget.getBoundingClientRect();
    const x = ev.clientX - rect.left;
    const y = ev.clientY - rect.top;
    setCursorX(x >= LABEL_W ? x : null);
    if (drag) {
      if (drag.pan) {
        const dt = ((drag.x0 - x) / plotW) * (drag.vp0[1] - drag.vp0[0]);
        setViewport(drag.vp0[0] + dt, drag.vp0[1] + dt);
      } else setDrag({ ...drag, x1: Math.min(LABEL_W + plotW, Math.max(LABEL_W, x)) });
      setHover(null);
      return;
    }
    if (x < LABEL_W) {
      const lane = inBody ? derived.lanes[Math.floor((y + scrollTop) / LANE_H)] : undefined;
      setHover(
        lane
          ? { x: ev.clientX, y: ev.clientY, lines: [lane.label, `${formatCount(lane.matching)} of ${formatCount(lane.count)} matching`, 'right-click: hide'] }
          : null,
      );
    } else if (inBody) {
      const i = eventAt(x, y);
      if (i !== null) setHover({ x: ev.clientX, y: ev.clientY, lines: describe(i) });
      else {
        const t = tOf(x);
        const e = profile.events;
        const gc = gcEvents.find((g) => e.start[g] <= t && t <= e.start[g] + e.duration[g]);
        setHover(
          gc === undefined
            ? null
            : {
                x: ev.clientX,
                y: ev.clientY,
                lines: [`GC pause at ${formatTime(e.start[gc], clock)}, lasting ${formatMs(e.duration[gc])}`, subjectText(profile, gc) ?? ''],
              },
        );
      }
    } else if (y < HIST_H) {
      setHover({ x: ev.clientX, y: ev.clientY, lines: describeBucket(x) });
    } else {
      setHover({ x: ev.clientX, y: ev.clientY, lines: [formatTime(tOf(x), clock, (vp[1] - vp[0]) / plotW), 'drag to pan, wheel to zoom'] });
    }
  };
  const onUp = (ev: React.PointerEvent, inBody: boolean) => {
    if (!drag) return;
    const rect = ev.currentTarget.getBoundingClientRect();
    const x = Math.min(LABEL_W + plotW, Math.max(LABEL_W, ev.clientX - rect.left));
    if (!drag.pan && Math.abs(x - drag.x0) > 3) {
      const a = tOf(Math.min(drag.x0, x));
      const b = tOf(Math.max(drag.x0, x));
      dispatch({ type: 'set', patch: { range: [Math.max(0, a), Math.min(duration, b)] } });
    } else if (!drag.pan && inBody) {
      onSelectEvent(eventAt(x, ev.clientY - rect.top));
    }
    setDrag(null);
  };
  const onLeave = () => {
    setHover(null);
    setCursorX(null);
  };
  const onContext = (ev: React.MouseEvent) => {
    const rect = ev.currentTarget.getBoundingClientRect();
    const x = ev.clientX - rect.left;
    const lane = derived.lanes[Math.floor((ev.clientY - rect.top + scrollTop) / LANE_H)];
    if (x < LABEL_W && lane) {
      ev.preventDefault();
      setHover(null);
      dispatch({ type: 'hideThreads', threads: lane.threads.map((t) => profile.strings[profile.threads.name[t]]) });
    }
  };
  const onKey = (ev: React.KeyboardEvent) => {
    const span = vp[1] - vp[0];
    const mid = (vp[0] + vp[1]) / 2;
    if (ev.key === '+' || ev.key === '=') zoomAt(mid, 0.7);
    else if (ev.key === '-' || ev.key === '_') zoomAt(mid, 1.4);
    else if (ev.key === 'ArrowLeft') setViewport(vp[0] - span * 0.2, vp[1] - span * 0.2);
    else if (ev.key === 'ArrowRight') setViewport(vp[0] + span * 0.2, vp[1] + span * 0.2);
    else if (ev.key === '0') dispatch({ type: 'set', patch: { viewport: null } });
    else if (ev.key === 'Enter') dispatch({ type: 'set', patch: { range: [vp[0], vp[1]] } });
    else if (ev.key === ']' || ev.key === '[') {
      const r = nextSpike(derived.spikes, state.range, ev.key === ']' ? 1 : -1);
      if (r) dispatch({ type: 'set', patch: { range: r } });
    }
    else if (ev.key === 'Escape') {
      dispatch({ type: 'set', patch: { range: null } });
      onSelectEvent(null);
    } else return;
    ev.preventDefault();
  };

  return (
    <div
      className="timeline"
      ref={wrap}
      tabIndex={0}
      onKeyDown={onKey}
      aria-label="Timeline: + and − zoom, arrows pan, 0 shows everything, Enter selects the visible window, ] and [ select the next or previous spike, Escape clears the selection"
      role="region"
    >
      <canvas
        ref={head}
        className="timeline-head"
        data-testid="histogram"
        role="img"
        aria-label={histSummary}
        data-from={vp[0]}
        data-to={vp[1]}
        data-matching={Array.from(hist.matching).join(',')}
        data-other={Array.from(hist.other).join(',')}
        data-plot-left={LABEL_W}
        style={{ width: '100%', height: HIST_H + AXIS_H, cursor: 'crosshair' }}
        onPointerDown={(ev) => onDown(ev, ev.nativeEvent.offsetY > HIST_H)}
        onPointerMove={(ev) => onMove(ev, false)}
        onPointerUp={(ev) => onUp(ev, false)}
        onPointerLeave={onLeave}
      />
      <div className="lanes" ref={scroller} onScroll={(ev) => setScrollTop(ev.currentTarget.scrollTop)}>
        <div style={{ height: Math.max(derived.lanes.length * LANE_H, viewH) }}>
          <canvas
            ref={body}
            data-testid="lanes"
            role="img"
            aria-label={`Thread lanes (${derived.lanes.length}); the Threads menu lists them`}
            data-lanes={derived.lanes.map((l) => l.label).join('\n')}
            style={{ position: 'sticky', top: 0, width: '100%', height: viewH, display: 'block' }}
            onPointerDown={(ev) => onDown(ev, false)}
            onPointerMove={(ev) => onMove(ev, true)}
            onPointerUp={(ev) => onUp(ev, true)}
            onContextMenu={onContext}
            onPointerLeave={onLeave}
          />
        </div>
      </div>
      {cursorX !== null && !drag && <div className="cursor-line" style={{ left: cursorX }} aria-hidden="true" />}
      {hover && (
        <div className="tip" style={{ left: Math.min(hover.x + 14, window.innerWidth - 420), top: hover.y + 14 }} role="tooltip">
          {hover.lines.map((l, k) => (
            <div key={k}>{l}</div>
          ))}
        </div>
      )}
    </div>
  );
}
