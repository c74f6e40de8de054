// speedscope (npm `speedscope`, pinned in package.json: 1.25.0, the first release whose import
// reads Java Flight Recorder files, through its jfrview wasm module) opening the same recording
// in the same Chromium as bench/browser.mjs, for a side-by-side line: its release files are
// served from node_modules by the bench's static server on another port, and the file is given
// to its file input, as a user's "Browse" would (speedscope reads a file as JFR when its name ends
// in .jfr or it starts with the bytes FLR). Measured: from the file given to its flame chart
// shown (the "Time Order" view's tabs in the toolbar, which appear when the import has finished,
// then two animation frames), and the peak resident memory of all Chromium processes meanwhile
// over the page before the file. Run through bench/browser.mjs: PEER=speedscope node bench/browser.mjs FILE
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const release = fileURLToPath(new URL('../node_modules/speedscope/dist/release/', import.meta.url));
const root = fileURLToPath(new URL('..', import.meta.url));

/** speedscope's version as installed (package.json pins it exactly). */
export function speedscopeVersion() {
  if (!existsSync(release)) throw new Error(`speedscope is not installed (no ${release}): run \`npm ci\` (package.json pins speedscope 1.25.0)`);
  return JSON.parse(readFileSync(new URL('../node_modules/speedscope/package.json', import.meta.url), 'utf8')).version;
}

/**
 * One open of `file` in speedscope in a fresh page of `browser`. `memory.reset()` is called just
 * before the file is given and returns the resident memory then; `memory.peak()` the peak since.
 * Returns { secs, grown (bytes over the page before the file), importMs (speedscope's own
 * console.time of the import), format, error, page } (error: what speedscope said when it
 * could not read the file; the page is left open for a screenshot, the caller closes it).
 */
export async function openSpeedscope({ browser, port, file, memory, timeoutMs = 900_000 }) {
  const server = spawn('node', ['e2e/static-server.mjs', release, String(port), '/'], { cwd: root, stdio: 'ignore' });
  try {
    await new Promise((r) => setTimeout(r, 500));
    const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
    const said = [];
    let importMs;
    let format;
    page.on('console', (m) => {
      const text = m.text();
      const t = /^import: ([\d.]+) ms/.exec(text);
      if (t) importMs = Number(t[1]);
      else if (text.startsWith('Importing as')) format = text.slice('Importing as '.length);
      else if (m.type() === 'error' || text.startsWith('Failed to load format')) said.push(text);
    });
    page.on('pageerror', (e) => said.push(String(e.message ?? e)));
    let failed;
    const failure = new Promise((resolve) => {
      failed = resolve;
    });
    page.on('dialog', (d) => {
      failed(`alert: ${d.message()}`);
      d.dismiss().catch(() => {});
    });
    page.on('crash', () => failed('the page crashed (out of memory?)'));
    await page.goto(`http://127.0.0.1:${port}/`);
    // The landing page ready: its hidden file input and the WebGL canvas speedscope draws with.
    await page.locator('input#file').waitFor({ state: 'attached' });
    await page.waitForFunction(() => document.querySelector('canvas') !== null);
    await new Promise((r) => setTimeout(r, 1000));
    const base = memory.reset();
    const t0 = performance.now();
    await page.locator('input#file').setInputFiles(file);
    const shown = page
      .waitForFunction(
        () => {
          const text = document.body.textContent;
          return text.includes('Something went wrong') ? 'error' : text.includes('Time Order') && 'shown';
        },
        null,
        { timeout: timeoutMs, polling: 'raf' },
      )
      .then((h) => h.jsonValue());
    const outcome = await Promise.race([shown, failure]);
    let error;
    if (outcome === 'shown') {
      await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
    } else {
      error = outcome === 'error' ? `"Something went wrong" (${said.join(' | ') || 'nothing in the console'})` : `${outcome}${said.length ? ` (${said.join(' | ')})` : ''}`;
    }
    const secs = (performance.now() - t0) / 1000;
    const grown = memory.peak() - base;
    return { secs, grown, importMs, format, error, page };
  } finally {
    server.kill();
  }
}
