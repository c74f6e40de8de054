/**
 * Sharing and shipping: links that reopen a view, back/forward, recordings by ?url=, the
 * fingerprint check, offline use as an installed app, and no request leaving the origin.
 */
import { expect, test } from '@playwright/test';
import { readdirSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { root, selectedCounts, shot } from './helpers';

const port = Number(process.env.PORT ?? 4173);

test('a link reopens the same view, and back/forward walk the changes', async ({ page, context }) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  // Changes within 800 ms of the last history entry replace it (typing makes one entry): the
  // page's clock is moved past that between the changes, not waited out.
  await page.clock.install();
  await page.goto('./');
  await page.getByRole('button', { name: 'Open example' }).click();
  await expect(page.getByRole('status')).toContainText('selected');
  await page.getByLabel('Event').selectOption('jdk.JavaMonitorEnter');
  await expect(page).toHaveURL(/JavaMonitorEnter/);
  await page.clock.fastForward(1000);
  await page.getByLabel('Stack filter').fill('NativeThreadSet');
  await expect(page).toHaveURL(/stack=NativeThreadSet/);
  await page.clock.fastForward(1000);
  await page.getByRole('tab', { name: 'Top methods' }).click();
  const counts = await selectedCounts(page);
  await page.getByRole('button', { name: 'Copy link' }).click();
  const link = await page.evaluate(() => navigator.clipboard.readText());
  expect(link).toContain('stack=NativeThreadSet');
  expect(link).toMatch(/fp=\d+-[0-9a-f]+/);

  // Back walks the view changes.
  await page.goBack();
  await expect(page.getByRole('tab', { name: 'Flame graph' })).toHaveAttribute('aria-selected', 'true');
  await page.goBack();
  await expect(page.getByLabel('Stack filter')).toHaveValue('');
  await page.goForward();
  await expect(page.getByLabel('Stack filter')).toHaveValue('NativeThreadSet');

  // The copied link plus the same file restores the view.
  const fresh = await context.newPage();
  await fresh.goto(link);
  await fresh.getByLabel('Open recording').setInputFiles(resolve(root, 'fixtures/example.jfr'));
  await expect(fresh.getByRole('status')).toContainText('selected');
  await expect(fresh.getByLabel('Stack filter')).toHaveValue('NativeThreadSet');
  await expect(fresh.getByLabel('Event')).toHaveValue('jdk.JavaMonitorEnter');
  await expect(fresh.getByRole('tab', { name: 'Top methods' })).toHaveAttribute('aria-selected', 'true');
  expect(await selectedCounts(fresh)).toEqual(counts);
  await expect(fresh.getByRole('note')).toHaveCount(0);

  // A different file says so.
  const other = await context.newPage();
  await other.goto(link);
  await other.getByLabel('Open recording').setInputFiles(resolve(root, 'fixtures/ap-alloc-lock.jfr'));
  await expect(other.getByRole('alertdialog', { name: 'Not the link’s recording' })).toContainText('This is ap-alloc-lock.jfr');
  await other.getByRole('button', { name: /anyway/ }).click();
  await expect(other.locator('.notice')).toContainText('different recording');
});

test('?url= reproduces a view with no drop at all (a recording of the same site)', async ({ page }) => {
  const requests: string[] = [];
  page.on('request', (r) => requests.push(r.url()));
  // The example as the build ships it: same origin, so the link opens it at once. (Another
  // site's recording is named, never fetched: security.spec.ts.)
  const example = readdirSync(resolve(root, 'dist/assets')).find((f) => /^example-.*\.jfr$/.test(f));
  const url = `assets/${example}`;
  await page.goto(`./?v=2&url=${encodeURIComponent(url)}&event=jdk.JavaMonitorEnter&stack=NativeThreadSet&range=8000-11000`);
  await expect(page.getByRole('status')).toContainText(/range 8(\.00)?–11(\.00)? s/);
  const [n] = await selectedCounts(page);
  expect(n).toBeGreaterThan(10);
  await shot(page, 'share-url');
  expect(requests.filter((r) => !r.startsWith(new URL(page.url()).origin))).toEqual([]);
  expect(requests).toContain(new URL(url, page.url()).href);
});

test('malformed link values are ignored with a notice', async ({ page }) => {
  await page.goto('./?v=1&range=soon&view=sideways&stack=ok');
  await expect(page.getByRole('note')).toContainText('malformed range');
  await page.getByRole('button', { name: 'Open example' }).click();
  await expect(page.getByLabel('Stack filter')).toHaveValue('ok');
});

test('no request leaves the origin during a whole visit', async ({ page, context }) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  const origin = new URL(page.url() === 'about:blank' ? `http://127.0.0.1:${port}` : page.url()).origin;
  const requests: string[] = [];
  context.on('request', (r) => requests.push(r.url()));
  const violations: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error' && /Content Security Policy/i.test(m.text())) violations.push(m.text());
  });
  await page.goto('./');
  await page.getByRole('button', { name: 'Open example' }).click();
  await expect(page.getByRole('status')).toContainText('selected');
  await page.getByLabel('Stack filter').fill('NativeThreadSet');
  // Export the selection: saved from the page itself (a blob: URL), nothing uploaded.
  await expect.poll(async () => (await selectedCounts(page))[0]).toBeLessThan((await selectedCounts(page))[1]);
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export stacks' }).click()]);
  const text = readFileSync((await download.path())!, 'utf8');
  const lines = text.split('\n').filter((l) => l);
  expect(lines.length).toBeGreaterThan(0);
  expect(lines.every((l) => /NativeThreadSet.* \d+$/.test(l))).toBe(true);
  await page.getByLabel('Open recording').setInputFiles(resolve(root, 'fixtures/jdk17-profile.jfr'));
  await expect(page.getByRole('status')).toContainText('selected');
  await page.getByRole('tab', { name: 'Recording' }).click();
  await page.getByRole('tab', { name: 'Top methods' }).click();
  await page.getByRole('button', { name: 'Copy link' }).click();
  const offOrigin = requests.filter((r) => !r.startsWith(origin) && !r.startsWith('data:') && !r.startsWith('blob:'));
  expect(offOrigin).toEqual([]);
  expect(violations).toEqual([]);
});

test('works offline once loaded (service worker), with the example and a dropped file', async ({ page, context }) => {
  await page.goto('./');
  // Cross-origin isolated (shared memory for the decoders) when the server says so; GitHub Pages
  // (PAGES) sends no headers: the first visit is not.
  expect(await page.evaluate(() => crossOriginIsolated)).toBe(!process.env.PAGES);
  await page.evaluate(async () => {
    await navigator.serviceWorker.ready;
  });
  // The first visit's page is not yet controlled; reload so the worker serves it.
  await page.reload();
  await expect.poll(() => page.evaluate(() => navigator.serviceWorker.controller !== null)).toBe(true);
  // The service worker's responses say so themselves, wherever the page is served from.
  expect(await page.evaluate(() => crossOriginIsolated)).toBe(true);
  await context.setOffline(true);
  await page.reload();
  expect(await page.evaluate(() => crossOriginIsolated)).toBe(true);
  await page.getByRole('button', { name: 'Open example' }).click();
  await expect(page.getByRole('status')).toContainText('selected');
  await page.getByLabel('Open recording').setInputFiles(resolve(root, 'fixtures/jdk17-multichunk.jfr'));
  await expect(page.getByRole('status')).toContainText('selected');
  await page.getByRole('tab', { name: 'Recording' }).click();
  await expect(page.getByLabel('Recording', { exact: true })).toContainText('Chunks');
  await shot(page, 'offline');
  await context.setOffline(false);
});

test('the manifest makes it installable and lets it open .jfr files', async ({ page, request }) => {
  await page.goto('./');
  const href = await page.locator('link[rel="manifest"]').getAttribute('href');
  const res = await request.get(new URL(href!, page.url()).toString());
  const m = await res.json();
  expect(m.name).toContain('jfrscope');
  expect(m.icons.map((i: { sizes: string }) => i.sizes)).toContain('512x512');
  expect(JSON.stringify(m.file_handlers)).toContain('.jfr');
  expect(m.display).toBe('standalone');
});
