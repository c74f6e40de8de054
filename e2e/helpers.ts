import { expect, type Page } from '@playwright/test';
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { inflateSync } from 'node:zlib';

export const root = resolve(fileURLToPath(new URL('.', import.meta.url)), '..');
export const corpus = resolve(root, '../shared/corpus');
export const hasCorpus = existsSync(corpus);

/**
 * The lane-name column's width (px): the plot of the histogram, the axis and the lanes starts at
 * this distance from the timeline's left edge, the same for the whole timeline.
 */
export const LABEL_W = 220;

/** The activity histogram, by its accessible name ("Activity … from 0 µs to 21.4 s: …"). */
export const histogram = (page: Page) => page.getByRole('img', { name: /^Activity/ });
/** The thread lanes, by their accessible name ("Thread lanes (3): index-merger, dispatcher, …"). */
export const lanesCanvas = (page: Page) => page.getByRole('img', { name: /^Thread lanes/ });

export async function shot(page: Page, name: string): Promise<void> {
  await settled(page);
  await page.screenshot({ path: resolve(root, 'e2e/artifacts', `${name}.png`), animations: 'disabled' });
}

/**
 * Wait until the view has caught up with the last input: the selectors run on a deferred copy
 * of the state, and the status line says aria-busy meanwhile.
 */
export async function settled(page: Page): Promise<void> {
  await expect(page.getByRole('status')).not.toHaveAttribute('aria-busy', 'true');
}

/** A time as the app writes it ("0 µs", "812 ms", "4.25 s", "21.4 s", "1m02.5s", "2h03m04.5s") → ms. */
export function parseMs(s: string): number {
  let m = /^(-?)(\d+)h(\d+)m([\d.]+)s$/.exec(s.trim());
  if (m) return (m[1] ? -1 : 1) * (Number(m[2]) * 3_600_000 + Number(m[3]) * 60_000 + Number(m[4]) * 1000);
  m = /^(-?)(\d+)m([\d.]+)s$/.exec(s.trim());
  if (m) return (m[1] ? -1 : 1) * (Number(m[2]) * 60_000 + Number(m[3]) * 1000);
  m = /^(-?[\d.]+) (s|ms|µs)$/.exec(s.trim());
  if (!m) throw new Error(`not a time: ${s}`);
  return Number(m[1]) * { s: 1000, ms: 1, µs: 0.001 }[m[2] as 's' | 'ms' | 'µs'];
}

export interface View {
  /** The visible window (ms), as the histogram's accessible name states it. */
  from: number;
  to: number;
  /** "most matching around …" (ms), when anything matches. */
  peak: number | null;
}

/** The visible window and the busiest time, read from the histogram's accessible name. */
export async function readView(page: Page): Promise<View> {
  await settled(page);
  const label = (await histogram(page).getAttribute('aria-label')) ?? '';
  const m = / from (.+?) to (.+?): /.exec(label);
  expect(m, `the histogram names its window: ${label}`).not.toBeNull();
  const peak = /most matching around (.+)$/.exec(label);
  return { from: parseMs(m![1]), to: parseMs(m![2]), peak: peak ? parseMs(peak[1]) : null };
}

/** Page x of time t (ms) over a canvas of the timeline, whose plot starts LABEL_W from its left. */
export function xAt(box: { x: number; width: number }, v: View, t: number): number {
  return box.x + LABEL_W + ((t - v.from) / (v.to - v.from)) * (box.width - LABEL_W);
}

/** The "Selected range" input's value ("4.2–4.9", seconds) → [from, to] ms. */
export async function selectedRange(page: Page): Promise<[number, number]> {
  const v = await page.getByLabel('Selected range').inputValue();
  const m = /^([\d.]+)\s*[–-]\s*([\d.]+)$/.exec(v.trim());
  expect(m, `a range is selected: ${v}`).not.toBeNull();
  return [Number(m![1]) * 1000, Number(m![2]) * 1000];
}

/** RGB pixels of a PNG (8-bit RGB or RGBA, not interlaced), as Playwright's screenshots are. */
export function decodePng(png: Buffer): { width: number; height: number; rgb: (x: number, y: number) => [number, number, number] } {
  let pos = 8;
  let width = 0;
  let height = 0;
  let channels = 0;
  const idat: Buffer[] = [];
  while (pos < png.length) {
    const len = png.readUInt32BE(pos);
    const type = png.toString('latin1', pos + 4, pos + 8);
    const data = png.subarray(pos + 8, pos + 8 + len);
    if (type === 'IHDR') {
      width = data.readUInt32BE(0);
      height = data.readUInt32BE(4);
      expect(data[8], '8-bit PNG').toBe(8);
      channels = { 2: 3, 6: 4 }[data[9]] ?? 0;
      expect(channels, 'RGB or RGBA PNG').toBeGreaterThan(0);
      expect(data[12], 'not interlaced').toBe(0);
    } else if (type === 'IDAT') idat.push(data);
    pos += 12 + len;
  }
  const raw = inflateSync(Buffer.concat(idat));
  const stride = width * channels;
  const out = Buffer.alloc(stride * height);
  for (let y = 0; y < height; y++) {
    const f = raw[y * (stride + 1)];
    const src = raw.subarray(y * (stride + 1) + 1, (y + 1) * (stride + 1));
    const row = y * stride;
    for (let i = 0; i < stride; i++) {
      const a = i >= channels ? out[row + i - channels] : 0;
      const b = y > 0 ? out[row - stride + i] : 0;
      const c = i >= channels && y > 0 ? out[row - stride + i - channels] : 0;
      let v = src[i];
      if (f === 1) v += a;
      else if (f === 2) v += b;
      else if (f === 3) v += (a + b) >> 1;
      else if (f === 4) {
        const p = a + b - c;
        const pa = Math.abs(p - a);
        const pb = Math.abs(p - b);
        const pc = Math.abs(p - c);
        v += pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
      }
      out[row + i] = v & 255;
    }
  }
  return { width, height, rgb: (x, y) => [out[y * stride + x * channels], out[y * stride + x * channels + 1], out[y * stride + x * channels + 2]] };
}

export interface Hist extends View {
  /** Per pixel column of the plot: the height (px) of the matching bar and of the other bar. */
  matching: number[];
  other: number[];
}

/**
 * The activity histogram as it is drawn: a screenshot of its canvas, read per pixel column of
 * the plot; matching events are the bar in the event kind's (saturated) colour at the bottom,
 * other events the grey bar above it; the window is the one its accessible name states.
 */
export async function readHistogram(page: Page): Promise<Hist> {
  const view = await readView(page);
  await page.mouse.move(0, 0); // no hover line or tooltip in the picture
  const canvas = histogram(page);
  const box = (await canvas.boundingBox())!;
  const img = decodePng(await canvas.screenshot({ animations: 'disabled' }));
  const s = img.width / box.width;
  const HIST_H = 64; // the bars' strip, under 6 px of headroom (GC marks take the top 3)
  const m: number[] = [];
  const o: number[] = [];
  for (let x = Math.ceil(LABEL_W * s); x < img.width; x++) {
    const bg = img.rgb(x, Math.floor(4 * s));
    let matching = 0;
    let other = 0;
    for (let y = Math.floor(5 * s); y < Math.floor(HIST_H * s); y++) {
      const p = img.rgb(x, y);
      if (Math.abs(p[0] - bg[0]) + Math.abs(p[1] - bg[1]) + Math.abs(p[2] - bg[2]) < 24) continue;
      if (Math.max(...p) - Math.min(...p) > 60) matching++;
      else other++;
    }
    m.push(matching / s);
    o.push(other / s);
  }
  // Bars are a few pixels wide with thin gaps: a column reads as the tallest of it and its neighbours.
  const widen = (a: number[]) => a.map((_, i) => Math.max(a[i - 1] ?? 0, a[i], a[i + 1] ?? 0));
  return { ...view, matching: widen(m), other: widen(o) };
}

export async function status(page: Page): Promise<string> {
  await settled(page);
  return (await page.getByRole('status').textContent()) ?? '';
}

/** "12 of 345 … selected" → [12, 345]. */
export async function selectedCounts(page: Page): Promise<[number, number]> {
  const m = /([\d,]+) of ([\d,]+)/.exec(await status(page));
  expect(m, 'status line names the selection').not.toBeNull();
  return [Number(m![1].replace(/,/g, '')), Number(m![2].replace(/,/g, ''))];
}

/** Drag across the histogram from time a to time b (ms), at the times its axis maps them to. */
export async function selectRange(page: Page, a: number, b: number): Promise<void> {
  const v = await readView(page);
  const box = (await histogram(page).boundingBox())!;
  const x = (t: number) => Math.min(box.x + box.width - 1, Math.max(box.x + LABEL_W + 1, xAt(box, v, Math.min(v.to, Math.max(v.from, t)))));
  const y = box.y + 30;
  await page.mouse.move(x(a), y);
  await page.mouse.down();
  await page.mouse.move((x(a) + x(b)) / 2, y, { steps: 4 });
  await page.mouse.move(x(b), y, { steps: 4 });
  await page.mouse.up();
}

/** Runs of columns whose total activity is well above the median: the spike windows (ms). */
export function spikeWindows(h: Hist): [number, number][] {
  const total = h.matching.map((m, i) => m + h.other[i]);
  const sorted = [...total].sort((a, b) => a - b);
  const median = sorted[Math.floor(sorted.length / 2)];
  const hot = total.map((t) => t > Math.max(2 * median, 1));
  const w = (h.to - h.from) / total.length;
  const out: [number, number][] = [];
  for (let i = 0; i < hot.length; i++) {
    if (!hot[i]) continue;
    let j = i;
    while (j + 1 < hot.length && (hot[j + 1] || (j + 2 < hot.length && hot[j + 2]))) j++;
    out.push([h.from + i * w, h.from + (j + 1) * w]);
    i = j;
  }
  return out;
}

/** [first, last] time (ms) of the columns holding matching events. */
export function matchingSpan(h: Hist): [number, number] {
  const w = (h.to - h.from) / h.matching.length;
  const first = h.matching.findIndex((m) => m > 0);
  let last = h.matching.length - 1;
  while (last > 0 && h.matching[last] === 0) last--;
  return [h.from + first * w, h.from + (last + 1) * w];
}

/** Click the top lane at the time the histogram's name says most matching events are, until the event panel opens. */
export async function clickBusiestPoint(page: Page): Promise<boolean> {
  const v = await readView(page);
  expect(v.peak, 'the histogram names its busiest time').not.toBeNull();
  const box = (await lanesCanvas(page).boundingBox())!;
  const x = xAt(box, v, v.peak!);
  for (let d = 0; d <= 16; d += 2) {
    for (const dx of d ? [d, -d] : [0]) {
      await page.mouse.click(x + dx, box.y + 8);
      if (await page.getByRole('complementary', { name: 'Event details' }).isVisible()) return true;
    }
  }
  return false;
}
