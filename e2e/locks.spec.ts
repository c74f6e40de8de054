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

/** LedgerService's bursts (kind, holder, [start, end] ms from the recording's start), from its schedule. */
function ledgerBursts(file: string): { kind: string; holder: string; window: [number, number] }[] {
  const start = readFileSync(resolve(root, 'fixtures', file)).readBigInt64BE(32);
  return readFileSync(resolve(root, 'fixtures/expected', `${file}.schedule.tsv`), 'utf8')
    .trim()
    .split('\n')
    .map((l) => l.split('\t'))
    .map((f) => ({ kind: f[0], holder: f[1], window: [Number(BigInt(f[2]) - start) / 1e6, Number(BigInt(f[3]) - start) / 1e6] }));
}

for (const file of ['jdk17-ledger.jfr', 'ap-ledger.jfr']) {
  test(`${file}: Locks and Findings name each burst's scheduled holder, two of one monitor in turn`, async ({ page }) => {
    await page.goto('./');
    await page.getByLabel('Open recording').setInputFiles(resolve(root, 'fixtures', file));
    await expect(page.getByRole('status')).toContainText('selected');
    const jdk = file.startsWith('jdk');
    for (const { kind, holder, window } of ledgerBursts(file)) {
      // A range inside the burst: the Locks row of its lock, and the Findings.
      await page.getByLabel('Selected range').fill(`${((window[0] + 100) / 1000).toFixed(3)}-${((window[1] - 100) / 1000).toFixed(3)}`);
      await page.getByLabel('Selected range').press('Enter');
      await settled(page);
      await page.getByRole('tab', { name: 'Locks' }).click();
      const table = page.getByRole('table', { name: 'Locks' });
      const row = table.getByRole('row').filter({ hasText: kind === 'ledger' ? 'LedgerService$Ledger @' : 'ReentrantLock$NonfairSync @' });
      await expect(row.first()).toContainText(kind === 'ledger' && jdk ? holder : /unknown/);
      if (!(kind === 'ledger' && jdk)) {
        // Why no holder is named is said once, on the object's row; each burst row says
        // "unknown", the reason in its title.
        await expect(row.first()).toContainText(/unknown: (JFR|async-profiler|this recording)/);
        const burst = table.locator('tr.burst').filter({ has: page.getByRole('button', { name: /^burst / }) }).first().locator('td').last();
        await expect(burst).toHaveText('unknown');
        await expect(burst).toHaveAttribute('title', /^unknown: /);
      }
      await page.getByRole('tab', { name: 'Findings' }).click();
      const list = page.getByRole('list', { name: 'Findings' });
      await expect(list.getByRole('listitem').first()).toContainText(kind === 'ledger' && jdk ? `held by ${holder}, which ran` : `on CPU meanwhile: ${holder}`);
      // Six workers held up on the lock against well under one elsewhere, whatever the feed
      // readers' socket reads add all along.
      await expect(list).toContainText(new RegExp(`6\\.0 threads were held up on average in the range \\(${kind === 'ledger' ? 'monitor' : 'park \\(locks\\)'}\\), against 0\\.\\d`));
    }
    await page.screenshot({ path: resolve(root, 'e2e/artifacts', `ledger-findings-${file}.png`) });
  });
}
