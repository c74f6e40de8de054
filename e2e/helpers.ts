import { expect, type Page } from '@playwright/test';
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = resolve(fileURLToPath(new URL('.', import.meta.url)), '..');
export const corpus = resolve(root, '../shared/corpus');
export const hasCorpus = existsSync(corpus);

export async function shot(page: Page, name: string): Promise<void> {
  // Let the flame graph's transitions settle.
  await page.waitForTimeout(400);
  await page.screenshot({ path: resolve(root, 'e2e/artifacts', `${name}.png`) });
}

export interface Hist {
  from: number;
  to: number;
  matching: number[];
  other: number[];
  left: number;
}

/**
 * Wait until the view has caught up with the last input: the selectors run on a deferred copy
 * of the state, and the status line says aria-busy meanwhile.
 */
export async function settled(page: Page): Promise<void> {
  await expect(page.getByRole('status')).not.toHaveAttribute('aria-busy', 'true');
}

/** The activity histogram as the page draws it (its canvas carries the bucket counts). */
export async function readHistogram(page: Page): Promise<Hist> {
  await settled(page);
  const h = page.getByTestId('histogram');
  const get = async (k: string) => (await h.getAttribute(k)) ?? '';
  return {
    from: Number(await get('data-from')),
    to: Number(await get('data-to')),
    matching: (await get('data-matching')).split(',').map(Number),
    other: (await get('data-other')).split(',').map(Number),
    left: Number(await get('data-plot-left')),
  };
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

/** Drag across the histogram from time a to time b (ms). */
export async function selectRange(page: Page, a: number, b: number): Promise<void> {
  const h = await readHistogram(page);
  const box = (await page.getByTestId('histogram').boundingBox())!;
  const plotW = box.width - h.left;
  const x = (t: number) => {
    const clamped = Math.min(h.to, Math.max(h.from, t));
    return box.x + h.left + 1 + ((clamped - h.from) / (h.to - h.from)) * (plotW - 2);
  };
  const y = box.y + 30;
  await page.mouse.move(x(a), y);
  await page.mouse.down();
  await page.mouse.move((x(a) + x(b)) / 2, y, { steps: 4 });
  await page.mouse.move(x(b), y, { steps: 4 });
  await page.mouse.up();
}

/** Runs of buckets whose total activity is well above the median: the spike windows (ms). */
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

/** [first, last] time (ms) of the buckets holding matching events. */
export function matchingSpan(h: Hist): [number, number] {
  const w = (h.to - h.from) / h.matching.length;
  const first = h.matching.findIndex((m) => m > 0);
  let last = h.matching.length - 1;
  while (last > 0 && h.matching[last] === 0) last--;
  return [h.from + first * w, h.from + (last + 1) * w];
}

/** Click the top lane at the histogram's busiest column until the event panel opens. */
export async function clickBusiestPoint(page: Page): Promise<boolean> {
  const lanes = page.getByTestId('lanes');
  const box = (await lanes.boundingBox())!;
  const h = await page.getByTestId('histogram').getAttribute('data-matching');
  const counts = (h ?? '').split(',').map(Number);
  const best = counts.indexOf(Math.max(...counts));
  const left = Number(await page.getByTestId('histogram').getAttribute('data-plot-left'));
  const x = box.x + left + ((best + 0.5) / counts.length) * (box.width - left);
  for (let dx = 0; dx < 12; dx += 2) {
    await page.mouse.click(x + dx, box.y + 8);
    if (await page.getByRole('complementary', { name: 'Event details' }).isVisible()) return true;
  }
  return false;
}
