/**
 * The hunt by keyboard alone: no click, no mouse move. Open fixtures/example.jfr from the file
 * picker, type the stack filter, step to a spike with ], walk a lane's events, open one, select
 * around it, open Compare with its number key and read what rose first. Then the lane keys: pin
 * (kept in the link as `pin`, the state the Locks view pins a holder with), the lane's menu,
 * hide; and the sheet lists every key the page answers.
 */
import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { resolve } from 'node:path';
import { lanesCanvas, root, settled, shot } from './helpers';

async function lanes(page: Page): Promise<string[]> {
  const label = (await lanesCanvas(page).getAttribute('aria-label')) ?? '';
  return label.replace(/^Thread lanes \(\d+\): /, '').split(', ');
}

/** Tab until `target` has the focus (at most `max` presses): the keyboard's own way there. */
async function tabTo(page: Page, target: import('@playwright/test').Locator, max = 40): Promise<void> {
  for (let k = 0; k < max; k++) {
    if (await target.evaluate((el) => el === document.activeElement)) return;
    await page.keyboard.press('Tab');
  }
  await expect(target).toBeFocused();
}

/** The focused element always shows it: an outline or an inset ring. */
async function focusShows(page: Page): Promise<boolean> {
  return page.evaluate(() => {
    const el = document.activeElement as HTMLElement | null;
    if (!el || el === document.body) return false;
    const cs = getComputedStyle(el);
    return (cs.outlineStyle !== 'none' && parseFloat(cs.outlineWidth) > 0) || cs.boxShadow !== 'none';
  });
}

for (const [width, height] of [
  [1600, 1000],
  [1280, 800],
] as const) {
  test(`the NativeThreadSet hunt by keyboard alone (${width}×${height})`, async ({ page }) => {
    await page.setViewportSize({ width, height });
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    // File dialogs are caught from the start: Playwright asks Chromium to catch them when the
    // first 'filechooser' listener is added and does not wait for the answer, so a key press
    // sent right after can overtake the request, and the dialog it opens is never reported.
    page.on('filechooser', () => {});
    await page.goto('./');
    // Open the file picker from the keyboard.
    await tabTo(page, page.getByLabel('Open recording'));
    expect(await focusShows(page)).toBe(true);
    // Enter on the picker opens the system's file dialog.
    const chooser = page.waitForEvent('filechooser', { timeout: 30_000 });
    await page.keyboard.press('Enter');
    await (await chooser).setFiles(resolve(root, 'fixtures/example.jfr'));
    await expect(page.getByRole('status')).toContainText('selected');

    // "/" to the stack filter, type, Enter: on to the lanes.
    await settled(page);
    await page.keyboard.press('/');
    await expect(page.getByLabel('Stack filter')).toBeFocused();
    await page.keyboard.type('NativeThreadSet');
    await page.keyboard.press('Enter');
    await expect(page.getByRole('group', { name: /^Lanes/ })).toBeFocused();
    expect(await focusShows(page)).toBe(true);
    await settled(page);
    await expect(page.getByRole('status')).toContainText(/^\d+ of \d+ CPU samples selected/);

    // ] selects the first spike of matching samples.
    await page.keyboard.press(']');
    await expect(page.getByRole('status')).toContainText('range');
    const spike = await page.getByLabel('Selected range').inputValue();

    // ↓ chooses the first lane, → steps to its first matching sample in the spike, Enter opens it.
    const cursor = page.getByLabel('Keyboard on the lanes');
    await page.keyboard.press('ArrowDown');
    const first = (await lanes(page))[0];
    await expect(cursor).toContainText(`Lane 1 of `);
    await expect(cursor).toContainText(first);
    await page.keyboard.press('ArrowRight');
    await expect(cursor).toContainText('Enter opens it');
    const stepped = (await cursor.textContent()) ?? '';
    await page.keyboard.press('ArrowRight');
    await expect(cursor).not.toHaveText(stepped);
    await page.keyboard.press('ArrowLeft');
    await expect(cursor).toHaveText(stepped);
    await page.keyboard.press('Enter');
    const panel = page.getByRole('complementary', { name: 'Event details' });
    await expect(panel).toBeVisible();
    await expect(panel).toContainText('NativeThreadSet');
    await expect(panel).toContainText(first);
    // s: the range around it is the spike that holds it.
    await page.getByLabel('Selected range').evaluate((el) => el.blur());
    await page.getByRole('group', { name: /^Lanes/ }).focus();
    await page.keyboard.press('s');
    await expect(page.getByLabel('Selected range')).toHaveValue(spike);
    await shot(page, `keyboard-hunt-${width}-lane`);

    // The filter found the spike; the comparison weighs all of its samples against the rest:
    // "/" again, clear the field, Enter back to the lanes.
    await page.keyboard.press('/');
    await page.keyboard.press('ControlOrMeta+a');
    await page.keyboard.press('Backspace');
    await page.keyboard.press('Enter');
    await expect(page.getByRole('group', { name: /^Lanes/ })).toBeFocused();
    await expect(page.getByLabel('Selected range')).toHaveValue(spike);
    // The Compare tab's number opens it; skipBytes rose first.
    const tabs = (await page.getByRole('tab').allTextContents()).map((t) => t.trim());
    const n = tabs.indexOf('Compare') + 1;
    expect(n).toBeGreaterThan(0);
    expect(n).toBeLessThan(10);
    await page.keyboard.press(String(n));
    await expect(page.getByRole('tab', { name: 'Compare' })).toHaveAttribute('aria-selected', 'true');
    const rose = page.getByRole('table', { name: 'Methods that changed' });
    await expect(rose).toBeVisible();
    await settled(page);
    await expect(rose.locator('tbody tr').first().locator('td').first()).toHaveText('java.io.DataInputStream.skipBytes');
    await shot(page, `keyboard-hunt-${width}-compare`);
    // ← → on the tabs walk the views.
    await page.getByRole('tab', { name: 'Compare' }).focus();
    await page.keyboard.press('ArrowLeft');
    await expect(page.getByRole('tab', { name: tabs[n - 2] })).toHaveAttribute('aria-selected', 'true');
    await expect(page.getByRole('tab', { name: tabs[n - 2] })).toBeFocused();
    expect(await focusShows(page)).toBe(true);
    expect(errors).toEqual([]);
  });
}

test('lanes pin, hide and open their menu by keys; the pin is the link’s', async ({ page }) => {
  await page.goto('./');
  await page.getByRole('button', { name: 'Open example' }).click();
  await expect(page.getByRole('status')).toContainText('selected');
  await settled(page);
  const before = await lanes(page);
  const cursor = page.getByLabel('Keyboard on the lanes');
  await page.keyboard.press('t');
  await expect(page.getByRole('group', { name: /^Lanes/ })).toBeFocused();
  // The fourth lane, pinned: it goes on top, the link says so.
  for (let k = 0; k < 4; k++) await page.keyboard.press('ArrowDown');
  await expect(cursor).toContainText(`Lane 4 of ${before.length}: ${before[3]}`);
  await page.keyboard.press('p');
  await expect.poll(async () => (await lanes(page))[0]).toBe(before[3]);
  await expect(cursor).toContainText(`Lane 1 of ${before.length}: ${before[3]} (pinned)`);
  await expect(page).toHaveURL(new RegExp(`pin=${before[3]}`));
  // The link opens with it pinned.
  await page.reload();
  await page.getByRole('button', { name: 'Open example' }).click();
  await expect(page.getByRole('status')).toContainText('selected');
  await expect.poll(async () => (await lanes(page))[0]).toBe(before[3]);
  // Its menu from the keyboard: Unpin.
  await page.keyboard.press('t');
  await page.keyboard.press('ArrowDown');
  await expect(cursor).toContainText('(pinned)');
  await page.keyboard.press('Shift+F10');
  const menu = page.getByRole('menu', { name: `Lane ${before[3]}` });
  await expect(menu).toBeVisible();
  await expect(menu.getByRole('menuitem', { name: 'Unpin' })).toBeFocused();
  await shot(page, 'keyboard-lane-menu');
  // The menu and the chosen lane pass axe-core (nothing serious or critical).
  const axe = await new AxeBuilder({ page }).analyze();
  expect(axe.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => v.id)).toEqual([]);
  await page.keyboard.press('Enter');
  await expect(menu).toHaveCount(0);
  await expect(page.getByRole('group', { name: /^Lanes/ })).toBeFocused();
  await expect.poll(() => lanes(page)).toEqual(before);
  await expect(page).not.toHaveURL(/pin=/);
  // h hides the chosen lane; the keyboard stays on the lane that took its place.
  await page.keyboard.press('Home');
  await expect(cursor).toContainText(`Lane 1 of ${before.length}: ${before[0]}`);
  await page.keyboard.press('h');
  await expect.poll(() => lanes(page)).toEqual(before.slice(1));
  await expect(cursor).toContainText(`Lane 1 of ${before.length - 1}: ${before[1]}`);
  await expect(page.getByText('Threads (1 hidden)')).toBeVisible();
  // Escape lets go of the lane: ← → pan again.
  await page.keyboard.press('Escape');
  await expect(cursor).toHaveText('');
});

test('the sheet lists every key the timeline and the page answer', async ({ page }) => {
  await page.goto('./');
  await expect(page.getByRole('heading', { name: /Java Flight Recorder/ })).toBeVisible();
  await page.keyboard.press('?');
  const sheet = page.getByRole('dialog', { name: 'Keyboard shortcuts' });
  await expect(sheet).toBeVisible();
  const keys = (await sheet.locator('kbd').allTextContents()).join(' ');
  for (const k of ['?', '1 … 9', '/', 't', '+', '−', '←', '→', '↑', '↓', 'Home', 'End', 'Enter', 's', 'p', 'h', 'Shift+F10', '0', ']', '[', 'Escape', 'Tab']) {
    expect(keys.split(/\s+/).some((x) => x === k) || keys.includes(k), k).toBe(true);
  }
});
