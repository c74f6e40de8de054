/**
 * A lazy load as a person meets it: the types that do not fit the first round's row budget are
 * listed with their counts, marked, and decoded when picked, from the file itself. The budget is
 * lowered (the jfrscope:rowBudget setting) so the small example behaves like a huge recording.
 */
import { expect, test } from '@playwright/test';
import { resolve } from 'node:path';
import { clickBusiestPoint, root, selectedCounts, shot } from './helpers';

test('types beyond the row budget are decoded when picked, and their events open in full', async ({ page }) => {
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await page.addInitScript(() => localStorage.setItem('jfrscope:rowBudget', '200'));
  await page.goto('./');
  await page.getByLabel('Open recording').setInputFiles(resolve(root, 'fixtures/example.jfr'));
  // The default view's type (936 CPU samples) is over the budget: it is decoded at once.
  await expect(page.getByLabel('Event')).toHaveValue('jdk.ExecutionSample');
  await expect(page.getByRole('status')).toContainText('of 936 CPU samples selected');
  const option = (name: string) => page.locator(`select[aria-label="Event"] option[value="${name}"]`);
  await expect(option('jdk.JavaMonitorEnter')).toContainText('574, decoded when picked');
  await expect(option('jdk.ThreadPark')).not.toContainText('decoded when picked');
  await expect(option('jdk.ExecutionSample')).not.toContainText('decoded when picked');
  await shot(page, 'lazy-1-opened');

  await page.getByLabel('Event').selectOption('jdk.JavaMonitorEnter');
  await expect(page.getByRole('status')).toContainText('of 574 lock waits selected');
  await expect(option('jdk.JavaMonitorEnter')).not.toContainText('decoded when picked');
  expect((await selectedCounts(page))[1]).toBe(574);
  await page.getByLabel('Stack filter').fill('NativeThreadSet');
  await expect.poll(async () => (await selectedCounts(page))[0]).toBeGreaterThan(0);
  await shot(page, 'lazy-2-picked');

  // Event details come from the file, read again by the worker that owns the chunk.
  expect(await clickBusiestPoint(page)).toBe(true);
  await expect(page.getByRole('complementary', { name: 'Event details' }).locator('pre')).toContainText('"monitorClass"');

  // The rest (allocation and wall-clock samples here) at once, from the timeline's button.
  const rest = page.getByRole('button', { name: /^Decode .* more events/ });
  await expect(rest).toContainText('(2 types)');
  await rest.click();
  await expect(rest).toBeHidden();
  await expect(option('profiler.WallClockSample')).not.toContainText('decoded when picked');
  await page.getByLabel('Event', { exact: true }).selectOption('profiler.WallClockSample');
  await expect(page.getByRole('status')).toContainText('of 8,441 wall-clock samples selected');
  expect(errors).toEqual([]);
});
