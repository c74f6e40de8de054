/**
 * The hunt the app is built for, acted as a person would: open the example, filter stacks on
 * NativeThreadSet, see the matches sit in the spikes, select a spike, read the flame graph and
 * the tables. Then the same moves on a wall-clock recording nobody here made.
 */
import { expect, test } from '@playwright/test';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { clickBusiestPoint, corpus, hasCorpus, matchingSpan, readHistogram, root, selectRange, selectedCounts, settled, shot, spikeWindows, status } from './helpers';

/** The example's monitor enters with NativeThreadSet on the stack, as the JDK reads them (fixtures/expected/). */
const nativeThreadSetWaits = gunzipSync(readFileSync(resolve(root, 'fixtures/expected/example.jfr.jdk.JavaMonitorEnter.collapsed.gz')))
  .toString('utf8')
  .split('\n')
  .filter((l) => l.includes('NativeThreadSet'))
  .reduce((a, l) => a + Number(l.slice(l.lastIndexOf(' ') + 1)), 0);

test('the NativeThreadSet hunt on the example recording', async ({ page }) => {
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto('./');
  await page.getByRole('button', { name: 'Open example' }).click();
  await expect(page.getByRole('status')).toContainText('selected');
  await expect(page.getByLabel('Event')).toHaveValue('jdk.ExecutionSample');
  const [, all] = await selectedCounts(page);
  expect(all).toBeGreaterThan(200);
  await shot(page, 'story-1-opened');

  await page.getByLabel('Stack filter').fill('NativeThreadSet');
  await expect.poll(async () => (await selectedCounts(page))[0]).toBeLessThan(all);
  const [matching] = await selectedCounts(page);
  expect(matching).toBeGreaterThan(0);
  await shot(page, 'story-2-filtered');

  // The matches sit in the spike windows of the activity histogram.
  const h = await readHistogram(page);
  const spikes = spikeWindows(h);
  expect(spikes.length).toBeGreaterThanOrEqual(2);
  const w = (h.to - h.from) / h.matching.length;
  let inSpikes = 0;
  h.matching.forEach((m, i) => {
    const t = h.from + (i + 0.5) * w;
    if (spikes.some(([a, b]) => t >= a - w && t <= b + w)) inSpikes += m;
  });
  const total = h.matching.reduce((a, b) => a + b, 0);
  expect(inSpikes / total).toBeGreaterThan(0.7);

  // Next spike walks the selection from burst to burst of matching samples, and back.
  const selected = async (): Promise<[number, number]> => {
    const m = /range ([\d.]+)–([\d.]+) s/.exec(await status(page));
    expect(m, 'a range is selected').not.toBeNull();
    return [Number(m![1]) * 1000, Number(m![2]) * 1000];
  };
  const overlaps = (a: [number, number], b: [number, number]) => a[0] < b[1] && b[0] < a[1];
  await page.getByRole('button', { name: 'Next spike' }).click();
  const firstSpike = await selected();
  expect(spikes.some((w) => overlaps(firstSpike, w))).toBe(true);
  expect((await selectedCounts(page))[0]).toBeGreaterThan(0);
  await page.getByRole('button', { name: 'Next spike' }).click();
  const second = await selected();
  expect(second[0]).toBeGreaterThan(firstSpike[1] - 1);
  expect(spikes.some((w) => overlaps(second, w))).toBe(true);
  expect((await selectedCounts(page))[0]).toBeGreaterThan(0);
  await page.getByRole('button', { name: 'Previous spike' }).click();
  expect(await selected()).toEqual(firstSpike);
  await page.getByRole('button', { name: 'Clear selection' }).click();

  // Lock waits tell the same story: switch to monitor-enter events.
  await page.getByLabel('Event').selectOption('jdk.JavaMonitorEnter');
  const [locks] = await selectedCounts(page);
  expect(locks).toBeGreaterThan(20);
  const hl = await readHistogram(page);
  const lockSpikes = hl.matching.filter((m, i) => {
    const t = hl.from + (i + 0.5) * w;
    return m > 0 && spikes.some(([a, b]) => t >= a - 2 * w && t <= b + 2 * w);
  });
  expect(lockSpikes.reduce((a, b) => a + b, 0)).toBeGreaterThan(0.6 * hl.matching.reduce((a, b) => a + b, 0));
  await shot(page, 'story-3-lock-waits');

  // Which lock: the monitors table, without the stack filter, holds NativeThreadSet with the
  // most waits, waited on by all eight workers (rows go by wait time, so the index-merger's
  // 400 ms holds of SearchService$Index, fewer but longer waits, may lead); choosing it filters
  // to it.
  await page.getByLabel('Stack filter').fill('');
  await page.getByRole('tab', { name: 'Monitors' }).click();
  const monitors = page.getByRole('table', { name: 'Subjects' });
  await settled(page);
  const top = monitors.locator('tbody tr').filter({ has: page.getByRole('cell', { name: 'sun.nio.ch.NativeThreadSet', exact: true }) });
  await expect(top).toHaveCount(1);
  await expect(top.locator('td').nth(2)).toHaveText('8');
  const events = await monitors.locator('tbody tr').evaluateAll((rows) => rows.map((r) => Number(r.children[1].textContent!.replace(/,/g, ''))));
  const waits = Number((await top.locator('td').nth(1).textContent())!.replace(/,/g, ''));
  expect(waits).toBe(nativeThreadSetWaits);
  expect(Math.max(...events)).toBe(waits);
  await top.getByRole('button').click();
  await expect(page.getByLabel('Monitor filter')).toHaveValue('^sun\\.nio\\.ch\\.NativeThreadSet( @ 0x[0-9a-f]+)?$');
  await expect.poll(async () => (await selectedCounts(page))[0]).toBe(waits);
  await shot(page, 'story-3b-monitors');
  // By instance: one NativeThreadSet per file channel, the busiest first; its row keeps only it.
  await page.getByRole('radio', { name: 'By instance' }).click();
  await settled(page);
  const first = monitors.locator('tbody tr').first();
  await expect(first.locator('td').first()).toHaveText(/^sun\.nio\.ch\.NativeThreadSet @ 0x[0-9a-f]+$/);
  const instances = await monitors.locator('tbody tr').evaluateAll((rows) => rows.map((r) => Number(r.children[1].textContent!.replace(/,/g, ''))));
  expect(instances.length).toBeGreaterThan(1);
  expect(instances.reduce((a, b) => a + b, 0)).toBe(waits);
  await first.getByRole('button').click();
  await expect.poll(async () => (await selectedCounts(page))[0]).toBe(instances[0]);
  await shot(page, 'story-3c-monitor-instances');
  await page.getByRole('radio', { name: 'By class' }).click();
  await page.getByLabel('Monitor filter').fill('');
  await page.getByRole('tab', { name: 'Flame graph' }).click();
  await page.getByLabel('Stack filter').fill('NativeThreadSet');

  // Select the spike holding the most matches; the flame graph shows the NativeThreadSet frames.
  await page.getByLabel('Event').selectOption('jdk.ExecutionSample');
  const massIn = ([x, y]: [number, number]) =>
    h.matching.reduce((acc, m, i) => acc + (h.from + (i + 0.5) * w >= x && h.from + (i + 0.5) * w <= y ? m : 0), 0);
  const [a, b] = [...spikes].sort((p, q) => massIn(q) - massIn(p))[0];
  await selectRange(page, a - w, b + w);
  await expect(page.getByRole('status')).toContainText('range');
  const flame = page.getByTestId('flamegraph');
  await expect(flame.getByText('sun.nio.ch.NativeThreadSet.add').first()).toBeVisible();
  await shot(page, 'story-4-spike-flame');

  // Where the workers' time went in the spike: all eight waited on monitors.
  await page.getByRole('tab', { name: 'Thread time' }).click();
  const times = page.getByRole('table', { name: 'Thread time' });
  await settled(page);
  const lockCol = (await times.locator('thead th').allTextContents()).map((t) => t.trim()).indexOf('Monitor');
  expect(lockCol).toBeGreaterThan(0);
  const top8 = await times.locator('tbody tr').evaluateAll((rows, col) => rows.slice(0, 8).map((r) => [r.children[0].textContent, r.children[col].textContent]), lockCol);
  expect(top8.map(([n]) => n).sort()).toEqual([1, 2, 3, 4, 5, 6, 7, 8].map((n) => `search-worker-${n}`));
  for (const [, lock] of top8) expect(lock).toMatch(/\d+(\.\d+)? ms/);
  await shot(page, 'story-4b-thread-time');
  await page.getByRole('tab', { name: 'Flame graph' }).click();

  // Without the filter, the spike's top methods list skipBytes, and it rose against the rest
  // (the scan's positional reads happen under it).
  await page.getByLabel('Stack filter').fill('');
  await page.getByRole('tab', { name: 'Top methods' }).click();
  const methods = page.getByRole('table', { name: 'Top methods' });
  await expect(methods.getByText('java.io.DataInputStream.skipBytes', { exact: true })).toBeVisible();
  await methods.getByText('java.io.DataInputStream.skipBytes', { exact: true }).click();
  await expect(page.getByRole('table', { name: 'Callers' })).toContainText('SearchService.parseRecords');
  await shot(page, 'story-5-top-methods');
  await page.getByRole('tab', { name: 'Compare' }).click();
  const rose = page.getByRole('table', { name: 'Methods that changed' });
  await expect(rose).toBeVisible();
  await settled(page);
  const firstRows = await rose.locator('tbody tr').evaluateAll((rows) => rows.slice(0, 8).map((r) => r.textContent ?? ''));
  expect(firstRows.some((r) => r.includes('skipBytes'))).toBe(true);
  await shot(page, 'story-6-compare');
  // Measured by self: the frames on top that rose lead (in the scenario, the positional reads
  // skipBytes makes, down to libc's pread), not their callers.
  await page.getByRole('radiogroup', { name: 'Measure' }).getByRole('radio', { name: 'Self' }).click();
  await expect(page.getByRole('radiogroup', { name: 'Measure' }).getByRole('radio', { name: 'Self' })).toHaveAttribute('aria-checked', 'true');
  await settled(page);
  const bySelf = await rose.locator('tbody tr').evaluateAll((rows) => rows.slice(0, 4).map((r) => r.textContent ?? ''));
  expect(bySelf.some((r) => r.includes('pread'))).toBe(true);
  expect(bySelf.some((r) => r.includes('SearchService.serve') || r.includes('skipBytes'))).toBe(false);
  await shot(page, 'story-7-compare-self');
  // The same comparison as a flame graph, measured by total: the frames whose share rose are red.
  await page.getByRole('radiogroup', { name: 'Measure' }).getByRole('radio', { name: 'Total' }).click();
  await page.getByRole('radiogroup', { name: 'Show the comparison as' }).getByRole('radio', { name: 'Flame graph' }).click();
  const diffFlame = page.getByTestId('flamegraph');
  const skipFrame = diffFlame.locator('g', { has: page.getByText('java.io.DataInputStream.skipBytes', { exact: true }) }).first();
  await expect(skipFrame).toBeVisible();
  const rgb = ((await skipFrame.locator('rect').getAttribute('fill')) ?? '').match(/\d+/g)!.map(Number);
  expect(rgb[0]).toBeGreaterThan(rgb[2] + 40); // red over blue: it rose
  await expect(page).toHaveURL(/cmp=flame/);
  await shot(page, 'story-8-compare-flame');
  expect(errors).toEqual([]);
});

test('the same moves on an async-profiler wall-clock recording from the corpus', async ({ page }) => {
  test.skip(!hasCorpus, 'no ../shared/corpus');
  await page.goto('./');
  await page.getByLabel('Open recording').setInputFiles(resolve(corpus, 'grafana-jfr-parser/wall.jfr.gz'));
  await expect(page.getByRole('status')).toContainText('selected');
  await expect(page.getByLabel('Event')).toHaveValue('profiler.WallClockSample');
  const [, all] = await selectedCounts(page);
  await page.getByLabel('Stack filter').fill('Thread\\.sleep');
  await expect.poll(async () => (await selectedCounts(page))[0]).toBeLessThan(all);
  const [first, last] = matchingSpan(await readHistogram(page));
  await selectRange(page, first, last);
  await expect(page.getByRole('status')).toContainText('range');
  expect((await selectedCounts(page))[0]).toBeGreaterThan(0);
  await expect(page.getByTestId('flamegraph').getByText('java.lang.Thread.sleep').first()).toBeVisible();
  await page.getByRole('tab', { name: 'Top methods' }).click();
  await expect(page.getByRole('table', { name: 'Top methods' })).toContainText('libjvm.so.JVM_Sleep');
  await shot(page, 'corpus-wall');
});

test('damaged and foreign files get a clear message and keep what was read', async ({ page }) => {
  await page.goto('./');
  await page.getByLabel('Open recording').setInputFiles(resolve(root, 'fixtures/damaged/truncated.jfr'));
  await expect(page.getByRole('alert')).toContainText('was cut in chunk');
  const [, all] = await selectedCounts(page);
  expect(all).toBeGreaterThan(0);
  await shot(page, 'damaged-truncated');
  await page.getByLabel('Open recording').setInputFiles(resolve(root, 'fixtures/damaged/bad-magic.jfr'));
  await expect(page.getByRole('alert')).toContainText('not a JFR recording');
  await page.getByLabel('Open recording').setInputFiles({ name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('hello') });
  await expect(page.getByRole('alert')).toContainText('not a JFR recording');
});

test('invalid regex is shown, not thrown; a click shows an event in full', async ({ page }) => {
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto('./');
  await page.getByLabel('Open recording').setInputFiles(resolve(root, 'fixtures/example.jfr.gz'));
  await expect(page.getByRole('status')).toContainText('selected');
  await page.getByLabel('Stack filter').fill('(');
  await expect(page.getByLabel('Stack filter')).toHaveAttribute('aria-invalid', 'true');
  await expect(page.getByText(/stack: .*/)).toBeVisible();
  await page.getByLabel('Stack filter').fill('');
  await page.getByLabel('Thread filter').fill('search-worker-1$');
  // Click the busiest point of the (now single) worker lane.
  expect(await clickBusiestPoint(page)).toBe(true);
  const panel = page.getByRole('complementary', { name: 'Event details' });
  await expect(panel).toContainText('search-worker-1');
  await expect(panel.locator('pre')).toContainText('"stackTrace"');
  await shot(page, 'event-details');
  expect(errors).toEqual([]);
});
