/**
 * Events as tables, as a person uses them: open the GC events of a JDK recording from the
 * Recording panel's counts, read how many there are (truth: the JDK's count in
 * fixtures/expected), sort by duration, choose a row and see the event selected on the timeline
 * and in the side panel, save the table as CSV, Arrow and Parquet and the flame graph as SVG and
 * read the files back.
 */
import { expect, test, type Page } from '@playwright/test';
import { readFileSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { gunzipSync } from 'node:zlib';
import { resolve } from 'node:path';
import { parse } from 'csv-parse/sync';
import { tableFromIPC } from 'apache-arrow';
import { parquetReadObjects } from 'hyparquet';
import { decodePng, lanesCanvas, parseMs, readView, root, settled, shot, xAt } from './helpers';

const FILE = 'jdk17-profile.jfr';

function jdkCount(type: string): number {
  const line = readFileSync(resolve(root, 'fixtures/expected', `${FILE}.rf-counts.tsv`), 'utf8')
    .split('\n')
    .find((l) => l.startsWith(`${type}\t`));
  expect(line, `the JDK counted ${type}`).toBeDefined();
  return Number(line!.split('\t')[1]);
}

/** A time (ms) as the page writes it, back from a cell ("158 ms"): the cell's own text. */
const formatted = (ms: number) => (ms >= 1000 ? `${(ms / 1000).toFixed(ms >= 10_000 ? 1 : 2)} s` : ms >= 1 ? `${ms.toFixed(ms >= 100 ? 0 : 1)} ms` : `${(ms * 1000).toFixed(0)} µs`);

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

  // The second row, chosen: the side panel names that GC at that time; the row is marked; the
  // lanes outline it where the axis puts its start and end (a GC runs on no thread: across all lanes).
  const lanes = async () => {
    await page.mouse.move(0, 0);
    await settled(page);
    return decodePng(await lanesCanvas(page).screenshot({ animations: 'disabled' }));
  };
  const before = await lanes();
  const row = page.getByRole('table', { name }).getByRole('row').filter({ has: page.getByRole('cell') }).nth(1);
  await row.click();
  const after = await lanes();
  const box = (await lanesCanvas(page).boundingBox())!;
  const view = await readView(page);
  const s = after.width / box.width;
  const changed: number[] = [];
  for (let x = 0; x < after.width; x++) {
    let n = 0;
    for (let y = 0; y < after.height; y += 2) {
      const [a, b] = [before.rgb(x, y), after.rgb(x, y)];
      if (Math.abs(a[0] - b[0]) + Math.abs(a[1] - b[1]) + Math.abs(a[2] - b[2]) > 60) n++;
    }
    if (n > after.height / 2 / 2) changed.push(x / s + box.x);
  }
  const [t0, t1] = [parseMs(rows[1]['Start']), parseMs(rows[1]['Start']) + parseMs(rows[1]['Duration'])];
  expect(changed.length, 'the lanes outline the chosen GC top to bottom').toBeGreaterThan(0);
  expect(Math.abs(Math.min(...changed) - (xAt(box, view, t0) - 3))).toBeLessThan(4);
  expect(Math.abs(Math.max(...changed) - Math.max(xAt(box, view, t1) + 3, xAt(box, view, t0) + 3))).toBeLessThan(4);
  const panel = page.getByRole('complementary', { name: 'Event details' });
  await expect(panel).toBeVisible();
  await expect(panel).toContainText('jdk.GarbageCollection');
  await expect(panel).toContainText(`at ${rows[1]['Start']}, lasting ${rows[1]['Duration']}`);
  await expect(row).toHaveAttribute('aria-current', 'true');
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

  // As Arrow and as Parquet: the same rows, in the same order.
  const [arrow] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Arrow', exact: true }).click()]);
  expect(arrow.suggestedFilename()).toBe('jdk17-profile.jdk.GarbageCollection.arrow');
  const table = tableFromIPC(readFileSync((await arrow.path())!));
  expect(table.numRows).toBe(want);
  expect(Array.from(table.getChild('Duration (ms)')!.toArray() as Float64Array)).toEqual(saved);
  const [parquet] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Parquet', exact: true }).click()]);
  expect(parquet.suggestedFilename()).toBe('jdk17-profile.jdk.GarbageCollection.parquet');
  const pq = readFileSync((await parquet.path())!);
  const read = (await parquetReadObjects({ file: pq.buffer.slice(pq.byteOffset, pq.byteOffset + pq.byteLength) as ArrayBuffer })) as Record<string, unknown>[];
  expect(read.map((r) => r['Duration (ms)'])).toEqual(saved);
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

test('a row of a thread far down the lanes brings its lane into view, its event outlined there', async ({ page }) => {
  await open(page);
  await page.getByRole('tab', { name: 'Events table' }).click();
  await page.getByLabel('Table of event type').selectOption('jdk.ThreadSleep');
  const name = 'Events of jdk.ThreadSleep';
  await expect(page.getByRole('note', { name: 'Rows shown' })).toHaveText(`${jdkCount('jdk.ThreadSleep')} of ${jdkCount('jdk.ThreadSleep')} jdk.ThreadSleep events`);
  // The lanes put threads with no CPU sample last: janitor sleeps and never burns CPU.
  const row = page.getByRole('table', { name }).getByRole('row').filter({ hasText: 'janitor' }).first();
  const start = parseMs((await row.getByRole('cell').first().textContent())!);
  // Zoomed into a window that does not hold it: the window moves to it, keeping its span.
  await page.getByLabel('Selected range').fill('5-6');
  await page.getByLabel('Selected range').press('Enter');
  await page.getByRole('button', { name: 'Zoom to selection' }).click();
  await page.getByRole('button', { name: 'Clear selection' }).click();
  const zoomed = await readView(page);
  expect(zoomed.from).toBeGreaterThan(start);
  await row.click();
  await expect
    .poll(async () => {
      const v = await readView(page);
      return v.from <= start && start <= v.to && Math.abs(v.to - v.from - (zoomed.to - zoomed.from)) < 1;
    })
    .toBe(true);
  await page.mouse.move(0, 0);
  await settled(page);
  // The outline (the page's text colour, dark) in the plot, and what the lane says under it.
  const box = (await lanesCanvas(page).boundingBox())!;
  const img = decodePng(await lanesCanvas(page).screenshot({ animations: 'disabled' }));
  const s = img.width / box.width;
  let [x0, y0, x1, y1] = [Infinity, Infinity, -1, -1];
  for (let y = 0; y < img.height; y++) {
    for (let x = Math.ceil(230 * s); x < img.width; x++) {
      const [r, g, b] = img.rgb(x, y);
      if (r + g + b < 160) [x0, y0, x1, y1] = [Math.min(x0, x), Math.min(y0, y), Math.max(x1, x), Math.max(y1, y)];
    }
  }
  expect(x1, 'an outline is drawn on the lanes').toBeGreaterThan(0);
  const view = await readView(page);
  expect(Math.abs(x0 / s + box.x - (xAt(box, view, start) - 3))).toBeLessThan(4);
  // Hovering the outlined bar names the sleep of janitor at that time.
  await page.mouse.move(x0 / s + box.x + 8, y0 / s + box.y + 16);
  const tip = page.getByRole('tooltip');
  await expect(tip).toContainText('thread janitor');
  await expect(tip).toContainText(`at ${formatted(start)}`);
  await shot(page, 'tables-sleep');
});

test('CPU load, which has no stacks and no lane, opens as a table of every field and draws as lines over time', async ({ page }) => {
  await open(page);
  await page.getByRole('tab', { name: 'Recording' }).click();
  await page.getByRole('table', { name: 'Event counts' }).getByRole('button', { name: 'jdk.CPULoad', exact: true }).click();
  const want = jdkCount('jdk.CPULoad');
  await expect(page.getByRole('note', { name: 'Rows shown' })).toHaveText(`${want} of ${want} jdk.CPULoad events`);
  const name = 'Events of jdk.CPULoad';
  const headers = await page.getByRole('table', { name }).getByRole('columnheader').allTextContents();
  expect(headers).toEqual(expect.arrayContaining(['Start', 'jvmUser', 'jvmSystem', 'machineTotal']));
  await page.getByLabel('Line of column').selectOption({ label: 'machineTotal' });
  const chart = page.getByRole('img', { name: /^Line of machineTotal/ });
  await expect(chart).toHaveAttribute('aria-label', new RegExp(`: ${want} points, from 0\\.00% to `));
  // On the timeline's axis: the same window as the histogram's.
  const view = await readView(page);
  const label = (await chart.getAttribute('aria-label'))!;
  expect(label).toContain(`from ${formatted(view.from)} to ${formatted(view.to)}`);
  // Hovering the line where a row's time is reads out that row's value.
  const second = await readRows(page, name).then((rs) => rs[1]);
  const cbox = (await chart.boundingBox())!;
  await page.mouse.move(xAt(cbox, view, parseMs(second['Start'])), cbox.y + cbox.height / 2);
  await expect(page.getByRole('tooltip')).toHaveText(`${second['machineTotal']}at ${second['Start']}`);
  // The three together, on one scale.
  await page.getByLabel('Line of column').selectOption({ label: 'jvmUser + jvmSystem + machineTotal' });
  await expect(page.getByRole('img', { name: /^Line of jvmUser, jvmSystem, machineTotal/ })).toHaveAttribute('aria-label', new RegExp(`: ${3 * want} points in 3 lines \\(jvmUser, jvmSystem, machineTotal\\)`));
  await shot(page, 'tables-cpuload');
});

test('hostile names stay text in the table and its CSV', async ({ page }) => {
  await page.goto('./');
  await page.getByLabel('Open recording').setInputFiles(resolve(root, 'fixtures', 'hostile.jfr'));
  await expect(page.getByRole('status')).toContainText('selected');
  await page.getByRole('tab', { name: 'Events table' }).click();
  await page.getByLabel('Table of event type').selectOption('hostile.Payload');
  const table = page.getByRole('table', { name: 'Events of hostile.Payload' });
  await expect(table.getByRole('cell').filter({ hasText: '<script>window.__pwned=1</script>' }).first()).toBeVisible();
  await expect(table.getByRole('cell').filter({ hasText: 'evil\\u202egnp.exe' }).first()).toBeVisible();
  expect(await table.locator('script, img').count()).toBe(0);
  const [csv] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'CSV', exact: true }).click()]);
  const text = readFileSync((await csv.path())!, 'utf8');
  expect(text).not.toMatch(/[\u202a-\u202e\u2066-\u2069]/);
  const lines: string[][] = parse(text);
  const shown = Number(/^([\d,]+) of/.exec((await page.getByRole('note', { name: 'Rows shown' }).textContent())!)![1].replace(/,/g, ''));
  expect(lines.length).toBe(shown + 1);
  expect(await page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned)).toBeUndefined();
  await shot(page, 'tables-hostile');
});
