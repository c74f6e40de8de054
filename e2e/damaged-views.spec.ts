/**
 * A cut recording in every view: damaged/truncated.jfr is the first two thirds of the example's
 * one chunk, and a chunk's constant pools (threads, stacks) are written at its end, so every
 * event that survived the cut lost its thread and its stack. The views must say so, not mix
 * them with whole events nor blame the filters: the lanes name the events with no thread, Top
 * methods holds them on one "(stack lost: chunk cut)" row, the axis says where the data ends.
 */
import { expect, test } from '@playwright/test';
import { resolve } from 'node:path';
import { lanesCanvas, root, settled, shot } from './helpers';

test('a cut chunk’s events are marked as such in the lanes, the tables and the header', async ({ page }) => {
  await page.goto('./');
  await page.getByLabel('Open recording').setInputFiles(resolve(root, 'fixtures/damaged/truncated.jfr'));
  await expect(page.getByRole('status')).toContainText('selected');
  await expect(page.getByRole('alert')).toContainText('cut in chunk 1 of 1');
  const selected = Number(((await page.getByRole('status').textContent()) ?? '').match(/^([\d,]+) of/)![1].replace(/,/g, ''));
  expect(selected).toBeGreaterThan(0);
  await settled(page);
  await expect(lanesCanvas(page)).toHaveAttribute('aria-label', new RegExp(`${selected.toLocaleString('en-US')} events with no thread \\(the chunk was cut`));
  await page.getByRole('tab', { name: 'Top methods' }).click();
  const rows = page.getByRole('table', { name: 'Top methods' }).getByRole('row');
  await expect(rows).toHaveCount(2); // the header and the lost stacks' row, nothing mixed in
  await expect(rows.nth(1).getByRole('cell').first()).toHaveText('(stack lost: chunk cut)');
  await expect(rows.nth(1).getByRole('cell').nth(1)).toHaveText(`${selected.toLocaleString('en-US')} samples`);
  await shot(page, 'damaged-views');
});
