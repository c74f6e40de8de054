/**
 * Accessibility by axe-core: the welcome page and the opened example, in both themes, have no
 * violation of impact serious or critical.
 */
import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { settled } from './helpers';

async function grave(page: Page): Promise<string[]> {
  const r = await new AxeBuilder({ page }).analyze();
  return r.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id} (${v.impact}): ${v.help}\n  ${v.nodes.slice(0, 5).map((n) => `${n.target.join(' ')} ${n.failureSummary?.split('\n').slice(1, 2).join('')}`).join('\n  ')}`);
}

for (const colorScheme of ['light', 'dark'] as const) {
  test.describe(`${colorScheme} theme`, () => {
    test.use({ colorScheme });

    test('the welcome page and the opened example: nothing serious or critical', async ({ page }) => {
      await page.goto('./');
      await expect(page.getByRole('heading', { name: /Java Flight Recorder/ })).toBeVisible();
      expect(await grave(page)).toEqual([]);
      await page.getByRole('button', { name: 'Open example' }).click();
      await expect(page.getByRole('status')).toContainText('selected');
      await settled(page);
      expect(await grave(page)).toEqual([]);
    });
  });
}
