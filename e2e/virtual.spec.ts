/**
 * Virtual threads as a person reads them: open the JDK 25 recording of many virtual threads,
 * see them under one group lane, open the group, and point at a pinned interval of a pinned
 * virtual thread: the hover names it, its carrier and its stack. Truth: the scenario (four
 * pinned-N threads, pinned by a native frame while they sleep) and the JDK's reading of the
 * pinned events (fixtures/expected/jdk25-virtual.jfr.kinds.tsv: their carriers).
 */
import { expect, test } from '@playwright/test';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { LABEL_W, lanesCanvas, root, settled, shot } from './helpers';

const FILE = 'jdk25-virtual.jfr';
const LANE_H = 22;

const kinds = readFileSync(resolve(root, 'fixtures/expected', `${FILE}.kinds.tsv`), 'utf8').trimEnd().split('\n').map((l) => l.split('\t'));
const virtualCount = kinds.filter((f) => f[0] === 'virtual').length;
const carriersOf0 = kinds.filter((f) => f[0] === 'pinned' && f[1] === 'pinned-0').map((f) => f[2]);

async function laneNames(page: import('@playwright/test').Page): Promise<string[]> {
  await settled(page);
  const label = (await lanesCanvas(page).getAttribute('aria-label')) ?? '';
  return label.replace(/^Thread lanes \(\d+\): /, '').split(', ');
}

test('virtual threads sit under one group; a pinned interval names its carrier and stack', async ({ page }) => {
  await page.setViewportSize({ width: 1400, height: 1000 });
  await page.goto('./');
  await page.getByLabel('Open recording').setInputFiles(resolve(root, 'fixtures', FILE));
  await expect(page.getByRole('status')).toContainText('selected');
  await page.getByLabel('Event').selectOption('jdk.VirtualThreadPinned');
  await expect(page.getByRole('status')).toContainText('pinned virtual threads');
  // Closed: one lane holds every virtual thread; no pinned-N lane of its own.
  let names = await laneNames(page);
  expect(names).toContain(`virtual threads (${virtualCount}): closed group`);
  expect(names.some((n) => n.startsWith('pinned-'))).toBe(false);
  await page.getByRole('button', { name: `▸ Virtual threads (${virtualCount})` }).click();
  names = await laneNames(page);
  expect(names).toContain(`virtual threads (${virtualCount}): open group`);
  const k = names.indexOf('pinned-0 (virtual)');
  expect(k).toBeGreaterThan(names.indexOf(`virtual threads (${virtualCount}): open group`));
  // Walk along pinned-0's lane until the hover is a pinned interval.
  const box = (await lanesCanvas(page).boundingBox())!;
  const y = box.y + k * LANE_H + 12;
  let found = false;
  for (let x = box.x + LABEL_W + 150; x < box.x + box.width - 10 && !found; x += 2) {
    await page.mouse.move(x, y);
    found = await page.getByRole('tooltip').filter({ hasText: 'Virtual Thread Pinned at' }).isVisible();
  }
  expect(found).toBe(true);
  const tip = page.getByRole('tooltip');
  await expect(tip).toContainText('thread pinned-0');
  await expect(tip).toContainText('Native or VM frame on stack');
  const carrier = /pinned to its carrier (\S+) \(held while pinned\)/.exec((await tip.textContent()) ?? '')?.[1];
  expect(carriersOf0).toContain(carrier);
  await expect(tip).toContainText('java.lang.Thread.sleep');
  await shot(page, 'virtual-pinned');
  // A never-pinned virtual thread: its carrier is not recorded.
  const v = names.findIndex((n) => /^vt-\d+ \(virtual\)$/.test(n));
  await page.mouse.move(box.x + 4, box.y + v * LANE_H + 12);
  await expect(tip).toContainText('carrier not recorded');
});
