/**
 * The whole recording's overview (the day heatmap: minutes across, seconds down) from the count
 * pass, against the JDK's per-second counts (fixtures/expected/NAME.shape.tsv, tools/golden);
 * a drag on it selects and zooms to its seconds. And the memory budget: with the page's row
 * limit lowered (jfrscope:rowLimit), a type too large to hold whole is decoded a window of
 * chunks at a time, said on screen, and zooming elsewhere decodes that window instead, as many
 * rows as the JDK counts in its chunks (NAME.chunk-counts.tsv).
 */
import { expect, test, type Page } from '@playwright/test';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { readView, root, settled, shot } from './helpers';

const FILE = 'jdk17-multichunk.jfr';
const bytes = readFileSync(resolve(root, 'fixtures', FILE));
/** Chunk headers: start and end (epoch ms). */
const chunks: { start: number; end: number }[] = [];
for (let pos = 0; pos + 68 <= bytes.length; ) {
  const size = Number(bytes.readBigInt64BE(pos + 8));
  const start = Number(bytes.readBigInt64BE(pos + 32)) / 1e6;
  chunks.push({ start, end: start + Number(bytes.readBigInt64BE(pos + 40)) / 1e6 });
  pos += size;
}
// The page's zero: the first chunk's start, to within half a µs (engine/layout.ts originOf).
const origin = Math.min(...chunks.map((c) => c.start));
/** The JDK's per second: [epoch second, samples, allocation samples, wait ns]. */
const seconds = readFileSync(resolve(root, 'fixtures/expected', `${FILE}.shape.tsv`), 'utf8')
  .trim()
  .split('\n')
  .map((l) => l.split('\t').map(Number));
const perChunk = (type: string) => {
  const out = chunks.map(() => 0);
  for (const l of readFileSync(resolve(root, 'fixtures/expected', `${FILE}.chunk-counts.tsv`), 'utf8').trim().split('\n')) {
    const [k, t, n] = l.split('\t');
    if (t === type) out[Number(k)] = Number(n);
  }
  return out;
};
const clock = (epochMs: number) => new Date(epochMs).toISOString().slice(11, 19);
const fmt = (n: number) => n.toLocaleString('en-US');

/** The page position of the cell of an epoch second. */
async function cellPoint(page: Page, second: number): Promise<{ x: number; y: number }> {
  const canvas = page.getByRole('img', { name: /^Heatmap of/ });
  const box = (await canvas.boundingBox())!;
  const a = async (k: string) => Number(await canvas.getAttribute(`data-${k}`));
  const [minute0, w, h, left] = [await a('minute0'), await a('cell-w'), await a('cell-h'), await a('left')];
  const col = Math.floor(second / 60) - minute0;
  return { x: box.x + left + col * w + w / 2, y: box.y + (second % 60) * h + h / 2 };
}

async function readCell(page: Page, second: number): Promise<string> {
  const p = await cellPoint(page, second);
  await page.mouse.move(p.x, p.y);
  const out = page.getByLabel('Heatmap cell');
  await expect(out).toContainText(clock(second * 1000));
  return (await out.textContent()) ?? '';
}

test('the overview heatmap shows the JDK’s samples and waiting threads per second; a drag selects and zooms', async ({ page }) => {
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto('./');
  await page.getByLabel('Open recording').setInputFiles(resolve(root, 'fixtures', FILE));
  await settled(page);
  // A recording of seconds: the overview is a button away.
  await page.getByRole('button', { name: 'Overview' }).click();
  await expect(page.getByRole('img', { name: /^Heatmap of samples per second/ })).toBeVisible();
  expect(seconds.length).toBeGreaterThan(3);
  for (const [s, samples] of seconds) expect(await readCell(page, s)).toContain(`· ${fmt(samples)} samples`);
  await page.getByRole('radio', { name: 'Allocations' }).click();
  for (const [s, , allocs] of seconds) expect(await readCell(page, s)).toContain(`· ${fmt(allocs)} allocation samples`);
  await page.getByRole('radio', { name: 'Waiting threads' }).click();
  for (const [s, , , ns] of seconds) expect(await readCell(page, s)).toContain(`· ${(ns / 1e9).toFixed(ns / 1e9 >= 10 ? 0 : 2)} threads waiting`);
  await shot(page, 'overview-1-heatmap');

  // Drag from the second second to the third: both selected, the timeline zoomed to them.
  const [a, b] = [seconds[1][0], seconds[2][0]];
  const pa = await cellPoint(page, a);
  const pb = await cellPoint(page, b);
  await page.mouse.move(pa.x, pa.y);
  await page.mouse.down();
  await page.mouse.move(pb.x, pb.y, { steps: 4 });
  await page.mouse.up();
  const view = await readView(page);
  // (The histogram names its window to 10 ms.)
  expect(Math.abs(view.from - (a * 1000 - origin))).toBeLessThan(10);
  expect(Math.abs(view.to - ((b + 1) * 1000 - origin))).toBeLessThan(10);
  // The JDK's CPU samples in those two seconds (its per-second samples count the one native-method sample too).
  const cpu = readFileSync(resolve(root, 'fixtures/expected', `${FILE}.rf-counts.tsv`), 'utf8').includes('jdk.NativeMethodSample\t') ? null : seconds[1][1] + seconds[2][1];
  await expect(page.getByRole('status')).toContainText(cpu === null ? ' selected · ' : `${fmt(cpu)} of 80 CPU samples`);
  await expect(page.getByRole('status')).toContainText(`range ${((a * 1000 - origin) / 1000).toFixed(3)}`);
  await shot(page, 'overview-2-dragged');
  expect(errors).toEqual([]);
});

test('a type past the row limit is decoded a window at a time, said on screen; zooming decodes another window', async ({ page }) => {
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  const allocs = perChunk('jdk.ObjectAllocationSample');
  const samples = perChunk('jdk.ExecutionSample').reduce((x, y) => x + y, 0);
  const total = allocs.reduce((x, y) => x + y, 0);
  // The first round decodes the CPU samples only (the view's type; budget 0); room for them and
  // the first chunk's allocation samples, not for the second chunk's too.
  const limit = samples + allocs[0];
  expect(allocs[0] + allocs[1]).toBeGreaterThan(allocs[0]);
  expect(allocs[2]).toBeLessThanOrEqual(allocs[0]);
  await page.addInitScript((n) => {
    localStorage.setItem('jfrscope:rowBudget', '0');
    localStorage.setItem('jfrscope:rowLimit', String(n));
  }, limit);
  await page.goto('./');
  await page.getByLabel('Open recording').setInputFiles(resolve(root, 'fixtures', FILE));
  await expect(page.getByRole('status')).toContainText(`of ${fmt(samples)} CPU samples selected`);
  await page.getByLabel('Event').selectOption('jdk.ObjectAllocationSample');
  const note = page.getByRole('note', { name: 'Decoded window' });
  await expect(note).toContainText(`jdk.ObjectAllocationSample: ${fmt(allocs[0])} of ${fmt(total)} events decoded, ${clock(chunks[0].start)}–${clock(chunks[0].end)} UTC`);
  await expect(note).toContainText('zoom in to decode another window');
  await expect(page.getByRole('status')).toContainText(`of ${fmt(allocs[0])}`);
  await shot(page, 'overview-3-window');

  // Drag over the last second and the next (a click would select the whole minute), inside the
  // last chunk only: its rows replace the first chunk's.
  const last = seconds[seconds.length - 1][0];
  expect(last * 1000).toBeGreaterThanOrEqual(chunks[1].end);
  await page.getByRole('button', { name: 'Overview' }).click();
  const p = await cellPoint(page, last);
  await page.mouse.move(p.x, p.y);
  await page.mouse.down();
  await page.mouse.move(p.x, p.y + 3, { steps: 2 });
  await page.mouse.up();
  const k = chunks.length - 1;
  await expect(note).toContainText(`${fmt(allocs[k])} of ${fmt(total)} events decoded, ${clock(chunks[k].start)}–${clock(chunks[k].end)} UTC`);
  await page.getByRole('button', { name: 'Zoom out' }).click();
  await page.getByRole('button', { name: 'Clear selection' }).click();
  await expect(page.getByRole('status')).toContainText(`of ${fmt(allocs[k])}`);
  await shot(page, 'overview-4-other-window');
  expect(errors).toEqual([]);
});
