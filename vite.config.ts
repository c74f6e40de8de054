import react from '@vitejs/plugin-react';
import { VitePWA } from 'vite-plugin-pwa';
import type { Plugin } from 'vite';
import { defineConfig } from 'vitest/config';

// The site is served from a sub-path on GitHub Pages (BASE=/jfrscope/), from / elsewhere.
const base = process.env.BASE ?? '/';

/**
 * A strict Content-Security-Policy for the built page (the dev server needs inline scripts):
 * scripts only from the site, wasm compilation allowed, requests to other origins only for an
 * explicit ?url= (connect-src http: https:), no plugins, no framing of forms.
 */
function csp(): Plugin {
  const policy = [
    "default-src 'self'",
    "script-src 'self' 'wasm-unsafe-eval'",
    "worker-src 'self'",
    "style-src 'self'",
    "img-src 'self' data:",
    "connect-src 'self' http: https:",
    "manifest-src 'self'",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'none'",
  ].join('; ');
  return {
    name: 'jfrscope-csp',
    apply: 'build',
    transformIndexHtml: (html) => html.replace('<head>', `<head>\n    <meta http-equiv="Content-Security-Policy" content="${policy}" />`),
  };
}

export default defineConfig({
  root: 'web',
  base,
  plugins: [
    react(),
    csp(),
    VitePWA({
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
      workbox: {
        globPatterns: ['**/*.{js,css,html,wasm,png,svg,jfr,webmanifest}'],
        maximumFileSizeToCacheInBytes: 8 * 1024 * 1024,
        navigateFallback: 'index.html',
      },
    }),
  ],
  assetsInclude: ['**/*.jfr'],
  worker: { format: 'es' },
  build: { outDir: '../dist', emptyOutDir: true, target: 'es2022', assetsInlineLimit: 0 },
  server: { fs: { allow: ['..'] } },
  test: {
    root: '.',
    include: ['web/src/**/*.test.ts', 'web/src/**/*.test.tsx'],
    environment: 'node',
    testTimeout: 120_000,
  },
});
