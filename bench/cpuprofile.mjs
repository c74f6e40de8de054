// Self and total time by function of a Chromium CPU profile (bench/browser.mjs CPU_PROFILE=dir).
//   node bench/cpuprofile.mjs FILE.cpuprofile [N rows, default 30]
import { readFileSync } from 'node:fs';

const [file, rows = '30'] = process.argv.slice(2);
const p = JSON.parse(readFileSync(file, 'utf8'));
const byId = new Map(p.nodes.map((n) => [n.id, n]));
const parent = new Map();
for (const n of p.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
const hits = new Map();
for (let i = 0; i < p.samples.length; i++) hits.set(p.samples[i], (hits.get(p.samples[i]) ?? 0) + (p.timeDeltas[i + 1] ?? 0));
const key = (n) => `${n.callFrame.functionName || '(anon)'} ${n.callFrame.url.split('/').pop()}:${n.callFrame.lineNumber + 1}`;
const self = new Map();
const total = new Map();
let all = 0;
for (const [id, us] of hits) {
  all += us;
  const n = byId.get(id);
  self.set(key(n), (self.get(key(n)) ?? 0) + us);
  const seen = new Set();
  for (let k = id; k !== undefined; k = parent.get(k)) {
    const name = key(byId.get(k));
    if (seen.has(name)) continue;
    seen.add(name);
    total.set(name, (total.get(name) ?? 0) + us);
  }
}
const show = (m, title) => {
  console.log(`${title} (ms of ${(all / 1000).toFixed(0)} ms sampled)`);
  for (const [k, us] of [...m].sort((a, b) => b[1] - a[1]).slice(0, Number(rows))) console.log(`  ${(us / 1000).toFixed(1).padStart(8)}  ${k}`);
};
show(self, 'self');
show(total, 'total');
