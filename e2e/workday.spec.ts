/**
 * The workspace over a working day, at the two window sizes people use (1600×1000, 1280×800):
 * the lanes fill the height the split gives them, the split between the timeline and the views
 * moves by drag and by keys and is kept, the toolbar keeps its height whatever it holds (a
 * selection's buttons, long names), and lane names are cut only where the column ends: all read
 * from the page and from screenshots of the lanes.
 */
import { expect, test, type Page } from '@playwright/test';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { decodePng, lanesCanvas, root, settled, shot } from './helpers';

const LANE_H = 22;

/** Geometry of the bars and panes, in page px. */
async function geometry(page: Page) {
  return page.evaluate(() => {
    const r = (sel: string) => document.querySelector(sel)!.getBoundingClientRect();
    const lanes = document.querySelector('.lanes') as HTMLElement;
    return {
      header: r('.top').height,
      filters: r('.filters').height,
      toolbar: r('.statusbar').height,
      timelineTop: r('.timeline').top,
      timelineBottom: r('.timeline').bottom,
      lanesTop: r('.lanes').top,
      lanesBottom: r('.lanes').bottom,
      lanesH: lanes.clientHeight,
      handleTop: r('[role="separator"][aria-orientation="horizontal"]').top,
      lowerBottom: r('.lower').bottom,
      viewport: window.innerHeight,
    };
  });
}

async function lanesNamed(page: Page): Promise<string[]> {
  const label = (await lanesCanvas(page).getAttribute('aria-label')) ?? '';
  return label.replace(/^Thread lanes \(\d+\): /, '').split(', ');
}

async function openExample(page: Page) {
  await page.goto('./');
  await page.getByRole('button', { name: 'Open example' }).click();
  await expect(page.getByRole('status')).toContainText('selected');
  await settled(page);
}

for (const [width, height, fitBefore] of [
  [1600, 1000, 13],
  [1280, 800, 10],
] as const) {
  test.describe(`${width}×${height}`, () => {
    test.use({ viewport: { width, height } });

    test('the lanes fill the timeline’s share; the split moves by drag and keys and is kept', async ({ page }) => {
      await openExample(page);
      const g = await geometry(page);
      // No page scroll; the views end at the window's bottom.
      expect(Math.abs(g.lowerBottom - g.viewport)).toBeLessThan(2);
      // The lanes run from under the head to the handle: the space is theirs.
      expect(Math.abs(g.lanesBottom - g.handleTop)).toBeLessThan(2);
      const fit = Math.floor(g.lanesH / LANE_H);
      const total = (await lanesNamed(page)).length;
      test.info().annotations.push({ type: 'lanes', description: `${fit} of ${total} lanes fit (${g.lanesH} px; ${fitBefore} fitted before the split)` });
      expect(fit).toBeGreaterThanOrEqual(fitBefore + (width === 1600 ? 3 : 1));
      // The lanes' canvas is drawn as tall as its pane.
      const canvas = (await lanesCanvas(page).boundingBox())!;
      expect(Math.abs(canvas.height - g.lanesH)).toBeLessThan(2);

      // Drag the handle down by five lanes: five more lanes fit, the views keep the rest.
      const handle = page.getByRole('separator', { name: /Timeline height/ });
      const hb = (await handle.boundingBox())!;
      await page.mouse.move(hb.x + 300, hb.y + hb.height / 2);
      await page.mouse.down();
      await page.mouse.move(hb.x + 300, hb.y + hb.height / 2 + 5 * LANE_H, { steps: 5 });
      await page.mouse.up();
      const dragged = await geometry(page);
      expect(Math.abs(dragged.lanesH - (g.lanesH + 5 * LANE_H))).toBeLessThan(3);
      expect(Math.abs(dragged.lowerBottom - dragged.viewport)).toBeLessThan(2);
      // Keys: ↑ twice is two lanes less.
      await handle.focus();
      await page.keyboard.press('ArrowUp');
      await page.keyboard.press('ArrowUp');
      const keyed = await geometry(page);
      expect(Math.abs(keyed.lanesH - (dragged.lanesH - 2 * LANE_H))).toBeLessThan(3);
      const share = await handle.getAttribute('aria-valuenow');
      // Kept across a reload, whatever the pane's pixels.
      await page.reload();
      await page.getByRole('button', { name: 'Open example' }).click();
      await expect(page.getByRole('status')).toContainText('selected');
      await expect(page.getByRole('separator', { name: /Timeline height/ })).toHaveAttribute('aria-valuenow', share!);
      expect(Math.abs((await geometry(page)).lanesH - keyed.lanesH)).toBeLessThan(3);
      await page.evaluate(() => localStorage.removeItem('jfrscope:split'));
    });

    test('the toolbar keeps its height: a selection, a long event name, a long file name', async ({ page }) => {
      await openExample(page);
      const g0 = await geometry(page);
      await shot(page, `workday-${width}-opened`);
      // A selection brings its buttons (zoom, clear, baseline) and a longer status.
      const range = page.getByLabel('Selected range');
      await range.fill('4.1-5.2');
      await range.press('Enter');
      await expect(page.getByRole('button', { name: 'Clear selection' })).toBeAttached();
      await settled(page);
      const g1 = await geometry(page);
      expect(g1.toolbar).toBe(g0.toolbar);
      expect(g1.timelineTop).toBe(g0.timelineTop);
      expect(g1.lanesH).toBe(g0.lanesH);
      await shot(page, `workday-${width}-range`);
      // The longest event type name there is, and a duration chip from the heatmap's filter.
      const longest = await page.getByLabel('Event').evaluate((s: HTMLSelectElement) => [...s.options].map((o) => o.value).sort((a, b) => b.length - a.length)[0]);
      await page.getByLabel('Event').selectOption(longest);
      await settled(page);
      const g2 = await geometry(page);
      expect(g2.toolbar).toBe(g0.toolbar);
      expect(g2.timelineTop).toBe(g0.timelineTop);
      // A file with a very long name.
      const bytes = readFileSync(resolve(root, 'fixtures/example.jfr'));
      await page.getByLabel('Open recording').setInputFiles({ name: `${'a-very-long-recording-name-'.repeat(8)}.jfr`, mimeType: 'application/octet-stream', buffer: bytes });
      await expect(page.locator('.file-name')).toContainText('a-very-long');
      await expect(page.getByRole('status')).toContainText('selected');
      await settled(page);
      const g3 = await geometry(page);
      expect(g3.header).toBe(g0.header);
      expect(g3.toolbar).toBe(g0.toolbar);
      expect(g3.timelineTop).toBe(g0.timelineTop);
      // An invalid filter's message floats: nothing moves.
      await page.getByLabel('Stack filter').fill('(');
      await expect(page.getByText(/^stack: /)).toBeVisible();
      const g4 = await geometry(page);
      expect(g4.filters).toBe(g0.filters);
      expect(g4.timelineTop).toBe(g0.timelineTop);
    });

    test('lane names are cut only where the column ends, read from the screenshot', async ({ page }) => {
      await openExample(page);
      await page.mouse.move(0, 0);
      const names = await lanesNamed(page);
      const labelW = Number(await page.getByRole('separator', { name: /Lane names' width/ }).getAttribute('aria-valuenow'));
      const img = decodePng(await lanesCanvas(page).screenshot({ animations: 'disabled' }));
      const box = (await lanesCanvas(page).boundingBox())!;
      const s = img.width / box.width;
      // Each visible lane's ink in the name column: the name from x = 8, the count right-aligned.
      const bg = img.rgb(2, Math.floor(2 * s));
      const inkCols = (lane: number) => {
        const cols: number[] = [];
        for (let x = 0; x < Math.floor(labelW * s) - 2; x++) {
          for (let y = Math.floor((lane * LANE_H + 3) * s); y < Math.floor((lane * LANE_H + LANE_H - 3) * s); y++) {
            const p = img.rgb(x, y);
            if (Math.abs(p[0] - bg[0]) + Math.abs(p[1] - bg[1]) + Math.abs(p[2] - bg[2]) > 120) {
              cols.push(x / s);
              break;
            }
          }
        }
        return cols;
      };
      const visible = Math.floor(box.height / LANE_H);
      const widths = await page.evaluate((ns) => {
        const g = document.createElement('canvas').getContext('2d')!;
        g.font = '12px system-ui, sans-serif';
        return ns.map((n) => g.measureText(n).width);
      }, names.slice(0, visible));
      let whole = 0;
      for (let lane = 0; lane < Math.min(visible, names.length); lane++) {
        const cols = inkCols(lane);
        expect(cols.length, `ink on lane ${lane}`).toBeGreaterThan(0);
        // Split the name from the count at the widest gap.
        let gapAt = 0;
        let gap = 0;
        for (let k = 1; k < cols.length; k++) if (cols[k] - cols[k - 1] > gap) [gap, gapAt] = [cols[k] - cols[k - 1], k];
        const nameEnd = cols[gapAt - 1];
        const countEnd = cols[cols.length - 1];
        // Nothing past the column's edge; the count right-aligned to it.
        expect(countEnd).toBeLessThan(labelW - 4);
        expect(countEnd).toBeGreaterThan(labelW - 16);
        // A name that fits is drawn whole: its ink as wide as the text.
        if (widths[lane] < labelW - 60) {
          expect(Math.abs(nameEnd - 8 - widths[lane]), `${names[lane]} drawn whole`).toBeLessThan(4);
          whole++;
        }
      }
      expect(whole).toBeGreaterThan(5);
    });
  });
}

test('on batched wall-clock samples the lanes count samples, as the flame graph’s root does', async ({ page }) => {
  // Truth: the JDK's reading of ap-wall.jfr, the sum of `samples` per stack and per thread.
  const golden = gunzipSync(readFileSync(resolve(root, 'fixtures/expected/ap-wall.jfr.profiler.WallClockSample.collapsed.gz')))
    .toString('utf8')
    .split('\n')
    .filter((l) => l.trim())
    .reduce((a, l) => a + Number(l.slice(l.lastIndexOf(' ') + 1)), 0);
  const perThread = new Map(
    readFileSync(resolve(root, 'fixtures/expected/ap-wall.jfr.profiler.WallClockSample.threads.tsv'), 'utf8')
      .split('\n')
      .filter((l) => l)
      .map((l) => [l.split('\t')[0], Number(l.split('\t')[1])] as const),
  );
  await page.goto('./');
  await page.getByLabel('Open recording').setInputFiles(resolve(root, 'fixtures/ap-wall.jfr'));
  await expect(page.getByRole('status')).toContainText('selected');
  await expect(page.getByLabel('Event')).toHaveValue('profiler.WallClockSample');
  await settled(page);
  const num = (s: string) => Number(s.replace(/[^\d]/g, ''));
  // The flame graph's root.
  const rootText = (await page.getByTestId('flamegraph').getByText(/^all · /).first().textContent()) ?? '';
  expect(num(rootText)).toBe(golden);
  // The Threads menu's counts (the lanes' own) add up to it.
  await page.getByText('Threads', { exact: true }).click();
  const counts = await page.locator('.menu-body .count').allTextContents();
  expect(counts.reduce((a, c) => a + num(c), 0)).toBe(golden);
  await page.getByText('Threads', { exact: true }).click();
  // One thread's lane label, by its hover: the JDK's samples for it, not its events.
  await page.getByLabel('Thread filter').fill('^Signal Dispatcher$');
  await expect.poll(async () => (await lanesNamed(page)).join()).toBe('Signal Dispatcher');
  const box = (await lanesCanvas(page).boundingBox())!;
  await page.mouse.move(box.x + 40, box.y + LANE_H / 2);
  const n = perThread.get('Signal Dispatcher')!;
  await expect(page.getByRole('tooltip')).toContainText(`${n.toLocaleString('en-US')} of ${n.toLocaleString('en-US')} matching`);
});
