// The app in headless Chromium on any recording, through the real page, opened RUNS times
// (default 5) in fresh pages: from choosing the file to "columns ready" (status line shown) with
// the page's phase marks, the tab's peak JS heap and the peak memory of all Chromium processes
// (workers included); then, once, the time from a filter keystroke to the redrawn flame graph,
// frame times while zooming and panning the timeline, and, when the recording has deferred types,
// the time to decode the largest when it is picked (with its phases, and the CPU time of all
// Chromium processes up to each phase, which a loaded machine disturbs less than the wall clock).
// Last, each performance goal beside its figure.
//   npm run build && node bench/browser.mjs [FILE | DIR | FILE FILE…]
//   A folder (a JFR repository: tools/synth/synth.mjs day DIR) is given to "Open folder", several
//   files to "Open recording" together; either opens as one recording. On 2 GiB or more, or
//   several files, the time to the whole recording's overview is a goal of its own (< 5 s).
//   RUNS=n opens; ROW_BUDGET=n rows the first round decodes at most; SHARED=off rows handed over in pieces (as on a page not
//   cross-origin isolated) instead of written into shared columns; STEAL=off each decoder decoding
//   its own group's chunks (none shared out as the decoders go, engine/steal.ts); PICK=type|none; TYPES=a,b to measure those types' views too; PORT=p for the static server
//   (default 4190); FILTER=a,b the two frame names typed into the stack filter (default: two
//   names from the opened type's flame graph); PEER=speedscope to end with speedscope opening the
//   same file (bench/speedscope.mjs, served on PORT+1) and the ratio of its time and memory to
//   jfrscope's (PEER_SHOT=file.png for its screenshot, default bench/.cache/). EVENT=type opens
//   the page as a link to that type's view (the first round decodes what it shows, so a large
//   type the view does not show stays deferred: EVENT=jdk.ExecutionSample on large.jfr leaves
//   its 16.7 M jdk.FileRead to a pick); PICK=type names the deferred type picked (default: the
//   one with most events), PICK_TIMEOUT=s how long its decoding is waited for (default 600).
//   CPU_PROFILE=dir writes Chromium CPU profiles of the keystrokes, the wheel steps and the pick
//   (dir/keys-<type>.cpuprofile, dir/zoom-<type>.cpuprofile, dir/pick-<type>.cpuprofile, and the
//   decoding workers over the pick, dir/pick-<type>-worker-<n>.cpuprofile);
//   TRACE=dir a Chromium trace of the keystrokes (dir/keys.trace.json: style, layout, paint);
//   KEY_ROUNDS=n types the keystrokes' sequence n times (default 1) for a steadier median;
//   `node bench/cpuprofile.mjs FILE` lists where the time went; build with `npx vite build
//   --minify false` first to read the page's own function names).
import { spawn } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { chromium } from 'playwright-core';

const paths = process.argv.length > 2 ? process.argv.slice(2) : ['fixtures/large/large.jfr'];
const file = paths.length > 1 ? `${paths[0]} and ${paths.length - 1} more` : paths[0];
const folder = paths.length === 1 && statSync(paths[0]).isDirectory();
/** Bytes of a file, or of every file under a folder. */
const bytesOf = (p) => (statSync(p).isDirectory() ? readdirSync(p).reduce((a, f) => a + bytesOf(join(p, f)), 0) : statSync(p).size);
const fileCount = (p) => (statSync(p).isDirectory() ? readdirSync(p).reduce((a, f) => a + fileCount(join(p, f)), 0) : 1);
const port = Number(process.env.PORT ?? 4190);
const server = spawn('node', ['e2e/static-server.mjs', 'dist', String(port), '/'], { stdio: 'ignore' });
await new Promise((r) => setTimeout(r, 500));
const browser = await chromium.launch({
  executablePath: '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--no-first-run', '--disable-background-networking', '--enable-precise-memory-info', `--jfrscope-bench=${process.pid}`],
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
/** CPU time (user + system, seconds) of the browser and all its descendants so far. */
function chromiumCpu(root) {
  const kids = new Map();
  const ticks = new Map();
  for (const d of readdirSync('/proc')) {
    if (!/^\d+$/.test(d)) continue;
    try {
      const stat = readFileSync(`/proc/${d}/stat`, 'utf8');
      const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      const ppid = Number(f[1]);
      if (!kids.has(ppid)) kids.set(ppid, []);
      kids.get(ppid).push(Number(d));
      ticks.set(Number(d), Number(f[11]) + Number(f[12]));
    } catch {}
  }
  let sum = 0;
  const todo = [root];
  while (todo.length) {
    const pid = todo.pop();
    sum += ticks.get(pid) ?? 0;
    todo.push(...(kids.get(pid) ?? []));
  }
  return sum / 100;
}
// The browser process: the one started with this run's marker flag (Chromium ignores it; the
// bench's own pid in it, so another bench running at the same time is not measured instead).
const browserPid = readdirSync('/proc')
  .filter((d) => /^\d+$/.test(d))
  .map(Number)
  .find((pid) => {
    try {
      const cmd = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
      return cmd.includes(`--jfrscope-bench=${process.pid}`) && !cmd.some((a) => a.startsWith('--type='));
    } catch {
      return false;
    }
  });
if (!browserPid) console.warn('bench: the browser process was not found: memory is not measured');
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
const mb = paths.reduce((a, p) => a + bytesOf(p), 0) / 1e6;
const files = paths.reduce((a, p) => a + fileCount(p), 0);
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const range = (xs) => `${Math.min(...xs).toFixed(2)}–${Math.max(...xs).toFixed(2)}`;

/** One open in a fresh page, its workers started ahead as a user's page would have them. */
async function openOnce() {
  const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Performance.enable');
  await page.goto(`http://127.0.0.1:${port}/${process.env.EVENT ? `?v=2&event=${encodeURIComponent(process.env.EVENT)}` : ''}`);
  // ROW_BUDGET=n: the rows the first round may decode (the page's jfrscope:rowBudget setting).
  if (process.env.ROW_BUDGET) await page.evaluate((n) => localStorage.setItem('jfrscope:rowBudget', n), process.env.ROW_BUDGET);
  // SHARED=off: rows handed to the page in pieces, as on a page that is not cross-origin isolated (jfrscope:sharedColumns).
  await page.evaluate((s) => (s === 'off' ? localStorage.setItem('jfrscope:sharedColumns', 'off') : localStorage.removeItem('jfrscope:sharedColumns')), process.env.SHARED ?? 'on');
  // STEAL=off: each decoder decodes its own group's chunks, none shared out (jfrscope:stealChunks).
  await page.evaluate((s) => (s === 'off' ? localStorage.setItem('jfrscope:stealChunks', 'off') : localStorage.removeItem('jfrscope:stealChunks')), process.env.STEAL ?? 'on');
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
  if (folder) await page.getByLabel('Open folder').setInputFiles(paths[0]);
  else await page.getByLabel('Open recording').setInputFiles(paths);
  await page.getByRole('status').waitFor({ timeout: 600_000 });
  const secs = (performance.now() - t0) / 1000;
  sampling = false;
  await sampler;
  const marks = await page.evaluate(() => performance.getEntriesByType('mark').filter((m) => m.name.startsWith('jfrscope:')).map((m) => [m.name.slice(9), m.startTime]));
  const load = marks.find(([n]) => n === 'load')?.[1] ?? 0;
  const shown = marks.find(([n]) => n === 'shown')?.[1];
  // The whole recording's overview (from the count pass), or, before there is one, the count
  // pass being done (what it would be drawn from).
  const [overviewMark, overviewAt] = marks.find(([n]) => n === 'overview') ?? marks.find(([n]) => n === 'counted') ?? ['', NaN];
  // The overview's first, partial drawing (the count pass hands its shape out as it goes).
  const begunAt = marks.find(([n]) => n === 'overview begun')?.[1] ?? overviewAt;
  return {
    page,
    secs,
    overview: (overviewAt - load) / 1000,
    begun: (begunAt - load) / 1000,
    overviewMark,
    inPage: shown ? (shown - load) / 1000 : NaN,
    phases: marks.map(([n, t]) => `${n} ${(t - load).toFixed(0)}`).join(' · '),
    heap,
    grown: peakRss - baseRss,
    byType: Object.entries(peakByType).map(([k, v]) => `${k} +${((v - (baseByType[k] ?? 0)) / 1e6).toFixed(0)} MB`).join(', '),
  };
}

/**
 * Filter keystrokes → flame graph redrawn (the view settled: the status line no longer busy,
 * then two animation frames), and frame times while zooming and panning the timeline, on the
 * type shown. The words typed: FILTER=a,b, or two frame names of the flame graph shown.
 */
async function measureView(page, status) {
  const words =
    process.env.FILTER?.split(',').filter(Boolean) ??
    (await page.evaluate(() => {
      // The frames d3 bound to the flame graph's <g>s; their simple names (class.method → the
      // class) below the root, the most frequent first, so the filter matches part of the graph.
      const names = new Map();
      for (const g of document.querySelectorAll('[data-testid="flamegraph"] g')) {
        const d = g.__data__;
        if (!d?.data?.name || d.depth === 0) continue;
        const name = String(d.data.name);
        const simple = /([A-Za-z_$][\w$]*)\.[\w$<>]+(?:\(.*)?$/.exec(name)?.[1] ?? name.split(/[.\s]/)[0];
        if (simple && simple !== 'all' && simple !== 'root') names.set(simple, (names.get(simple) ?? 0) + 1);
      }
      return [...names.entries()].sort((a, b) => b[1] - a[1]).map(([n]) => n);
    }));
  const drawn = await page.evaluate(() => ({
    frames: document.querySelectorAll('[data-testid="flamegraph"] g.frame').length,
    elements: document.querySelectorAll('[data-testid="flamegraph"] *').length,
    all: document.querySelectorAll('*').length,
  }));
  console.log(`  flame graph: ${drawn.frames} frames drawn, ${drawn.elements} elements (${drawn.all} in the page)`);
  const [w1 = 'a', w2 = 'e'] = words.length > 1 && words[0] === words[1] ? [words[0], words[2]] : words;
  // KEY_ROUNDS=n types the sequence n times (default 1), for a steadier median on a busy machine.
  const texts = Array.from({ length: Math.max(1, Number(process.env.KEY_ROUNDS ?? 1)) }, () => [w1[0], w1.slice(0, 2), w1, `${w1}|${w2}`, '', w2, '']).flat();
  // CPU_PROFILE=dir: a Chromium CPU profile of the keystrokes too (dir/keys-<type>.cpuprofile).
  const keyCdp = process.env.CPU_PROFILE ? await page.context().newCDPSession(page) : null;
  if (keyCdp) {
    await keyCdp.send('Profiler.enable');
    await keyCdp.send('Profiler.setSamplingInterval', { interval: 200 });
    await keyCdp.send('Profiler.start');
  }
  // TRACE=dir: a Chromium trace of the keystrokes (style, layout, paint beside the scripts).
  if (process.env.TRACE) {
    mkdirSync(process.env.TRACE, { recursive: true });
    await browser.startTracing(page, { path: join(process.env.TRACE, 'keys.trace.json'), categories: ['devtools.timeline', 'disabled-by-default-devtools.timeline', 'v8.execute', 'blink.user_timing'] });
  }
  const keystroke = await page.evaluate(async (texts) => {
    const input = document.querySelector('input[aria-label="Stack filter"]');
    const setter = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value').set;
    const frame = () => new Promise((r) => requestAnimationFrame(r));
    const busy = () => document.querySelector('[role="status"]')?.getAttribute('aria-busy') === 'true';
    const out = [];
    for (const text of texts) {
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
  }, texts);
  if (process.env.TRACE) await browser.stopTracing();
  if (keyCdp) {
    const { profile } = await keyCdp.send('Profiler.stop');
    const type = await page.getByLabel('Event', { exact: true }).evaluate((s) => s.value);
    mkdirSync(process.env.CPU_PROFILE, { recursive: true });
    const out = join(process.env.CPU_PROFILE, `keys-${type}.cpuprofile`);
    writeFileSync(out, JSON.stringify(profile));
    console.log(`  CPU profile of the keystrokes: ${out}`);
    await keyCdp.detach();
  }
  const sorted = [...keystroke].sort((a, b) => a - b);
  const n = /of ([\d,]+)/.exec(status ?? '')?.[1] ?? '?';
  const keyMedian = sorted[Math.floor(sorted.length / 2)];
  console.log(`  filter keystroke → flame graph redrawn, ${n} events of the type: median ${keyMedian.toFixed(0)} ms, max ${sorted[sorted.length - 1].toFixed(0)} ms (${texts.map((t, i) => `${JSON.stringify(t)} ${keystroke[i].toFixed(0)}`).join(', ')})`);
  // Zoom in (20 steps), pan (10 each way, shift+wheel), zoom out (20): each step's time to two
  // animation frames (the first runs the handler's render, the second is the next paint), and
  // the intervals between animation frames meanwhile (a frame that misses 60 fps shows as > 16.7 ms).
  // CPU_PROFILE=dir: a Chromium CPU profile of the page's main thread over the wheel steps
  // (dir/zoom-<type>.cpuprofile; open it in Chrome's DevTools or read it with bench/cpuprofile.mjs).
  const cdp = process.env.CPU_PROFILE ? await page.context().newCDPSession(page) : null;
  if (cdp) {
    await cdp.send('Profiler.enable');
    await cdp.send('Profiler.setSamplingInterval', { interval: 200 });
    await cdp.send('Profiler.start');
  }
  const zoom = await page.evaluate(async () => {
    const head = document.querySelector('canvas.timeline-head');
    if (!head) return null;
    const r = head.getBoundingClientRect();
    const frames = () => new Promise((res) => requestAnimationFrame(() => requestAnimationFrame(res)));
    const steps = [];
    const intervals = [];
    let last = 0;
    let on = true;
    const tick = (ts) => {
      if (last) intervals.push(ts - last);
      last = ts;
      if (on) requestAnimationFrame(tick);
    };
    requestAnimationFrame(tick);
    await frames();
    const moves = [...Array(20).fill([0, -100, false]), ...Array(10).fill([0, 100, true]), ...Array(10).fill([0, -100, true]), ...Array(20).fill([0, 100, false])];
    for (const [dx, dy, shift] of moves) {
      const t = performance.now();
      head.dispatchEvent(new WheelEvent('wheel', { deltaX: dx, deltaY: dy, shiftKey: shift, clientX: r.left + r.width * 0.6, clientY: r.top + 20, bubbles: true, cancelable: true }));
      await frames();
      steps.push(performance.now() - t);
    }
    on = false;
    return { steps, intervals };
  });
  if (cdp) {
    const { profile } = await cdp.send('Profiler.stop');
    const type = await page.getByLabel('Event', { exact: true }).evaluate((s) => s.value);
    mkdirSync(process.env.CPU_PROFILE, { recursive: true });
    const out = join(process.env.CPU_PROFILE, `zoom-${type}.cpuprofile`);
    writeFileSync(out, JSON.stringify(profile));
    // The main thread's time not idle over the steps (the page's work, the bench's own few
    // callbacks and the profiler's sampling included): the work a wheel step costs.
    const idle = new Set(profile.nodes.filter((n) => n.callFrame.functionName === '(idle)').map((n) => n.id));
    let busy = 0;
    for (let k = 0; k < profile.samples.length; k++) if (!idle.has(profile.samples[k])) busy += profile.timeDeltas[k + 1] ?? 0;
    console.log(`  CPU profile of the wheel steps: ${out}; main thread busy ${(busy / 1000 / 60).toFixed(1)} ms per step`);
    await cdp.detach();
  }
  if (!zoom) {
    console.log('  no timeline shown: zoom/pan not measured');
    return { n, keyMedian, keyMax: sorted[sorted.length - 1] };
  }
  const pct = (xs, p) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * p))];
  const frameP95 = pct(zoom.intervals, 0.95);
  console.log(
    `  zoom/pan (${zoom.steps.length} wheel steps): step to two animation frames median ${pct(zoom.steps, 0.5).toFixed(1)} ms, p95 ${pct(zoom.steps, 0.95).toFixed(1)} ms (33 ms = 60 fps);` +
      ` frame interval median ${pct(zoom.intervals, 0.5).toFixed(1)} ms, p95 ${frameP95.toFixed(1)} ms over ${zoom.intervals.length} frames`,
  );
  return { n, keyMedian, keyMax: sorted[sorted.length - 1], frameP95, stepP95: pct(zoom.steps, 0.95) };
}

try {
  const opens = [];
  for (let i = 0; i < runs; i++) {
    if (opens.length) await opens[opens.length - 1].page.close();
    opens.push(await openOnce());
    const o = opens[opens.length - 1];
    console.log(`  open ${opens.length}: view shown ${o.inPage.toFixed(2)} s in the page (${o.phases})`);
  }
  const page = opens[opens.length - 1].page;
  const cores = await page.evaluate(() => navigator.hardwareConcurrency);
  const status = await page.getByRole('status').textContent();
  const secs = opens.map((o) => o.secs);
  const inPage = opens.map((o) => o.inPage);
  const beyond = opens.map((o) => (o.grown - mb * 1e6) / (mb * 1e6));
  const typical = opens.find((o) => o.secs === median(secs));
  console.log(`browser: ${file}${files > 1 ? ` (${files} files${folder ? ', a folder' : ''})` : ''}, ${mb.toFixed(0)} MB; ${cores} core(s) → up to ${cores} worker(s); ${runs} open(s) in fresh pages, medians with [min–max]`);
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

  const goals = [];
  const goal = (what, figure, target, ok) => goals.push([what, figure, target, ok === undefined ? '' : ok ? 'met' : 'NOT met']);
  goal('file chosen → view shown (in the page; Playwright total in brackets)', `${median(inPage).toFixed(2)} s [${median(secs).toFixed(2)} s; runs ${range(inPage)} s]`, '< 2 s', median(inPage) < 2);
  if (mb >= 2 * 1024 ** 3 / 1e6 || files > 1) {
    const over = opens.map((o) => o.overview);
    goal(
      `A ${(mb / 1e3).toFixed(1)} GB recording${files > 1 ? ` of ${files} files` : ''} opens, its whole overview appears (${typical.overviewMark === 'overview' ? 'the count pass done' : 'no overview mark: the count pass done'})`,
      `whole ${median(over).toFixed(2)} s [${range(over)} s], first drawn ${median(opens.map((o) => o.begun)).toFixed(2)} s; view shown ${median(inPage).toFixed(2)} s`,
      '< 5 s',
      median(over) < 5,
    );
  }
  // Judged from 100 MB: below that the page's fixed costs (workers, wasm, first render: some
  // 50–150 MB) outweigh the file. A .jfr.gz is judged against its compressed size.
  const grownMb = median(opens.map((o) => o.grown)) / 1e6;
  goal(
    'peak memory beyond the file',
    `${median(beyond).toFixed(2)}× the file [${range(beyond)}]${mb < 100 ? ` (+${grownMb.toFixed(0)} MB for a ${mb.toFixed(1)} MB file: not judged below 100 MB)` : ''}`,
    '≤ 1×',
    mb >= 100 ? median(beyond) <= 1 : undefined,
  );
  const viewGoals = (v, type) => {
    // Judged from 1 M events (100 ms) and from 10 M (the 150 ms goal for 15 M interval events).
    const events = Number(String(v.n).replace(/,/g, ''));
    goal(`filter keystroke → flame graph redrawn (${type}, ${v.n} events)`, `median ${v.keyMedian.toFixed(0)} ms, max ${v.keyMax.toFixed(0)} ms`, '< 100 ms at 1 M samples; < 150 ms on 15 M interval events', events >= 1e7 ? v.keyMedian < 150 : events >= 1e6 ? v.keyMedian < 100 : undefined);
    if (v.frameP95 !== undefined) goal(`zoom/pan frame p95 (${type})`, `${v.frameP95.toFixed(1)} ms (two-frame step p95 ${v.stepP95.toFixed(1)} ms)`, '< 16 ms of work per frame: no frame missed at 60 fps, so intervals stay at 16.7 ms (p95 < 25 ms)', v.frameP95 < 25);
  };
  const shownType = await page.getByLabel('Event', { exact: true }).evaluate((s) => s.value);
  viewGoals(await measureView(page, status), shownType);
  // TYPES=a,b: the same measures on other (decoded) types, e.g. TYPES=jdk.ThreadPark.
  for (const name of (process.env.TYPES ?? '').split(',').filter(Boolean)) {
    // A deferred type decodes first: its view is measured once decoded, not the one before.
    const deferredType = await page.evaluate((n) => [...document.querySelectorAll('select[aria-label="Event"] option')].some((o) => o.value === n && o.textContent.includes('decoded when picked')), name);
    await page.getByLabel('Event', { exact: true }).selectOption(name);
    // Decoded when its option no longer says "decoded when picked" (the status may say
    // "Decoding" too briefly to be seen, and before it, still the previous type's selection).
    if (deferredType)
      await page.waitForFunction(
        (n) => {
          const o = [...document.querySelectorAll('select[aria-label="Event"] option')].find((x) => x.value === n);
          return o !== undefined && !o.textContent.includes('decoded when picked');
        },
        name,
        { timeout: 600_000, polling: 100 },
      );
    await page.getByRole('status').filter({ hasNotText: 'Decoding' }).filter({ hasText: 'selected' }).waitFor({ timeout: 600_000 });
    // Then two animation frames, so the view has drawn the type before it is measured.
    await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
    const s = await page.getByRole('status').textContent();
    console.log(`  ${s}`);
    viewGoals(await measureView(page, s), name);
  }
  await page.getByLabel('Event', { exact: true }).selectOption({ index: 0 });

  // The largest deferred type, decoded when picked.
  // The options read "kind – name (count, decoded when picked)"; the largest count first.
  const deferred = await page.evaluate(() =>
    [...document.querySelectorAll('select[aria-label="Event"] option')]
      .filter((o) => o.textContent.includes('decoded when picked'))
      .map((o) => [o.value, Number(/\(([\d,]+), decoded when picked/.exec(o.textContent)?.[1]?.replace(/,/g, '') ?? 0)])
      .sort((a, b) => b[1] - a[1])
      .map(([value]) => value),
  );
  // PICK=none skips it (a huge recording, where the pick reads the whole file again).
  if (deferred.length && process.env.PICK !== 'none') {
    const name = process.env.PICK && deferred.includes(process.env.PICK) ? process.env.PICK : deferred[0];
    peakRss = browserPid ? chromiumRss(browserPid) : 0;
    const before = peakRss;
    // CPU_PROFILE=dir: a CPU profile of the page's main thread over the pick (dir/pick-<type>.cpuprofile).
    const pickCdp = process.env.CPU_PROFILE ? await page.context().newCDPSession(page) : null;
    // And of each decoding worker (attached through the page's session; their profiles come
    // back as messages from the worker targets).
    const workerProfiles = new Map();
    let msgId = 1;
    const toWorker = (sessionId, method, params = {}) => pickCdp.send('Target.sendMessageToTarget', { sessionId, message: JSON.stringify({ id: msgId++, method, params }) });
    if (pickCdp) {
      await pickCdp.send('Profiler.enable');
      await pickCdp.send('Profiler.setSamplingInterval', { interval: 500 });
      await pickCdp.send('Profiler.start');
      pickCdp.on('Target.attachedToTarget', ({ sessionId, targetInfo }) => {
        if (targetInfo.type !== 'worker' || !targetInfo.url.includes('parse.worker')) return;
        workerProfiles.set(sessionId, null);
        void toWorker(sessionId, 'Profiler.enable')
          .then(() => toWorker(sessionId, 'Profiler.setSamplingInterval', { interval: 500 }))
          .then(() => toWorker(sessionId, 'Profiler.start'))
          .catch(() => {});
      });
      pickCdp.on('Target.receivedMessageFromTarget', ({ sessionId, message }) => {
        const m = JSON.parse(message);
        if (m.result?.profile) workerProfiles.set(sessionId, m.result.profile);
      });
      await pickCdp.send('Target.setAutoAttach', { autoAttach: true, waitForDebuggerOnStart: false, flatten: false });
      await new Promise((r) => setTimeout(r, 300));
    }
    const cpu0 = browserPid ? chromiumCpu(browserPid) : 0;
    // The CPU time so far, now and then (wall clock ms, s): what the pick cost until each of its
    // phases, however loaded the machine.
    const cpuLog = [];
    const cpuTimer = browserPid ? setInterval(() => cpuLog.push([Date.now(), chromiumCpu(browserPid) - cpu0]), 25) : null;
    const t2 = performance.now();
    await page.getByLabel('Event', { exact: true }).selectOption(name);
    await page.getByRole('status').filter({ hasText: 'Decoding' }).waitFor({ timeout: 60_000 });
    // A pick still decoding after PICK_TIMEOUT seconds (default 600) is a figure, not an error.
    const limit = Number(process.env.PICK_TIMEOUT ?? 600);
    const done = await page
      .getByRole('status')
      .filter({ hasNotText: 'Decoding' })
      .waitFor({ timeout: limit * 1000 })
      .then(() => true)
      .catch(() => false);
    const secs = (performance.now() - t2) / 1000;
    const cpuSecs = browserPid ? chromiumCpu(browserPid) - cpu0 : NaN;
    if (cpuTimer) clearInterval(cpuTimer);
    if (pickCdp) {
      const { profile } = await pickCdp.send('Profiler.stop');
      mkdirSync(process.env.CPU_PROFILE, { recursive: true });
      const out = join(process.env.CPU_PROFILE, `pick-${name}.cpuprofile`);
      writeFileSync(out, JSON.stringify(profile));
      console.log(`  CPU profile of the pick: ${out}`);
      for (const id of workerProfiles.keys()) await toWorker(id, 'Profiler.stop').catch(() => {});
      for (let i = 0; i < 50 && [...workerProfiles.values()].some((p) => !p); i++) await new Promise((r) => setTimeout(r, 100));
      let k = 0;
      for (const wp of workerProfiles.values()) {
        if (!wp) continue;
        const wout = join(process.env.CPU_PROFILE, `pick-${name}-worker-${k++}.cpuprofile`);
        writeFileSync(wout, JSON.stringify(wp));
        console.log(`  CPU profile of a decoding worker over the pick: ${wout}`);
      }
      await pickCdp.detach();
    }
    if (!done) {
      console.log(`  picked ${name} (deferred) → still decoding after ${limit} s: ${await page.getByRole('status').textContent()}`);
      goal(`picking a deferred type (${name})`, `> ${limit} s (not shown)`, '< 1.5 s', false);
    } else {
      console.log(`  picked ${name} (deferred) → its rows decoded and shown: ${secs.toFixed(2)} s (CPU time of all Chromium processes meanwhile ${cpuSecs.toFixed(2)} s); resident memory +${((peakRss - before) / 1e6).toFixed(0)} MB at peak`);
      await page.waitForTimeout(200);
      const after = await page.evaluate(() => {
        const all = performance.getEntriesByType('mark').filter((m) => m.name.startsWith('jfrscope:'));
        const from = all.findLast((m) => m.name === 'jfrscope:decode')?.startTime ?? 0;
        return all.filter((m) => m.startTime >= from).map((m) => [m.name.slice(9), m.startTime - from]);
      });
      console.log(`    phases (ms since the pick reached the engine): ${after.map(([n, t]) => `${n} ${t.toFixed(0)}`).join(' · ')}`);
      // CPU time of all Chromium processes from the pick to each phase (sampled every 25 ms).
      const at = await page.evaluate(() => {
        const all = performance.getEntriesByType('mark').filter((m) => m.name.startsWith('jfrscope:'));
        const from = all.findLast((m) => m.name === 'jfrscope:decode')?.startTime ?? 0;
        return all.filter((m) => m.startTime >= from).map((m) => [m.name.slice(9), performance.timeOrigin + m.startTime]);
      });
      const cpuAt = (ms) => cpuLog.find(([t]) => t >= ms)?.[1];
      const cpuPhases = at.map(([n, ms]) => [n, cpuAt(ms)]).filter(([, c]) => c !== undefined);
      if (cpuPhases.length) console.log(`    CPU time of all Chromium processes from the pick to each phase (s, sampled every 25 ms): ${cpuPhases.map(([n, c]) => `${n} ${c.toFixed(2)}`).join(' · ')}`);
      const picked = await page.getByRole('status').textContent();
      console.log(`  ${picked}`);
      const rows = /of ([\d,]+)/.exec(picked ?? '')?.[1] ?? '?';
      goal(`picking a deferred type (${name}, ${rows} rows)`, `${secs.toFixed(2)} s`, '< 1.5 s', secs < 1.5);
      viewGoals(await measureView(page, picked), name);
    }
  } else if (deferred.length) {
    goal('picking a deferred type', 'not measured (PICK=none)', '< 1.5 s');
  } else {
    console.log('  no deferred type: every type was decoded at once');
    goal('picking a deferred type', 'none in this recording', '< 1.5 s');
  }
  console.log(`goals (${file}; figures are medians of ${runs} open(s) where so marked, the views measured once):`);
  const w = Math.max(...goals.map((g) => g[0].length));
  for (const [what, figure, target, ok] of goals) console.log(`  ${what.padEnd(w)}  ${figure}  goal ${target}${ok ? `  ${ok}` : ''}`);

  // PEER=speedscope: speedscope opening the same file in this browser (bench/speedscope.mjs), beside
  // jfrscope's median open, both timed from the file given to the view shown, as a ratio.
  if (process.env.PEER === 'speedscope' && paths.length === 1 && !folder) {
    await page.close();
    const { openSpeedscope, speedscopeVersion } = await import('./speedscope.mjs');
    speedscopeVersion(); // says how to install it before a browser waits on a server that has nothing to serve
    const memory = { reset: () => (peakRss = browserPid ? chromiumRss(browserPid) : 0), peak: () => peakRss };
    const s = await openSpeedscope({ browser, port: port + 1, file, memory });
    const shot = process.env.PEER_SHOT ?? `bench/.cache/speedscope-${file.split('/').pop()}.png`;
    mkdirSync(dirname(shot), { recursive: true });
    await s.page.screenshot({ path: shot });
    await s.page.close();
    const ours = median(secs);
    const ourMem = median(opens.map((o) => o.grown));
    console.log(`peer: speedscope ${speedscopeVersion()} (npm, its JFR import), the same file in the same browser, 1 open; screenshot ${shot}`);
    if (s.error) {
      console.log(`  speedscope could not show ${file} after ${s.secs.toFixed(2)} s: ${s.error}; peak memory +${(s.grown / 1e6).toFixed(0)} MB`);
    } else {
      console.log(
        `  speedscope: file given → flame chart shown ${s.secs.toFixed(2)} s (its own "import" timer ${s.importMs !== undefined ? `${(s.importMs / 1000).toFixed(2)} s` : 'not printed'}, as ${s.format ?? '?'});` +
          ` peak memory of all Chromium processes +${(s.grown / 1e6).toFixed(0)} MB (${((s.grown - mb * 1e6) / (mb * 1e6)).toFixed(2)}× the file beyond it)`,
      );
      console.log(
        `  speedscope / jfrscope = ${(s.secs / ours).toFixed(1)}× the time (${s.secs.toFixed(2)} s / ${ours.toFixed(2)} s, file given → view shown, jfrscope's median),` +
          ` ${(s.grown / ourMem).toFixed(1)}× the peak memory (+${(s.grown / 1e6).toFixed(0)} MB / +${(ourMem / 1e6).toFixed(0)} MB)`,
      );
    }
  }
} finally {
  rssOn = false;
  await rssSampler;
  await browser.close();
  server.kill();
}
