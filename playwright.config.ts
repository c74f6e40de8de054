import { defineConfig } from '@playwright/test';

// Debian's Chromium, never a downloaded browser. The app is built first (npm run build) and
// served from dist/ by a plain static server; with BASE=/jfrscope/ under a sub-path, as GitHub
// Pages serves it, and with PAGES=1 without the build's headers, as GitHub Pages sends none. A second server on another origin (port + 1, CORS) stands in for "some
// other site" holding a recording for ?url=.
const base = process.env.BASE ?? '/';
const port = Number(process.env.PORT ?? 4173);

export default defineConfig({
  testDir: 'e2e',
  timeout: 120_000,
  expect: { timeout: 30_000 },
  workers: 1,
  reporter: [['list']],
  outputDir: 'test-results',
  use: {
    baseURL: `http://127.0.0.1:${port}${base}`,
    viewport: { width: 1400, height: 900 },
    launchOptions: {
      executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium',
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-dev-shm-usage',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--disable-default-apps',
      ],
    },
  },
  webServer: [
    {
      command: `node e2e/static-server.mjs dist ${port} ${base}${process.env.PAGES ? ' --pages' : ''}`,
      url: `http://127.0.0.1:${port}${base}`,
      reuseExistingServer: false,
      timeout: 60_000,
    },
    {
      command: `node e2e/static-server.mjs fixtures ${port + 1} / cors`,
      url: `http://127.0.0.1:${port + 1}/README.md`,
      reuseExistingServer: false,
      timeout: 60_000,
    },
  ],
});
