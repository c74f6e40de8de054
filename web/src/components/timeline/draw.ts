/**
 * Drawing the timeline's two canvases from what the selectors derived: the activity histogram
 * with its axis, and the visible lanes (density ticks per pixel column, interval bars, GC band,
 * labels). Pure functions of their inputs; the component decides when to call them.
 */
import type { Profile } from '../../columns/profile';
import { isDamaged } from '../../profile-logic/damage';
import type { Filtered } from '../../profile-logic/filters';
import { formatClock, formatCount, formatDate, formatMs, formatTick } from '../../profile-logic/format';
import { IntervalWalk, type Intervals } from '../../profile-logic/intervals';
import { KINDS } from '../../profile-logic/kinds';
import type { Lane } from '../../profile-logic/lanes';
import { elideMiddle, visibleName } from '../../profile-logic/names';
import { addToPixels, clearPixelCounts, coveredPerColumn, newPixelCounts, type Histogram, type PixelCounts } from '../../profile-logic/pixel-columns';
import { matchAt, type Cumulative } from '../../profile-logic/running-counts';
import type { EventKind } from '../../columns/profile';
import type { Palette } from '../colors';
import { ACTIVITY_LABEL, type ActivityWeight } from '../../profile-logic/activity';
import { threadsWaiting, WAIT_INFO, WAIT_KINDS, type WaitKind, type WaitTracks } from '../../profile-logic/waits';
import { AXIS_H, AXIS_TOP, BAR_H, BAR_TOP, HEAD_H, HIST_H, LANE_H, TICK_H, TICK_TOP, WAIT_H, clockStep, niceStep } from './geometry';

/** What both canvases share: the visible window and how times map to x. */
export interface Frame {
  profile: Profile;
  width: number;
  plotW: number;
  vp: [number, number];
  xOf: (t: number) => number;
  /** Epoch ms of the recording's start when times read as the clock, else null. */
  clock: number | null;
  typeIndex: number;
  typeKind: EventKind;
  selectionTimes: readonly [number, number] | null;
  gcEvents: Int32Array;
  /** The palette of the theme in effect. */
  theme: Palette;
  /** The lane-name column's width (px): the plot starts here. */
  labelW: number;
}

/** Threads waiting per column of the strip, by kind (only kinds shown). */
export type Waiting = Partial<Record<WaitKind, Float64Array>>;

export interface HeadInput extends Frame {
  hist: Histogram;
  weight: ActivityWeight;
  waiting: Waiting;
  baseline: readonly [number, number] | null;
  /** Zoomed in (the corner names the window instead of "whole recording"). */
  zoomed: boolean;
}

/**
 * The GC marks' spans in pixels, [from, to, from, to…]: each GC in the viewport at least 1 px
 * wide from the plot's left edge `left`, those that touch or overlap drawn as one (a day holds
 * hundreds of thousands of GCs, far more than pixels). `gcs` are in start order.
 */
export function gcMarkRuns(start: Float64Array, duration: Float32Array, gcs: Int32Array, vp: readonly [number, number], xOf: (t: number) => number, left: number): number[] {
  const runs: number[] = [];
  let from = -1;
  let to = -1;
  for (const i of gcs) {
    if (start[i] > vp[1]) break;
    if (start[i] + duration[i] < vp[0]) continue;
    const x0 = Math.max(left, xOf(start[i]));
    const x1 = x0 + Math.max(1, xOf(start[i] + duration[i]) - x0);
    if (x0 <= to) {
      to = Math.max(to, x1);
      continue;
    }
    if (to > from) runs.push(from, to);
    from = x0;
    to = x1;
  }
  if (to > from) runs.push(from, to);
  return runs;
}

/** The activity histogram, GC marks, the axis with round ticks, the selection and the baseline. */
export function drawHead(g: CanvasRenderingContext2D, f: HeadInput): void {
  const P = f.theme;
  const L = f.labelW;
  const { profile, width, hist, plotW, vp, xOf, selectionTimes, gcEvents, clock } = f;
    g.fillStyle = P.labelBg;
    g.fillRect(0, 0, L, HEAD_H);
    g.font = '12px system-ui, sans-serif';
    g.fillStyle = P.text;
    g.fillText(`Activity: ${ACTIVITY_LABEL[f.weight]}`, 8, 16);
    g.fillStyle = P.muted;
    const n = hist.matching.length;
    let max = f.weight === 'threads' ? 1 : 1e-9;
    for (let i = 0; i < n; i++) max = Math.max(max, hist.matching[i] + hist.other[i]);
    const per = formatMs((vp[1] - vp[0]) / n);
    g.fillText(f.weight === 'threads' ? `max ${max.toFixed(1)} threads, matching` : f.weight === 'duration' ? `max ${formatMs(max)} per ${per}` : `max ${formatCount(max)} per ${per}`, 8, 32);
    const bw = plotW / n;
    const colour = KINDS[f.typeKind].color;
    // A rect each, not one path per colour: a path of a bar per pixel column rasterised slower
    // (zoom frames on 367 K allocations missed one in twenty, at 33–50 ms, against 16.7 ms).
    for (let i = 0; i < n; i++) {
      const total = hist.matching[i] + hist.other[i];
      if (total === 0) continue;
      const x = L + i * bw;
      const hm = (hist.matching[i] / max) * (HIST_H - 6);
      const ho = (hist.other[i] / max) * (HIST_H - 6);
      if (ho > 0) {
        g.fillStyle = P.other;
        g.fillRect(x, HIST_H - hm - ho, Math.max(1, bw - 0.5), ho);
      }
      // A matching bucket stays visible however small its share.
      const hv = Math.max(hm, hist.matching[i] > 0 ? 2 : 0);
      if (hv > 0) {
        g.fillStyle = colour;
        g.fillRect(x, HIST_H - hv, Math.max(1, bw - 0.5), hv);
      }
    }
    g.fillStyle = P.gcMark;
    const runs = gcMarkRuns(profile.events.start, profile.events.duration, gcEvents, vp, xOf, L);
    for (let k = 0; k < runs.length; k += 2) g.fillRect(runs[k], 0, runs[k + 1] - runs[k], 3);
    drawWaiting(g, f);
    // Axis.
    g.fillStyle = P.axisBg;
    g.fillRect(L, AXIS_TOP, plotW, AXIS_H);
    g.fillStyle = P.rule;
    g.fillRect(0, AXIS_TOP, width, 1);
    // Ticks on round times: since the start, or of the clock (14:03:20, 14:03:30…).
    // Round minutes and hours once a tick spans a minute or more, whichever way times read.
    const step = clock === null && (vp[1] - vp[0]) / plotW * 90 < 60_000 ? niceStep(vp[1] - vp[0], plotW) : clockStep(vp[1] - vp[0], plotW);
    const offset = clock === null ? 0 : clock % step;
    g.fillStyle = P.muted;
    for (let k = Math.ceil((vp[0] + offset) / step); k * step - offset <= vp[1]; k++) {
      const t = k * step - offset;
      const x = Math.round(xOf(t));
      g.fillRect(x, AXIS_TOP, 1, 5);
      g.fillText(clock === null ? formatTick(t, step) : formatClock(clock + t, step), x + 3, AXIS_TOP + 15);
    }
    g.fillStyle = P.text;
    g.fillText(
      clock !== null
        ? `${formatDate(clock + vp[0])} UTC`
        : f.zoomed
          ? `${formatMs(vp[0])} – ${formatMs(vp[1])}`
          : isDamaged(profile.info) && profile.info.dataEndMs !== null
            ? `data ends at ${formatMs(profile.info.dataEndMs - profile.info.startMs)} (cut)`
            : 'whole recording',
      8,
      AXIS_TOP + 15,
    );
    if (selectionTimes) {
      const a = Math.max(L, xOf(selectionTimes[0]));
      g.fillStyle = P.selection;
      g.fillRect(a, 0, Math.max(1, xOf(selectionTimes[1]) - a), HEAD_H);
    }
    if (f.baseline) {
      const a = Math.max(L, xOf(f.baseline[0]));
      g.fillStyle = P.baseline;
      g.fillRect(a, 0, Math.max(1, xOf(f.baseline[1]) - a), HIST_H);
      g.fillStyle = P.muted;
      g.fillText('baseline', a + 3, 12);
    }
}

/** Kinds of wait stacked in the strip: contention at the bottom, idling above it. */
const STACK_ORDER: WaitKind[] = [...WAIT_KINDS.filter((k) => WAIT_INFO[k].contention), ...WAIT_KINDS.filter((k) => !WAIT_INFO[k].contention)];

/** Threads waiting over time, stacked by kind of wait, on one scale (at least one thread). */
function drawWaiting(g: CanvasRenderingContext2D, f: HeadInput): void {
  const P = f.theme;
  const L = f.labelW;
  const top = HIST_H;
  g.fillStyle = P.rule;
  g.fillRect(0, top, f.width, 1);
  g.fillStyle = P.text;
  // Every kind of wait shown, whatever the event type and filters (the activity above counts the matching events).
  g.fillText('Threads waiting, all kinds', 8, top + 15);
  const kinds = STACK_ORDER.filter((k) => f.waiting[k]);
  const cols = kinds.length ? f.waiting[kinds[0]]!.length : 0;
  let max = 1;
  for (let c = 0; c < cols; c++) {
    let sum = 0;
    for (const k of kinds) sum += f.waiting[k]![c];
    if (sum > max) max = sum;
  }
  g.fillStyle = P.muted;
  g.fillText(kinds.length ? `max ${max.toFixed(1)}` : 'no waits shown', 8, top + 30);
  if (!cols) return;
  const cw = f.plotW / cols;
  const h = WAIT_H - 4;
  const base = top + WAIT_H - 1;
  const acc = new Float64Array(cols);
  for (const k of kinds) {
    const y = f.waiting[k]!;
    const path = new Path2D();
    for (let c = 0; c < cols; c++) {
      if (!(y[c] > 0.001)) continue;
      const y0 = base - (acc[c] / max) * h;
      const hh = Math.max(1, (y[c] / max) * h);
      path.rect(L + c * cw, y0 - hh, Math.max(1, cw), hh);
      acc[c] += y[c];
    }
    g.fillStyle = WAIT_INFO[k].color;
    g.fill(path);
  }
}

export interface LanesInput extends Frame {
  height: number;
  scrollTop: number;
  lanes: Lane[];
  /** Running counts per thread row of what the lanes tick (the selected samples, or all CPU samples). */
  byThread: Cumulative[];
  /** Their kind, for the colour. */
  tickKind: EventKind;
  filtered: Filtered;
  /**
   * Running counts per thread row along the selected type's events: whether a bar of the type
   * matches is read off them (not off per-event flags, which would cost a pass over every event
   * of the type per keystroke).
   */
  typeCums?: Cumulative[];
  intervals: Intervals;
  hasStates: boolean;
  selectedEvent: number | null;
  /** The keyboard's lane (index into lanes) and event on it, or -1 and null. */
  cursorLane: number;
  cursorEvent: number | null;
  /** Lanes pinned to the top: their names get a pin mark. */
  pinnedLanes: ReadonlySet<number>;
  /** Per event: its wait kind (waits.ts), 0 for no wait. */
  kinds: Uint8Array;
  /** Layers turned off: 'samples' and wait kinds. */
  hidden: ReadonlySet<string>;
  /** Every wait per kind and thread: a grouped lane draws how many of its threads wait. */
  waits: WaitTracks;
  /** Events of the selected type with no thread because their chunk was cut (no lane holds them). */
  threadless?: number;
}

/** The GC band's opacity (of its colour's own) in a column barely touched by a GC. */
const GC_FLOOR = 0.15;

/** A column's GC band opacity from the share of it in GC, in 32 steps (runs of one step are one rect). */
function gcLevel(share: number): number {
  return share > 0 ? Math.round((GC_FLOOR + (1 - GC_FLOOR) * share) * 32) / 32 : 0;
}

/** The visible lanes; `pool` holds per-lane pixel counts reused across frames. */
export function drawLanes(g: CanvasRenderingContext2D, f: LanesInput, pool: PixelCounts[]): void {
  const P = f.theme;
  const L = f.labelW;
  const { profile, lanes, byThread, filtered, intervals, hasStates, selectedEvent, plotW, vp, xOf, selectionTimes, gcEvents, scrollTop, kinds, hidden } = f;
  const showSamples = !hidden.has('samples');
  const hiddenCode = WAIT_KINDS.map((k) => hidden.has(k));
  const h = f.height;
    const e = profile.events;
    const first = Math.floor(scrollTop / LANE_H);
    const last = Math.min(lanes.length, Math.ceil((scrollTop + h) / LANE_H));
    const visible = Math.max(0, last - first);
    while (pool.length < visible) pool.push(newPixelCounts(plotW));
    for (let v = 0; v < pool.length; v++) if (pool[v].total.length !== plotW) pool[v] = newPixelCounts(plotW);
    const cols = pool;
    // Counts per pixel column for every visible lane, then one scale for all of them.
    let max = 1;
    for (let v = 0; v < visible; v++) {
      const col = cols[v];
      clearPixelCounts(col);
      for (const t of lanes[first + v].threads) addToPixels(profile, byThread[t], vp[0], vp[1], col);
      for (let x = 0; x < plotW; x++) if (col.total[x] > max) max = col.total[x];
    }
    // Backgrounds.
    for (let li = first; li < last; li++) {
      const y = li * LANE_H - scrollTop;
      g.fillStyle = li % 2 ? P.laneAlt : P.lane;
      g.fillRect(L, y, plotW, LANE_H);
    }
    // GC band under the ticks, as opaque as the share of each column spent in GC (a column
    // with any GC keeps a faint floor): a thousand short pauses do not paint every column.
    g.fillStyle = P.gcBand;
    const share = coveredPerColumn(e.start, e.duration, gcEvents, vp[0], vp[1], Math.round(plotW));
    for (let x = 0; x < share.length; ) {
      const level = gcLevel(share[x]);
      let end = x + 1;
      while (end < share.length && gcLevel(share[end]) === level) end++;
      if (level > 0) {
        g.globalAlpha = level;
        g.fillRect(L + x, 0, end - x, h);
      }
      x = end;
    }
    g.globalAlpha = 1;
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
        if (hh > hm) other.rect(L + x, base - hh, 1, hh - hm);
        if (hr > 0) strong.rect(L + x, base - hr, 1, hr);
        if (hm > hr) light.rect(L + x, base - hm, 1, hm - hr);
      }
    }
    if (showSamples) {
      g.fillStyle = P.other;
      g.fill(other);
      g.fillStyle = KINDS[f.tickKind].color;
      g.fill(strong);
      g.fillStyle = hasStates ? KINDS[f.tickKind].light : KINDS[f.tickKind].color;
      g.fill(light);
    }
    // Interval bars: merged per pixel (a run of bars starting inside one pixel is skipped by a
    // galloping search), then one path per colour.
    const px = (vp[1] - vp[0]) / plotW;
    // One path per kind of wait (drawn in its colour; the selected type's bars stronger), one for
    // bars the filters drop.
    const kindPaths: (Path2D | undefined)[] = new Array(2 * (WAIT_KINDS.length + 1));
    const droppedPath = new Path2D();
    const otherPaths = new Map<number, Path2D>();
    const pinnedCode = WAIT_KINDS.indexOf('pinned') + 1;
    for (let li = first; li < last; li++) {
      const y = li * LANE_H - scrollTop + BAR_TOP;
      for (const t of lanes[li].threads) {
        // Whether a pin can win a pixel here: only a thread with pins shown looks for one.
        const mayPin = pinnedCode > 0 && !hiddenCode[pinnedCode - 1] && (f.waits.pinned[t]?.length ?? 0) > 0;
        // The thread's intervals of every type in time order, from the first reaching into the window.
        const walk = new IntervalWalk(intervals, t, vp[0]);
        let runPath: Path2D | null = null;
        let runX0 = 0;
        let runX1 = -1;
        // The thread's events of the selected type, and how far along them the bars have come.
        const typeCum = f.typeCums?.[t];
        let at = 0;
        const matches = (i: number): boolean => {
          if (!typeCum) return filtered.match[i] === 1;
          const r = matchAt(e.start, typeCum, i, at);
          at = r.next;
          return r.matches ?? filtered.match[i] === 1;
        };
        for (let i = walk.event(); i >= 0; i = walk.event()) {
          const t0 = e.start[i];
          if (t0 > vp[1]) break;
          const x0 = Math.max(L, Math.floor(xOf(t0)));
          let end = t0 + e.duration[i];
          let code = kinds[i];
          // A pinned virtual thread's pin starts with the sleep or park it holds: the pin wins
          // the pixel (looked for among the first events merged into it).
          if (mayPin && code !== pinnedCode && walk.someAhead(t0 + px, 63, (j) => kinds[j] === pinnedCode)) code = pinnedCode;
          // Everything starting within the next pixel is drawn as part of this bar.
          if (walk.skipBefore(t0 + px) > 1) end = Math.max(end, walk.reach);
          if (code > 0 && hiddenCode[code - 1]) continue;
          const x1 = Math.min(L + plotW, Math.max(x0 + 1, Math.ceil(xOf(end))));
          const filteredOut = e.type[i] === f.typeIndex && !matches(i);
          const slot = code * 2 + (e.type[i] === f.typeIndex ? 1 : 0);
          // Intervals that are not waits (method traces, spans) in their kind's colour, by type.
          let path: Path2D;
          if (filteredOut) path = droppedPath;
          else if (code > 0) path = kindPaths[slot] ??= new Path2D();
          else {
            path = otherPaths.get(e.type[i]) ?? new Path2D();
            otherPaths.set(e.type[i], path);
          }
          if (path === runPath && x0 <= runX1) runX1 = Math.max(runX1, x1);
          else {
            if (runPath) runPath.rect(runX0, y, runX1 - runX0, BAR_H);
            runPath = path;
            runX0 = x0;
            runX1 = x1;
          }
        }
        if (runPath) runPath.rect(runX0, y, runX1 - runX0, BAR_H);
      }
    }
    // Pinned virtual threads last: their sleep or park lies under the same span.
    const slots = kindPaths.map((_, slot) => slot).sort((a, b) => Number(a >> 1 === pinnedCode) - Number(b >> 1 === pinnedCode));
    slots.forEach((slot) => {
      const path = kindPaths[slot];
      if (!path) return;
      const code = slot >> 1;
      g.globalAlpha = slot & 1 ? 1 : 0.7;
      g.fillStyle = code > 0 ? WAIT_INFO[WAIT_KINDS[code - 1]].color : P.muted;
      g.fill(path);
    });
    otherPaths.forEach((path, ty) => {
      g.globalAlpha = ty === f.typeIndex ? 1 : 0.7;
      g.fillStyle = KINDS[profile.eventTypes[ty]?.kind ?? 'other'].color;
      g.fill(path);
    });
    g.globalAlpha = 0.35;
    g.fillStyle = P.other;
    g.fill(droppedPath);
    g.globalAlpha = 1;
    // A lane of several threads: how many of them are held up (contention kinds shown: monitors,
    // parks on locks, I/O; not idling), as a line over the lane from none to all of them.
    const shownKinds = WAIT_KINDS.filter((k) => !hidden.has(k) && WAIT_INFO[k].contention);
    const gcols = Math.max(1, Math.floor(plotW / 2));
    for (let li = first; li < last; li++) {
      const lane = lanes[li];
      if (lane.threads.length < 2) continue;
      const tracks = lane.threads.flatMap((t) => shownKinds.map((k) => f.waits[k][t]));
      const y = threadsWaiting(tracks, null, vp[0], vp[1], gcols);
      const top = li * LANE_H - scrollTop + 2;
      const h = LANE_H - 4;
      g.beginPath();
      for (let c = 0; c < gcols; c++) {
        const yy = top + h - (Math.min(y[c], lane.threads.length) / lane.threads.length) * h;
        if (c === 0) g.moveTo(L, yy);
        g.lineTo(L + (c + 1) * (plotW / gcols), yy);
      }
      g.strokeStyle = P.text;
      g.globalAlpha = 0.6;
      g.lineWidth = 1;
      g.stroke();
      g.globalAlpha = 1;
    }
    // Selection and the selected event.
    if (selectionTimes) {
      const a = Math.max(L, xOf(selectionTimes[0]));
      g.fillStyle = P.selection;
      g.fillRect(a, 0, Math.max(1, xOf(selectionTimes[1]) - a), h);
    }
    if (selectedEvent !== null && selectedEvent < e.length) {
      const li = lanes.findIndex((l) => l.threads.includes(e.thread[selectedEvent]));
      if (li >= 0) {
        const x = xOf(e.start[selectedEvent]);
        g.strokeStyle = P.text;
        g.lineWidth = 1.5;
        g.strokeRect(x - 3, li * LANE_H - scrollTop + 1, Math.max(6, xOf(e.start[selectedEvent] + e.duration[selectedEvent]) - x + 6), LANE_H - 2);
        g.lineWidth = 1;
      } else {
        // No lane holds it (a GC, an event of no thread): outlined across every lane.
        const x = xOf(e.start[selectedEvent]);
        g.strokeStyle = P.text;
        g.lineWidth = 1.5;
        g.strokeRect(x - 3, 1, Math.max(6, xOf(e.start[selectedEvent] + e.duration[selectedEvent]) - x + 6), h - 2);
        g.lineWidth = 1;
      }
    }
    // The keyboard's event: a dashed box around it, in the text's colour.
    const ce = f.cursorEvent;
    if (ce !== null && ce < e.length && f.cursorLane >= first && f.cursorLane < last) {
      const x = xOf(e.start[ce]);
      g.strokeStyle = P.text;
      g.lineWidth = 1.5;
      g.setLineDash([3, 2]);
      g.strokeRect(x - 4, f.cursorLane * LANE_H - scrollTop + 1, Math.max(8, xOf(e.start[ce] + e.duration[ce]) - x + 8), LANE_H - 2);
      g.setLineDash([]);
      g.lineWidth = 1;
    }
    // Labels last, over anything that spilled left.
    g.font = '12px system-ui, sans-serif';
    for (let li = first; li < last; li++) {
      const lane = lanes[li];
      const y = li * LANE_H - scrollTop;
      g.fillStyle = P.labelBg;
      g.fillRect(0, y, L, LANE_H);
      if (li === f.cursorLane) {
        g.fillStyle = P.selection;
        g.fillRect(0, y, L, LANE_H);
      }
      if (li === f.cursorLane) {
        // The keyboard's lane: a bar at the left of its name and a line under the whole lane.
        g.fillStyle = P.text;
        g.fillRect(0, y + 2, 3, LANE_H - 4);
        g.fillRect(L, y + LANE_H - 1, plotW, 1);
      }
      if (f.pinnedLanes.has(li)) {
        // Pinned on top: a corner in the text's colour at the name's top left.
        g.fillStyle = P.text;
        g.beginPath();
        g.moveTo(0, y);
        g.lineTo(7, y);
        g.lineTo(0, y + 7);
        g.fill();
      }
      g.fillStyle = P.rule;
      g.fillRect(L - 1, y, 1, LANE_H);
      const cnt = lane.matching === lane.count ? formatCount(lane.count) : `${formatCount(lane.matching)}/${formatCount(lane.count)}`;
      const cw = g.measureText(cnt).width;
      g.fillStyle = P.muted;
      g.fillText(cnt, L - 8 - cw, y + 15);
      g.fillStyle = lane.matching ? P.text : P.muted;
      // Cut in the middle ("data-plane-kafka-re…handler-3"); the hover shows the whole name.
      // The virtual threads' group: a disclosure mark; its lanes indented behind a rule.
      const indent = lane.group ? 20 : lane.virtual ? 18 : 8;
      if (lane.group) {
        g.font = 'bold 12px system-ui, sans-serif';
        g.fillText(lane.group === 'open' ? '▾' : '▸', 6, y + 15);
      } else if (lane.virtual) {
        g.fillStyle = WAIT_INFO.pinned.color;
        g.fillRect(9, y + 3, 2, LANE_H - 6);
        g.fillStyle = lane.matching ? P.text : P.muted;
      }
      const label = elideMiddle(visibleName(lane.label), L - indent - 14 - cw, (t) => g.measureText(t).width);
      g.fillText(label, indent, y + 15);
      if (lane.group) g.font = '12px system-ui, sans-serif';
    }
    // Events whose thread the cut chunk never wrote have no lane: say so rather than blame the filter.
    const threadless = f.threadless ?? 0;
    const cut = threadless > 0;
    if (lanes.length === 0) {
      g.fillStyle = P.muted;
      g.fillText(cut ? `${formatCount(threadless)} events have no lane: the chunk was cut before their threads (and stacks) were written.` : 'No thread matches the thread filter.', L + 12, 18);
    } else if (cut) {
      g.fillStyle = P.muted;
      g.fillText(`+ ${formatCount(threadless)} events with no thread: the chunk was cut before their threads were written.`, L + 12, lanes.length * LANE_H - scrollTop + 15);
    }
}
