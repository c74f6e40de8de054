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
 * and per pixel column it reads running counts (profile-logic/pixel-columns) with two binary
 * searches, so its cost does not grow with the number of events.
 *
 * Mouse: drag to select a range, shift-drag or drag on the axis to pan, wheel over the
 * histogram/axis (or ctrl+wheel anywhere) to zoom, shift+wheel to pan, click a sample or bar
 * for its details, right-click a lane name to hide its thread. Keys (timeline focused): + −
 * zoom, ← → pan, 0 whole recording, Enter select the visible window, Esc clear the selection.
 */
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import type { Profile } from '../columns/profile';
import { summarize, summaryLines } from '../profile-logic/describe';
import { threadLabel, visibleName } from '../profile-logic/names';
import { formatCount, formatMs, formatThreads, formatTime } from '../profile-logic/format';
import { laneName, type Lane } from '../profile-logic/lanes';
import { carrierText, carriersOf, pinnedByThread } from '../profile-logic/virtual';
import type { PixelCounts } from '../profile-logic/pixel-columns';
import { subjectText } from '../profile-logic/subjects';
import { GC_PAUSE_TYPE, gcAt } from '../profile-logic/intervals';
import type { Derived } from '../selectors/derive';
import { drawHead, drawLanes, type Waiting } from './timeline/draw';
import { activity, ACTIVITY_LABEL } from '../profile-logic/activity';
import { threadsWaiting, WAIT_INFO, WAIT_KINDS } from '../profile-logic/waits';
import { AXIS_TOP, HEAD_H, HIST_H, LABEL_MAX, LABEL_MIN, LANE_H, context, useLabelWidth, useSize } from './timeline/geometry';
import { eventAt as hitTest } from './timeline/hit';
import { stepEvent } from '../profile-logic/stepping';
import { THEME } from './colors';
import { useThemeName } from './useTheme';

/** How long the wheel, a pan or a key rests before the app's state takes the window. */
const VIEWPORT_REST_MS = 150;

interface Props {
  profile: Profile;
  derived: Derived;
  range: [number, number] | null;
  viewport: [number, number] | null;
  baseline: [number, number] | null;
  /** Times read as the clock (UTC). */
  clock: boolean;
  /** Layers turned off: 'samples' and wait kinds. */
  hiddenLayers: string[];
  selectedEvent: number | null;
  onSelectEvent: (i: number | null) => void;
  onSelectRange: (range: [number, number] | null) => void;
  /** The visible window; null: the whole recording. */
  onViewport: (viewport: [number, number] | null) => void;
  onHideThreads: (names: string[]) => void;
  /** Threads pinned on top (the link's `pin`), and pinning or unpinning a lane's threads. */
  pinned: readonly string[];
  onPin: (names: string[], pin: boolean) => void;
  /** Open or close the virtual threads' group lane. */
  onToggleVirtual: () => void;
  /** Select the next (1) or previous (-1) spike. */
  onStepSpike: (dir: 1 | -1) => void;
  /** The timeline's share of the height it splits with the views (Split.tsx); its lanes fill what the head leaves. */
  share: number;
}

interface Hover {
  x: number;
  y: number;
  lines: string[];
}

/** The keyboard's place on the lanes: a lane (by its first thread row) and an event on it. */
interface Cursor {
  thread: number;
  event: number | null;
  /** The event type it was stepped on: another type picked since lets go of the event. */
  type: number;
}

/** The lane menu (right-click on a name, or the context-menu key): where, and for which lane. */
interface LaneMenu {
  thread: number;
  x: number;
  y: number;
}

interface Drag {
  x0: number;
  x1: number;
  pan: boolean;
  vp0: [number, number];
}

export function Timeline({ profile, derived, range, viewport, baseline, clock: clockOn, hiddenLayers, selectedEvent, onSelectEvent, onSelectRange, onViewport, onHideThreads, pinned, onPin, onToggleVirtual, onStepSpike, share }: Props) {
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
  const palette = THEME(useThemeName());
  const [labelW, setLabelW] = useLabelWidth();
  const [resizing, setResizing] = useState(false);
  const [cursor, setCursor] = useState<Cursor | null>(null);
  const [menu, setMenu] = useState<LaneMenu | null>(null);
  const menuEl = useRef<HTMLDivElement>(null);
  // The keyboard's lane, found again by its thread when lanes reorder; -1 when gone or none.
  const cursorLane = useMemo(() => (cursor ? derived.lanes.findIndex((l) => l.threads.includes(cursor.thread)) : -1), [cursor, derived.lanes]);
  const cursorEvent = cursorLane >= 0 && cursor && cursor.type === derived.typeIndex && cursor.event !== null && cursor.event < profile.events.length ? cursor.event : null;
  const pinnedKey = pinned.join('\u0000');
  const nameOf = useCallback((t: number) => threadLabel(profile, t), [profile]);
  const pinnedLanes = useMemo(() => {
    const set = new Set(pinnedKey ? pinnedKey.split('\u0000') : []);
    const out = new Set<number>();
    derived.lanes.forEach((l, k) => {
      if (l.threads.some((t) => set.has(nameOf(t)))) out.add(k);
    });
    return out;
  }, [derived.lanes, pinnedKey, nameOf]);
  const duration = Math.max(profile.info.durationMs, 1);
  // Epoch ms of the recording's start when times read as the clock, else null.
  const clock = clockOn ? profile.info.startMs : null;
  // The window follows the wheel, drags and keys at once here; the app's state (the URL, the
  // views below that follow the window) hears of it only once the input rests, so a step redraws
  // the timeline alone.
  const [live, setLive] = useState<{ vp: [number, number] | null } | null>(null);
  const shown = live ? live.vp : viewport;
  const vp = useMemo<[number, number]>(() => shown ?? [0, duration], [shown, duration]);
  const plotW = Math.max(50, Math.floor(width - labelW));
  const xOf = useCallback((t: number) => labelW + ((t - vp[0]) / (vp[1] - vp[0])) * plotW, [vp, plotW, labelW]);
  const tOf = useCallback((x: number) => vp[0] + ((x - labelW) / plotW) * (vp[1] - vp[0]), [vp, plotW, labelW]);
  const typeKind = profile.eventTypes[derived.typeIndex]?.kind ?? 'cpu';
  const hasStates = derived.states.length > 1;
  const buckets = Math.max(10, Math.floor(plotW / 3));
  const hist = useMemo(
    () => activity(profile, derived.cums.parts, derived.tracks, derived.filtered.threads, derived.activityWeight, vp[0], vp[1], buckets),
    [profile, derived, vp, buckets],
  );
  const hiddenKey = hiddenLayers.join(',');
  const hidden = useMemo(() => new Set(hiddenKey ? hiddenKey.split(',') : []), [hiddenKey]);
  // Threads waiting per kind of wait, for the kept threads, one value per two pixels.
  const waiting = useMemo(() => {
    const out: Waiting = {};
    const cols = Math.max(1, Math.floor(plotW / 2));
    for (const k of WAIT_KINDS) {
      if (hidden.has(k) || !derived.waits[k].some((tr) => tr.length > 0)) continue;
      out[k] = threadsWaiting(derived.waits[k], derived.filtered.threads, vp[0], vp[1], cols);
    }
    return out;
  }, [derived, vp, plotW, hidden]);
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
      `Activity (${ACTIVITY_LABEL[derived.activityWeight]}) from ${formatTime(vp[0], clock)} to ${formatTime(vp[1], clock)}: ${derived.activityWeight === 'count' ? `${formatCount(m)} matching, ${formatCount(o)} other` : derived.activityWeight === 'threads' ? `up to ${Math.max(...hist.matching).toFixed(1)} threads waiting` : `${formatMs(m)} of matching waits`}` +
      (m > 0 ? `; most matching around ${formatTime(vp[0] + (peak + 0.5) * w, clock, w)}` : '')
    );
  }, [hist, vp, clock, derived.activityWeight]);
  // Events of the type whose thread a cut chunk never wrote: no lane holds them.
  const threadless = profile.info.errors.length ? derived.lists.unthreaded.length : 0;
  // The lanes as a screen reader reads them: how many, and their names top to bottom.
  const lanesLabel = useMemo(
    () => `Thread lanes (${derived.lanes.length})${derived.lanes.length ? `: ${derived.lanes.map((l) => visibleName(laneName(l))).join(', ')}` : ''}${threadless ? `; ${formatCount(threadless)} events with no thread (the chunk was cut before their threads were written)` : ''}`,
    [derived.lanes, threadless],
  );
  const gcEvents = derived.gc;
  const gcLongest = useMemo(() => gcEvents.reduce((m, g) => Math.max(m, profile.events.duration[g]), 0), [gcEvents, profile]);
  const selectionTimes = useMemo<[number, number] | null>(
    () => (drag && !drag.pan && Math.abs(drag.x1 - drag.x0) > 3 ? [tOf(Math.min(drag.x0, drag.x1)), tOf(Math.max(drag.x0, drag.x1))] : range),
    [drag, tOf, range],
  );

  // Histogram and axis.
  useEffect(() => {
    const c = head.current;
    if (!c) return;
    const g = context(c, width, HEAD_H);
    drawHead(g, { profile, width, plotW, vp, xOf, clock, typeIndex: derived.typeIndex, typeKind, selectionTimes, gcEvents, hist, weight: derived.activityWeight, waiting, baseline, zoomed: shown !== null, theme: palette, labelW });
  }, [labelW, palette, profile, width, hist, plotW, vp, xOf, selectionTimes, baseline, shown, typeKind, gcEvents, clock, derived.typeIndex, derived.activityWeight, waiting]);

  // Per-frame column buffers, reused across frames.
  const pool = useRef<PixelCounts[]>([]);

  // Lanes.
  useEffect(() => {
    const c = body.current;
    if (!c) return;
    const g = context(c, width, viewH);
    drawLanes(
      g,
      {
        profile,
        width,
        plotW,
        vp,
        xOf,
        clock,
        typeIndex: derived.typeIndex,
        typeKind,
        selectionTimes,
        gcEvents,
        height: viewH,
        scrollTop,
        lanes: derived.lanes,
        byThread: derived.laneTicks.byThread,
        tickKind: derived.laneTicks.kind,
        filtered: derived.filtered,
        typeCums: derived.cums.byThread,
        intervals: derived.intervals,
        hasStates,
        selectedEvent,
        cursorLane,
        cursorEvent,
        pinnedLanes,
        kinds: derived.kinds,
        hidden,
        waits: derived.waits,
        threadless,
        theme: palette,
        labelW,
      },
      pool.current,
    );
  }, [labelW, palette, profile, derived, width, viewH, scrollTop, vp, xOf, plotW, selectionTimes, clock, typeKind, hasStates, selectedEvent, gcEvents, hidden, cursorLane, cursorEvent, pinnedLanes, threadless]);

  // The window shown and not yet handed to the app, and the timer that hands it over.
  const pending = useRef<{ vp: [number, number] | null; timer: number } | null>(null);
  // The last window handed over: when the app's state comes back with it (its render can come
  // after a newer step), that is no window set from outside.
  const handed = useRef<[number, number] | null | undefined>(undefined);
  const onViewportRef = useRef(onViewport);
  onViewportRef.current = onViewport;
  const commit = useCallback(() => {
    const p = pending.current;
    if (!p) return;
    clearTimeout(p.timer);
    pending.current = null;
    handed.current = p.vp;
    onViewportRef.current(p.vp);
    setLive(null);
  }, []);
  /** Show the window now; the app's state follows once the input rests. */
  const moveTo = useCallback(
    (next: [number, number] | null) => {
      if (pending.current) clearTimeout(pending.current.timer);
      pending.current = { vp: next, timer: window.setTimeout(commit, VIEWPORT_REST_MS) };
      setLive({ vp: next });
    },
    [commit],
  );
  // A window set from outside (a button, the link) wins over one not handed over yet.
  useEffect(() => {
    const echo = viewport === handed.current;
    handed.current = undefined;
    if (echo && pending.current) return;
    if (pending.current) {
      clearTimeout(pending.current.timer);
      pending.current = null;
    }
    setLive(null);
  }, [viewport]);
  // Leaving (another recording opened) drops a window not handed over: it was this recording's.
  useEffect(
    () => () => {
      if (pending.current) clearTimeout(pending.current.timer);
      pending.current = null;
    },
    [],
  );
  const setViewport = useCallback(
    (a: number, b: number) => {
      const span = Math.max(b - a, 0.01);
      if (span >= duration) return moveTo(null);
      let from = a;
      let to = a + span;
      if (from < 0) [from, to] = [0, span];
      if (to > duration) [from, to] = [duration - span, duration];
      moveTo([from, to]);
    },
    [moveTo, duration],
  );

  // A selected event out of view (chosen in a table) is brought into it: its lane scrolled to,
  // the window moved to center it (its span kept, unless the event is longer). A click on a
  // lane selects what is in view already, so this does nothing then.
  useEffect(() => {
    if (selectedEvent === null || selectedEvent >= profile.events.length) return;
    const e = profile.events;
    const li = derived.lanes.findIndex((l) => l.threads.includes(e.thread[selectedEvent]));
    const el = scroller.current;
    if (li >= 0 && el && (li * LANE_H < el.scrollTop || (li + 1) * LANE_H > el.scrollTop + el.clientHeight)) {
      el.scrollTop = Math.max(0, li * LANE_H - el.clientHeight / 2);
    }
    const a = e.start[selectedEvent];
    const b = a + e.duration[selectedEvent];
    // Only when none of it shows: a click on a long bar that reaches past the window keeps it.
    if (b < vp[0] || a > vp[1]) {
      const span = Math.max(vp[1] - vp[0], (b - a) * 1.5);
      setViewport((a + b) / 2 - span / 2, (a + b) / 2 + span / 2);
    }
    // Only a new selection moves the view; zooming and scrolling afterwards are the reader's.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [selectedEvent, profile]);

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
      zoomAt(x < labelW ? (vp[0] + vp[1]) / 2 : tOf(x), Math.pow(1.0015, ev.deltaY));
    };
    els.forEach((el) => el.addEventListener('wheel', onWheel, { passive: false }));
    return () => els.forEach((el) => el.removeEventListener('wheel', onWheel));
  }, [zoomAt, tOf, vp, plotW, setViewport, labelW]);

  /** The event under (x, y) in the lanes. */
  const eventAt = useCallback(
    (x: number, yInBody: number): number | null => {
      const lane = derived.lanes[Math.floor((yInBody + scrollTop) / LANE_H)];
      if (!lane || x < labelW) return null;
      const tol = ((vp[1] - vp[0]) / plotW) * 3;
      return hitTest({ profile, lane, inLane: (yInBody + scrollTop) % LANE_H, t: tOf(x), tol, intervals: derived.intervals, byThread: derived.lists.byThread });
    },
    [derived, scrollTop, tOf, vp, plotW, profile, labelW],
  );

  const pinnedVt = useMemo(() => pinnedByThread(profile, derived.index), [profile, derived.index]);
  const describe = useCallback(
    (i: number): string[] => {
      const dropped = derived.filtered.ofType[i] === 1 && derived.filtered.match[i] === 0;
      const e = profile.events;
      const carrier = e.peer[i] < 0 ? carrierText(profile, pinnedVt, e.thread[i], e.start[i]) : null;
      const notes = [dropped ? '(filtered out)' : null, carrier].filter((x) => x !== null);
      return summaryLines(summarize(profile, i, clock), notes.length ? notes.join('; ') : null);
    },
    [profile, derived.filtered, clock, pinnedVt],
  );
  /** A lane's hover in the names' column: its name, counts, and for virtual threads their carriers. */
  const describeLane = useCallback(
    (lane: Lane): string[] => {
      const lines = [laneName(lane), `${formatCount(lane.matching)} of ${formatCount(lane.count)} matching`];
      if (lane.group) lines.push(`${lane.group === 'open' ? 'click: close' : 'click: open'} the group of virtual threads`);
      else if (lane.virtual) {
        const carriers = lane.threads.flatMap((t) => carriersOf(profile, pinnedVt, t));
        lines.push(
          carriers.length
            ? `carriers while pinned: ${carriers.map((c) => `${c.name} (${c.pinned}×)`).join(', ')}; otherwise not recorded`
            : 'carrier not recorded (the JDK names it only on pinned events)',
        );
      }
      lines.push('right-click: pin to the top, hide');
      return lines;
    },
    [profile, pinnedVt],
  );

  const describeBucket = useCallback(
    (x: number): string[] => {
      const n = hist.matching.length;
      const b = Math.min(n - 1, Math.max(0, Math.floor(((x - labelW) / plotW) * n)));
      const w = (vp[1] - vp[0]) / n;
      const m = hist.matching[b];
      return [
        `${formatTime(vp[0] + b * w, clock, w)} – ${formatTime(vp[0] + (b + 1) * w, clock, w)}`,
        derived.activityWeight === 'count'
          ? `${formatCount(m)} matching, ${formatCount(hist.other[b])} other`
          : derived.activityWeight === 'threads'
            ? `${formatThreads(m)} threads in a matching wait, on average`
            : `${formatMs(m)} of matching waits`,
      ];
    },
    [hist, plotW, vp, clock, derived.activityWeight, labelW],
  );

  /** The strip of threads waiting: each shown kind's average over the column under x. */
  const describeWaiting = useCallback(
    (x: number): string[] => {
      const kinds = WAIT_KINDS.filter((k) => waiting[k]);
      if (!kinds.length) return ['No waits shown (see the legend to show them)'];
      const n = waiting[kinds[0]]!.length;
      const c = Math.min(n - 1, Math.max(0, Math.floor(((x - labelW) / plotW) * n)));
      const w = (vp[1] - vp[0]) / n;
      const lines = [`Threads waiting (all kinds) ${formatTime(vp[0] + c * w, clock, w)} – ${formatTime(vp[0] + (c + 1) * w, clock, w)}`];
      for (const k of kinds) if (waiting[k]![c] > 0.005) lines.push(`${WAIT_INFO[k].label}: ${waiting[k]![c].toFixed(1)}`);
      if (lines.length === 1) lines.push('none');
      return lines;
    },
    [waiting, plotW, vp, clock, labelW],
  );

  const onDown = (ev: React.PointerEvent, onAxis: boolean) => {
    if (ev.button !== 0 && ev.button !== 1) return;
    const rect = ev.currentTarget.getBoundingClientRect();
    const x = ev.clientX - rect.left;
    if (x < labelW) {
      const lane = onAxis ? undefined : derived.lanes[Math.floor((ev.clientY - rect.top + scrollTop) / LANE_H)];
      if (lane?.group && ev.button === 0) onToggleVirtual();
      return;
    }
    ev.currentTarget.setPointerCapture(ev.pointerId);
    setDrag({ x0: x, x1: x, pan: onAxis || ev.shiftKey || ev.button === 1, vp0: vp });
  };
  const onMove = (ev: React.PointerEvent, inBody: boolean) => {
    const rect = ev.currentTarget.getBoundingClientRect();
    const x = ev.clientX - rect.left;
    const y = ev.clientY - rect.top;
    setCursorX(x >= labelW ? x : null);
    if (drag) {
      if (drag.pan) {
        const dt = ((drag.x0 - x) / plotW) * (drag.vp0[1] - drag.vp0[0]);
        setViewport(drag.vp0[0] + dt, drag.vp0[1] + dt);
      } else setDrag({ ...drag, x1: Math.min(labelW + plotW, Math.max(labelW, x)) });
      setHover(null);
      return;
    }
    if (x < labelW) {
      const lane = inBody ? derived.lanes[Math.floor((y + scrollTop) / LANE_H)] : undefined;
      setHover(
        lane
          ? { x: ev.clientX, y: ev.clientY, lines: describeLane(lane) }
          : null,
      );
    } else if (inBody) {
      const i = eventAt(x, y);
      if (i !== null) setHover({ x: ev.clientX, y: ev.clientY, lines: describe(i) });
      else {
        const t = tOf(x);
        const e = profile.events;
        // Within a pixel either side: a mark is drawn a pixel wide however short the pause.
        const gc = gcAt(e.start, e.duration, gcEvents, t, (vp[1] - vp[0]) / plotW, gcLongest);
        setHover(
          gc < 0
            ? null
            : {
                x: ev.clientX,
                y: ev.clientY,
                lines: [
                  `${profile.eventTypes[e.type[gc]].name === GC_PAUSE_TYPE ? 'GC pause' : 'Garbage collection'} at ${formatTime(e.start[gc], clock)}, lasting ${formatMs(e.duration[gc])}`,
                  subjectText(profile, gc) ?? '',
                ],
              },
        );
      }
    } else if (y < HIST_H) {
      setHover({ x: ev.clientX, y: ev.clientY, lines: describeBucket(x) });
    } else if (y < AXIS_TOP) {
      setHover({ x: ev.clientX, y: ev.clientY, lines: describeWaiting(x) });
    } else {
      setHover({ x: ev.clientX, y: ev.clientY, lines: [formatTime(tOf(x), clock, (vp[1] - vp[0]) / plotW), 'drag to pan, wheel to zoom'] });
    }
  };
  const onUp = (ev: React.PointerEvent, inBody: boolean) => {
    if (!drag) return;
    const rect = ev.currentTarget.getBoundingClientRect();
    const x = Math.min(labelW + plotW, Math.max(labelW, ev.clientX - rect.left));
    if (!drag.pan && Math.abs(x - drag.x0) > 3) {
      const a = tOf(Math.min(drag.x0, x));
      const b = tOf(Math.max(drag.x0, x));
      onSelectRange([Math.max(0, a), Math.min(duration, b)]);
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
    if (x < labelW && lane) {
      ev.preventDefault();
      setHover(null);
      const box = wrap.current!.getBoundingClientRect();
      setMenu({ thread: lane.threads[0], x: ev.clientX - box.left, y: ev.clientY - box.top });
    }
  };
  const laneNames = (k: number) => derived.lanes[k].threads.map(nameOf);
  /** Bring lane k into the scrolled view. */
  const reveal = (k: number) => {
    const el = scroller.current;
    if (!el) return;
    if (k * LANE_H < el.scrollTop) el.scrollTop = k * LANE_H;
    else if ((k + 1) * LANE_H > el.scrollTop + el.clientHeight) el.scrollTop = (k + 1) * LANE_H - el.clientHeight;
  };
  const togglePin = (k: number) => {
    const names = laneNames(k);
    onPin(names, !pinnedLanes.has(k));
  };
  const hideLane = (k: number) => {
    const lanes = derived.lanes;
    // The keyboard stays on the lane that takes its place (or the one above the last).
    const next = lanes[k + 1] ?? lanes[k - 1];
    setCursor(next ? { thread: next.threads[0], event: null, type: derived.typeIndex } : null);
    onHideThreads(laneNames(k));
  };
  /** The previous or next matching event of the selected type on the keyboard's lane. */
  const stepOnLane = (dir: 1 | -1) => {
    const lane = derived.lanes[cursorLane];
    if (!lane || !cursor) return;
    const e = profile.events;
    const from =
      cursorEvent !== null
        ? { t: e.start[cursorEvent], event: cursorEvent }
        : { t: dir === 1 ? (range?.[0] ?? vp[0]) : (range?.[1] ?? vp[1]), event: null };
    const lists = lane.threads.map((t) => derived.cums.byThread[t]).filter((c) => c !== undefined);
    const next = stepEvent(profile, lists, from, dir);
    if (next === null) return;
    setCursor({ thread: cursor.thread, event: next, type: derived.typeIndex });
    const a = e.start[next];
    const b = a + e.duration[next];
    // Only when none of it shows: a click on a long bar that reaches past the window keeps it.
    if (b < vp[0] || a > vp[1]) {
      const span = Math.max(vp[1] - vp[0], (b - a) * 1.5);
      setViewport((a + b) / 2 - span / 2, (a + b) / 2 + span / 2);
    }
  };
  /** A range around the keyboard's event: the spike that holds it, or the event with a margin. */
  const selectAround = () => {
    const i = cursorEvent;
    if (i === null) return;
    const e = profile.events;
    const a = e.start[i];
    const b = a + e.duration[i];
    const spike = derived.spikes.find(([x, y]) => x <= a && a <= y);
    const pad = Math.max((vp[1] - vp[0]) * 0.02, e.duration[i] * 0.5);
    onSelectRange(spike ? [spike[0], spike[1]] : [Math.max(0, a - pad), Math.min(duration, b + pad)]);
  };
  const openMenuByKey = () => {
    if (cursorLane < 0 || !scroller.current || !wrap.current) return;
    const top = scroller.current.getBoundingClientRect().top - wrap.current.getBoundingClientRect().top;
    setMenu({ thread: derived.lanes[cursorLane].threads[0], x: 24, y: top + (cursorLane + 1) * LANE_H - scroller.current.scrollTop });
  };
  const onKey = (ev: React.KeyboardEvent) => {
    if (ev.ctrlKey || ev.metaKey || ev.altKey) return;
    const span = vp[1] - vp[0];
    const mid = (vp[0] + vp[1]) / 2;
    const onLane = cursorLane >= 0;
    const key = ev.key;
    if (key === '+' || key === '=') zoomAt(mid, 0.7);
    else if (key === '-' || key === '_') zoomAt(mid, 1.4);
    else if ((key === 'ArrowLeft' || key === 'ArrowRight') && onLane && !ev.shiftKey) stepOnLane(key === 'ArrowRight' ? 1 : -1);
    else if (key === 'ArrowLeft') setViewport(vp[0] - span * 0.2, vp[1] - span * 0.2);
    else if (key === 'ArrowRight') setViewport(vp[0] + span * 0.2, vp[1] + span * 0.2);
    else if ((key === 'ArrowDown' || key === 'ArrowUp' || key === 'Home' || key === 'End') && derived.lanes.length > 0) {
      const n = derived.lanes.length;
      const k = key === 'Home' ? 0 : key === 'End' ? n - 1 : !onLane ? 0 : Math.min(n - 1, Math.max(0, cursorLane + (key === 'ArrowDown' ? 1 : -1)));
      setCursor({ thread: derived.lanes[k].threads[0], event: null, type: derived.typeIndex });
      reveal(k);
    } else if (key === '0') moveTo(null);
    else if (key === 'Enter') {
      if (cursorEvent !== null) onSelectEvent(cursorEvent);
      else onSelectRange([vp[0], vp[1]]);
    } else if (key === ']' || key === '[') onStepSpike(key === ']' ? 1 : -1);
    else if ((key === 'h' || key === 'H') && onLane) hideLane(cursorLane);
    else if ((key === 'p' || key === 'P') && onLane) togglePin(cursorLane);
    else if ((key === 's' || key === 'S') && onLane) selectAround();
    else if ((key === 'ContextMenu' || (key === 'F10' && ev.shiftKey)) && onLane) openMenuByKey();
    else if (key === 'Escape') {
      onSelectRange(null);
      onSelectEvent(null);
      setCursor(null);
    } else return;
    ev.preventDefault();
  };
  // What the keyboard is on, for screen readers (and to read back in tests).
  const cursorText = useMemo(() => {
    if (cursorLane < 0) return '';
    const lane = derived.lanes[cursorLane];
    const head = `Lane ${cursorLane + 1} of ${derived.lanes.length}: ${visibleName(lane.label)}${pinnedLanes.has(cursorLane) ? ' (pinned)' : ''}`;
    const i = cursorEvent;
    if (i === null) return `${head}. ← → step through its events.`;
    return `${head}. ${describe(i).slice(0, 3).map(visibleName).join(' · ')}. Enter opens it, S selects around it.`;
  }, [cursorLane, cursorEvent, derived.lanes, pinnedLanes, describe]);
  // The menu takes the focus when it opens, and gives it back to the lanes when it closes.
  useEffect(() => {
    if (!menu) return;
    menuEl.current?.querySelector<HTMLElement>('[role="menuitem"]')?.focus();
    const close = (ev: PointerEvent) => {
      if (!menuEl.current?.contains(ev.target as Node)) setMenu(null);
    };
    window.addEventListener('pointerdown', close);
    return () => window.removeEventListener('pointerdown', close);
  }, [menu]);
  const closeMenu = () => {
    setMenu(null);
    scroller.current?.focus();
  };
  const menuLane = menu ? derived.lanes.findIndex((l) => l.threads.includes(menu.thread)) : -1;

  return (
    <div
      className="timeline"
      ref={wrap}
      tabIndex={0}
      onKeyDown={onKey}
      aria-label="Timeline: + and − zoom, ← → pan, ↑ ↓ choose a lane and ← → step along it, Enter opens what is stepped to (or selects the visible window), S selects around it, P pins the lane, H hides it, 0 shows everything, ] and [ select the next or previous spike, Escape clears the selection"
      role="region"
      style={{ flex: `${share} 1 0px` }}
    >
      <canvas
        ref={head}
        className="timeline-head"
        role="img"
        aria-label={histSummary}
        style={{ width: '100%', height: HEAD_H, cursor: 'crosshair' }}
        onPointerDown={(ev) => onDown(ev, ev.nativeEvent.offsetY > AXIS_TOP)}
        onPointerMove={(ev) => onMove(ev, false)}
        onPointerUp={(ev) => onUp(ev, false)}
        onPointerLeave={onLeave}
      />
      {/* A tab stop of its own: it scrolls, and the timeline's keys work from it too. */}
      <div className="lanes" ref={scroller} tabIndex={0} role="group" aria-label="Lanes: ↑ ↓ choose one, ← → step along it" onScroll={(ev) => setScrollTop(ev.currentTarget.scrollTop)}>
        <div style={{ height: Math.max((derived.lanes.length + 1) * LANE_H, viewH) }}>
          <canvas
            ref={body}
            role="img"
            aria-label={lanesLabel}
            style={{ position: 'sticky', top: 0, width: '100%', height: viewH, display: 'block' }}
            onPointerDown={(ev) => onDown(ev, false)}
            onPointerMove={(ev) => onMove(ev, true)}
            onPointerUp={(ev) => onUp(ev, true)}
            onContextMenu={onContext}
            onPointerLeave={onLeave}
          />
        </div>
      </div>
      <div
        className={`label-handle${resizing ? ' active' : ''}`}
        // On the names' side of the edge: the plot's first pixel stays the plot's.
        style={{ left: labelW - 6 }}
        role="separator"
        aria-orientation="vertical"
        aria-label="Lane names' width: drag, or ← → with the handle focused"
        aria-valuenow={labelW}
        aria-valuemin={LABEL_MIN}
        aria-valuemax={LABEL_MAX}
        tabIndex={0}
        onKeyDown={(ev) => {
          if (ev.key !== 'ArrowLeft' && ev.key !== 'ArrowRight') return;
          ev.preventDefault();
          ev.stopPropagation();
          setLabelW(labelW + (ev.key === 'ArrowLeft' ? -16 : 16));
        }}
        onPointerDown={(ev) => {
          if (ev.button !== 0) return;
          ev.preventDefault();
          ev.currentTarget.setPointerCapture(ev.pointerId);
          setResizing(true);
        }}
        onPointerMove={(ev) => {
          if (!resizing || !wrap.current) return;
          setLabelW(ev.clientX - wrap.current.getBoundingClientRect().left);
        }}
        onPointerUp={() => setResizing(false)}
        onPointerCancel={() => setResizing(false)}
      />
      <div className="sr-only" role="log" aria-live="polite" aria-label="Keyboard on the lanes">
        {cursorText}
      </div>
      {menu && menuLane >= 0 && (
        <div
          ref={menuEl}
          className="flame-menu lane-menu"
          role="menu"
          aria-label={`Lane ${visibleName(derived.lanes[menuLane].label)}`}
          style={{ left: menu.x, top: menu.y }}
          onKeyDown={(ev) => {
            ev.stopPropagation();
            const items = [...(menuEl.current?.querySelectorAll<HTMLElement>('[role="menuitem"]') ?? [])];
            const at = items.indexOf(document.activeElement as HTMLElement);
            if (ev.key === 'Escape' || ev.key === 'Tab') {
              ev.preventDefault();
              closeMenu();
            } else if (ev.key === 'ArrowDown' || ev.key === 'ArrowUp') {
              ev.preventDefault();
              items[(at + (ev.key === 'ArrowDown' ? 1 : items.length - 1)) % items.length]?.focus();
            }
          }}
        >
          <button type="button" role="menuitem" onClick={() => (togglePin(menuLane), closeMenu())}>
            {pinnedLanes.has(menuLane) ? 'Unpin' : 'Pin to the top'}
          </button>
          <button type="button" role="menuitem" onClick={() => (hideLane(menuLane), closeMenu())}>
            Hide {derived.lanes[menuLane].threads.length > 1 ? `these ${derived.lanes[menuLane].threads.length} threads` : 'this thread'}
          </button>
          <button type="button" role="menuitem" onClick={closeMenu}>
            Close
          </button>
        </div>
      )}
      {cursorX !== null && !drag && <div className="cursor-line" style={{ left: cursorX }} aria-hidden="true" />}
      {hover && (
        <div className="tip" style={{ left: Math.min(hover.x + 14, window.innerWidth - 420), top: hover.y + 14 }} role="tooltip">
          {hover.lines.map((l, k) => (
            <div key={k}>{visibleName(l)}</div>
          ))}
        </div>
      )}
    </div>
  );
}
