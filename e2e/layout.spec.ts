/**
 * The lane-name column: dragged or moved by the keyboard from its handle, kept across a reload,
 * the plot following it; long names cut in the middle with the whole name on hover.
 */
import { expect, test } from '@playwright/test';
import { lanesCanvas, settled } from './helpers';

test('the lane names column resizes by drag and by keys, and is kept', async ({ page }) => {
  await page.goto('./');
  await page.getByRole('button', { name: 'Open example' }).click();
  await expect(page.getByRole('status')).toContainText('selected');
  await settled(page);
  const handle = page.getByRole('separator', { name: /Lane names' width/ });
  await expect(handle).toHaveAttribute('aria-valuenow', '220');

  await handle.focus();
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('ArrowRight');
  await expect(handle).toHaveAttribute('aria-valuenow', '252');
  await page.keyboard.press('ArrowLeft');
  await expect(handle).toHaveAttribute('aria-valuenow', '236');

  const box = (await handle.boundingBox())!;
  const timeline = (await lanesCanvas(page).boundingBox())!;
  await page.mouse.move(box.x + box.width / 2, box.y + 40);
  await page.mouse.down();
  await page.mouse.move(timeline.x + 2000, box.y + 40, { steps: 4 });
  await page.mouse.up();
  await expect(handle).toHaveAttribute('aria-valuenow', '600');
  await page.mouse.move(timeline.x + 400, box.y + 40);
  await page.mouse.down();
  await page.mouse.move(timeline.x + 140, box.y + 40, { steps: 4 });
  await page.mouse.up();
  await expect(handle).toHaveAttribute('aria-valuenow', '600');
  await page.mouse.move(timeline.x + 597, box.y + 40);
  await page.mouse.down();
  await page.mouse.move(timeline.x + 10, box.y + 40, { steps: 4 });
  await page.mouse.up();
  await expect(handle).toHaveAttribute('aria-valuenow', '120');
  expect(await page.evaluate(() => localStorage.getItem('jfrscope:labelWidth'))).toBe('120');

  // A narrow column cuts names in the middle; the lane's hover still names it whole.
  await page.mouse.move(timeline.x + 30, timeline.y + 22 * 1 + 10);
  await expect(page.getByRole('tooltip')).toContainText(/search-worker-\d|index-merger/);

  await page.reload();
  await page.getByRole('button', { name: 'Open example' }).click();
  await expect(page.getByRole('separator', { name: /Lane names' width/ })).toHaveAttribute('aria-valuenow', '120');
});

test('"?" and the Keys button open the sheet of shortcuts; Escape closes it', async ({ page }) => {
  await page.goto('./');
  await expect(page.getByRole('heading', { name: /Java Flight Recorder/ })).toBeVisible();
  await page.keyboard.press('?');
  const sheet = page.getByRole('dialog', { name: 'Keyboard shortcuts' });
  await expect(sheet).toBeVisible();
  await expect(sheet).toContainText('next and previous spike');
  await expect(sheet.getByRole('button', { name: 'Close' })).toBeFocused();
  await page.keyboard.press('Escape');
  await expect(sheet).toHaveCount(0);

  await page.getByRole('button', { name: 'Keys' }).click();
  await expect(sheet).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(sheet).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Keys' })).toBeFocused();

  // Typed into a field, "?" is text.
  await page.getByRole('button', { name: 'Open example' }).click();
  await page.getByLabel('Stack filter').fill('a?b');
  await expect(page.getByLabel('Stack filter')).toHaveValue('a?b');
  await expect(sheet).toHaveCount(0);
});

test('timeline tools out of view at 1366 px: the hidden side fades, and a wheel brings them in', async ({ page }) => {
  await page.setViewportSize({ width: 1366, height: 768 });
  await page.goto('./');
  await page.getByRole('button', { name: 'Open example' }).click();
  await expect(page.getByRole('status')).toContainText('selected');
  await settled(page);
  const tools = page.getByLabel('Timeline tools');
  const overflows = await tools.evaluate((el) => el.scrollWidth > el.clientWidth + 1);
  // (The example's tools do not fit 1366 px; should they ever fit, this test has nothing to show.)
  expect(overflows, 'the tools overflow at 1366 px').toBe(true);
  await expect(tools).toHaveAttribute('data-more', 'right');
  const box = (await tools.boundingBox())!;
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
  await page.mouse.wheel(0, 2000);
  await expect.poll(() => tools.evaluate((el) => el.scrollLeft)).toBeGreaterThan(0);
  await expect(tools).toHaveAttribute('data-more', 'left');
  const exportStacks = page.getByRole('button', { name: 'Export stacks' });
  const b = (await exportStacks.boundingBox())!;
  expect(b.x + b.width).toBeLessThanOrEqual(1366);
  // The fade takes no clicks, and the strip's menus still show and work.
  await page.getByLabel('Save a picture').click();
  await expect(page.getByRole('group', { name: 'Pictures' }).getByRole('button', { name: 'Flame graph (SVG)' })).toBeVisible();
  const [file] = await Promise.all([page.waitForEvent('download'), page.getByRole('group', { name: 'Pictures' }).getByRole('button', { name: 'Flame graph (SVG)' }).click()]);
  expect(file.suggestedFilename()).toMatch(/\.svg$/);
});
