/**
 * Time that tells the truth, acted as a person on the example: a range inside a pile-up reads
 * the threads waiting and only the wait inside it; a typed range; the spike finder steps through
 * exactly the monitor holds the scenario scheduled; layers turn kinds of wait on and off.
 * The truth is the scenario's schedule (fixtures/expected/example.jfr.schedule.tsv), not the app.
 */
import { expect, test, type Page } from '@playwright/test';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { lanesCanvas, root, selectedCounts, selectedRange, selectRange, settled, status } from './helpers';

/** The schedule's windows of one kind, ms since the recording's start (the chunk header's). */
function windows(kind: string): [number, number][] {
  const start = readFileSync(resolve(root, 'fixtures/example.jfr')).readBigInt64BE(32);
  return readFileSync(resolve(root, 'fixtures/expected/example.jfr.schedule.tsv'), 'utf8')
    .trim()
    .split('\n')
    .map((l) => l.split('\t'))
    .filter((f) => f[0] === kind)
    .map((f) => [Number(BigInt(f[2]) - start) / 1e6, Number(BigInt(f[3]) - start) / 1e6]);
}

/** "… wait time inside it 812 ms · 8.0 threads waiting on average …" → [812, 8]. */
async function waitFigures(page: Page): Promise<[number, number]> {
  const s = await status(page);
  const wait = /wait time inside it ([\d.]+) (ms|s)/.exec(s);
  const threads = /([\d.]+) threads waiting on average/.exec(s);
  expect(wait, s).not.toBeNull();
  expect(threads, s).not.toBeNull();
  return [Number(wait![1]) * (wait![2] === 's' ? 1000 : 1), Number(threads![1])];
}

async function openLockWaits(page: Page): Promise<void> {
  await page.goto('./');
  await page.getByRole('button', { name: 'Open example' }).click();
  await expect(page.getByRole('status')).toContainText('selected');
  await page.getByLabel('Event', { exact: true }).selectOption('jdk.JavaMonitorEnter');
  await page.getByLabel('Monitor filter').fill('Index');
  await settled(page);
}

test('a range inside a pile-up reads the threads waiting and the wait inside it', async ({ page }) => {
  await openLockWaits(page);
  const holds = windows('hold');
  expect(holds.length).toBeGreaterThanOrEqual(4);
  // Typed: 100 ms strictly inside the third hold.
  const [a] = holds[2];
  await page.getByLabel('Selected range').fill(`${((a + 100) / 1000).toFixed(3)}-${((a + 200) / 1000).toFixed(3)}`);
  await page.getByLabel('Selected range').press('Enter');
  let [ms, threads] = await waitFigures(page);
  // Eight workers pile up on the index while the merger holds it.
  expect(threads).toBeGreaterThanOrEqual(6);
  // Only the part inside the range counts: threads × 100 ms, never whole 400 ms waits.
  expect(ms).toBeLessThanOrEqual(8 * 100 + 1);
  expect(Math.abs(ms - threads * 100)).toBeLessThan(15);
  const [n] = /^([\d,]+) of/.exec(await status(page))!.slice(1).map((x) => Number(x.replace(/,/g, '')));
  expect(n).toBeGreaterThanOrEqual(6);

  // Dragged with the mouse inside the second hold: the same reading.
  const [b0, b1] = holds[1];
  const typed = await page.getByLabel('Selected range').inputValue();
  await selectRange(page, b0 + 120, b1 - 120);
  await expect(page.getByLabel('Selected range')).not.toHaveValue(typed);
  // The range the drag selected, as the input shows it: inside the hold.
  const [s0, s1] = await selectedRange(page);
  expect(s0).toBeGreaterThan(b0);
  expect(s1).toBeLessThan(b1);
  [ms, threads] = await waitFigures(page);
  expect(threads).toBeGreaterThanOrEqual(6);
  const width = s1 - s0;
  expect(ms).toBeLessThanOrEqual(8 * width * 1.05);
  expect(ms).toBeGreaterThan(5 * width * 0.9);
  await expect(page.getByRole('tab', { name: 'Thread time' })).toBeVisible();
  await page.getByRole('tab', { name: 'Thread time' }).click();
  await expect(page.getByRole('table', { name: 'Thread time' })).toContainText('search-worker-');
});

test('the spike finder steps through each monitor hold once, and nothing else', async ({ page }) => {
  await openLockWaits(page);
  const holds = windows('hold');
  await expect(page.getByRole('button', { name: 'Next spike' })).toBeVisible();
  await expect(page.getByText(`${holds.length} spikes`)).toBeVisible();
  for (const [a, b] of holds) {
    await page.getByRole('button', { name: 'Next spike' }).click();
    await settled(page);
    const text = await page.getByLabel('Selected range').inputValue();
    const [x, y] = text.split('–').map((v) => Number(v) * 1000);
    expect(Math.abs(x - a), `start of the hold at ${a} ms`).toBeLessThan(100);
    expect(Math.abs(y - b), `end of the hold at ${b} ms`).toBeLessThan(100);
  }
  // Back with ] and [ on the timeline: the previous spike is the hold before the last.
  await page.getByRole('region', { name: /^Timeline/ }).focus();
  const last = await page.getByLabel('Selected range').inputValue();
  await page.keyboard.press('[');
  await expect(page.getByLabel('Selected range')).not.toHaveValue(last);
  const back = (await page.getByLabel('Selected range').inputValue()).split('–').map((v) => Number(v) * 1000);
  expect(Math.abs(back[0] - holds[holds.length - 2][0])).toBeLessThan(100);
});

test('layers turn a kind of wait off and on, and the link keeps it', async ({ page }) => {
  await openLockWaits(page);
  const layer = page.getByRole('group', { name: 'Layers' }).getByRole('button', { name: 'Monitor' });
  await expect(layer).toHaveAttribute('aria-pressed', 'true');
  const before = await lanesCanvas(page).screenshot();
  await layer.click();
  await expect(layer).toHaveAttribute('aria-pressed', 'false');
  await settled(page);
  const after = await lanesCanvas(page).screenshot();
  expect(after.equals(before)).toBe(false);
  await expect(page).toHaveURL(/layers=monitor/);
  // The link reopens with the layer off (the example is opened again: its link names no file).
  await page.goto(page.url());
  await page.getByRole('button', { name: 'Open example' }).click();
  await expect(page.getByRole('group', { name: 'Layers' }).getByRole('button', { name: 'Monitor' })).toHaveAttribute('aria-pressed', 'false');
});

test('a box on the latency heatmap selects its time and keeps only its durations', async ({ page }) => {
  await openLockWaits(page);
  await page.getByLabel('Monitor filter').fill('');
  await page.getByRole('tab', { name: 'Latency' }).click();
  const heat = page.getByRole('img', { name: /^Latency heatmap of lock waits/ });
  await expect(heat).toBeVisible();
  const box = (await heat.boundingBox())!;
  // The upper half of the plot: the long waits (holds of hundreds of ms), across most of the time.
  await page.mouse.move(box.x + 80, box.y + 5);
  await page.mouse.down();
  await page.mouse.move(box.x + box.width - 20, box.y + 110, { steps: 5 });
  await page.mouse.up();
  const chip = page.getByRole('button', { name: /^durations .*✕$/ }).first();
  await expect(chip).toBeVisible();
  await expect(page).toHaveURL(/dur=/);
  // The status line catches up with the box after the URL does: read it once the view settles.
  await expect.poll(async () => {
    const [n, total] = await selectedCounts(page);
    return n > 0 && n < total;
  }, { message: 'some, not all, lock waits selected' }).toBe(true);
  await chip.click();
  await expect(page).not.toHaveURL(/dur=/);
});
