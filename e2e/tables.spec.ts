/**
 * Events as tables, as a person uses them: open the GC events of a JDK recording from the
 * Recording panel's counts, read how many there are (truth: the JDK's count in
 * fixtures/expected), sort by duration, choose a row and see the event selected on the timeline
 * and in the side panel, save the table as CSV and the flame graph as SVG and read the files back.
 */
import { expect, test, type Page } from '@playwright/test';
import { readFileSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { gunzipSync } from 'node:zlib';
import { resolve } from 'node:path';
import { parse } from 'csv-parse/sync';
import { parseMs, root, settled, shot } from './helpers';

const FILE = 'jdk17-profile.jfr';

function jdkCount(type: string): number {
  const line = readFileSync(resolve(root, 'fixtures/expected', `${FILE}.rf-counts.tsv`), 'utf8')
    .split('\n')
    .find((l) => l.startsWith(`${type}\t`));
  expect(line, `the JDK counted ${type}`).toBeDefined();
  return Number(line!.split('\t')[1]);
}

async function open(page: Page) {
  await page.goto('./');
  await page.getByLabel('Open recording').setInputFiles(resolve(root, 'fixtures', FILE));
  await expect(page.getByRole('status')).toContainText('selected');
}

/** The cells of the table's rows on screen, by column header. */
async function readRows(page: Page, name: string): Promise<Record<string, string>[]> {
  const table = page.getByRole('table', { name });
  const headers = (await table.getByRole('columnheader').allTextContents()).map((h) => h.replace(/ [▾▴]$/, ''));
  const rows = table.getByRole('row').filter({ has: page.getByRole('cell') });
  const out: Record<string, string>[] = [];
  for (const r of await rows.all()) {
    const cells = await r.getByRole('cell').allTextContents();
    out.push(Object.fromEntries(headers.map((h, k) => [h, cells[k]])));
  }
  return out;
}

test('the GC events open as a table from the Recording panel; a row shows its event on the timeline', async ({ page }) => {
  await open(page);
  await page.getByRole('tab', { name: 'Recording' }).click();
  await page.getByRole('table', { name: 'Event counts' }).getByRole('button', { name: 'jdk.GarbageCollection', exact: true }).click();
  await expect(page.getByRole('tab', { name: 'Events table' })).toHaveAttribute('aria-selected', 'true');
  const want = jdkCount('jdk.GarbageCollection');
  await expect(page.getByRole('note', { name: 'Rows shown' })).toHaveText(`${want} of ${want} jdk.GarbageCollection events`);
  const name = 'Events of jdk.GarbageCollection';
  let rows = await readRows(page, name);
  expect(rows.length).toBe(want);

  // Sorted by duration, longest first.
  await page.getByRole('table', { name }).getByRole('button', { name: /^Duration/ }).click();
  await expect(page.getByRole('table', { name }).getByRole('columnheader', { name: /^Duration/ })).toHaveAttribute('aria-sort', 'descending');
  rows = await readRows(page, name);
  const durations = rows.map((r) => parseMs(r['Duration']));
  expect(durations).toEqual([...durations].sort((a, b) => b - a));
  await page.getByRole('table', { name }).getByRole('button', { name: /^Duration/ }).click();
  rows = await readRows(page, name);
  expect(rows.map((r) => parseMs(r['Duration']))).toEqual([...durations].sort((a, b) => a - b));

  // The second row, chosen: the side panel names that GC at that time; the row is marked.
  const row = page.getByRole('table', { name }).getByRole('row').filter({ has: page.getByRole('cell') }).nth(1);
  await row.click();
  const panel = page.getByRole('complementary', { name: 'Event details' });
  await expect(panel).toBeVisible();
  await expect(panel).toContainText('jdk.GarbageCollection');
  await expect(panel).toContainText(`at ${rows[1]['Start']}, lasting ${rows[1]['Duration']}`);
  await expect(row).toHaveAttribute('aria-selected', 'true');
  await expect(panel.locator('pre.fields')).toContainText('"gcId"');
  await shot(page, 'tables-gc');

  // Saved as CSV: a header and one line per row shown, in the order shown.
  const [csv] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'CSV', exact: true }).click()]);
  expect(csv.suggestedFilename()).toBe('jdk17-profile.jdk.GarbageCollection.csv');
  const lines: string[][] = parse(readFileSync((await csv.path())!, 'utf8'));
  expect(lines.length).toBe(want + 1);
  const col = lines[0].indexOf('Duration (ms)');
  expect(col).toBeGreaterThanOrEqual(0);
  const saved = lines.slice(1).map((l) => Number(l[col]));
  expect(saved).toEqual([...saved].sort((a, b) => a - b));
  saved.forEach((ms, k) => expect(Math.abs(ms - parseMs(rows[k]['Duration']))).toBeLessThan(0.06));
  await settled(page);
});

/** The JDK's execution samples' root frames, heaviest first (fixtures/expected, collapsed). */
function jdkRootFrames(): string[] {
  const lines = gunzipSync(readFileSync(resolve(root, 'fixtures/expected', `${FILE}.jdk.ExecutionSample.collapsed.gz`))).toString('utf8').trim().split('\n');
  const byRoot = new Map<string, number>();
  for (const l of lines) {
    const k = l.lastIndexOf(' ');
    const rootFrame = l.slice(0, k).split(';')[0];
    byRoot.set(rootFrame, (byRoot.get(rootFrame) ?? 0) + Number(l.slice(k + 1)));
  }
  return [...byRoot].sort((a, b) => b[1] - a[1]).map(([f]) => f);
}

test('the flame graph saves as SVG and PNG, the timeline as PNG', async ({ page }) => {
  await open(page);
  const save = async (item: string) => {
    await page.getByLabel('Save a picture').click();
    const [file] = await Promise.all([page.waitForEvent('download'), page.getByRole('group', { name: 'Pictures' }).getByRole('button', { name: item }).click()]);
    return { name: file.suggestedFilename(), bytes: readFileSync((await file.path())!) };
  };
  const svg = await save('Flame graph (SVG)');
  expect(svg.name).toBe('jdk17-profile.jdk.ExecutionSample.flame.svg');
  const text = svg.bytes.toString('utf8');
  expect(text.startsWith('<svg xmlns="http://www.w3.org/2000/svg"')).toBe(true);
  // The root of all, with the samples the status line counts, and the heaviest root frame the JDK reads.
  const selected = /^([\d,]+) of/.exec(await page.getByRole('status').innerText())![1];
  expect(text).toContain(`<title>all · ${selected} samples · ${selected} samples (100.0%)</title>`);
  expect(text).toContain(`<title>${jdkRootFrames()[0]} · `);
  const png = await save('Flame graph (PNG)');
  expect(png.name).toBe('jdk17-profile.jdk.ExecutionSample.flame.png');
  expect(png.bytes.subarray(1, 4).toString('latin1')).toBe('PNG');
  const tl = await save('Timeline (PNG)');
  expect(tl.name).toBe('jdk17-profile.jdk.ExecutionSample.timeline.png');
  expect(tl.bytes.subarray(1, 4).toString('latin1')).toBe('PNG');
  // As wide as the timeline on screen (in device pixels).
  const box = (await page.getByRole('region', { name: /^Timeline/ }).boundingBox())!;
  expect(Math.abs(tl.bytes.readUInt32BE(16) - box.width)).toBeLessThanOrEqual(2);
  await writeFile(resolve(root, 'e2e/artifacts/tables-flame.svg'), svg.bytes);
  await writeFile(resolve(root, 'e2e/artifacts/tables-flame.png'), png.bytes);
  await writeFile(resolve(root, 'e2e/artifacts/tables-timeline.png'), tl.bytes);
});
