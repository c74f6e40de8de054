// A plain static file server for the production build, as GitHub Pages serves it: files under
// a base path, correct types (application/wasm), nothing else.
//   node e2e/static-server.mjs DIR PORT BASE [CORS]
import { createServer } from 'node:http';
import { createReadStream, existsSync, statSync } from 'node:fs';
import { extname, join, normalize } from 'node:path';

const [dir, port, base = '/', cors] = process.argv.slice(2);
const types = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript',
  '.css': 'text/css',
  '.wasm': 'application/wasm',
  '.json': 'application/json',
  '.webmanifest': 'application/manifest+json',
  '.png': 'image/png',
  '.svg': 'image/svg+xml',
  '.jfr': 'application/octet-stream',
  '.gz': 'application/gzip',
};
createServer((req, res) => {
  const url = new URL(req.url ?? '/', 'http://x');
  if (cors) res.setHeader('Access-Control-Allow-Origin', '*');
  if (!url.pathname.startsWith(base)) {
    res.writeHead(404).end('not found');
    return;
  }
  let path = normalize(join(dir, decodeURIComponent(url.pathname.slice(base.length))));
  if (!path.startsWith(normalize(dir))) {
    res.writeHead(403).end();
    return;
  }
  if (!existsSync(path) || statSync(path).isDirectory()) path = join(dir, 'index.html');
  res.writeHead(200, { 'Content-Type': types[extname(path)] ?? 'application/octet-stream', 'Content-Length': statSync(path).size });
  createReadStream(path).pipe(res);
}).listen(Number(port), '127.0.0.1');
