/**
 * The sandwich and the stack chart as a person reads them, on the example recording (the hunt:
 * search workers reading files, NativeThreadSet lock waits, DataInputStream.skipBytes).
 * Truth: the JDK's own reading, the collapsed stacks of fixtures/expected/ (RecordingFile) and
 * `jfr print --json` of the samples.
 */
import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { root, settled, shot } from './helpers';

const METHOD = 'java.io.DataInputStream.skipBytes';

/** The JDK's CPU samples of the example as collapsed stacks (root first) with counts. */
const collapsed = gunzipSync(readFileSync(resolve(root, 'fixtures/expected/example.jfr.jdk.ExecutionSample.collapsed.gz')))
  .toString('utf8')
  .trim()
  .split('\n')
  .map((l) => ({ frames: l.slice(0, l.lastIndexOf(' ')).split(';'), n: Number(l.slice(l.lastIndexOf(' ') + 1)) }));

/** Direct callers of a method at its outermost call, and the method's total samples (each stack once). */
function callersOf(method: string): { total: number; callers: Map<string, number> } {
  const callers = new Map<string, number>();
  let total = 0;
  for (const { frames, n } of collapsed) {
    const k = frames.indexOf(method);
    if (k < 0) continue;
    total += n;
    const caller = k > 0 ? frames[k - 1] : '(root)';
    callers.set(caller, (callers.get(caller) ?? 0) + n);
  }
  return { total, callers };
}

/** The focused frame's line under a graph: "name · total N samples (…) · self …". */
async function focusLine(page: Page, graph: string): Promise<{ name: string; total: number }> {
  const text = (await page.getByLabel(`${graph}: focused frame`).textContent()) ?? '';
  const m = /^(.*?) · total ([\d,]+) samples/.exec(text);
  expect(m, `a frame is focused: ${text}`).not.toBeNull();
  return { name: m![1], total: Number(m![2].replace(/,/g, '')) };
}

/** Violations of impact serious or critical (axe-core), as the a11y spec reads them. */
async function grave(page: Page): Promise<string[]> {
  const r = await new AxeBuilder({ page }).analyze();
  return r.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${v.id}: ${v.help} ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}

/** Press Tab until the element is focused (as a keyboard user reaches it). */
async function tabTo(page: Page, target: ReturnType<Page['getByRole']>): Promise<void> {
  for (let k = 0; k < 80; k++) {
    if (await target.evaluate((el) => el === document.activeElement)) return;
    await page.keyboard.press('Tab');
  }
  throw new Error('never reached by Tab');
}

test('the sandwich of skipBytes, opened from the flame graph by keyboard only', async ({ page }) => {
  const truth = callersOf(METHOD);
  expect(truth.total).toBeGreaterThan(20);
  await page.setViewportSize({ width: 1600, height: 1000 });
  await page.goto('./');
  await page.getByRole('button', { name: 'Open example' }).click();
  await expect(page.getByRole('status')).toContainText('selected');
  await expect(page.getByLabel('Event')).toHaveValue('jdk.ExecutionSample');

  // Keep the stacks through skipBytes (typed), then walk the flame graph from its root up the
  // widest callees: every path left holds skipBytes, so the walk passes it.
  await page.getByLabel('Stack filter').focus();
  await page.keyboard.type('skipBytes');
  await settled(page);
  const graph = page.getByRole('group', { name: 'Flame graph' });
  await tabTo(page, graph);
  await page.keyboard.press('Home');
  let at = await focusLine(page, 'Flame graph').catch(() => null);
  for (let k = 0; k < 40 && at?.name !== METHOD; k++) {
    await page.keyboard.press('ArrowUp');
    at = await focusLine(page, 'Flame graph');
  }
  expect(at?.name).toBe(METHOD);
  // The outline is on the focused frame.
  await expect(graph.locator('g.kbd-focus')).toHaveAttribute('name', METHOD);
  await shot(page, 'sandwich-1-flame-focus');
  await page.keyboard.press('s');
  await expect(page.getByRole('tab', { name: 'Sandwich' })).toHaveAttribute('aria-selected', 'true');
  expect(new URL(page.url()).searchParams.get('view')).toBe('sandwich');
  expect(new URL(page.url()).searchParams.get('method')).toBe(METHOD);

  // The sandwich: no stack filter needed any more; clear it (typed) to weigh the whole recording.
  await page.getByLabel('Stack filter').fill('');
  await settled(page);
  const callers = page.getByRole('group', { name: `Callers of ${METHOD}` });
  await expect(callers).toBeVisible();
  await expect(page.getByRole('group', { name: `Callees of ${METHOD}` })).toBeVisible();
  await shot(page, 'sandwich-2-view-1600');

  // Read the callers by keyboard: the root (the method) weighs its total, ↑ goes to its
  // callers (drawn above it), ← → along their row.
  await tabTo(page, callers);
  await page.keyboard.press('Home');
  const rootLine = await focusLine(page, `Callers of ${METHOD}`);
  expect(rootLine).toEqual({ name: METHOD, total: truth.total });
  await page.keyboard.press('ArrowUp');
  const seen = new Map<string, number>();
  let line = await focusLine(page, `Callers of ${METHOD}`);
  // Leftmost, then rightward until the focus stops moving.
  for (let k = 0; k < 20; k++) await page.keyboard.press('ArrowLeft');
  for (let k = 0; k < 50; k++) {
    line = await focusLine(page, `Callers of ${METHOD}`);
    if (seen.has(line.name)) break;
    seen.set(line.name, line.total);
    await page.keyboard.press('ArrowRight');
  }
  expect(seen).toEqual(truth.callers);
  await page.setViewportSize({ width: 1280, height: 800 });
  await shot(page, 'sandwich-3-view-1280');
});

/** The example's CPU samples as the JDK reads them: time (ms since the recording's start), thread, stack root first. */
function jdkSamples(): { t: number; thread: string; path: string[] }[] {
  const start = readFileSync(resolve(root, 'fixtures/example.jfr')).readBigInt64BE(32);
  return gunzipSync(readFileSync(resolve(root, 'fixtures/expected/example.jfr.samples.tsv.gz')))
    .toString('utf8')
    .trim()
    .split('\n')
    .map((l) => l.split('\t'))
    .map(([ns, thread, stack]) => ({ t: Number(BigInt(ns) - start) / 1e6, thread, path: stack.split(';') }));
}

/** Row geometry of the stack chart's canvas (components/StackChart.tsx): axis, the first thread's header, rows. */
const AXIS_H = 20;
const HEADER_H = 20;
const ROW_H = 16;

test('the stack chart of a search worker shows, moment by moment, the frames of its samples', async ({ page }) => {
  const WORKER = 'search-worker-3';
  const mine = jdkSamples()
    .filter((s) => s.thread === WORKER)
    .sort((a, b) => a.t - b.t);
  expect(mine.length).toBeGreaterThan(40);
  // A sample with a deep stack and at least 10 ms before the thread's next one, from the middle of the recording.
  const candidates = mine.filter((s, k) => s.path.length >= 7 && k + 1 < mine.length && mine[k + 1].t - s.t >= 10);
  const sample = candidates[candidates.length >> 1];
  await page.setViewportSize({ width: 1600, height: 1000 });
  await page.goto('./');
  await page.getByRole('button', { name: 'Open example' }).click();
  await expect(page.getByRole('status')).toContainText('selected');
  await page.getByRole('tab', { name: 'Stack chart' }).click();
  await page.getByLabel('Stack chart thread').selectOption(WORKER);
  expect(new URL(page.url()).searchParams.getAll('pin')).toEqual([WORKER]);
  // 30 ms before the sample to 50 ms after it.
  const [a, b] = [sample.t - 30, sample.t + 50];
  await page.getByLabel('Selected range').fill(`${(a / 1000).toFixed(4)}-${(b / 1000).toFixed(4)}`);
  await page.getByLabel('Selected range').press('Enter');
  await settled(page);
  const chart = page.getByRole('img', { name: new RegExp(`^Stack chart of ${WORKER} `) });
  await expect(chart).toBeVisible();
  const box = (await chart.boundingBox())!;
  // 1 ms into the sample, each depth of its stack names its frame there.
  const at = sample.t + 1;
  const x = box.x + ((at - a) / (b - a)) * box.width;
  const tip = page.locator('.stack-tip');
  for (let d = 0; d <= sample.path.length; d++) {
    await page.mouse.move(x, box.y + AXIS_H + HEADER_H + d * ROW_H + ROW_H / 2);
    if (d === sample.path.length) {
      // Below the sample's leaf: nothing.
      await expect(tip).toHaveCount(0);
      break;
    }
    await expect(tip).toBeVisible();
    await expect(tip.locator('div').first()).toHaveText(sample.path[d]);
    const m = /^([\d.]+) s – ([\d.]+) s/.exec((await tip.locator('div').nth(1).textContent()) ?? '');
    expect(m, 'the box names its time span').not.toBeNull();
    expect(Number(m![1]) * 1000).toBeLessThanOrEqual(at + 0.1);
    expect(Number(m![2]) * 1000).toBeGreaterThanOrEqual(at - 0.1);
  }
  await page.mouse.move(x, box.y + AXIS_H + HEADER_H + 2 * ROW_H + ROW_H / 2);
  await shot(page, 'stackchart-1-1600');
  // A click chooses the frame's method (the flame graph's and the sandwich's).
  await page.mouse.click(x, box.y + AXIS_H + HEADER_H + (sample.path.length - 1) * ROW_H + ROW_H / 2);
  await expect.poll(() => new URL(page.url()).searchParams.get('method')).toBe(sample.path[sample.path.length - 1]);
  // The click focused that box; the keys walk from it: ↑ its caller, whose method Enter chooses.
  const line = page.getByRole('note', { name: 'Stack chart: focused frame' });
  await expect(line).toContainText(`${sample.path[sample.path.length - 1]} · `);
  await page.keyboard.press('ArrowUp');
  await expect(line).toContainText(`${sample.path[sample.path.length - 2]} · `);
  await expect(line).toContainText(`depth ${sample.path.length - 2} · ${WORKER}`);
  await page.keyboard.press('Enter');
  await expect.poll(() => new URL(page.url()).searchParams.get('method')).toBe(sample.path[sample.path.length - 2]);
  // The whole recording of that thread, at 1280 × 800.
  await page.getByRole('button', { name: 'Clear selection' }).click();
  await page.setViewportSize({ width: 1280, height: 800 });
  await shot(page, 'stackchart-2-1280');
});

test('the sandwich from a top-methods row, a comparison row and a link; the stack chart in the dark', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto('./');
  await page.getByRole('button', { name: 'Open example' }).click();
  await expect(page.getByRole('status')).toContainText('selected');
  // A row of Top methods.
  await page.getByRole('tab', { name: 'Top methods' }).click();
  await page.getByRole('button', { name: `Sandwich of ${METHOD}` }).click();
  await expect(page.getByRole('tab', { name: 'Sandwich' })).toHaveAttribute('aria-selected', 'true');
  await expect(page.getByRole('group', { name: `Callers of ${METHOD}` })).toBeVisible();
  await expect(page.getByText(new RegExp(`^total ${callersOf(METHOD).total} samples \\(`))).toBeVisible();
  // A row of Compare: a scan window against the rest; its top row's method.
  await page.getByLabel('Selected range').fill('9.04-10.04');
  await page.getByLabel('Selected range').press('Enter');
  await page.getByRole('tab', { name: 'Compare' }).click();
  const table = page.getByRole('table', { name: 'Methods that changed' });
  const first = table.getByRole('row').nth(1).getByRole('button').first();
  const name = (await first.textContent())!;
  await first.click();
  await expect(page.getByRole('tab', { name: 'Sandwich' })).toHaveAttribute('aria-selected', 'true');
  await expect(page.getByRole('group', { name: `Callees of ${name}` })).toBeVisible();
  await settled(page);
  // The link reopens the same sandwich.
  const link = new URL(page.url());
  expect(link.searchParams.get('method')).toBe(name);
  expect(link.searchParams.get('view')).toBe('sandwich');
  await shot(page, 'sandwich-4-from-compare-1280');
  // The frame menu, opened from the keyboard on a focused frame, and the sandwich: accessible.
  const callees = page.getByRole('group', { name: `Callees of ${name}` });
  await tabTo(page, callees);
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('Shift+F10');
  const menu = page.getByRole('menu');
  await expect(menu).toBeVisible();
  await expect(menu.getByRole('menuitem').first()).toBeFocused();
  expect(await grave(page)).toEqual([]);
  await page.keyboard.press('Escape');
  await expect(menu).toHaveCount(0);
  await expect(callees).toBeFocused();
  await page.getByRole('tab', { name: 'Stack chart' }).click();
  await page.getByRole('radiogroup', { name: 'Theme' }).getByRole('radio', { name: 'Dark' }).click();
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
  await expect(page.getByRole('img', { name: /^Stack chart of / })).toBeVisible();
  await shot(page, 'stackchart-3-dark-1280');
  expect(await grave(page)).toEqual([]);
  // The sheet of keys lists the flame graph's.
  await page.keyboard.press('?');
  const sheet = page.getByRole('dialog', { name: 'Keyboard shortcuts' });
  await expect(sheet).toContainText('the focused method’s sandwich');
  await expect(sheet).toContainText('zoom into the focused frame');
});
