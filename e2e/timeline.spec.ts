/**
 * The timeline by mouse and keyboard on the example: lanes sorted, grouped and hidden; zoom with
 * the wheel and the keys; a range selected from the keyboard; hover over a lane; the methods
 * table sorted and the comparison leading to a method's callers.
 */
import { expect, test, type Page } from '@playwright/test';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { histogram, LABEL_W, lanesCanvas, readHistogram, readView, root, selectedCounts, selectedRange, settled, shot, xAt } from './helpers';

/**
 * The example's scan windows in ms since the recording's start: the scenario's schedule
 * (fixtures/expected/example.jfr.schedule.tsv, epoch ns) less the chunk header's start.
 */
function scanWindows(): [number, number][] {
  const start = readFileSync(resolve(root, 'fixtures/example.jfr')).readBigInt64BE(32);
  return readFileSync(resolve(root, 'fixtures/expected/example.jfr.schedule.tsv'), 'utf8')
    .trim()
    .split('\n')
    .map((l) => l.split('\t'))
    .filter((f) => f[0] === 'scan')
    .map((f) => [Number(BigInt(f[2]) - start) / 1e6, Number(BigInt(f[3]) - start) / 1e6]);
}

/** The thread with the most CPU samples in the example, as the JDK reads it (fixtures/expected/, tools/golden). */
function busiestThread(): string {
  return readFileSync(resolve(root, 'fixtures/expected/example.jfr.threads.tsv'), 'utf8')
    .split('\n')
    .map((l) => l.split('\t'))
    .filter(([name, n]) => name !== '' && n !== undefined)
    .sort((a, b) => Number(b[1]) - Number(a[1]))[0][0];
}

/** The lanes' names, top to bottom, as the lanes' accessible name lists them. */
async function lanes(page: Page): Promise<string[]> {
  await settled(page);
  const label = (await lanesCanvas(page).getAttribute('aria-label')) ?? '';
  const m = /^Thread lanes \((\d+)\)(?:: (.*))?$/s.exec(label);
  expect(m, label).not.toBeNull();
  const names = m![2] ? m![2].split(', ') : [];
  expect(names).toHaveLength(Number(m![1]));
  return names;
}

test('lanes sort, group and hide; the Threads menu works from the keyboard', async ({ page }) => {
  await page.goto('./');
  await page.getByRole('button', { name: 'Open example' }).click();
  await expect(page.getByRole('status')).toContainText('selected');
  // By matching events (the default) the thread with the most CPU samples comes first (the
  // index-merger, burning CPU through its holds of the Index monitor).
  expect((await lanes(page))[0]).toBe(busiestThread());
  await page.getByLabel('Lane order').selectOption('name');
  const byName = await lanes(page);
  expect(byName.filter((l) => l.startsWith('search-worker-'))).toEqual([1, 2, 3, 4, 5, 6, 7, 8].map((n) => `search-worker-${n}`));

  await page.getByLabel('Group by name').check();
  await expect.poll(() => lanes(page)).toContain('search-worker-* (8)');
  await page.getByLabel('Group by name').uncheck();

  // Hide one worker through the menu, by keyboard only.
  const summary = page.getByText('Threads', { exact: true });
  await summary.focus();
  await page.keyboard.press('Enter');
  await page.getByLabel('Find thread').fill('worker-3');
  await page.getByLabel('Find thread').press('Tab');
  await page.keyboard.press('Tab');
  await page.keyboard.press('Tab');
  await page.keyboard.press('Space');
  await expect.poll(() => lanes(page)).not.toContain('search-worker-3');
  await expect(page.getByText('Threads (1 hidden)')).toBeVisible();
  await shot(page, 'timeline-threads-menu');
  await page.getByRole('button', { name: 'Show these' }).click();
  await expect.poll(() => lanes(page)).toContain('search-worker-3');

  // On lock waits, one click hides the threads that have none: the eight workers stay.
  await page.getByLabel('Find thread').fill('');
  await page.getByLabel('Event').selectOption('jdk.JavaMonitorEnter');
  await expect(page.getByRole('status')).toContainText('lock waits');
  expect((await lanes(page)).length).toBeGreaterThan(8);
  await page.getByRole('button', { name: /^Hide \d+ without events$/ }).click();
  await expect.poll(async () => (await lanes(page)).sort()).toEqual([1, 2, 3, 4, 5, 6, 7, 8].map((n) => `search-worker-${n}`));
  await expect(page.getByRole('button', { name: /without events/ })).toBeHidden();
  await page.getByRole('button', { name: 'Show all' }).click();
  await page.getByLabel('Event').selectOption('jdk.ExecutionSample');

  // The thread filter drops lanes too.
  await page.getByLabel('Thread filter').fill('^dispatcher$');
  await expect.poll(() => lanes(page)).toEqual(['dispatcher']);
});

test('wheel and keys zoom and pan; Enter selects the visible window; hover names the sample', async ({ page }) => {
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto('./');
  await page.getByRole('button', { name: 'Open example' }).click();
  await expect(page.getByRole('status')).toContainText('selected');
  const whole = await readView(page);
  const head = histogram(page);
  const box = (await head.boundingBox())!;
  await page.mouse.move(box.x + LABEL_W + (box.width - LABEL_W) * 0.55, box.y + 30);
  for (let i = 0; i < 5; i++) await page.mouse.wheel(0, -200);
  await expect.poll(async () => { const v = await readView(page); return v.to - v.from; }).toBeLessThan((whole.to - whole.from) / 2);
  let zoomed = await readView(page);
  // The link follows the window once the wheel rests (meanwhile the timeline redraws alone), and
  // names the window the histogram shows (written to the millisecond; the histogram to its precision).
  await expect.poll(() => new URL(page.url()).searchParams.get('zoom')).toMatch(/^[\d.]+-[\d.]+$/);
  const [zf, zt] = new URL(page.url()).searchParams.get('zoom')!.split('-').map(Number);
  expect(Math.abs(zf - zoomed.from)).toBeLessThan(51);
  expect(Math.abs(zt - zoomed.to)).toBeLessThan(51);
  // A window set from outside the timeline (the tools' Zoom out) shows at once, and the wheel zooms from it again.
  await page.getByRole('button', { name: 'Zoom out' }).click();
  await expect.poll(async () => (await readView(page)).to - (await readView(page)).from).toBe(whole.to - whole.from);
  await expect.poll(() => new URL(page.url()).searchParams.get('zoom')).toBeNull();
  await page.mouse.move(box.x + LABEL_W + (box.width - LABEL_W) * 0.55, box.y + 30);
  for (let i = 0; i < 5; i++) await page.mouse.wheel(0, -200);
  await expect.poll(async () => { const v = await readView(page); return v.to - v.from; }).toBeLessThan((whole.to - whole.from) / 2);
  await expect.poll(() => new URL(page.url()).searchParams.get('zoom')).not.toBeNull();
  zoomed = await readView(page);

  // Keyboard: pan right, zoom in, select what is visible, then back out with 0.
  await page.getByRole('region', { name: /Timeline/ }).focus();
  await page.keyboard.press('ArrowRight');
  await expect.poll(async () => (await readView(page)).from).toBeGreaterThan(zoomed.from);
  const panned = await readView(page);
  await page.keyboard.press('+');
  await expect.poll(async () => { const v = await readView(page); return v.to - v.from; }).toBeLessThan(panned.to - panned.from);
  const visible = await readView(page);
  await page.keyboard.press('Enter');
  await expect(page.getByRole('status')).toContainText('range');
  // The selected range is the window the histogram names (written to its precision: 2 decimals of a second, 1 past 10 s).
  const [selFrom, selTo] = await selectedRange(page);
  expect(Math.abs(selFrom - visible.from)).toBeLessThan(51);
  expect(Math.abs(selTo - visible.to)).toBeLessThan(51);
  const [inRange, all] = await selectedCounts(page);
  expect(inRange).toBeLessThan(all);
  await page.keyboard.press('0');
  await expect.poll(async () => (await readView(page)).from).toBe(0);
  await page.keyboard.press('Escape');
  await expect(page.getByRole('status')).not.toContainText('range');

  // Hover over the busiest column of the first lane, the workers' lanes alone: a tooltip with
  // thread and frames.
  await page.getByLabel('Thread filter').fill('^search-worker-');
  await expect.poll(async () => (await lanes(page)).every((l) => l.startsWith('search-worker-'))).toBe(true);
  const lanesBox = (await lanesCanvas(page).boundingBox())!;
  const h = await readHistogram(page);
  let shown = false;
  // The tallest columns of the histogram's picture, a few pixels apart.
  const order = h.matching.map((m, i) => [m + h.other[i], i]).sort((a, b) => b[0] - a[0]);
  const columns: number[] = [];
  for (const [, i] of order) if (columns.length < 12 && columns.every((c) => Math.abs(c - i) > 4)) columns.push(i);
  for (const i of columns) {
    const x = xAt(lanesBox, h, h.from + ((i + 0.5) / h.matching.length) * (h.to - h.from));
    for (let dx = -4; dx <= 4 && !shown; dx += 2) {
      await page.mouse.move(x + dx, lanesBox.y + 8);
      shown = await page.getByRole('tooltip').filter({ hasText: 'thread' }).isVisible();
    }
    if (shown) break;
  }
  expect(shown).toBe(true);
  await expect(page.getByRole('tooltip')).toContainText('search-worker');
  await shot(page, 'timeline-hover');
  await page.getByLabel('Thread filter').fill('');

  // Clock time: the same times read as the clock showed them, in UTC, from the recording's start.
  await page.getByRole('tab', { name: 'Recording' }).click();
  const iso = (await page.getByRole('definition').filter({ hasText: /^\d{4}-\d\d-\d\dT/ }).first().textContent())!;
  await page.getByLabel('Clock time (UTC)').check();
  await expect(page).toHaveURL(/clock=1/);
  await expect(head).toHaveAttribute('aria-label', new RegExp(`^Activity (\\([^)]*\\) )?from ${iso.slice(11, 19)}\\.\\d+ UTC to `));
  await page.mouse.move(box.x + LABEL_W + 40, lanesBox.y - 40);
  await expect(page.getByRole('tooltip')).toContainText(/\d\d:\d\d:\d\d.* UTC/);
  await shot(page, 'timeline-clock');
  expect(errors).toEqual([]);
});

test('top methods sort by self; a risen method leads to its callers', async ({ page }) => {
  await page.goto('./');
  await page.getByRole('button', { name: 'Open example' }).click();
  await expect(page.getByRole('status')).toContainText('selected');
  await page.getByRole('tab', { name: 'Top methods' }).click();
  const table = page.getByRole('table', { name: 'Top methods' });
  await expect(table.locator('tbody tr').first()).toContainText('java.lang.Thread.run');
  await table.getByRole('button', { name: /^Self/ }).click();
  await expect(table.locator('th[aria-sort="descending"]')).toContainText('Self');
  const first = (await table.locator('tbody tr').first().textContent()) ?? '';
  expect(first).not.toContain('java.lang.Thread.run');

  // Select the second spike (the second scan, 200 ms either side), typed as seconds.
  const [from, to] = scanWindows()[1];
  await page.getByLabel('Selected range').fill(`${((from - 200) / 1000).toFixed(3)}-${((to + 200) / 1000).toFixed(3)}`);
  await page.getByLabel('Selected range').press('Enter');
  await expect(page.getByRole('status')).toContainText('range');
  await page.getByRole('tab', { name: 'Compare' }).click();
  const rose = page.getByRole('table', { name: 'Methods that changed' });
  await rose.getByRole('button', { name: 'java.io.DataInputStream.skipBytes', exact: true }).click();
  // A row leads to the method's sandwich: its callers above it, its callees below.
  await expect(page.getByRole('tab', { name: 'Sandwich' })).toHaveAttribute('aria-selected', 'true');
  await expect(page.getByRole('group', { name: 'Callers of java.io.DataInputStream.skipBytes' }).locator('g.frame[name="SearchService.parseRecords"]')).toHaveCount(1);
  await shot(page, 'methods-sandwich');
});

test('a file dropped anywhere on the page opens', async ({ page }) => {
  await page.goto('./');
  const bytes = readFileSync(resolve(root, 'fixtures/ap-wall.jfr')).toString('base64');
  const dataTransfer = await page.evaluateHandle((b64) => {
    const raw = Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
    const dt = new DataTransfer();
    dt.items.add(new File([raw], 'ap-wall.jfr', { type: 'application/octet-stream' }));
    return dt;
  }, bytes);
  await page.dispatchEvent('main', 'dragover', { dataTransfer });
  await expect(page.locator('.app.drag-over')).toHaveCount(1);
  await page.dispatchEvent('main', 'drop', { dataTransfer });
  await expect(page.getByRole('status')).toContainText('wall-clock samples selected');
  await expect(page.locator('.file-name')).toHaveText('ap-wall.jfr');
  await expect(page.locator('.app.drag-over')).toHaveCount(0);
});
