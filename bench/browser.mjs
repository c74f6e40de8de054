// The app in headless Chromium on a large recording, through the real page, opened RUNS times
// (default 5) in fresh pages: from choosing the file to "columns ready" (status line shown) with
// the page's phase marks, the tab's peak JS heap and the peak memory of all Chromium processes
// (workers included); then, once, the time from a filter
// keystroke to the redrawn flame graph, frame times while zooming and panning the timeline, and
// the time to decode a deferred type (the largest) when it is picked.
//   npm run build && node bench/browser.mjs [FILE]   (RUNS=n opens; TYPES=a,b to measure those types' views too)
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { chromium } from 'playwright-core';

const file = process.argv[2] ?? 'fixtures/large/large.jfr';
const port = 4190;
const server = spawn('node', ['e2e/static-server.mjs', 'dist', String(port), '/'], { stdio: 'ignore' });
await new Promise((r) => setTimeout(r, 500));
const browser = await chromium.launch({
  executablePath: '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--no-first-run', '--disable-background-networking', '--enable-precise-memory-info', '--jfrscope-bench'],
});
/** Resident memory of the browser and all its descendants (renderers, workers live in them). */
function chromiumRss(root, byType) {
  const kids = new Map();
  for (const d of readdirSync('/proc')) {
    if (!/^\d+$/.test(d)) continue;
    try {
      const stat = readFileSync(`/proc/${d}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (!kids.has(ppid)) kids.set(ppid, []);
      kids.get(ppid).push(Number(d));
    } catch {}
  }
  let rss = 0;
  const todo = [root];
  while (todo.length) {
    const pid = todo.pop();
    try {
      const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
      if (m) {
        rss += Number(m[1]) * 1024;
        if (byType) {
          const type = /--type=([a-z-]+)/.exec(readFileSync(`/proc/${pid}/cmdline`, 'utf8'))?.[1] ?? 'browser';
          byType[type] = (byType[type] ?? 0) + Number(m[1]) * 1024;
        }
      }
    } catch {}
    todo.push(...(kids.get(pid) ?? []));
  }
  return rss;
}
// The browser process: the one started with this bench's marker flag (Chromium ignores it).
const browserPid = readdirSync('/proc')
  .filter((d) => /^\d+$/.test(d))
  .map(Number)
  .find((pid) => {
    try {
      const cmd = readFileSync(`/proc/${pid}/cmdline`, 'utf8');
      return cmd.includes('--jfrscope-bench') && !cmd.includes('--type=');
    } catch {
      return false;
    }
  });
let peakRss = 0;
let peakByType = {};
let rssOn = true;
const rssSampler = (async () => {
  while (rssOn) {
    const byType = {};
    const rss = browserPid ? chromiumRss(browserPid, byType) : 0;
    if (rss > peakRss) {
      peakRss = rss;
      peakByType = byType;
    }
    await new Promise((r) => setTimeout(r, 50));
  }
})();
const runs = Math.max(1, Number(process.env.RUNS ?? 5));
const mb = statSync(file).size / 1e6;
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const range = (xs) => `${Math.min(...xs).toFixed(2)}–${Math.max(...xs).toFixed(2)}`;

/** One open in a fresh page, its workers started ahead as a user's page would have them. */
async function openOnce() {
  const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Performance.enable');
  await page.goto(`http://127.0.0.1:${port}/`);
  let heap = 0;
  let sampling = true;
  const sampler = (async () => {
    while (sampling) {
      const m = await cdp.send('Performance.getMetrics');
      heap = Math.max(heap, m.metrics.find((x) => x.name === 'JSHeapUsedSize')?.value ?? 0);
      await new Promise((r) => setTimeout(r, 100));
    }
  })();
  await new Promise((r) => setTimeout(r, 1000));
  const baseByType = {};
  const baseRss = browserPid ? chromiumRss(browserPid, baseByType) : 0;
  peakRss = baseRss;
  peakByType = {};
  const t0 = performance.now();
  await page.getByLabel('Open recording').setInputFiles(file);
  await page.getByRole('status').waitFor({ timeout: 600_000 });
  const secs = (performance.now() - t0) / 1000;
  sampling = false;
  await sampler;
  const marks = await page.evaluate(() => performance.getEntriesByType('mark').filter((m) => m.name.startsWith('jfrscope:')).map((m) => [m.name.slice(9), m.startTime]));
  const load = marks.find(([n]) => n === 'load')?.[1] ?? 0;
  const shown = marks.find(([n]) => n === 'shown')?.[1];
  return {
    page,
    secs,
    inPage: shown ? (shown - load) / 1000 : NaN,
    phases: marks.map(([n, t]) => `${n} ${(t - load).toFixed(0)}`).join(' · '),
    heap,
    grown: peakRss - baseRss,
    byType: Object.entries(peakByType).map(([k, v]) => `${k} +${((v - (baseByType[k] ?? 0)) / 1e6).toFixed(0)} MB`).join(', '),
  };
}

/**
 * Filter keystrokes → flame graph redrawn (the view settled: the status line no longer busy,
 * then two animation frames), and frame times while zooming the timeline, on the type shown.
 */
async function measureView(page, status) {
  const keystroke = await page.evaluate(async () => {
    const input = document.querySelector('input[aria-label="Stack filter"]');
    const setter = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value').set;
    const frame = () => new Promise((r) => requestAnimationFrame(r));
    const busy = () => document.querySelector('[role="status"]')?.getAttribute('aria-busy') === 'true';
    const out = [];
    for (const text of ['N', 'Na', 'NativeThreadSet', 'NativeThreadSet|skip', '', 'Search', '']) {
      const t = performance.now();
      setter.call(input, text);
      input.dispatchEvent(new Event('input', { bubbles: true }));
      await frame();
      while (busy()) await frame();
      await frame();
      await frame();
      out.push(performance.now() - t);
    }
    return out;
  });
  const sorted = [...keystroke].sort((a, b) => a - b);
  const n = /of ([\d,]+)/.exec(status ?? '')?.[1] ?? '?';
  console.log(`  filter keystroke → flame graph redrawn, ${n} events of the type: median ${sorted[Math.floor(sorted.length / 2)].toFixed(0)} ms (${keystroke.map((x) => x.toFixed(0)).join(', ')})`);
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
}

try {
  const opens = [];
  for (let i = 0; i < runs; i++) {
    if (opens.length) await opens[opens.length - 1].page.close();
    opens.push(await openOnce());
  }
  const page = opens[opens.length - 1].page;
  const cores = await page.evaluate(() => navigator.hardwareConcurrency);
  const status = await page.getByRole('status').textContent();
  const secs = opens.map((o) => o.secs);
  const inPage = opens.map((o) => o.inPage);
  const beyond = opens.map((o) => (o.grown - mb * 1e6) / (mb * 1e6));
  const typical = opens.find((o) => o.secs === median(secs));
  console.log(`browser: ${file}, ${mb.toFixed(0)} MB; ${cores} core(s) → up to ${cores} worker(s); ${runs} open(s) in fresh pages, medians with [min–max]`);
  console.log(`  file chosen → columns ready: ${median(secs).toFixed(2)} s = ${(mb / median(secs)).toFixed(0)} MB/s [${range(secs)} s]`);
  console.log(`  in the page, file → view shown: ${median(inPage).toFixed(2)} s = ${(mb / median(inPage)).toFixed(0)} MB/s [${range(inPage)} s] (the rest of the first figure is Playwright handing the file over and polling)`);
  console.log(`  peak JS heap of the page (main thread, sampled every 100 ms): ${(median(opens.map((o) => o.heap)) / 1e6).toFixed(0)} MB`);
  console.log(
    `  peak resident memory of all Chromium processes (workers included, sampled every 50 ms): +${(median(opens.map((o) => o.grown)) / 1e6).toFixed(0)} MB over the page before the file;` +
      ` beyond the file's ${mb.toFixed(0)} MB: ${median(beyond).toFixed(2)}× the file [${range(beyond)}]`,
  );
  console.log(`    by process at the peak (the median run): ${typical.byType}`);
  console.log(`  phases of the median run (ms since the page got the file): ${typical.phases}`);
  console.log(`  ${status}`);

  await measureView(page, status);
  // TYPES=a,b: the same measures on other (decoded) types, e.g. TYPES=jdk.ThreadPark.
  for (const name of (process.env.TYPES ?? '').split(',').filter(Boolean)) {
    await page.getByLabel('Event').selectOption(name);
    await page.getByRole('status').filter({ hasNotText: 'Decoding' }).filter({ hasText: 'selected' }).waitFor({ timeout: 600_000 });
    const s = await page.getByRole('status').textContent();
    console.log(`  ${s}`);
    await measureView(page, s);
  }
  await page.getByLabel('Event').selectOption({ index: 0 });

  // The largest deferred type, decoded when picked.
  const deferred = await page.evaluate(() =>
    [...document.querySelectorAll('select[aria-label="Event"] option')].filter((o) => o.textContent.includes('decoded when picked')).map((o) => o.value),
  );
  if (deferred.length) {
    const name = deferred[deferred.length - 1];
    peakRss = browserPid ? chromiumRss(browserPid) : 0;
    const before = peakRss;
    const t2 = performance.now();
    await page.getByLabel('Event').selectOption(name);
    await page.getByRole('status').filter({ hasText: 'Decoding' }).waitFor({ timeout: 60_000 });
    await page.getByRole('status').filter({ hasNotText: 'Decoding' }).waitFor({ timeout: 600_000 });
    const secs = (performance.now() - t2) / 1000;
    console.log(`  picked ${name} (deferred) → its rows decoded and shown: ${secs.toFixed(2)} s; resident memory +${((peakRss - before) / 1e6).toFixed(0)} MB at peak`);
    await page.waitForTimeout(200);
    const after = await page.evaluate(() => {
      const all = performance.getEntriesByType('mark').filter((m) => m.name.startsWith('jfrscope:'));
      const from = all.findLast((m) => m.name === 'jfrscope:decode')?.startTime ?? 0;
      return all.filter((m) => m.startTime >= from).map((m) => [m.name.slice(9), m.startTime - from]);
    });
    console.log(`    phases (ms since the pick reached the engine): ${after.map(([n, t]) => `${n} ${t.toFixed(0)}`).join(' · ')}`);
    const picked = await page.getByRole('status').textContent();
    console.log(`  ${picked}`);
    await measureView(page, picked);
  } else {
    console.log('  no deferred type: every type was decoded at once');
  }
} finally {
  rssOn = false;
  await rssSampler;
  await browser.close();
  server.kill();
}
