/**
 * Light and dark: the page follows the system until the header's switch says otherwise, the
 * choice survives a reload, and the canvases repaint in the theme's palette.
 */
import { expect, test } from '@playwright/test';
import { lanesCanvas, settled, shot } from './helpers';

/** The lanes canvas's mean brightness (0–255) over its plot, read from the page. */
async function brightness(page: import('@playwright/test').Page): Promise<number> {
  const png = await lanesCanvas(page).screenshot();
  return page.evaluate(async (b64) => {
    const img = new Image();
    img.src = `data:image/png;base64,${b64}`;
    await img.decode();
    const c = document.createElement('canvas');
    c.width = img.width;
    c.height = img.height;
    const g = c.getContext('2d')!;
    g.drawImage(img, 0, 0);
    const d = g.getImageData(0, 0, c.width, c.height).data;
    let sum = 0;
    for (let i = 0; i < d.length; i += 4) sum += (d[i] + d[i + 1] + d[i + 2]) / 3;
    return sum / (d.length / 4);
  }, png.toString('base64'));
}

test.describe('a dark system', () => {
  test.use({ colorScheme: 'dark' });

  test('dark by default, light by the switch, kept across a reload', async ({ page }) => {
    await page.goto('./');
    await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
    await page.getByRole('button', { name: 'Open example' }).click();
    await expect(page.getByRole('status')).toContainText('selected');
    await settled(page);
    expect(await brightness(page)).toBeLessThan(90);
    await shot(page, 'theme-dark');
    await page.getByLabel('Event').selectOption('jdk.JavaMonitorEnter');
    await page.getByRole('tab', { name: 'Latency' }).click();
    await shot(page, 'theme-dark-latency');

    const theme = page.getByRole('radiogroup', { name: 'Theme' });
    await theme.getByRole('radio', { name: 'Light' }).click();
    await expect(page.locator('html')).toHaveAttribute('data-theme', 'light');
    await expect.poll(() => brightness(page)).toBeGreaterThan(160);
    expect(await page.evaluate(() => localStorage.getItem('jfrscope:theme'))).toBe('light');
    await page.reload();
    await expect(page.locator('html')).toHaveAttribute('data-theme', 'light');

    await page.getByRole('radiogroup', { name: 'Theme' }).getByRole('radio', { name: 'System' }).click();
    await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
    await page.emulateMedia({ colorScheme: 'light' });
    await expect(page.locator('html')).toHaveAttribute('data-theme', 'light');
  });
});
