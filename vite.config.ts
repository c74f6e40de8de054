import react from '@vitejs/plugin-react';
import { VitePWA } from 'vite-plugin-pwa';
import type { Plugin } from 'vite';
import { defineConfig } from 'vitest/config';

// The site is served from a sub-path on GitHub Pages (BASE=/jfrscope/), from / elsewhere.
const base = process.env.BASE ?? '/';

/**
 * The Content-Security-Policy: scripts only from the site, wasm compilation allowed, requests
 * only to the site itself (connect-src 'self': a recording's bytes can go nowhere, and a link to
 * another site's recording is named to the user, never fetched), no plugins, no framing of forms.
 *
 * Served three ways, one text: a meta tag in the built page (GitHub Pages sends no headers; a
 * meta tag covers the page only), a `_headers` file in the build for hosts that read one
 * (Netlify, Cloudflare Pages; e2e/static-server.mjs too), which also covers the workers and the
 * service worker (each takes the policy of its own script's response), and the headers of
 * `vite preview`. The dev server's variant allows the inline scripts and styles of hot reload.
 */
const policy = [
  "default-src 'self'",
  "script-src 'self' 'wasm-unsafe-eval'",
  "worker-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "manifest-src 'self'",
  "object-src 'none'",
  "base-uri 'self'",
  "form-action 'none'",
].join('; ');
const devPolicy = policy
  .replace("script-src 'self'", "script-src 'self' 'unsafe-inline'")
  .replace("style-src 'self'", "style-src 'self' 'unsafe-inline'");

/**
 * Cross-origin isolation, so the page may share memory with its workers (SharedArrayBuffer):
 * the decoders then write rows straight into the page's columns (engine/merge.ts). Sent where
 * headers can be (the `_headers` file, `vite preview`, the dev server); GitHub Pages sends none,
 * and there the rows are handed over in pieces as before. Every request of the page is to the
 * site itself, so require-corp refuses nothing it loads.
 */
const isolation = { 'Cross-Origin-Opener-Policy': 'same-origin', 'Cross-Origin-Embedder-Policy': 'require-corp' };

function csp(): Plugin {
  return {
    name: 'jfrscope-csp',
    apply: 'build',
    transformIndexHtml: (html) => html.replace('<head>', `<head>\n    <meta http-equiv="Content-Security-Policy" content="${policy}" />`),
    generateBundle() {
      this.emitFile({ type: 'asset', fileName: '_headers', source: `/*\n  Content-Security-Policy: ${policy}\n  X-Content-Type-Options: nosniff\n  Referrer-Policy: no-referrer\n${Object.entries(isolation).map(([k, v]) => `  ${k}: ${v}\n`).join('')}` });
    },
  };
}

export default defineConfig({
  root: 'web',
  base,
  plugins: [
    react(),
    csp(),
    VitePWA({
      // Our own worker (web/src/sw.ts, workbox): it adds the isolation headers to what it serves.
      strategies: 'injectManifest',
      srcDir: 'src',
      filename: 'sw.ts',
      registerType: 'prompt',
      injectRegister: false,
      includeAssets: ['icon.svg', 'icon-32.png'],
      manifest: {
        name: 'jfrscope — Java Flight Recorder viewer',
        short_name: 'jfrscope',
        description: 'Read JFR recordings in the browser: thread lanes in time, filters, flame graphs. Nothing leaves your machine.',
        theme_color: '#1c7ed6',
        background_color: '#ffffff',
        display: 'standalone',
        start_url: '.',
        scope: '.',
        icons: [
          { src: 'icon-192.png', sizes: '192x192', type: 'image/png' },
          { src: 'icon-512.png', sizes: '512x512', type: 'image/png' },
          { src: 'icon-512.png', sizes: '512x512', type: 'image/png', purpose: 'maskable' },
        ],
        file_handlers: [{ action: '.', accept: { 'application/octet-stream': ['.jfr', '.gz'], 'application/gzip': ['.gz'] } }],
      } as Record<string, unknown>,
      injectManifest: {
        globPatterns: ['**/*.{js,css,html,wasm,png,svg,jfr,webmanifest}'],
        globIgnores: ['**/duckdb-*', '**/parquet_wasm_bg-*', '**/sql-*.js'],
        maximumFileSizeToCacheInBytes: 8 * 1024 * 1024,
      },
    }),
  ],
  assetsInclude: ['**/*.jfr'],
  worker: { format: 'es' },
  build: {
    outDir: '../dist',
    emptyOutDir: true,
    target: 'es2022',
    assetsInlineLimit: 0,
    // The SQL view's code in a chunk named for the service worker's runtime cache (above).
    rolldownOptions: {
      output: {
        chunkFileNames: (chunk) => (chunk.moduleIds.some((id) => id.includes('/web/src/sql/browser') || id.includes('@duckdb/duckdb-wasm')) ? 'assets/sql-[hash].js' : 'assets/[name]-[hash].js'),
      },
    },
  },
  // One apache-arrow for the page and DuckDB's module (which asks for an older line).
  resolve: { dedupe: ['apache-arrow'] },
  server: { fs: { allow: ['..'] }, headers: { 'Content-Security-Policy': devPolicy, ...isolation } },
  preview: { headers: { 'Content-Security-Policy': policy, 'Referrer-Policy': 'no-referrer', ...isolation } },
  test: {
    root: '.',
    // Benchmarks are tests only when asked for (JFRSCOPE_BENCH=1 npx vitest run bench/…).
    include: process.env.JFRSCOPE_BENCH ? ['bench/**/*.bench.test.ts'] : ['web/src/**/*.test.ts', 'web/src/**/*.test.tsx'],
    environment: 'node',
    testTimeout: 120_000,
  },
});
