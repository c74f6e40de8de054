// The app in headless Chromium on a large recording, through the real page: from choosing the
// file to "columns ready" (status line shown), the tab's peak JS heap, the time from a filter
// keystroke to the redrawn flame graph, and frame times while zooming and panning the timeline.
//   npm run build && node bench/browser.mjs [FILE]
import { spawn } from 'node:child_process';
import { statSync } from 'node:fs';
import { chromium } from 'playwright-core';

const file = process.argv[2] ?? 'fixtures/large/large.jfr';
const port = 4190;
const server = spawn('node', ['e2e/static-server.mjs', 'dist', String(port), '/'], { stdio: 'ignore' });
await new Promise((r) => setTimeout(r, 500));
const browser = await chromium.launch({
  executablePath: '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--no-first-run', '--disable-background-networking', '--enable-precise-memory-info'],
});
try {
  const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Performance.enable');
  await page.goto(`http://127.0.0.1:${port}/`);
  const cores = await page.evaluate(() => navigator.hardwareConcurrency);
  let peak = 0;
  let sampling = true;
  const sampler = (async () => {
    while (sampling) {
      const m = await cdp.send('Performance.getMetrics');
      const used = m.metrics.find((x) => x.name === 'JSHeapUsedSize')?.value ?? 0;
      peak = Math.max(peak, used);
      await new Promise((r) => setTimeout(r, 100));
    }
  })();
  const t0 = performance.now();
  await page.getByLabel('Open recording').setInputFiles(file);
  await page.getByRole('status').waitFor({ timeout: 600_000 });
  const t1 = performance.now();
  sampling = false;
  await sampler;
  const status = await page.getByRole('status').textContent();
  const chunks = await page.evaluate(async () => 0);
  const mb = statSync(file).size / 1e6;
  console.log(`browser: ${file}, ${mb.toFixed(0)} MB; ${cores} core(s) → up to ${cores} worker(s)`);
  console.log(`  file chosen → columns ready: ${((t1 - t0) / 1000).toFixed(2)} s = ${(mb / ((t1 - t0) / 1000)).toFixed(0)} MB/s`);
  console.log(`  peak JS heap of the page (main thread, sampled every 100 ms): ${(peak / 1e6).toFixed(0)} MB`);
  console.log(`  ${status}`);
  void chunks;

  // Filter keystroke → redrawn flame graph.
  const keystroke = await page.evaluate(async () => {
    const input = document.querySelector('input[aria-label="Stack filter"]');
    const setter = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value').set;
    const frames = () => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
    const out = [];
    for (const text of ['N', 'Na', 'NativeThreadSet', 'NativeThreadSet|skip', '', 'Search', '']) {
      const t = performance.now();
      setter.call(input, text);
      input.dispatchEvent(new Event('input', { bubbles: true }));
      await frames();
      out.push(performance.now() - t);
    }
    return out;
  });
  const sorted = [...keystroke].sort((a, b) => a - b);
  console.log(`  filter keystroke → flame graph redrawn: median ${sorted[Math.floor(sorted.length / 2)].toFixed(0)} ms (${keystroke.map((x) => x.toFixed(0)).join(', ')})`);

  // Zoom and pan: frame time.
  const frameTimes = await page.evaluate(async () => {
    const head = document.querySelector('[data-testid="histogram"]');
    const r = head.getBoundingClientRect();
    const frames = () => new Promise((res) => requestAnimationFrame(() => requestAnimationFrame(res)));
    const out = [];
    for (let i = 0; i < 40; i++) {
      const t = performance.now();
      head.dispatchEvent(new WheelEvent('wheel', { deltaY: i < 20 ? -100 : 100, clientX: r.left + r.width * 0.6, clientY: r.top + 20, bubbles: true, cancelable: true }));
      await frames();
      out.push(performance.now() - t);
    }
    return out;
  });
  const fs = [...frameTimes].sort((a, b) => a - b);
  console.log(`  zoom/pan frame: median ${fs[20].toFixed(1)} ms, p90 ${fs[36].toFixed(1)} ms (two animation frames per step, so 33 ms = 60 fps)`);
} finally {
  await browser.close();
  server.kill();
}
