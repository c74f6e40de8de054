/**
 * A lazy load as a person meets it: the types that do not fit the first round's row budget are
 * listed with their counts, marked, and decoded when picked, from the file itself. The budget is
 * lowered (the jfrscope:rowBudget setting) so the small example behaves like a huge recording.
 */
import { expect, test } from '@playwright/test';
import { closeSync, ftruncateSync, mkdirSync, openSync, readFileSync, writeSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { clickBusiestPoint, lanesCanvas, root, selectedCounts, settled, shot } from './helpers';

/** The example's event counts as the JDK reads them (fixtures/expected/, tools/golden). */
const counts: Record<string, number> = Object.fromEntries(
  readFileSync(resolve(root, 'fixtures/expected/example.jfr.rf-counts.tsv'), 'utf8')
    .trim()
    .split('\n')
    .map((l) => l.split('\t'))
    .map(([t, n]) => [t, Number(n)]),
);
const fmt = (n: number) => n.toLocaleString('en-US');
const cpu = fmt(counts['jdk.ExecutionSample']);
const locks = fmt(counts['jdk.JavaMonitorEnter']);
const wall = fmt(counts['profiler.WallClockSample']);

// Served with COOP and COEP (the build's _headers), the page is cross-origin isolated and the
// decoders write rows straight into its shared columns; the setting turns that off: both read the same.
for (const shared of ['on', 'off']) {
  test(`types beyond the row budget are decoded when picked, and their events open in full (shared columns ${shared})`, async ({ page }) => {
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await page.addInitScript((s) => {
      localStorage.setItem('jfrscope:rowBudget', '100');
      localStorage.setItem('jfrscope:sharedColumns', s);
    }, shared);
    await page.goto('./');
    expect(await page.evaluate(() => crossOriginIsolated)).toBe(true);
    await page.getByLabel('Open recording').setInputFiles(resolve(root, 'fixtures/example.jfr'));
    // The default view's type (the CPU samples, several hundred) is over the budget: it is decoded at once.
    await expect(page.getByLabel('Event')).toHaveValue('jdk.ExecutionSample');
    await expect(page.getByRole('status')).toContainText(`of ${cpu} CPU samples selected`);
    const option = (name: string) => page.locator(`select[aria-label="Event"] option[value="${name}"]`);
    await expect(option('jdk.JavaMonitorEnter')).toContainText(`${locks}, decoded when picked`);
    await expect(option('jdk.ThreadPark')).not.toContainText('decoded when picked');
    await expect(option('jdk.ExecutionSample')).not.toContainText('decoded when picked');
    await shot(page, 'lazy-1-opened');

    await page.getByLabel('Event').selectOption('jdk.JavaMonitorEnter');
    await expect(page.getByRole('status')).toContainText(`of ${locks} lock waits selected`);
    await expect(option('jdk.JavaMonitorEnter')).not.toContainText('decoded when picked');
    expect((await selectedCounts(page))[1]).toBe(counts['jdk.JavaMonitorEnter']);
    await page.getByLabel('Stack filter').fill('NativeThreadSet');
    await expect.poll(async () => (await selectedCounts(page))[0]).toBeGreaterThan(0);
    await shot(page, 'lazy-2-picked');

    // Event details come from the file, read again by the worker that owns the chunk.
    expect(await clickBusiestPoint(page)).toBe(true);
    await expect(page.getByRole('complementary', { name: 'Event details' }).locator('pre')).toContainText('"monitorClass"');

    // The rest (allocation and wall-clock samples here) at once, from the timeline's button.
    const rest = page.getByRole('button', { name: /^Decode .* more events/ });
    await expect(rest).toContainText('(2 types)');
    await rest.click();
    await expect(rest).toBeHidden();
    await expect(option('profiler.WallClockSample')).not.toContainText('decoded when picked');
    await page.getByLabel('Event', { exact: true }).selectOption('profiler.WallClockSample');
    await expect(page.getByRole('status')).toContainText(`of ${wall} wall-clock samples selected`);
    expect(errors).toEqual([]);
  });
}

test('a type past the page\'s row limit stays in the file with a message; the rest still decodes', async ({ page }) => {
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  // 2,000 rows at most: the CPU samples fit, the wall-clock samples (several thousand) never do.
  await page.addInitScript(() => {
    localStorage.setItem('jfrscope:rowBudget', '100');
    localStorage.setItem('jfrscope:rowLimit', '2000');
  });
  await page.goto('./');
  await page.getByLabel('Open recording').setInputFiles(resolve(root, 'fixtures/example.jfr'));
  await expect(page.getByRole('status')).toContainText(`of ${cpu} CPU samples selected`);
  await page.getByLabel('Event').selectOption('profiler.WallClockSample');
  await expect(page.getByRole('alert')).toContainText(`profiler.WallClockSample has ${wall} events`);
  await expect(page.getByRole('alert')).toContainText('jfrscope collapse FILE --event profiler.WallClockSample');
  await expect(page.getByRole('status')).toContainText(`${wall} wall-clock samples, not decoded`);
  await expect(page.locator('.view-body')).toContainText('past the 2,000 rows');
  await shot(page, 'lazy-3-row-limit');
  // The Decode button no longer offers it; another type decodes and shows as usual.
  const rest = page.getByRole('button', { name: /^Decode .* more events/ });
  await expect(rest).toContainText('(2 types)'); // locks and allocations, not the wall clock
  await expect(rest).toHaveAttribute('title', /jdk\.JavaMonitorEnter/);
  await expect(rest).not.toHaveAttribute('title', /WallClockSample/);
  await page.getByLabel('Event').selectOption('jdk.JavaMonitorEnter');
  await expect(page.getByRole('status')).toContainText(`of ${locks} lock waits selected`);
  await expect(page.getByTestId('flamegraph').getByText('sun.nio.ch.NativeThreadSet.add').first()).toBeVisible();
  await shot(page, 'lazy-4-after-limit');
  expect(errors).toEqual([]);
});

test('opening another recording, even mid-load, stops the previous one’s workers; a bad file keeps the open one working', async ({ page }) => {
  await page.goto('./');
  const cores = await page.evaluate(() => navigator.hardwareConcurrency);
  // The page starts its workers before any file comes: as many as a load may use.
  const warm = Math.min(cores, 8);
  await expect.poll(() => page.workers().length).toBe(warm);
  const multi = resolve(root, 'fixtures/jdk17-multichunk.jfr'); // three chunks: min(cores, 3) workers
  await page.getByLabel('Open recording').setInputFiles(multi);
  await expect(page.getByRole('status')).toContainText('selected');
  const idle = warm - Math.min(cores, 3);
  expect(page.workers().length).toBe(warm);
  // Another file while one loads, then a one-chunk file: its one worker is all that stays busy.
  await page.getByLabel('Open recording').setInputFiles(multi);
  await page.getByLabel('Open recording').setInputFiles(resolve(root, 'fixtures/example.jfr'));
  await expect(page.locator('.file-name')).toHaveText('example.jfr');
  await expect(page.getByRole('status')).toContainText(`of ${cpu} CPU samples selected`);
  // Terminated at once, not whenever the garbage collector would get to unreferenced workers.
  await expect.poll(() => page.workers().length, { timeout: 2000 }).toBe(idle + 1);

  // A file that is no recording: an error, and the open recording still answers.
  await page.getByLabel('Open recording').setInputFiles({ name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('hello') });
  await expect(page.getByRole('alert')).toContainText('not a JFR recording');
  await expect(page.locator('.file-name')).toHaveText('example.jfr');
  // The busiest point of the first lane: the workers' lanes alone (the index-merger, first by CPU
  // samples, burns them outside the scans where the histogram peaks).
  await page.getByLabel('Thread filter').fill('^search-worker-');
  await expect(lanesCanvas(page)).toHaveAccessibleName(/^Thread lanes \(\d+\): search-worker-\d(, search-worker-\d)*$/);
  await settled(page);
  expect(await clickBusiestPoint(page)).toBe(true);
  await expect(page.getByRole('complementary', { name: 'Event details' }).locator('pre')).toContainText('"stackTrace"');
});

test('a file past 2 GiB opens: its chunks are read from disk, and the bytes after them that are no chunk are said', async ({ page }, info) => {
  // A sparse file of 2.5 GiB: the example's chunks, then zeros (no disk or memory used).
  const big = info.outputPath('huge.jfr');
  mkdirSync(dirname(big), { recursive: true });
  const example = readFileSync(resolve(root, 'fixtures/example.jfr'));
  const fd = openSync(big, 'w');
  writeSync(fd, example, 0, example.length, 0);
  ftruncateSync(fd, 2.5 * 1024 ** 3);
  closeSync(fd);
  await page.goto('./');
  await page.getByLabel('Open recording').setInputFiles(big);
  await expect(page.getByLabel('Event')).toHaveValue('jdk.ExecutionSample');
  await expect(page.getByRole('status')).toContainText(`of ${cpu} CPU samples selected`);
  const rest = 2.5 * 1024 ** 3 - example.length;
  await expect(page.getByRole('alert')).toContainText(`The ${(rest / 1024 ** 2).toFixed(1)} MB after the last chunk`);
  await expect(page.getByRole('alert')).toContainText('they were not read');
});
