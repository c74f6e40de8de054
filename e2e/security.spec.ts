/**
 * Hostile input and the network (issue 12): the page, its workers and its service worker run
 * under connect-src 'self' with no policy violation; a link's recording on another site is named,
 * never fetched; and a recording whose names carry markup, scripts, bidi overrides and control
 * characters (fixtures/hostile.jfr) is shown as text in every view, hover, menu, panel, link and
 * export, with no script run.
 */
import { expect, test, type Page } from '@playwright/test';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { clickBusiestPoint, lanesCanvas, root, settled } from './helpers';

const port = Number(process.env.PORT ?? 4173);
const otherOrigin = `http://localhost:${port + 1}`;

/** Collects policy violations (the page's event, and the console's for workers) and dialogs. */
async function watch(page: Page): Promise<{ violations: string[]; dialogs: string[] }> {
  const violations: string[] = [];
  const dialogs: string[] = [];
  await page.addInitScript(() => {
    const w = window as unknown as { __violations: string[] };
    w.__violations = [];
    document.addEventListener('securitypolicyviolation', (e) => w.__violations.push(`${e.violatedDirective} ${e.blockedURI}`));
  });
  page.on('console', (m) => {
    if (/Content Security Policy/i.test(m.text())) violations.push(m.text());
  });
  page.on('dialog', (d) => {
    dialogs.push(`${d.type()}: ${d.message()}`);
    void d.dismiss();
  });
  return { violations, dialogs };
}

async function pageViolations(page: Page): Promise<string[]> {
  return page.evaluate(() => (window as unknown as { __violations: string[] }).__violations);
}

test('page, workers and service worker run under connect-src self with no violation', async ({ page, context }) => {
  const seen = await watch(page);
  const policies = new Map<string, string>();
  page.on('response', (r) => {
    const p = r.headers()['content-security-policy'];
    if (p) policies.set(new URL(r.url()).pathname.split('/').pop() || 'index.html', p);
  });
  await page.goto('./');
  await expect(page.locator('meta[http-equiv="Content-Security-Policy"]')).toHaveAttribute('content', /connect-src 'self'(;|$)/);
  await page.evaluate(async () => {
    await navigator.serviceWorker.ready;
  });
  await page.getByRole('button', { name: 'Open example' }).click();
  await expect(page.getByRole('status')).toContainText('selected');
  await page.getByLabel('Thread filter').fill('search-worker-1$');
  await settled(page);
  // Decode one event in its worker (the event panel), and a deferred type if there is one.
  expect(await clickBusiestPoint(page)).toBe(true);
  await expect(page.getByRole('complementary', { name: 'Event details' }).locator('pre')).toContainText('"stackTrace"');
  await page.getByLabel('Event', { exact: true }).selectOption('jdk.JavaMonitorEnter');
  await settled(page);
  await expect(page.getByRole('progressbar')).toHaveCount(0);

  expect(await pageViolations(page)).toEqual([]);
  expect(seen.violations).toEqual([]);
  expect(seen.dialogs).toEqual([]);

  // The policy came as a header for the page, the worker's script and the service worker's.
  for (const [file, p] of policies) expect(p, file).toMatch(/connect-src 'self'(;|$)/);
  expect([...policies.keys()].some((f) => f.startsWith('parse.worker'))).toBe(true);
  // And it binds them: a worker and the service worker cannot reach another origin.
  const probe = (u: string) =>
    fetch(u, { mode: 'no-cors' }).then(
      () => 'fetched',
      () => 'refused',
    );
  const workers = page.workers();
  expect(workers.length).toBeGreaterThan(0);
  expect(await workers[0].evaluate(probe, `${otherOrigin}/README.md`)).toBe('refused');
  const sw = context.serviceWorkers()[0] ?? (await context.waitForEvent('serviceworker'));
  expect(await sw.evaluate(probe, `${otherOrigin}/README.md`)).toBe('refused');
  expect(await page.evaluate(probe, `${otherOrigin}/README.md`)).toBe('refused');
});

for (const attack of [`${otherOrigin}/example.jfr`, `//localhost:${port + 1}/example.jfr`, `/\\localhost:${port + 1}/example.jfr`]) {
  test(`?url= on another origin is named, never fetched: ${attack}`, async ({ page }) => {
    const seen = await watch(page);
    const requests: string[] = [];
    page.on('request', (r) => requests.push(r.url()));
    await page.goto(`./?v=2&url=${encodeURIComponent(attack)}&event=jdk.JavaMonitorEnter`);
    const dialog = page.getByRole('dialog', { name: 'Recording on another site' });
    await expect(dialog).toContainText(`Open the recording from localhost:${port + 1}?`);
    await expect(dialog).toContainText('allows only same-origin fetches');
    await expect(dialog.getByRole('link', { name: `Download from localhost:${port + 1}` })).toHaveAttribute('href', `${otherOrigin}/example.jfr`);
    expect(requests.filter((r) => !r.startsWith(new URL(page.url()).origin))).toEqual([]);
    await expect(page.getByRole('progressbar')).toHaveCount(0);
    // The file downloaded by hand and dropped takes the link's view.
    await page.getByLabel('Open recording').setInputFiles(resolve(root, 'fixtures/example.jfr'));
    await expect(page.getByRole('status')).toContainText('selected');
    await expect(page.getByLabel('Event', { exact: true })).toHaveValue('jdk.JavaMonitorEnter');
    await expect(dialog).toHaveCount(0);
    // Nothing went to the other origin while the question stood, nor after the file opened.
    expect(requests.filter((r) => !r.startsWith(new URL(page.url()).origin))).toEqual([]);
    expect(await pageViolations(page)).toEqual([]);
    expect(seen.dialogs).toEqual([]);
  });
}

test('a recording with hostile names shows them as text everywhere and runs nothing', async ({ page, context }) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  const seen = await watch(page);
  const pwned = () => page.evaluate(() => (window as unknown as { __pwned?: unknown }).__pwned);
  await page.goto('./');
  await page.getByLabel('Open recording').setInputFiles(resolve(root, 'fixtures/hostile.jfr'));
  await expect(page.getByRole('status')).toContainText('selected');

  // The Threads menu lists the names literally: markup as text, the override and controls escaped.
  await page.getByLabel('Threads', { exact: true }).click();
  const menu = page.locator('.thread-name');
  await expect(menu.filter({ hasText: '"><img src=x onerror="window.__pwned=1">' }).first()).toBeVisible();
  await expect(menu.filter({ hasText: '<script>window.__pwned=1</script>' }).first()).toBeVisible();
  await expect(menu.filter({ hasText: 'evil\\u202egnp.exe' }).first()).toBeVisible();
  await expect(menu.filter({ hasText: 'first line\\nsecond <b>line</b>' }).first()).toBeVisible();
  await expect(menu.filter({ hasText: 'bell\\u0007' }).first()).toBeVisible();
  const texts = await menu.allTextContents();
  // eslint-disable-next-line no-control-regex -- none of these may reach the screen
  expect(texts.join('')).not.toMatch(/[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/);
  await expect(page.locator('img[src="x"], script:not([src]):has-text("__pwned"), b:has-text("line")')).toHaveCount(0);

  // Hide the thread whose name holds a newline; the link must bring that back.
  await page.locator('li', { has: page.locator('.thread-name', { hasText: 'first line\\nsecond' }) }).getByRole('checkbox').uncheck();
  await expect(page.getByText('Threads (1 hidden)')).toBeVisible();
  await page.getByLabel('Threads', { exact: true }).click();

  // Hover every lane and the busiest columns.
  const lanes = lanesCanvas(page);
  const box = (await lanes.boundingBox())!;
  for (let y = box.y + 8; y < box.y + Math.min(box.height, 400); y += 12) {
    await page.mouse.move(box.x + 40, y);
    await page.mouse.move(box.x + box.width / 2, y);
  }
  expect(await clickBusiestPoint(page)).toBe(true);
  const panel = page.getByRole('complementary', { name: 'Event details' });
  await expect(panel.locator('pre')).not.toHaveText('decoding…');

  // Every event type, every view.
  const types = await page.getByLabel('Event', { exact: true }).locator('option').evaluateAll((os) => os.map((o) => (o as HTMLOptionElement).value));
  for (const t of types) {
    await page.getByLabel('Event', { exact: true }).selectOption(t);
    await settled(page);
    await expect(page.getByRole('progressbar')).toHaveCount(0);
    for (const tab of await page.getByRole('tab').allTextContents()) {
      await page.getByRole('tab', { name: tab, exact: true }).click();
      await settled(page);
      const frames = page.getByTestId('flamegraph').locator('g.frame');
      for (let k = 0; k < Math.min(await frames.count(), 8); k++) await frames.nth(k).hover({ force: true });
    }
  }
  expect(await pwned()).toBeUndefined();

  // A hostile string renders literally in a table: the file read's path, on the I/O view.
  await page.getByRole('tab', { name: 'Recording', exact: true }).click();
  await expect(page.getByLabel('System properties')).toContainText('<img src=x onerror=');
  await page.getByLabel('Event', { exact: true }).selectOption('jdk.FileRead');
  await settled(page);
  const subjectsTab = page.getByRole('tab').filter({ hasNotText: /Flame graph|Sandwich|Stack chart|Top methods|Thread time|Compare|Recording/ });
  await subjectsTab.first().click();
  await expect(page.locator('td.name').filter({ hasText: '<img src=x onerror=alert(1)>' }).first()).toBeVisible();
  await expect(page.locator('td.name').filter({ hasText: '\\n' }).first()).toBeVisible();

  // Export the stacks: the file holds escaped names, one stack a line.
  await page.getByLabel('Event', { exact: true }).selectOption('jdk.ExecutionSample');
  await settled(page);
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export stacks' }).click()]);
  const text = readFileSync((await download.path())!, 'utf8');
  expect(text.split('\n').filter(Boolean).every((l) => / \d+$/.test(l))).toBe(true);

  // Copy the link, reopen it with the same file: the newline thread is still hidden.
  await page.getByRole('button', { name: 'Copy link' }).click();
  const link = await page.evaluate(() => navigator.clipboard.readText());
  const fresh = await context.newPage();
  const seenFresh = await watch(fresh);
  await fresh.goto(link);
  await fresh.getByLabel('Open recording').setInputFiles(resolve(root, 'fixtures/hostile.jfr'));
  await expect(fresh.getByRole('status')).toContainText('selected');
  await expect(fresh.getByText('Threads (1 hidden)')).toBeVisible();
  await fresh.getByLabel('Threads', { exact: true }).click();
  await expect(fresh.locator('li', { has: fresh.locator('.thread-name', { hasText: 'first line\\nsecond' }) }).getByRole('checkbox')).not.toBeChecked();
  expect(await fresh.evaluate(() => (window as unknown as { __pwned?: unknown }).__pwned)).toBeUndefined();

  expect(await pwned()).toBeUndefined();
  expect(seen.dialogs).toEqual([]);
  expect(seenFresh.dialogs).toEqual([]);
  expect(await pageViolations(page)).toEqual([]);
  expect(seen.violations).toEqual([]);
});
