/**
 * The flame graph draws only the frames wide enough at its width; zooming into a frame brings
 * back what lies under it at the new scale. Truth: the JDK's collapsed stacks of the example's
 * CPU samples (fixtures/expected/, RecordingFile): a callee too narrow to draw unzoomed (at most
 * 1 px) but wide enough under its zoomed caller must appear there, with the JDK's count.
 */
import { expect, test, type Locator, type Page } from '@playwright/test';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { root, settled } from './helpers';

interface Trie {
  total: number;
  kids: Map<string, Trie>;
}

/** The JDK's samples as a tree of paths (root first), each node's total. */
function jdkTree(): Trie {
  const top: Trie = { total: 0, kids: new Map() };
  const lines = gunzipSync(readFileSync(resolve(root, 'fixtures/expected/example.jfr.jdk.ExecutionSample.collapsed.gz'))).toString('utf8').trim().split('\n');
  for (const l of lines) {
    const n = Number(l.slice(l.lastIndexOf(' ') + 1));
    let at = top;
    at.total += n;
    for (const f of l.slice(0, l.lastIndexOf(' ')).split(';')) {
      let k = at.kids.get(f);
      if (!k) at.kids.set(f, (k = { total: 0, kids: new Map() }));
      k.total += n;
      at = k;
    }
  }
  return top;
}

/** The frames the flame graph draws below its root (each its path, root first, and value) and
 * the chart's width. */
function drawnPaths(graph: Locator): Promise<{ frames: { path: string[]; value: number }[]; width: number }> {
  return graph.evaluate((el) => {
    type D = { data: { name: string; value: number }; parent: D | null; depth: number };
    const frames = [...el.querySelectorAll('g.frame')].flatMap((g) => {
      const d0 = (g as unknown as { __data__: D }).__data__;
      const path: string[] = [];
      for (let d = d0; d && d.depth > 0; d = d.parent!) path.unshift(d.data.name);
      return path.length ? [{ path, value: d0.data.value }] : [];
    });
    return { frames, width: Number(el.querySelector('svg')!.getAttribute('width')) };
  });
}

/** The example recording opened at 700 px wide, its flame graph drawn and settled. */
async function exampleGraph(page: Page) {
  await page.setViewportSize({ width: 700, height: 900 });
  await page.goto('./');
  await page.getByRole('button', { name: 'Open example' }).click();
  await expect(page.getByRole('status')).toContainText('selected');
  await settled(page);
  return page.getByTestId('flamegraph');
}

test('zooming into a frame draws the callees too narrow to draw unzoomed, with the JDK’s counts', async ({ page }) => {
  const jdk = jdkTree();
  // Narrow: one sample under 1 px.
  const graph = await exampleGraph(page);
  const before = await drawnPaths(graph);
  const drawnNames = new Map<string, number>();
  for (const f of before.frames) drawnNames.set(f.path.at(-1)!, (drawnNames.get(f.path.at(-1)!) ?? 0) + 1);
  // A drawn frame, its name drawn once, with a callee of at most 1 px now and over 1 px zoomed.
  let pick: { path: string[]; callee: string; n: number } | null = null;
  for (const f of before.frames) {
    if (drawnNames.get(f.path.at(-1)!) !== 1) continue;
    let node: Trie | undefined = jdk;
    for (const p of f.path) node = node?.kids.get(p);
    expect(node, `the JDK has the path ${f.path.join(';')}`).toBeDefined();
    expect(f.value).toBe(node!.total);
    for (const [name, k] of node!.kids) {
      if ((k.total * before.width) / jdk.total < 0.9 && (k.total * before.width) / node!.total > 1.5) pick ??= { path: f.path, callee: name, n: k.total };
    }
  }
  expect(pick, `a frame with a callee too narrow to draw unzoomed (${jdk.total} samples, ${before.width} px)`).not.toBeNull();
  const calleePath = [...pick!.path, pick!.callee].join(';');
  expect(before.frames.some((f) => f.path.join(';') === calleePath)).toBe(false);

  await graph.locator(`g.frame[name="${pick!.path.at(-1)}"]`).click();
  const after = await drawnPaths(graph);
  const callee = after.frames.find((f) => f.path.join(';') === calleePath);
  expect(callee, `${pick!.callee} drawn under ${pick!.path.at(-1)} once zoomed`).toBeDefined();
  expect(callee!.value).toBe(pick!.n);
});

/** The JDK's paths wider than 1 px when `total` is `width` px wide. */
function drawable(t: Trie, total: number, width: number): string[] {
  const out: string[] = [];
  const walk = (n: Trie, path: string[]) => {
    for (const [name, k] of n.kids) {
      if ((k.total * width) / total <= 1) continue;
      out.push([...path, name].join(';'));
      walk(k, [...path, name]);
    }
  };
  walk(t, []);
  return out.sort();
}

test('the flame graph draws, at each width, the frames wider than 1 px, as the JDK counts them', async ({ page }) => {
  const jdk = jdkTree();
  const graph = await exampleGraph(page);
  const read = async () => {
    const { frames, width } = await drawnPaths(graph);
    return { paths: frames.map((f) => f.path.join(';')).sort(), width };
  };
  const narrow = await read();
  expect(narrow.paths).toEqual(drawable(jdk, jdk.total, narrow.width));
  // Wider: the chart follows the width, and frames too narrow before are drawn now.
  await page.setViewportSize({ width: 1600, height: 900 });
  await expect.poll(async () => (await read()).width).toBeGreaterThan(narrow.width + 400);
  const wide = await read();
  expect(wide.paths).toEqual(drawable(jdk, jdk.total, wide.width));
  expect(wide.paths.length).toBeGreaterThan(narrow.paths.length);
});
