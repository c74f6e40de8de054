/**
 * The timeline: an activity histogram (matching vs other events per time bucket), a time axis,
 * and one lane per thread with sample ticks and wait/I-O bars; GC as a band across the lanes.
 * Everything is drawn on canvases sized to the viewport, never to the data: only visible lanes
 * and the events inside the visible time window are touched.
 *
 * Mouse: drag to select a range, shift-drag (or drag on the axis) to pan, wheel over the
 * histogram or ctrl+wheel to zoom, click a tick or bar for its details, right-click a lane name
 * to hide the thread. Keys: + − zoom, ← → pan, 0 whole recording, Esc clears the selection.
 */
import { useCallback, useEffect, useMemo, useRef, useState, type Dispatch } from 'react';
import type { Derived } from '../app/derive';
import type { Action, ViewState } from '../app/state';
import { histogram } from '../profile-logic/histogram';
import { lowerBound } from '../profile-logic/lanes';
import type { Profile } from '../profile-logic/profile';
import { formatMs } from '../profile-logic/format';
import { stackNames } from '../profile-logic/collapsed';
import { KIND_COLOR } from './colors';

const LABEL_W = 230;
const HIST_H = 70;
const AXIS_H = 20;
const LANE_H = 20;
const INTERVAL_KINDS = new Set(['lock', 'park', 'sleep', 'io']);

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

function useWidth(ref: React.RefObject<HTMLElement | null>): number {
  const [w, setW] = useState(800);
  useEffect(() => {
    const el = ref.current;
    if (!el) return;
    const ro = new ResizeObserver(() => setW(el.clientWidth));
    ro.observe(el);
    setW(el.clientWidth);
    return () => ro.disconnect();
  }, [ref]);
  return w;
}

function niceStep(span: number, px: number): number {
  const raw = (span / px) * 90;
  const p = Math.pow(10, Math.floor(Math.log10(raw)));
  for (const m of [1, 2, 5, 10]) if (p * m >= raw) return p * m;
  return p * 10;
}

export function Timeline({ profile, derived, state, dispatch, selectedEvent, onSelectEvent }: Props) {
  const wrap = useRef<HTMLDivElement>(null);
  const head = useRef<HTMLCanvasElement>(null);
  const body = useRef<HTMLCanvasElement>(null);
  const scroller = useRef<HTMLDivElement>(null);
  const width = useWidth(wrap);
  const [scrollTop, setScrollTop] = useState(0);
  const [viewH, setViewH] = useState(400);
  const [drag, setDrag] = useState<{ x0: number; x1: number; pan: boolean; vp0: [number, number] } | null>(null);
  const [hover, setHover] = useState<Hover | null>(null);
  const duration = Math.max(profile.info.durationMs, 1);
  const vp = useMemo<[number, number]>(() => state.viewport ?? [0, duration], [state.viewport, duration]);
  const plotW = Math.max(50, width - LABEL_W);
  const xOf = useCallback((t: number) => LABEL_W + ((t - vp[0]) / (vp[1] - vp[0])) * plotW, [vp, plotW]);
  const tOf = useCallback((x: number) => vp[0] + ((x - LABEL_W) / plotW) * (vp[1] - vp[0]), [vp, plotW]);
  const kinds = useMemo(() => profile.eventTypes.map((t) => t.kind), [profile]);
  const hist = useMemo(
    () => histogram(profile, derived.filtered.ofType, derived.filtered.match, vp[0], vp[1], Math.max(10, Math.floor(plotW / 4))),
    [profile, derived.filtered, vp, plotW],
  );

  useEffect(() => {
    const el = scroller.current;
    if (!el) return;
    const ro = new ResizeObserver(() => setViewH(el.clientHeight));
    ro.observe(el);
    return () => ro.disconnect();
  }, []);

  // Histogram and axis.
  useEffect(() => {
    const c = head.current;
    if (!c) return;
    const dpr = window.devicePixelRatio || 1;
    c.width = width * dpr;
    c.height = (HIST_H + AXIS_H) * dpr;
    const g = c.getContext('2d')!;
    g.scale(dpr, dpr);
    g.clearRect(0, 0, width, HIST_H + AXIS_H);
    g.fillStyle = '#f8f9fa';
    g.fillRect(0, 0, LABEL_W, HIST_H + AXIS_H);
    g.fillStyle = '#495057';
    g.font = '12px system-ui, sans-serif';
    g.fillText('Activity', 8, 16);
    g.fillStyle = KIND_COLOR[kinds[derived.typeIndex] ?? 'cpu'];
    g.fillRect(8, 26, 10, 10);
    g.fillStyle = '#495057';
    g.fillText('matching filters', 22, 35);
    g.fillStyle = '#ced4da';
    g.fillRect(8, 42, 10, 10);
    g.fillStyle = '#495057';
    g.fillText('other', 22, 51);
    const n = hist.matching.length;
    let max = 1;
    for (let i = 0; i < n; i++) max = Math.max(max, hist.matching[i] + hist.other[i]);
    const bw = plotW / n;
    for (let i = 0; i < n; i++) {
      const x = LABEL_W + i * bw;
      const hm = (hist.matching[i] / max) * (HIST_H - 6);
      const ho = (hist.other[i] / max) * (HIST_H - 6);
      g.fillStyle = '#ced4da';
      g.fillRect(x, HIST_H - hm - ho, Math.max(1, bw - 0.5), ho);
      g.fillStyle = KIND_COLOR[kinds[derived.typeIndex] ?? 'cpu'];
      g.fillRect(x, HIST_H - hm, Math.max(1, bw - 0.5), hm);
    }
    // Axis.
    g.fillStyle = '#fff';
    g.fillRect(LABEL_W, HIST_H, plotW, AXIS_H);
    g.strokeStyle = '#adb5bd';
    g.beginPath();
    g.moveTo(LABEL_W, HIST_H + 0.5);
    g.lineTo(width, HIST_H + 0.5);
    g.stroke();
    const step = niceStep(vp[1] - vp[0], plotW);
    g.fillStyle = '#495057';
    for (let t = Math.ceil(vp[0] / step) * step; t <= vp[1]; t += step) {
      const x = xOf(t);
      g.fillRect(x, HIST_H, 1, 5);
      g.fillText(formatMs(t), x + 3, HIST_H + 15);
    }
    // Selection.
    const sel = drag && !drag.pan ? [tOf(Math.min(drag.x0, drag.x1)), tOf(Math.max(drag.x0, drag.x1))] : state.range;
    if (sel) {
      g.fillStyle = 'rgba(28, 126, 214, 0.15)';
      g.fillRect(xOf(sel[0]), 0, xOf(sel[1]) - xOf(sel[0]), HIST_H + AXIS_H);
    }
    if (state.baseline) {
      g.fillStyle = 'rgba(134, 142, 150, 0.18)';
      g.fillRect(xOf(state.baseline[0]), 0, xOf(state.baseline[1]) - xOf(state.baseline[0]), HIST_H);
    }
  }, [width, hist, plotW, vp, xOf, tOf, drag, state.range, state.baseline, kinds, derived.typeIndex]);

  // Lanes.
  useEffect(() => {
    const c = body.current;
    if (!c) return;
    const dpr = window.devicePixelRatio || 1;
    const h = viewH;
    c.width = width * dpr;
    c.height = h * dpr;
    const g = c.getContext('2d')!;
    g.scale(dpr, dpr);
    g.clearRect(0, 0, width, h);
    const e = profile.events;
    const { match, ofType } = derived.filtered;
    const first = Math.floor(scrollTop / LANE_H);
    const last = Math.min(derived.lanes.length, Math.ceil((scrollTop + h) / LANE_H));
    g.font = '12px system-ui, sans-serif';
    const typeColor = KIND_COLOR[kinds[derived.typeIndex] ?? 'cpu'];
    for (let li = first; li < last; li++) {
      const lane = derived.lanes[li];
      const y = li * LANE_H - scrollTop;
      g.fillStyle = li % 2 ? '#f8f9fa' : '#ffffff';
      g.fillRect(0, y, width, LANE_H);
      g.save();
      g.beginPath();
      g.rect(LABEL_W, y, plotW, LANE_H);
      g.clip();
      for (const t of lane.threads) {
        const list = derived.index.events[t];
        let k = lowerBound(profile, list, vp[0] - duration * 0.02);
        // Intervals that started before the window may still cover it: step back a little.
        while (k > 0 && e.start[list[k - 1]] + e.duration[list[k - 1]] > vp[0] && k > lowerBound(profile, list, vp[0]) - 256) k--;
        let lastX = -1;
        let lastMatch = -1;
        for (; k < list.length; k++) {
          const i = list[k];
          const t0 = e.start[i];
          if (t0 > vp[1]) break;
          const kind = kinds[e.type[i]];
          if (INTERVAL_KINDS.has(kind) && e.duration[i] > 0) {
            const x0 = xOf(t0);
            const x1 = Math.max(x0 + 1, xOf(t0 + e.duration[i]));
            const strong = ofType[i] ? match[i] === 1 : true;
            g.fillStyle = strong ? KIND_COLOR[kind] : '#dee2e6';
            g.globalAlpha = ofType[i] && match[i] ? 0.95 : 0.55;
            g.fillRect(x0, y + 11, x1 - x0, 7);
            g.globalAlpha = 1;
          } else if (ofType[i]) {
            const x = Math.floor(xOf(t0));
            const m = match[i];
            if (x === lastX && m <= lastMatch) continue;
            lastX = x;
            lastMatch = m;
            g.fillStyle = m ? typeColor : '#ced4da';
            g.fillRect(x, y + 2, 1, m ? 9 : 6);
          }
        }
      }
      g.restore();
      // Label.
      g.fillStyle = '#f1f3f5';
      g.fillRect(0, y, LABEL_W, LANE_H);
      g.fillStyle = lane.matching ? '#212529' : '#868e96';
      const label = lane.label.length > 26 ? `${lane.label.slice(0, 25)}…` : lane.label;
      g.fillText(label, 6, y + 14);
      g.fillStyle = '#868e96';
      const cnt = String(lane.matching === lane.count ? lane.count : `${lane.matching}/${lane.count}`);
      g.fillText(cnt, LABEL_W - 6 - g.measureText(cnt).width, y + 14);
    }
    // GC band across all lanes.
    const gcList = derived.index.unthreaded;
    g.fillStyle = 'rgba(252, 196, 25, 0.28)';
    for (let k = lowerBound(profile, gcList, vp[0] - duration * 0.05); k < gcList.length; k++) {
      const i = gcList[k];
      if (e.start[i] > vp[1]) break;
      if (kinds[e.type[i]] !== 'gc') continue;
      const x0 = xOf(e.start[i]);
      g.fillRect(Math.max(LABEL_W, x0), 0, Math.max(1, xOf(e.start[i] + e.duration[i]) - x0), h);
    }
    const sel = drag && !drag.pan ? [tOf(Math.min(drag.x0, drag.x1)), tOf(Math.max(drag.x0, drag.x1))] : state.range;
    if (sel) {
      g.fillStyle = 'rgba(28, 126, 214, 0.10)';
      g.fillRect(Math.max(LABEL_W, xOf(sel[0])), 0, xOf(sel[1]) - Math.max(LABEL_W, xOf(sel[0])), h);
    }
    if (selectedEvent !== null && selectedEvent < e.length) {
      const li = derived.lanes.findIndex((l) => l.threads.includes(e.thread[selectedEvent]));
      if (li >= 0) {
        g.strokeStyle = '#212529';
        g.lineWidth = 2;
        const x = xOf(e.start[selectedEvent]);
        g.strokeRect(x - 3, li * LANE_H - scrollTop + 1, Math.max(6, xOf(e.start[selectedEvent] + e.duration[selectedEvent]) - x + 6), LANE_H - 2);
        g.lineWidth = 1;
      }
    }
  }, [profile, derived, width, viewH, scrollTop, vp, xOf, tOf, plotW, drag, state.range, kinds, duration, selectedEvent]);

  const setViewport = useCallback(
    (a: number, b: number) => {
      const span = Math.max(b - a, 0.05);
      let from = a;
      let to = a + span;
      if (span >= duration) return dispatch({ type: 'set', patch: { viewport: null } });
      if (from < 0) [from, to] = [0, span];
      if (to > duration) [from, to] = [duration - span, duration];
      dispatch({ type: 'set', patch: { viewport: [from, to] } });
    },
    [dispatch, duration],
  );

  const zoomAt = useCallback(
    (t: number, factor: number) => setViewport(t - (t - vp[0]) * factor, t + (vp[1] - t) * factor),
    [setViewport, vp],
  );

  // Wheel zoom needs a non-passive listener.
  useEffect(() => {
    const els = [head.current, body.current].filter((x): x is HTMLCanvasElement => x !== null);
    const onWheel = (ev: WheelEvent) => {
      const onHead = ev.currentTarget === head.current;
      if (!onHead && !ev.ctrlKey && !ev.metaKey) return;
      ev.preventDefault();
      const rect = (ev.currentTarget as HTMLElement).getBoundingClientRect();
      zoomAt(tOf(ev.clientX - rect.left), ev.deltaY > 0 ? 1.25 : 0.8);
    };
    els.forEach((el) => el.addEventListener('wheel', onWheel, { passive: false }));
    return () => els.forEach((el) => el.removeEventListener('wheel', onWheel));
  }, [zoomAt, tOf]);

  const eventAt = useCallback(
    (x: number, yInBody: number): number | null => {
      const lane = derived.lanes[Math.floor((yInBody + scrollTop) / LANE_H)];
      if (!lane || x < LABEL_W) return null;
      const t = tOf(x);
      const tol = ((vp[1] - vp[0]) / plotW) * 4;
      const e = profile.events;
      let best: number | null = null;
      let bestD = Infinity;
      for (const th of lane.threads) {
        const list = derived.index.events[th];
        const from = Math.max(0, lowerBound(profile, list, t - tol) - 64);
        for (let k = from; k < list.length; k++) {
          const i = list[k];
          if (e.start[i] > t + tol) break;
          const interval = INTERVAL_KINDS.has(kinds[e.type[i]]) && e.duration[i] > 0;
          if (!interval && !derived.filtered.ofType[i]) continue;
          const d = interval && t >= e.start[i] && t <= e.start[i] + e.duration[i] ? 0 : Math.abs(e.start[i] - t);
          if (d <= tol && d < bestD) {
            bestD = d;
            best = i;
          }
        }
      }
      return best;
    },
    [derived, scrollTop, tOf, vp, plotW, profile, kinds],
  );

  const describe = useCallback(
    (i: number): string[] => {
      const e = profile.events;
      const type = profile.eventTypes[e.type[i]];
      const th = e.thread[i] >= 0 ? profile.strings[profile.threads.name[e.thread[i]]] : '–';
      const lines = [`${type.label} at ${formatMs(e.start[i])}${e.duration[i] > 0 ? `, ${formatMs(e.duration[i])}` : ''}`, `thread ${th}`];
      if (e.subject[i] >= 0) lines.push(profile.strings[e.subject[i]]);
      if (e.stack[i] >= 0) lines.push(...stackNames(profile, e.stack[i]).reverse().slice(0, 5).map((f) => `  ${f}`));
      return lines;
    },
    [profile],
  );

  const onDown = (ev: React.MouseEvent, onAxis: boolean) => {
    const rect = ev.currentTarget.getBoundingClientRect();
    const x = ev.clientX - rect.left;
    if (x < LABEL_W) return;
    setDrag({ x0: x, x1: x, pan: onAxis || ev.shiftKey || ev.button === 1, vp0: vp });
  };
  const onMove = (ev: React.MouseEvent, inBody: boolean) => {
    const rect = ev.currentTarget.getBoundingClientRect();
    const x = ev.clientX - rect.left;
    const y = ev.clientY - rect.top;
    if (drag) {
      if (drag.pan) {
        const dt = ((drag.x0 - x) / plotW) * (drag.vp0[1] - drag.vp0[0]);
        setViewport(drag.vp0[0] + dt, drag.vp0[1] + dt);
      } else setDrag({ ...drag, x1: x });
      return;
    }
    if (inBody) {
      const i = eventAt(x, y);
      setHover(i === null ? null : { x: ev.clientX, y: ev.clientY, lines: describe(i) });
    } else if (x >= LABEL_W) {
      setHover({ x: ev.clientX, y: ev.clientY, lines: [formatMs(tOf(x))] });
    } else setHover(null);
  };
  const onUp = (ev: React.MouseEvent, inBody: boolean) => {
    if (!drag) return;
    const rect = ev.currentTarget.getBoundingClientRect();
    const x = ev.clientX - rect.left;
    if (!drag.pan && Math.abs(x - drag.x0) > 3) {
      const a = tOf(Math.min(drag.x0, x));
      const b = tOf(Math.max(drag.x0, x));
      dispatch({ type: 'set', patch: { range: [Math.max(0, a), Math.min(duration, b)] } });
    } else if (!drag.pan && inBody) {
      onSelectEvent(eventAt(x, ev.clientY - rect.top));
    }
    setDrag(null);
  };
  const onContext = (ev: React.MouseEvent) => {
    const rect = ev.currentTarget.getBoundingClientRect();
    const x = ev.clientX - rect.left;
    const lane = derived.lanes[Math.floor((ev.clientY - rect.top + scrollTop) / LANE_H)];
    if (x < LABEL_W && lane) {
      ev.preventDefault();
      for (const t of lane.threads) dispatch({ type: 'toggleHidden', thread: profile.strings[profile.threads.name[t]] });
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
    else if (ev.key === 'Escape') {
      dispatch({ type: 'set', patch: { range: null } });
      onSelectEvent(null);
    } else return;
    ev.preventDefault();
  };

  return (
    <div className="timeline" ref={wrap} tabIndex={0} onKeyDown={onKey} aria-label="Timeline" role="region">
      <canvas
        ref={head}
        className="timeline-head"
        data-testid="histogram"
        data-from={vp[0]}
        data-to={vp[1]}
        data-matching={Array.from(hist.matching).join(',')}
        data-other={Array.from(hist.other).join(',')}
        data-plot-left={LABEL_W}
        style={{ width: '100%', height: HIST_H + AXIS_H }}
        onMouseDown={(ev) => onDown(ev, ev.nativeEvent.offsetY > HIST_H)}
        onMouseMove={(ev) => onMove(ev, false)}
        onMouseUp={(ev) => onUp(ev, false)}
        onMouseLeave={() => {
          setHover(null);
          setDrag(null);
        }}
      />
      <div className="lanes" ref={scroller} onScroll={(ev) => setScrollTop(ev.currentTarget.scrollTop)}>
        <div style={{ height: Math.max(derived.lanes.length * LANE_H, viewH) }}>
          <canvas
            ref={body}
            data-testid="lanes"
            style={{ position: 'sticky', top: 0, width: '100%', height: viewH, display: 'block' }}
            onMouseDown={(ev) => onDown(ev, false)}
            onMouseMove={(ev) => onMove(ev, true)}
            onMouseUp={(ev) => onUp(ev, true)}
            onContextMenu={onContext}
            onMouseLeave={() => {
              setHover(null);
              setDrag(null);
            }}
          />
        </div>
      </div>
      {hover && (
        <div className="tip" style={{ left: hover.x + 12, top: hover.y + 12 }} role="tooltip">
          {hover.lines.map((l, k) => (
            <div key={k}>{l}</div>
          ))}
        </div>
      )}
    </div>
  );
}
