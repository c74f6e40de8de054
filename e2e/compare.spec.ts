/**
 * Compare as a person reads it: open the example, type a range, open Compare and read that each
 * method's row shows both sides' counts, shares, the change and its p-value; sort by a column;
 * see the flame graph coloured from the same rows; a range too small to say anything says so.
 */
import { expect, test, type Page } from '@playwright/test';
import { settled } from './helpers';

async function selectTyped(page: Page, text: string): Promise<void> {
  const input = page.getByLabel('Selected range');
  await input.fill(text);
  await input.press('Enter');
  await settled(page);
}

const num = (s: string) => Number(s.replace(/[,\s]/g, '').replace(/pt$/, ''));

test('Compare shows counts for both sides and a confidence column; a tiny range needs more', async ({ page }) => {
  await page.goto('./');
  await page.getByRole('button', { name: 'Open example' }).click();
  await expect(page.getByRole('status')).toContainText('selected');
  await selectTyped(page, '6.07-6.47');
  await page.getByRole('tab', { name: 'Compare' }).click();

  const table = page.getByRole('table', { name: 'Methods that changed' });
  await expect(table).toBeVisible();
  const headers = (await table.getByRole('columnheader').allTextContents()).map((h) => h.replace(/[▾▴]/g, '').trim());
  expect(headers.slice(0, 9)).toEqual([
    'Method',
    expect.stringMatching(/^Selection \((samples|events)/),
    expect.stringMatching(/^Baseline \((samples|events)/),
    'Selection %',
    'Baseline %',
    'Change',
    'p-value',
    'q (FDR)',
    'Score',
  ]);
  // The default order is the score, descending.
  await expect(table.getByRole('columnheader', { name: /Score/ })).toHaveAttribute('aria-sort', 'descending');
  const rows = table.getByRole('row');
  expect(await rows.count()).toBeGreaterThan(5);
  const cells = async (k: number) => (await rows.nth(k).getByRole('cell').allTextContents()).map((c) => c.trim());
  const first = await cells(1);
  // Counts of both sides, shares, a change in points and a p-value between 0 and 1.
  expect(num(first[1])).toBeGreaterThan(0);
  expect(Number.isFinite(num(first[2]))).toBe(true);
  expect(first[3]).toMatch(/^\d+\.\d%$/);
  expect(first[4]).toMatch(/^\d+\.\d%$/);
  expect(first[5]).toMatch(/^[+-]?\d+\.\d pt$/);
  const p = Number(first[6]);
  expect(p).toBeGreaterThanOrEqual(0);
  expect(p).toBeLessThanOrEqual(1);
  // Its q-value accounts for every method compared: never below the p-value.
  expect(Number(first[7])).toBeGreaterThanOrEqual(p);
  // The hint says how many changes chance alone would give at that level.
  await expect(page.getByText(/\d+ of [\d,]+ methods changed at p < 0\.01, where chance alone would give at most about [\d.,]+; \d+ still do/)).toBeVisible();
  // The counts agree with the shares: a / A is the selection's share.
  const scores = [];
  for (let k = 1; k < Math.min(8, await rows.count()); k++) scores.push(Number((await cells(k))[8]));
  expect(scores).toEqual([...scores].sort((x, y) => y - x));

  // Every column sorts: p-value, ascending first.
  await table.getByRole('button', { name: /^p-value/ }).click();
  await expect(table.getByRole('columnheader', { name: /p-value/ })).toHaveAttribute('aria-sort', 'ascending');
  const ps = [];
  for (let k = 1; k < Math.min(8, await rows.count()); k++) ps.push(Number((await cells(k))[6]));
  expect(ps).toEqual([...ps].sort((x, y) => x - y));

  // Self is the other measure, in the table and the flame graph alike.
  await page.getByRole('radiogroup', { name: 'Measure' }).getByRole('radio', { name: 'Self' }).click();
  await expect(page.getByRole('radiogroup', { name: 'Measure' }).getByRole('radio', { name: 'Self' })).toHaveAttribute('aria-checked', 'true');
  await page.getByRole('radiogroup', { name: 'Show the comparison as' }).getByRole('radio', { name: 'Flame graph' }).click();
  await expect(page.getByTestId('flamegraph')).toBeVisible();
  await expect(page.getByText(/coloured by its method’s self change, as in the table/)).toBeVisible();
  await page.getByRole('radiogroup', { name: 'Show the comparison as' }).getByRole('radio', { name: 'Methods' }).click();

  // A millisecond holds too few events: a sentence with the counts, no table.
  await selectTyped(page, '0.001-0.002');
  await expect(page.getByText(/The comparison needs more events: the selection holds \d+ (samples|events) and everything outside it [\d,]+/)).toBeVisible();
  await expect(page.getByRole('table', { name: 'Methods that changed' })).toHaveCount(0);
});
