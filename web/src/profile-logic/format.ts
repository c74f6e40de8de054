/** Numbers as people read them in a profiler. */
import type { WeightMode } from './kinds';

const pad = (n: number, w = 2) => String(n).padStart(w, '0');

/** A duration or a time since the start: 125 µs, 4.2 ms, 4.25 s, 2m29.3s, 16h40m00.0s. */
export function formatMs(ms: number): string {
  if (!isFinite(ms)) return '–';
  const a = Math.abs(ms);
  if (a >= 59_950) {
    // Tenths of a second rounded once, then carried: 59.96 s is 1m00.0s, never 0m60.0s.
    const sign = ms < 0 ? '-' : '';
    const tenths = Math.round(a / 100);
    const h = Math.floor(tenths / 36_000);
    const m = Math.floor((tenths % 36_000) / 600);
    const sec = ((tenths % 600) / 10).toFixed(1).padStart(4, '0');
    return h > 0 ? `${sign}${h}h${pad(m)}m${sec}s` : `${sign}${m}m${sec}s`;
  }
  if (a >= 1000) return `${(ms / 1000).toFixed(a >= 10_000 ? 1 : 2)} s`;
  if (a >= 1) return `${ms.toFixed(a >= 100 ? 0 : 1)} ms`;
  // (A time a hair before the origin, as a writer's tick rounding gives, reads as 0, not -0.)
  const us = (ms * 1000).toFixed(0);
  return `${us === '-0' ? '0' : us} µs`;
}

/**
 * A tick of a time axis (ms since the start) whose ticks are `step` ms apart: in the unit of the
 * larger of the tick and its step, with the decimals the step needs, so neighbours never read
 * alike (0 s, 1 s, 2 s; 0 ms, 500 ms, 1.0 s; 4.25 ms, 4.26 ms). Past a minute, as formatMs.
 */
export function formatTick(t: number, step: number): string {
  const a = Math.abs(t);
  // Ticks a minute or more apart read as minutes and hours, the first one too (0m00.0s).
  if (step >= 59_950) return t === 0 ? '0m00.0s' : formatMs(t);
  if (a >= 59_950 && step >= 1000) return formatMs(t);
  const [unit, perMs] = a >= 1000 || step >= 1000 ? (['s', 1e-3] as const) : a >= 1 || step >= 0.1 ? (['ms', 1] as const) : (['µs', 1e3] as const);
  const decimals = Math.min(6, Math.max(0, Math.ceil(-Math.log10(step * perMs) - 1e-9)));
  const v = (t * perMs).toFixed(decimals);
  return `${Number(v) === 0 ? '0' : v} ${unit}`;
}

/**
 * Wall-clock time of day in UTC, HH:MM:SS, with as many decimals as `step` (the spacing of the
 * times shown together, ms) needs: 14:03:20, 14:03:20.1, 14:03:20.125, 14:03:20.125250.
 */
export function formatClock(epochMs: number, step = 1000): string {
  const whole = Math.floor(epochMs);
  const d = new Date(whole);
  let s = `${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}`;
  if (step < 1000) s += `.${pad(d.getUTCMilliseconds(), 3).slice(0, step >= 100 ? 1 : step >= 10 ? 2 : 3)}`;
  if (step < 1) s += pad(Math.min(999, Math.floor((epochMs - whole) * 1000)), 3);
  return s;
}

/** The date of a wall-clock time, YYYY-MM-DD (UTC). */
export function formatDate(epochMs: number): string {
  return new Date(epochMs).toISOString().slice(0, 10);
}

/**
 * A time in the recording (ms since its start) as the user chose to read times: since the start
 * ("2m29.3s"), or as the clock read then ("14:03:20.1 UTC" with `clock` the start's epoch ms).
 */
export function formatTime(t: number, clock: number | null, step = 1): string {
  return clock === null ? formatMs(t) : `${formatClock(clock + t, step)} UTC`;
}

export function formatBytes(b: number): string {
  const units = ['B', 'KiB', 'MiB', 'GiB', 'TiB'];
  let u = 0;
  while (Math.abs(b) >= 1024 && u < units.length - 1) {
    b /= 1024;
    u++;
  }
  return `${b.toFixed(u === 0 ? 0 : 1)} ${units[u]}`;
}

const counts = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 });

export function formatCount(n: number): string {
  return counts.format(Math.round(n));
}

export function formatWeight(v: number, mode: WeightMode): string {
  switch (mode) {
    case 'bytes':
      return formatBytes(v);
    case 'duration':
      return formatMs(v);
    case 'samples':
      return `${formatCount(v)} ${v === 1 ? 'sample' : 'samples'}`;
    default:
      return `${formatCount(v)} ${v === 1 ? 'event' : 'events'}`;
  }
}

/**
 * An average number of threads (waiting, in a wait): a tenth from one thread on, two
 * significant digits below it, so a few short waits in a long range do not read as none.
 */
export function formatThreads(v: number): string {
  return v === 0 ? '0' : Math.abs(v) < 1 ? v.toPrecision(2) : v.toFixed(1);
}

export function formatPercent(part: number, whole: number): string {
  if (!(whole > 0)) return '0%';
  const p = (100 * part) / whole;
  return `${p >= 10 ? p.toFixed(1) : p.toFixed(2)}%`;
}

/** A range as the "Selected range" input shows it: seconds since the start, or clock times. */
export function formatRange(r: readonly [number, number], clock: number | null): string {
  if (clock === null) return `${+(r[0] / 1000).toFixed(3)}–${+(r[1] / 1000).toFixed(3)}`;
  return `${formatClock(clock + r[0], 1)}–${formatClock(clock + r[1], 1)}`;
}

/**
 * A typed range: seconds from the recording's start (`4.2-4.9`, `4.2–4.9`, `4.2 to 4.9`), or,
 * with `clock` (epoch ms of the start), times of day in UTC (`14:03:20.5-14:03:21`), which are
 * taken on the recording's first day and, if before its start, the next. Null when unreadable.
 */
export function parseRange(text: string, clock: number | null): [number, number] | null {
  const parts = text.trim().split(/\s*(?:–|—|\bto\b|-(?=\s*[\d:]))\s*/);
  if (parts.length !== 2) return null;
  const read = (s: string): number | null => {
    if (clock !== null && s.includes(':')) {
      const m = /^(\d{1,2}):(\d{2})(?::(\d{2}(?:\.\d+)?))?$/.exec(s);
      if (!m) return null;
      const day = Math.floor(clock / 86_400_000) * 86_400_000;
      let t = day + ((Number(m[1]) * 60 + Number(m[2])) * 60 + Number(m[3] ?? 0)) * 1000;
      if (t < clock - 43_200_000) t += 86_400_000;
      return t - clock;
    }
    const v = Number(s.replace(/\s*s$/, ''));
    return s !== '' && Number.isFinite(v) ? v * 1000 : null;
  };
  const a = read(parts[0]);
  const b = read(parts[1]);
  return a !== null && b !== null && b > a ? [a, b] : null;
}
