/**
 * The service worker: the app's files precached for offline use, the SQL engine's files cached
 * when the SQL view first loads them, and every response it serves marked cross-origin isolated
 * (COOP and COEP). A host that sends no headers (GitHub Pages) thus serves an isolated page
 * from the second visit on, and the installed app always: the decoders then write rows
 * straight into the page's columns in shared memory (engine/merge.ts).
 */
import { CacheableResponsePlugin } from 'workbox-cacheable-response';
import type { WorkboxPlugin } from 'workbox-core';
import { ExpirationPlugin } from 'workbox-expiration';
import { addPlugins, cleanupOutdatedCaches, createHandlerBoundToURL, precacheAndRoute, type PrecacheEntry } from 'workbox-precaching';
import { NavigationRoute, registerRoute } from 'workbox-routing';
import { CacheFirst } from 'workbox-strategies';

// (The page's DOM types, not the worker's: what this file uses of the service worker's scope.)
const sw = self as unknown as {
  skipWaiting(): Promise<void>;
  addEventListener(type: 'message', f: (e: MessageEvent<{ type?: string } | null>) => void): void;
};

/** Statuses whose response has no body, which a Response cannot be made with. */
const NO_BODY = new Set([101, 103, 204, 205, 304]);

/**
 * The page and its workers' scripts: what decides whether they are isolated. Every other
 * response is served as cached (a rebuilt one would lose the browser's cache of compiled code).
 */
const ISOLATES = new Set(['document', 'worker', 'sharedworker']);

const isolated: WorkboxPlugin = {
  handlerWillRespond: async ({ request, response }) => {
    if (!ISOLATES.has(request.destination) || response.type === 'opaque' || response.type === 'opaqueredirect' || NO_BODY.has(response.status)) return response;
    const headers = new Headers(response.headers);
    headers.set('Cross-Origin-Opener-Policy', 'same-origin');
    headers.set('Cross-Origin-Embedder-Policy', 'require-corp');
    return new Response(response.body, { status: response.status, statusText: response.statusText, headers });
  },
};

// The page's update prompt (app/UpdatePrompt.tsx) asks a waiting worker to take over.
sw.addEventListener('message', (e) => {
  if (e.data?.type === 'SKIP_WAITING') void sw.skipWaiting();
});

addPlugins([isolated]);
// (Written as `self.__WB_MANIFEST`, where the build puts the list of files.)
precacheAndRoute((self as unknown as { __WB_MANIFEST: (string | PrecacheEntry)[] }).__WB_MANIFEST);
cleanupOutdatedCaches();
registerRoute(new NavigationRoute(createHandlerBoundToURL('index.html')));
// The SQL engine (DuckDB, Parquet writer): megabytes, loaded only when the SQL view first opens.
registerRoute(
  ({ url, sameOrigin }) => sameOrigin && /\/assets\/(duckdb-|parquet_wasm_bg-|sql-)[^/]*$/.test(url.pathname),
  new CacheFirst({
    cacheName: 'jfrscope-sql',
    plugins: [new ExpirationPlugin({ maxEntries: 16 }), new CacheableResponsePlugin({ statuses: [200] }), isolated],
  }),
);
