/**
 * An event opened in full names its thread as its lane does, and as the JDK does: the worker that
 * decodes it is handed its chunk's thread overrides (the chain across chunks). In
 * fixtures/jdk17-renamed.jfr `cruncher` renames itself to `cruncher-renamed` at 1.5 s; the chunks
 * written after that name it so in their own pools, while the JDK (and the lane) keeps `cruncher`
 * (fixtures/expected/jdk17-renamed.jfr.per-type.threads.tsv has no `cruncher-renamed`).
 */
import { expect, test } from '@playwright/test';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { lanesCanvas, readView, root, settled, shot, xAt } from './helpers';

/** Lane height in the thread lanes canvas (components/timeline/geometry.ts LANE_H). */
const LANE_H = 22;

test('an event of a renamed thread, opened from a late chunk, names its thread as its lane and the JDK do', async ({ page }) => {
  const jdk = readFileSync(resolve(root, 'fixtures/expected/jdk17-renamed.jfr.per-type.threads.tsv'), 'utf8');
  expect(jdk).toContain('jdk.ExecutionSample\tcruncher\t');
  expect(jdk).not.toContain('cruncher-renamed');
  await page.goto('./');
  await page.getByLabel('Open recording').setInputFiles(resolve(root, 'fixtures/jdk17-renamed.jfr'));
  await expect(page.getByLabel('Event')).toHaveValue('jdk.ExecutionSample');
  await settled(page);
  const label = (await lanesCanvas(page).getAttribute('aria-label')) ?? '';
  const lanes = label.replace(/^Thread lanes \(\d+\): /, '').split(', ');
  expect(lanes).not.toContain('cruncher-renamed');
  const k = lanes.indexOf('cruncher');
  expect(k, label).toBeGreaterThanOrEqual(0);
  // Click cruncher's lane from the end of the recording back, until an event past 2.1 s opens
  // (the third chunk, whose own pool names the thread cruncher-renamed).
  const v = await readView(page);
  const box = (await lanesCanvas(page).boundingBox())!;
  const panel = page.getByRole('complementary', { name: 'Event details' }).locator('pre');
  let shown = '';
  for (let t = v.to - 10; t > 2100 && !shown; t -= (v.to - v.from) / 400) {
    await page.mouse.click(xAt(box, v, t), box.y + k * LANE_H + LANE_H / 2);
    if (!(await panel.isVisible())) continue;
    await expect(panel).not.toHaveText('decoding…');
    const text = (await panel.textContent()) ?? '';
    const at = /"startTime": "\+([\d.]+) ms"/.exec(text);
    if (at && Number(at[1]) > 2100) shown = text;
  }
  expect(shown, 'an event of cruncher past 2.1 s opens').not.toBe('');
  expect(shown).toMatch(/"sampledThread": "cruncher \(javaThreadId = \d+\)"/);
  expect(shown).not.toContain('cruncher-renamed');
  await shot(page, 'event-thread-renamed');
});
