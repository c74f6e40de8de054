/**
 * A link made on a recording from the user's disk names that file: its name, size, fingerprint
 * and start, read back on the welcome page of whoever opens the link, with a picker for it. A
 * wrong file is named as wrong, beside the right one, and still opens if the user says so. The
 * start is checked against the chunk header's own start (bytes 32–39, nanoseconds since the
 * epoch), the size against the file system.
 */
import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { readFileSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { root, settled } from './helpers';

/** "2026-11-23 14:03:20.125 UTC": the chunk header's start, to the millisecond. */
function headerStart(file: string): string {
  const ns = readFileSync(resolve(root, 'fixtures', file)).readBigInt64BE(32);
  const iso = new Date(Number(ns / 1_000_000n)).toISOString();
  return `${iso.slice(0, 10)} ${iso.slice(11, iso.endsWith('.000Z') ? 19 : 23)} UTC`;
}
/** axe-core's serious and critical violations. */
async function grave(page: Page): Promise<string[]> {
  const r = await new AxeBuilder({ page }).analyze();
  return r.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}
const bytes = (file: string) => statSync(resolve(root, 'fixtures', file)).size.toLocaleString('en-US');

test('a link names its file; the wrong file is named as wrong and opens only when confirmed', async ({ page, context }) => {
  // Make the link: the example from the disk, a filter and a view.
  await page.goto('./');
  await page.getByLabel('Open recording').setInputFiles(resolve(root, 'fixtures/example.jfr'));
  await expect(page.getByRole('status')).toContainText('selected');
  await page.getByLabel('Stack filter').fill('NativeThreadSet');
  await page.getByRole('tab', { name: 'Top methods' }).click();
  await expect(page).toHaveURL(/stack=NativeThreadSet/);
  await expect(page).toHaveURL(/view=methods/);
  const link = page.url();
  const q = new URL(link).searchParams;
  expect(q.get('v')).toBe('3');
  expect(q.get('file')).toBe('example.jfr');
  expect(q.get('fp')).toMatch(new RegExp(`^${statSync(resolve(root, 'fixtures/example.jfr')).size}-[0-9a-f]{16}$`));
  const fp = q.get('fp')!;

  // Opened elsewhere, the link says which file it needs before any is given.
  const other = await context.newPage();
  await other.goto(link);
  const needs = other.getByRole('region', { name: 'This link needs a recording from your disk' });
  await expect(needs).toBeVisible();
  await expect(needs).toContainText('example.jfr');
  await expect(needs).toContainText(`${bytes('example.jfr')} bytes`);
  await expect(needs).toContainText(headerStart('example.jfr'));
  await expect(needs).toContainText(fp);
  await other.screenshot({ path: resolve(root, 'e2e/artifacts/linked-file-needed.png') });
  expect(await grave(other)).toEqual([]);

  // The wrong fixture: both named; nothing shown until confirmed.
  await other.getByLabel('Choose example.jfr…').setInputFiles(resolve(root, 'fixtures/ap-alloc-lock.jfr'));
  const wrong = other.getByRole('alertdialog', { name: 'Not the link’s recording' });
  await expect(wrong).toBeVisible();
  await expect(wrong).toContainText('This is ap-alloc-lock.jfr (');
  const text = (await wrong.textContent()) ?? '';
  expect(text).toMatch(new RegExp(`This is ap-alloc-lock\\.jfr \\([^)]*${bytes('ap-alloc-lock.jfr')} bytes, started ${headerStart('ap-alloc-lock.jfr').replace(/\./g, '\\.')}\\), the link is for example\\.jfr \\([^)]*${bytes('example.jfr')} bytes, started ${headerStart('example.jfr').replace(/\./g, '\\.')}\\)`));
  await expect(other.getByRole('status')).toHaveCount(0);
  await other.screenshot({ path: resolve(root, 'e2e/artifacts/linked-file-wrong.png') });
  expect(await grave(other)).toEqual([]);
  await wrong.getByRole('button', { name: /Open ap-alloc-lock\.jfr anyway/ }).click();
  await expect(wrong).toHaveCount(0);
  await expect(other.getByRole('status')).toContainText('selected');
  await expect(other.getByLabel('Stack filter')).toHaveValue('NativeThreadSet');
  await expect(other.getByRole('tab', { name: 'Top methods' })).toHaveAttribute('aria-selected', 'true');
  await expect(other.locator('.notice')).toContainText('different recording, example.jfr; its view was applied to ap-alloc-lock.jfr');
  // The link now names the file shown.
  await expect.poll(() => new URL(other.url()).searchParams.get('file')).toBe('ap-alloc-lock.jfr');
  await other.close();

  // The right file, renamed on the way: the fingerprint knows it; no question, no notice.
  const right = await context.newPage();
  await right.goto(link);
  await right.getByLabel('Choose example.jfr…').setInputFiles({ name: 'copy of example.jfr', mimeType: 'application/octet-stream', buffer: readFileSync(resolve(root, 'fixtures/example.jfr')) });
  await expect(right.getByRole('status')).toContainText('selected');
  await settled(right);
  await expect(right.getByRole('alertdialog')).toHaveCount(0);
  await expect(right.getByRole('region', { name: 'This link needs a recording from your disk' })).toHaveCount(0);
  await expect(right.getByLabel('Stack filter')).toHaveValue('NativeThreadSet');
  await expect(right.locator('.notice')).toHaveCount(0);
});
