/**
 * The SQL view as a person uses it: open a recording, open SQL, pick an example, run it, read
 * the result, choose a row and see the timeline select that event; a bad query shows DuckDB's
 * message and the page keeps working; the query travels in the link; after one online visit
 * the view works offline. DuckDB is not loaded before the view opens.
 */
import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { resolve } from 'node:path';
import { root, selectedRange, shot } from './helpers';

const editor = (page: Page) => page.getByLabel('SQL query');
const result = (page: Page) => page.getByRole('table', { name: 'Query result' });

async function openSql(page: Page, file = 'fixtures/jdk17-profile.jfr') {
  await page.getByLabel('Open recording').setInputFiles(resolve(root, file));
  await expect(page.getByRole('status')).toContainText('selected');
  await page.getByRole('tab', { name: 'SQL' }).click();
  await expect(page.getByRole('complementary', { name: 'Tables' })).toContainText('jdk.ExecutionSample', { timeout: 60_000 });
}

test('runs an example, charts it, and a chosen row selects its event on the timeline', async ({ page }) => {
  const duck: string[] = [];
  page.on('request', (r) => {
    if (/duckdb|\/sql-/.test(r.url())) duck.push(r.url());
  });
  const problems: string[] = [];
  page.on('console', (m) => m.type() === 'error' && problems.push(m.text()));
  page.on('pageerror', (e) => problems.push(e.message));
  await page.goto('./');
  await page.getByLabel('Open recording').setInputFiles(resolve(root, 'fixtures/jdk17-profile.jfr'));
  await expect(page.getByRole('status')).toContainText('selected');
  expect(duck, 'DuckDB is not fetched before the SQL view opens').toEqual([]);
  await page.getByRole('tab', { name: 'SQL' }).click();
  await expect(page.getByRole('complementary', { name: 'Tables' })).toContainText('jdk.ExecutionSample', { timeout: 60_000 });
  expect(duck.some((u) => u.endsWith('.wasm'))).toBe(true);

  await page.getByRole('button', { name: 'Longest lock waits (click a row to see it)' }).click();
  await expect(editor(page)).toHaveValue(/FROM "jdk.JavaMonitorEnter"/);
  await page.getByRole('button', { name: 'Run', exact: true }).click();
  await expect(result(page)).toBeVisible();
  await expect(page.getByText(/^48 rows · choose a row/)).toBeVisible();
  await expect(page.getByRole('figure', { name: 'Bar chart of duration' })).toBeVisible();
  await shot(page, 'sql-result');

  // The second row: its start and duration, as the table shows them.
  const header = await result(page).locator('thead th').allTextContents();
  const cells = await result(page).locator('tbody tr').nth(1).locator('td').allTextContents();
  const start = Number(cells[header.indexOf('start')]);
  const duration = Number(cells[header.indexOf('duration')]);
  const thread = cells[header.indexOf('thread')];
  await result(page).locator('tbody tr').nth(1).click();
  const [from, to] = await selectedRange(page);
  // The range input shows seconds to the millisecond.
  expect(Math.abs(from - start)).toBeLessThanOrEqual(1);
  expect(Math.abs(to - (start + duration))).toBeLessThanOrEqual(1);
  // The event panel opens on that event: its type and thread.
  const panel = page.getByRole('complementary', { name: /event/i });
  await expect(panel).toContainText('jdk.JavaMonitorEnter');
  await expect(panel).toContainText(thread);
  await shot(page, 'sql-row-chosen');
  expect(problems).toEqual([]);
});

test('a bad query shows DuckDB’s message, and the view and the page keep working', async ({ page }) => {
  await page.goto('./');
  await openSql(page);
  await editor(page).fill('SELECT thread, count(*) FROM no_such_table GROUP BY 1');
  await editor(page).press('Control+Enter');
  await expect(page.getByRole('alert')).toContainText('no_such_table');
  await shot(page, 'sql-error');
  await editor(page).fill('SELEC 1');
  await editor(page).press('Control+Enter');
  await expect(page.getByRole('alert')).toContainText(/syntax error/i);
  await editor(page).fill('SELECT thread, count(*) AS samples FROM "jdk.ExecutionSample" GROUP BY thread ORDER BY samples DESC');
  await editor(page).press('Control+Enter');
  await expect(page.getByRole('alert')).toHaveCount(0);
  await expect(result(page)).toBeVisible();
  // The rest of the page still answers: another view, and back.
  await page.getByRole('tab', { name: 'Top methods' }).click();
  await expect(page.getByRole('table', { name: 'Top methods' })).toBeVisible();
  await page.getByRole('tab', { name: 'SQL' }).click();
  await expect(editor(page)).toHaveValue(/GROUP BY thread/);
});

test('the query travels in the link and runs again after a reload', async ({ page }) => {
  await page.goto('./');
  await openSql(page);
  const q = `SELECT count(*) AS n, 'a;b' AS "odd & name" FROM "jdk.ExecutionSample"`;
  await editor(page).fill(q);
  await editor(page).press('Control+Enter');
  await expect(result(page).locator('tbody td').first()).toHaveText('168');
  await expect.poll(() => new URL(page.url()).searchParams.get('sql')).toBe(q);
  expect(new URL(page.url()).searchParams.get('view')).toBe('sql');
  await page.reload();
  // The link names the recording by fingerprint: open the same file again.
  await page.getByLabel('Open recording').setInputFiles(resolve(root, 'fixtures/jdk17-profile.jfr'));
  await expect(editor(page)).toHaveValue(q, { timeout: 60_000 });
  await expect(result(page).locator('tbody td').first()).toHaveText('168', { timeout: 60_000 });
});

test('works offline after one online visit', async ({ page, context }) => {
  await page.goto('./');
  await page.evaluate(async () => {
    await navigator.serviceWorker.ready;
  });
  await page.reload();
  await expect.poll(() => page.evaluate(() => navigator.serviceWorker.controller !== null)).toBe(true);
  // The online visit opens the SQL view once: DuckDB's files go into the runtime cache.
  await openSql(page);
  await expect.poll(() => page.evaluate(async () => (await (await caches.open('jfrscope-sql')).keys()).map((r) => r.url).filter((u) => u.endsWith('.wasm')).length)).toBeGreaterThan(0);
  await context.setOffline(true);
  await page.reload();
  await openSql(page);
  await page.getByRole('button', { name: 'Threads with the most lock-wait time' }).click();
  await page.getByRole('button', { name: 'Run', exact: true }).click();
  await expect(result(page)).toBeVisible();
  await expect(page.getByRole('figure', { name: 'Bar chart of wait_ms' })).toBeVisible();
  await shot(page, 'sql-offline');
  await context.setOffline(false);
});

test('a long query can be cancelled while the page keeps answering', async ({ page }) => {
  await page.goto('./');
  await openSql(page);
  // Minutes of work for DuckDB (a cross join of the events with a range).
  await editor(page).fill('SELECT sum(e.start * r.range) FROM events e, range(100000000) r');
  await editor(page).press('Control+Enter');
  const cancel = page.getByRole('button', { name: 'Cancel' });
  await expect(cancel).toBeVisible();
  // The page is not frozen: another tab opens and comes back while the query runs.
  await page.getByRole('tab', { name: 'Top methods' }).click();
  await expect(page.getByRole('table', { name: 'Top methods' })).toBeVisible();
  await page.getByRole('tab', { name: 'SQL' }).click();
  await expect(cancel).toBeVisible();
  const t0 = Date.now();
  await cancel.click();
  await expect(page.getByRole('alert')).toContainText('cancelled');
  expect(Date.now() - t0).toBeLessThan(10_000);
  // And the next query runs.
  await editor(page).fill('SELECT 6 * 7 AS answer');
  await editor(page).press('Control+Enter');
  await expect(result(page).locator('tbody td').first()).toHaveText('42');
});

test.describe('dark theme', () => {
  test.use({ colorScheme: 'dark' });

  test('names from the table list go into the query; every field of a type loads on demand; nothing serious for axe', async ({ page }) => {
    await page.goto('./');
    await openSql(page);
    const tables = page.getByRole('complementary', { name: 'Tables' });
    await editor(page).fill('SELECT count(*) AS n, count(DISTINCT ');
    // Open the type's entry, then choose a column and the table's name.
    const entry = tables.locator('.sql-table', { has: page.getByRole('button', { name: 'jdk.FileRead', exact: true }) });
    await entry.getByRole('button', { name: 'Columns of jdk.FileRead' }).click();
    await expect(entry.getByRole('button', { name: 'Columns of jdk.FileRead' })).toHaveAttribute('aria-expanded', 'true');
    await entry.getByRole('button', { name: 'thread', exact: true }).click();
    await editor(page).press('End');
    await editor(page).pressSequentially(') AS threads FROM ');
    await entry.getByRole('button', { name: 'jdk.FileRead', exact: true }).click();
    await expect(editor(page)).toHaveValue('SELECT count(*) AS n, count(DISTINCT thread) AS threads FROM "jdk.FileRead"');
    await editor(page).press('Control+Enter');
    // 157 file reads, as the JDK counts them (fixtures/expected/jdk17-profile.jfr.rf-counts.tsv).
    await expect(result(page).locator('tbody td').first()).toHaveText('157');
    await entry.getByRole('button', { name: 'Every field → fields."jdk.FileRead"' }).click();
    await expect(tables.getByRole('button', { name: 'fields."jdk.FileRead"', exact: true })).toBeVisible({ timeout: 60_000 });
    await editor(page).fill('SELECT count(*) AS n, sum("bytesRead") AS bytes FROM fields."jdk.FileRead"');
    await editor(page).press('Control+Enter');
    // The JDK's sum of bytesRead (fixtures/expected/jdk17-profile.jfr.fields.tsv).
    await expect(result(page).locator('tbody tr').first().locator('td')).toHaveText(['157', '87552']);
    await shot(page, 'sql-fields-dark');
    const r = await new AxeBuilder({ page }).include('.sql').analyze();
    const grave = r.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${v.id}: ${v.help} ${v.nodes.slice(0, 3).map((n) => n.target.join(' ')).join(', ')}`);
    expect(grave).toEqual([]);
  });
});
