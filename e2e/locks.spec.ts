/**
 * Lock blame as a person hunts it: open a JDK recording whose scenario schedules when
 * index-merger holds the Index monitor, open Locks, read who held it, choose a burst and see the
 * holder's lane pinned on top and what it ran meanwhile. Truth: the scenario's schedule.
 */
import { expect, test } from '@playwright/test';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { lanesCanvas, root, settled } from './helpers';

const FILE = 'jdk17-profile.jfr';

function holds(): [number, number][] {
  const start = readFileSync(resolve(root, 'fixtures', FILE)).readBigInt64BE(32);
  return readFileSync(resolve(root, 'fixtures/expected', `${FILE}.schedule.tsv`), 'utf8')
    .trim()
    .split('\n')
    .map((l) => l.split('\t'))
    .filter((f) => f[0] === 'hold')
    .map((f) => [Number(BigInt(f[2]) - start) / 1e6, Number(BigInt(f[3]) - start) / 1e6]);
}

test('Locks names the holder of the Index monitor and shows what it ran', async ({ page }) => {
  await page.goto('./');
  await page.getByLabel('Open recording').setInputFiles(resolve(root, 'fixtures', FILE));
  await expect(page.getByRole('status')).toContainText('selected');
  await page.getByRole('tab', { name: 'Locks' }).click();
  const table = page.getByRole('table', { name: 'Locks' });
  const row = table.getByRole('row').filter({ hasText: 'SearchService$Index @' });
  await expect(row.first()).toContainText('index-merger');
  // The first scheduled hold is one burst, held by index-merger.
  const [a, b] = holds()[0];
  // The burst that starts nearest the hold (bursts of every lock are listed, by lock).
  const names = await table.getByRole('button', { name: /^burst / }).allTextContents();
  const starts = names.map((n) => Number(/burst ([\d.]+)/.exec(n)![1]) * 1000);
  const nearest = starts.reduce((best, t, k) => (Math.abs(t - a) < Math.abs(starts[best] - a) ? k : best), 0);
  await table.getByRole('button', { name: /^burst / }).nth(nearest).click();
  await settled(page);
  const [x, y] = (await page.getByLabel('Selected range').inputValue()).split('–').map((v) => Number(v) * 1000);
  expect(Math.abs(x - a)).toBeLessThan(100);
  expect(Math.abs(y - b)).toBeLessThan(100);
  await expect(table.getByRole('row').filter({ has: page.getByRole('button', { name: /^burst /, pressed: true }) })).toContainText('index-merger');
  const ran = page.getByRole('region', { name: 'What the holder ran' });
  await expect(ran.getByRole('heading')).toContainText('What index-merger ran during the burst');
  await expect(ran).toContainText('mergeSegments');
  // The holder's lane is pinned on top: hovering the first lane's name reads it.
  const lanes = lanesCanvas(page);
  const box = (await lanes.boundingBox())!;
  await page.mouse.move(box.x + 40, box.y + 10);
  await expect(page.getByRole('tooltip')).toContainText('index-merger');
  await expect(page).toHaveURL(/pin=index-merger/);
});

test('Findings say who held the lock during a hold, and link to Locks', async ({ page }) => {
  await page.goto('./');
  await page.getByLabel('Open recording').setInputFiles(resolve(root, 'fixtures', FILE));
  await expect(page.getByRole('status')).toContainText('selected');
  const [a, b] = holds()[1];
  await page.getByLabel('Selected range').fill(`${((a + 50) / 1000).toFixed(3)}-${((b - 50) / 1000).toFixed(3)}`);
  await page.getByLabel('Selected range').press('Enter');
  await page.getByRole('tab', { name: 'Findings' }).click();
  const list = page.getByRole('list', { name: 'Findings' });
  const lock = list.getByRole('listitem').filter({ hasText: 'monitor held by index-merger' });
  await expect(lock).toContainText(/threads waited .* on one SearchService\$Index @ 0x[0-9a-f]+ monitor held by index-merger, which ran SearchService\$Index\.mergeSegments/);
  await lock.getByRole('button', { name: 'Show in Locks' }).click();
  await expect(page.getByRole('tab', { name: 'Locks' })).toHaveAttribute('aria-selected', 'true');
  await expect(page.getByRole('table', { name: 'Locks' })).toContainText('index-merger');
});
