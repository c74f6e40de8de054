// A plain static file server for the production build, as GitHub Pages serves it: files under
// a base path, correct types (application/wasm), and the headers DIR/_headers gives every path
// (`/*`, as Netlify and Cloudflare Pages read it: the Content-Security-Policy, cross-origin
// isolation), nothing else; with --pages none of them, as GitHub Pages sends none.
//   node e2e/static-server.mjs DIR PORT BASE [CORS] [--pages]
import { createServer } from 'node:http';
import { createReadStream, existsSync, readFileSync, statSync } from 'node:fs';
import { extname, join, normalize } from 'node:path';

const pages = process.argv.includes('--pages');
const [dir, port, base = '/', cors] = process.argv.slice(2).filter((a) => a !== '--pages');
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
/** The headers of the `/*` blocks of a _headers file: a path line, then indented `Name: value`. */
function headersFile(file) {
  const out = {};
  if (!existsSync(file)) return out;
  let all = false;
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    if (line.trim() === '' || line.trim().startsWith('#')) continue;
    if (!/^\s/.test(line)) all = line.trim() === '/*';
    else if (all) {
      const at = line.indexOf(':');
      if (at > 0) out[line.slice(0, at).trim()] = line.slice(at + 1).trim();
    }
  }
  return out;
}
const fixed = pages ? {} : headersFile(join(dir, '_headers'));

createServer((req, res) => {
  for (const [k, v] of Object.entries(fixed)) res.setHeader(k, v);
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
