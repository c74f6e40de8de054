/**
 * Native memory as a person reads it: open async-profiler's nativemem recording, open Native
 * memory, and read what was never freed, the leaking stack first. Truth: the scenario's known
 * leak (64 blocks of 64 KiB from NativeMemory.leak, never freed) and the JDK's reading of the
 * mallocs and frees (fixtures/expected/ap-nativemem.jfr.kinds.tsv: unfreed count and bytes).
 */
import { expect, test } from '@playwright/test';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { root, settled, shot } from './helpers';

const FILE = 'ap-nativemem.jfr';
const unfreed = readFileSync(resolve(root, 'fixtures/expected', `${FILE}.kinds.tsv`), 'utf8')
  .split('\n')
  .map((l) => l.split('\t'))
  .find((f) => f[0] === 'unfreed')!;

test('Native memory lists the unfreed allocations, the leak first', async ({ page }) => {
  await page.setViewportSize({ width: 1400, height: 1000 });
  await page.goto('./');
  await page.getByLabel('Open recording').setInputFiles(resolve(root, 'fixtures', FILE));
  await expect(page.getByRole('status')).toContainText('selected');
  await page.getByRole('tab', { name: 'Native memory' }).click();
  await settled(page);
  // The summary counts what the JDK's events leave unmatched.
  await expect(page.getByLabel('Native memory summary')).toContainText(`in ${Number(unfreed[1]).toLocaleString('en-US')} allocations never freed`);
  const table = page.getByRole('table', { name: 'Unfreed allocations by stack' });
  const first = table.getByRole('row').nth(1);
  await expect(first).toContainText('NativeMemory.leak');
  await expect(first.getByRole('cell').nth(2)).toHaveText('64');
  await expect(first.getByRole('cell').nth(1)).toHaveText('4.0 MiB');
  // Its stack, leaf first, from the allocator down to the thread's start.
  await first.getByRole('button', { name: 'NativeMemory.leak' }).click();
  const stack = page.getByRole('list', { name: /Stack of NativeMemory\.leak/ });
  await expect(stack.getByRole('listitem').first()).toContainText('malloc_hook');
  await expect(stack).toContainText('sun.misc.Unsafe.allocateMemory');
  // The outstanding bytes over time end at what was never freed.
  const line = page.getByRole('img', { name: /^Line of Outstanding bytes/ });
  await expect(line).toBeVisible();
  await shot(page, 'nativemem');
  // A range keeps what was allocated in it: fewer than the whole recording, said so.
  await page.getByLabel('Selected range').fill('1-2');
  await page.getByLabel('Selected range').press('Enter');
  const summary = page.getByLabel('Native memory summary');
  await expect(summary).toContainText('from 1.00 s to 2.00 s');
  const inRange = Number((await summary.textContent())!.match(/in ([\d,]+) allocations never freed/)![1].replaceAll(',', ''));
  expect(inRange).toBeGreaterThan(0);
  expect(inRange).toBeLessThan(Number(unfreed[1]));
  await expect(table.getByRole('row')).not.toHaveCount(0);
});
