/**
 * Two recordings, as a person compares them: open one (JDK 17), go to Compare, open another of
 * the same scenario (JDK 25) as the baseline, read methods with counts on both sides, give the
 * baseline a range (kept in the link with the other recording's fingerprint), then clear it and
 * be back to comparing within the first recording.
 */
import { expect, test } from '@playwright/test';
import { resolve } from 'node:path';
import { root, settled } from './helpers';

const num = (s: string) => Number(s.replace(/[,\s]/g, ''));

test('Compare with another recording: both sides counted by method name; clearing goes back', async ({ page }) => {
  await page.goto('./');
  await page.getByLabel('Open recording').setInputFiles(resolve(root, 'fixtures/jdk17-profile.jfr'));
  await expect(page.getByRole('status')).toContainText('selected');
  await page.getByRole('tab', { name: 'Compare' }).click();
  // Within one recording, without a range there is nothing to compare yet.
  await expect(page.getByText(/Select a time range on the timeline/)).toBeVisible();

  await page.getByLabel('Compare with another recording').setInputFiles(resolve(root, 'fixtures/jdk25-cputime.jfr'));
  await expect(page.getByText('against jdk25-cputime.jfr', { exact: true })).toBeVisible();
  const table = page.getByRole('table', { name: 'Methods that changed' });
  await expect(table).toBeVisible();
  await settled(page);
  await expect(page.getByText(/all of this recording \([\d,]+ samples\) against jdk25-cputime\.jfr through the same filters \([\d,]+ samples\)/)).toBeVisible();

  // The scenario's SearchService methods ran in both recordings: rows with counts on both sides.
  const rows = table.getByRole('row').filter({ hasText: 'SearchService' });
  expect(await rows.count()).toBeGreaterThan(0);
  let both = 0;
  for (let k = 0; k < (await rows.count()); k++) {
    const cells = (await rows.nth(k).getByRole('cell').allTextContents()).map((c) => c.trim());
    expect(cells[3]).toMatch(/^\d+\.\d%$/);
    if (num(cells[1]) > 0 && num(cells[2]) > 0) both++;
  }
  expect(both).toBeGreaterThan(0);

  // The diff flame graph draws from the same rows.
  await page.getByRole('radiogroup', { name: 'Show the comparison as' }).getByRole('radio', { name: 'Flame graph' }).click();
  await expect(page.getByTestId('flamegraph')).toBeVisible();
  await page.getByRole('radiogroup', { name: 'Show the comparison as' }).getByRole('radio', { name: 'Methods' }).click();

  // A type the other recording lacks is named, not compared.
  await page.getByLabel('Event').selectOption('jdk.ContainerConfiguration');
  await expect(page.getByText('jdk25-cputime.jfr has no jdk.ContainerConfiguration events')).toBeVisible();
  await page.getByLabel('Event').selectOption('jdk.ExecutionSample');
  await expect(table).toBeVisible();

  // The link names the other recording and its range.
  await page.getByLabel('Baseline range').fill('0-1000');
  await page.getByLabel('Baseline range').press('Enter');
  await expect.poll(() => new URL(page.url()).searchParams.get('range2')).toBe('0-1000000');
  const fp2 = new URL(page.url()).searchParams.get('fp2');
  expect(fp2).toMatch(/^\d+-[0-9a-f]+$/);
  expect(new URL(page.url()).searchParams.get('file2')).toBe('jdk25-cputime.jfr');

  // The link opened without the other recording says which file it needs.
  const link = page.url();
  const second = await page.context().newPage();
  await second.goto(link);
  await second.getByLabel('Open recording').setInputFiles(resolve(root, 'fixtures/jdk17-profile.jfr'));
  await expect(second.getByRole('note')).toContainText(`This link compares with another recording, jdk25-cputime.jfr (`);
  await expect(second.getByRole('note')).toContainText(`${Number(fp2!.split('-')[0]).toLocaleString('en-US')} bytes`);
  // Its Compare view (the link's view) names the file too, and can forget it.
  await expect(second.getByText(/The link compared with jdk25-cputime\.jfr \(/)).toBeVisible();
  await second.getByRole('button', { name: 'Clear other recording' }).click();
  await expect.poll(() => new URL(second.url()).searchParams.get('fp2')).toBeNull();
  await second.close();

  // Clearing: back to comparing within the first recording.
  await page.getByRole('button', { name: 'Clear other recording' }).click();
  await expect(page.getByText('against jdk25-cputime.jfr', { exact: true })).toHaveCount(0);
  await expect(page.getByText(/Select a time range on the timeline/)).toBeVisible();
  await expect.poll(() => new URL(page.url()).searchParams.get('fp2')).toBeNull();
  expect(new URL(page.url()).searchParams.get('range2')).toBeNull();
  const input = page.getByLabel('Selected range');
  await input.fill('2-6');
  await input.press('Enter');
  await settled(page);
  await expect(table).toBeVisible();
  await expect(page.getByText(/the selection \([\d,]+ samples\) against everything outside it/)).toBeVisible();
});
