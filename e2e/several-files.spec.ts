/**
 * Several files as one recording, as a person gives them: the chunk files of a recording (split
 * at its chunk headers, given out of order) chosen together, picked as a folder, or dropped,
 * with a file that is not a recording among them. The rest opens as the whole recording (every
 * type's count is the JDK's for the original file) and the file left out is named.
 */
import { expect, test, type Page } from '@playwright/test';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { clickBusiestPoint, root, shot } from './helpers';

const FILE = 'jdk17-multichunk.jfr';
/** The JDK's counts for the whole recording (fixtures/expected/, tools/golden). */
const jdk = new Map(
  readFileSync(resolve(root, 'fixtures/expected', `${FILE}.rf-counts.tsv`), 'utf8')
    .trim()
    .split('\n')
    .map((l) => l.split('\t'))
    .map(([t, n]) => [t, Number(n)] as [string, number]),
);

/** The recording's chunks, each its own file (a chunk's size is the i64 at byte 8 of its header). */
function splitChunks(dir: string, file = FILE): string[] {
  const bytes = readFileSync(resolve(root, 'fixtures', file));
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const out: string[] = [];
  for (let pos = 0; pos < bytes.length; ) {
    expect(bytes.subarray(pos, pos + 4).toString('latin1')).toBe('FLR\0');
    const size = Number(bytes.readBigInt64BE(pos + 8));
    // Named so that name order is the reverse of time order.
    const path = join(dir, `chunk-${String(9 - out.length)}.jfr`);
    writeFileSync(path, bytes.subarray(pos, pos + size));
    out.push(path);
    pos += size;
  }
  writeFileSync(join(dir, 'notes.txt'), 'not a recording, just notes\n');
  return out;
}

async function expectWholeRecording(page: Page, chunks: number) {
  await expect(page.getByRole('status')).toContainText('selected');
  await expect(page.locator('.notice')).toContainText(`Left out 1 file that is not a recording: `);
  await expect(page.locator('.notice')).toContainText('notes.txt (it is not a JFR recording');
  await expect(page.locator('.file-name')).toContainText(`(${chunks} files, ${chunks} chunks)`);
  await page.getByRole('tab', { name: 'Recording' }).click();
  const table = page.getByRole('table', { name: 'Event counts' });
  await expect(table).toBeVisible();
  const rows = await table.locator('tbody tr').evaluateAll((trs) => trs.map((tr) => [...tr.querySelectorAll('td')].map((td) => td.textContent ?? '')));
  const shown = new Map(rows.map((r) => [r[0], Number(r[2].replace(/,/g, ''))]));
  for (const [type, n] of jdk) expect([type, shown.get(type) ?? 0]).toEqual([type, n]);
  const files = page.getByRole('table', { name: 'Files' });
  await expect(files.locator('tbody tr')).toHaveCount(chunks + 1);
  await expect(files).toContainText('left out: it is not a JFR recording');
}

test('chunk files chosen together open as the whole recording; a file that is not a recording is named', async ({ page }) => {
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  const dir = resolve(root, 'test-results/several-files/picked');
  const chunks = splitChunks(dir);
  expect(chunks.length).toBeGreaterThanOrEqual(3);
  await page.goto('./');
  await page.getByLabel('Open recording').setInputFiles([join(dir, 'notes.txt'), ...chunks]);
  await expectWholeRecording(page, chunks.length);
  await shot(page, 'several-files-recording');
  // An event's details name the file it is in and where, and its fields decode from that file.
  await page.getByRole('tab', { name: 'Flame graph' }).click();
  expect(await clickBusiestPoint(page)).toBe(true);
  const panel = page.getByRole('complementary', { name: 'Event details' });
  await expect(panel.locator('pre')).toContainText('"startTime"');
  const place = (await panel.getByLabel('Place in the files').textContent()) ?? '';
  const m = /^in (chunk-\d\.jfr), byte ([\d,]+)$/.exec(place);
  expect(m, place).not.toBeNull();
  const bytes = readFileSync(join(dir, m![1]));
  const at = Number(m![2].replace(/,/g, ''));
  expect(at).toBeGreaterThanOrEqual(68);
  // An event there starts with its size (a LEB128 varint) and ends inside the file.
  let n = 0;
  for (let k = 0, shift = 1; k < 9; k++, shift *= 128) {
    n += (bytes[at + k] & 0x7f) * shift;
    if (bytes[at + k] < 0x80) break;
  }
  expect(n).toBeGreaterThan(2);
  expect(at + n).toBeLessThanOrEqual(bytes.length);
  expect(errors).toEqual([]);
});

test('a folder of chunk files, picked, opens as one recording named by the folder', async ({ page }) => {
  const dir = resolve(root, 'test-results/several-files/repository');
  const chunks = splitChunks(dir);
  await page.goto('./');
  await page.getByLabel('Open folder').setInputFiles(dir);
  await expectWholeRecording(page, chunks.length);
  await expect(page.locator('.file-name')).toContainText('repository/');
});

/**
 * The header of the newest chunk of a live JFR repository, copied while a JDK 25 recording ran,
 * before the chunk's first flush (file state 1, no metadata yet); RecordingFile cannot read it.
 */
const LIVE_HEADER = Buffer.from('464c52000002000100000000000000440000000000000000000000000000000018eafb674727262000000000' + '0022ba000000000cbe46c688000000003b9aca0001000001', 'hex');

test('a running JVM\'s repository: its newest chunk, still being written, is named and left out, not called damage', async ({ page }) => {
  const dir = resolve(root, 'test-results/several-files/live');
  const chunks = splitChunks(dir);
  // What the JVM wrote into it since its header; the header names none of it yet.
  writeFileSync(join(dir, 'live.jfr'), Buffer.concat([LIVE_HEADER, Buffer.alloc(11_183, 0x2a)]));
  await page.goto('./');
  await page.getByLabel('Open folder').setInputFiles(dir);
  await expect(page.getByRole('status')).toContainText('selected');
  await expect(page.locator('.notice')).toContainText(`Chunk ${chunks.length + 1} is still being written`);
  await expect(page.getByRole('alert')).toHaveCount(0);
  await page.getByRole('tab', { name: 'Recording' }).click();
  await expect(page.getByRole('note', { name: 'Not read' })).toContainText('is still being written');
  await expect(page.getByRole('note', { name: 'Damage' })).toHaveCount(0);
  const rows = await page.getByRole('table', { name: 'Event counts' }).locator('tbody tr').evaluateAll((trs) => trs.map((tr) => [...tr.querySelectorAll('td')].map((td) => td.textContent ?? '')));
  const shown = new Map(rows.map((r) => [r[0], Number(r[2].replace(/,/g, ''))]));
  for (const [type, n] of jdk) expect([type, shown.get(type) ?? 0]).toEqual([type, n]);
  await shot(page, 'several-files-live');
});

test('chunk files dropped together open as one recording', async ({ page }) => {
  const dir = resolve(root, 'test-results/several-files/dropped');
  const chunks = splitChunks(dir);
  await page.goto('./');
  const files = [...chunks, join(dir, 'notes.txt')].map((p) => ({ name: p.slice(dir.length + 1), b64: readFileSync(p).toString('base64') }));
  const dataTransfer = await page.evaluateHandle((files) => {
    const dt = new DataTransfer();
    for (const f of files) dt.items.add(new File([Uint8Array.from(atob(f.b64), (c) => c.charCodeAt(0))], f.name));
    return dt;
  }, files);
  await page.dispatchEvent('main', 'drop', { dataTransfer });
  await expectWholeRecording(page, chunks.length);
});

test('a link made on several files restores its view when the same chunks are given again, as a folder', async ({ page, context }) => {
  const dir = resolve(root, 'test-results/several-files/linked');
  const chunks = splitChunks(dir);
  await page.goto('./');
  await page.getByLabel('Open recording').setInputFiles(chunks);
  await expect(page.getByRole('status')).toContainText('selected');
  await page.getByLabel('Stack filter').fill('SearchService');
  await page.getByRole('tab', { name: 'Top methods' }).click();
  await expect(page).toHaveURL(/stack=SearchService/);
  const link = page.url();
  expect(new URL(link).searchParams.get('fp')).toMatch(new RegExp(`^${readFileSync(resolve(root, 'fixtures', FILE)).length}-[0-9a-f]{16}$`));

  const other = await context.newPage();
  await other.goto(link);
  await expect(other.getByRole('region', { name: 'This link needs a recording from your disk' })).toBeVisible();
  // The folder holds the same chunks and a file that is not a recording: the same recording.
  await other.getByLabel('Choose a folder…').setInputFiles(dir);
  await expect(other.getByRole('status')).toContainText('selected');
  await expect(other.getByRole('alertdialog', { name: 'Not the link’s recording' })).toHaveCount(0);
  await expect(other.getByLabel('Stack filter')).toHaveValue('SearchService');
  await expect(other.getByRole('tab', { name: 'Top methods' })).toHaveAttribute('aria-selected', 'true');
  await expect(other.locator('.notice')).not.toContainText('different recording');
});

test('threads renamed between chunk files are named as the JDK names the whole recording', async ({ page }) => {
  // cruncher renames itself in the second chunk, job-N every 500 ms (fixtures/scenarios/ThreadRename.java).
  const file = 'jdk17-renamed.jfr';
  const want = readFileSync(resolve(root, 'fixtures/expected', `${file}.threads.tsv`), 'utf8')
    .trim()
    .split('\n')
    .map((l) => l.split('\t'))
    .sort((a, b) => (a[0] < b[0] ? -1 : 1));
  expect(want.map((w) => w[0])).toContain('cruncher');
  const dir = resolve(root, 'test-results/several-files/renamed');
  const chunks = splitChunks(dir, file);
  expect(chunks.length).toBeGreaterThanOrEqual(3);
  await page.goto('./');
  await page.getByLabel('Open folder').setInputFiles(dir);
  await expect(page.getByRole('status')).toContainText('selected');
  await page.getByRole('tab', { name: 'SQL' }).click();
  await expect(page.getByRole('complementary', { name: 'Tables' })).toContainText('jdk.ExecutionSample', { timeout: 60_000 });
  const editor = page.getByLabel('SQL query');
  await editor.fill('SELECT thread, count(*) AS n FROM "jdk.ExecutionSample" GROUP BY thread ORDER BY thread');
  await editor.press('Control+Enter');
  const result = page.getByRole('table', { name: 'Query result' });
  await expect(result).toBeVisible();
  const rows = await result.locator('tbody tr').evaluateAll((trs) => trs.map((tr) => [...tr.querySelectorAll('td')].map((td) => td.textContent ?? '')));
  expect(rows).toEqual(want);
  await shot(page, 'several-files-renamed-threads');
});
