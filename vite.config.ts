import react from '@vitejs/plugin-react';
import { defineConfig } from 'vitest/config';

// The site is served from a sub-path on GitHub Pages (BASE=/jfrscope/), from / elsewhere.
export default defineConfig({
  root: 'web',
  base: process.env.BASE ?? '/',
  plugins: [react()],
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
