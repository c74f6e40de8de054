/**
 * Every deferred type picked, one after another in one session, as a user clicks through the
 * Event menu, on a recording nobody made for the tests; each type's rows, and each type's count
 * from the count pass, beside the JDK's count (jdk.jfr.consumer.RecordingFile) for the recording.
 *
 *   FILE   a .jfr (or .jfr.gz), or a folder of chunk files (a JFR repository): its files are
 *          joined as the page joins several files (engine/index.ts joinFiles: each file's chunk
 *          headers, every chunk in time order; files that are not recordings left out).
 *   COUNTS a tab-separated file: event type, count, as RecordingFile reads FILE (default: the
 *          corpus's expected/NAME.rf-counts.tsv, or its jmc-counts.tsv where RecordingFile throws).
 *   TRUTH  instead of COUNTS, a prefix: the files tools/golden/PerType.java writes for the
 *          recording (TRUTH.counts.tsv, TRUTH.detail.tsv: events without and with a stack, the sum of
 *          durations, TRUTH.threads.tsv: events per thread name), each then compared too.
 *   GOLDEN a folder of tools/golden/Golden.java's output for the recording (NAME.TYPE.collapsed.gz):
 *          each type's stacks are compared too (events per distinct stack, root first, frames
 *          as Class.method; profiler.WallClockSample weighed by its samples).
 *   EVENT  the type the first view shows (default: the one the page would choose).
 *   SHARED=1 rows written by the decoders into shared columns (a cross-origin isolated page).
 *
 *   java tools/golden/PerType.java /tmp/rec /path/rec.jfr        (a folder: /path/dir, read as the JDK
 *                                                                reads a repository: one chain of chunks)
 *   java tools/golden/Golden.java /tmp/golden /path/rec.jfr      (for GOLDEN)
 *   JFRSCOPE_BENCH=1 FILE=/path/rec.jfr TRUTH=/tmp/rec GOLDEN=/tmp/golden npx vitest run bench/pick-every.bench.test.ts
 *
 * Prints one line per type that differs and fails when any does. A thread renamed between chunks
 * (a pool thread, or main becoming DestroyJavaVM under async-profiler) is named as RecordingFile
 * names it: by its entry in the first chunk of the run of chunks whose thread pools hold its id
 * (it reuses the objects it resolved in the previous chunk; the parser's chain_threads). One
 * difference comes from how RecordingFile reads a whole file rather than from the recording,
 * and shows up here:
 * - an event committed while the JDK rotated chunks may name a stack trace id that only the
 *   previous chunk's pool holds; RecordingFile resolves it when the previous event of the same
 *   type had the same id (its parsers cache the last id read), so it gets a stack from the whole
 *   file and none from its chunk read alone, nor in this page (fixtures/large/large.jfr: 1 of
 *   2,534 monitor enters).
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { expect, it } from 'vitest';
import { sessionInNode } from '../web/src/engine/node';
import { chunkLayout, fileKind, joinLayouts } from '../web/src/engine/layout';
import { decodable } from '../web/src/engine/parts';
import { firstView } from '../web/src/profile-logic/kinds';
import type { Profile } from '../web/src/columns/profile';

const file = process.env.FILE ?? '';
const corpus = '/work/shared/corpus/expected';

/** The bytes the page decodes: one file (inflated), or a folder's chunk files in time order. */
function recording(path: string): { bytes: Uint8Array; files: number } {
  const inflate = (b: Buffer) => (b[0] === 0x1f && b[1] === 0x8b ? gunzipSync(b) : b);
  if (!statSync(path).isDirectory()) return { bytes: new Uint8Array(inflate(readFileSync(path))), files: 1 };
  const files = readdirSync(path)
    .sort()
    .map((n) => new Uint8Array(inflate(readFileSync(join(path, n)))))
    .filter((b) => fileKind(b.subarray(0, 4)) === 'jfr');
  const all = files.map((b) => ({ b, spans: chunkLayout(b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength) as ArrayBuffer) }));
  const kept = all.filter((f) => f.spans.length);
  const layouts = kept.map((f) => f.spans);
  const joined = joinLayouts(layouts);
  const out = new Uint8Array(joined.size);
  for (const p of joined.pieces) out.set(kept[p.file].b.subarray(p.from, p.from + p.size), p.at);
  return { bytes: out, files: kept.length };
}

function countsOf(path: string): Map<string, number> {
  const text = readFileSync(path, 'utf8').trim();
  return new Map(
    text
      .split('\n')
      .map((l) => l.split('\t'))
      .map(([t, n]) => [t, Number(n)] as [string, number]),
  );
}

function expectedPath(): string {
  if (process.env.TRUTH) return `${process.env.TRUTH}.counts.tsv`;
  if (process.env.COUNTS) return process.env.COUNTS;
  const name = basename(file).replace(/\.gz$/, '');
  for (const kind of ['rf-counts', 'jmc-counts']) if (existsSync(`${corpus}/${name}.${kind}.tsv`)) return `${corpus}/${name}.${kind}.tsv`;
  throw new Error(`No counts for ${file}: set COUNTS.`);
}

function rowsByType(p: Profile): Map<string, number> {
  const n = new Map<string, number>();
  const t = p.events.type;
  const counts = new Array<number>(p.eventTypes.length).fill(0);
  for (let i = 0; i < p.events.length; i++) counts[t[i]]++;
  p.eventTypes.forEach((e, k) => n.set(e.name, (n.get(e.name) ?? 0) + counts[k]));
  return n;
}

it(`every deferred type of ${file}, picked in turn`, { timeout: 3_600_000 }, async () => {
  const jdk = countsOf(expectedPath());
  const { bytes, files } = recording(file);
  const s = sessionInNode(bytes, Number(process.env.PARTS ?? 2), { shared: process.env.SHARED === '1' });
  const t0 = performance.now();
  let p = await s.open((types) => firstView(types, process.env.EVENT ?? ''), () => {});
  const lines = [`${file}: ${files} file(s), ${(bytes.byteLength / 1e6).toFixed(0)} MB, ${p.info.chunks} chunks, opened in ${(performance.now() - t0).toFixed(0)} ms with ${p.events.length.toLocaleString('en-US')} rows; deferred: ${s.deferred().length}`];
  const order = s.deferred().sort((a, b) => a.localeCompare(b));
  for (const name of order) {
    const t = performance.now();
    try {
      p = await s.load([name], () => {});
    } catch (e) {
      lines.push(`  pick ${name}: ${e instanceof Error ? e.message : String(e)}`);
      continue;
    }
    lines.push(`  picked ${name}: ${rowsByType(p).get(name)?.toLocaleString('en-US')} rows in ${(performance.now() - t).toFixed(0)} ms`);
  }
  const rows = rowsByType(p);
  const counted = new Map(p.eventTypes.map((e) => [e.name, e.count]));
  // Types without rows by design (settings, system properties: read from the file when shown).
  const rowless = new Set(s.description!.types.filter((t) => !decodable(t)).map((t) => t.name));
  const wrong: string[] = [];
  for (const name of new Set([...jdk.keys(), ...counted.keys()])) {
    const want = jdk.get(name) ?? 0;
    const got = rowless.has(name) ? want : (rows.get(name) ?? 0);
    const count = counted.get(name) ?? 0;
    if (got !== want || count !== want) wrong.push(`  ${name}: JDK ${want}, rows ${got}, count pass ${count}`);
  }
  const truth = process.env.TRUTH;
  if (truth) {
    const detail = new Map(
      readFileSync(`${truth}.detail.tsv`, 'utf8')
        .trim()
        .split('\n')
        .map((l) => l.split('\t'))
        .map(([t, , noStack, ns, withStack]) => [t, { noStack: Number(noStack), ms: Number(ns) / 1e6, withStack: withStack === undefined ? null : Number(withStack) }] as const),
    );
    const ev = p.events;
    const byType = new Map<string, { noStack: number; withStack: number; ms: number; threads: Map<string, number> }>();
    const threadName = (k: number) => (k < 0 ? '(none)' : (p.strings[p.threads.name[k]] ?? ''));
    for (let i = 0; i < ev.length; i++) {
      const t = p.eventTypes[ev.type[i]];
      let b = byType.get(t.name);
      if (!b) byType.set(t.name, (b = { noStack: 0, withStack: 0, ms: 0, threads: new Map() }));
      if (t.hasStack && ev.stack[i] === -1) b.noStack++;
      if (ev.stack[i] >= 0) b.withStack++;
      b.ms += ev.duration[i];
      const n = threadName(ev.thread[i]);
      b.threads.set(n, (b.threads.get(n) ?? 0) + 1);
    }
    const threads = new Map<string, Map<string, number>>();
    for (const [t, name, n] of readFileSync(`${truth}.threads.tsv`, 'utf8')
      .trim()
      .split('\n')
      .map((l) => l.split('\t'))) {
      if (!threads.has(t)) threads.set(t, new Map());
      threads.get(t)!.set(name, Number(n));
    }
    for (const [name, b] of byType) {
      const want = detail.get(name);
      if (!want) continue;
      // With a stack when the truth says (a type declared with a stack trace in one chunk and
      // without in another, as jfrsync's jdk.ActiveSetting, has events of neither kind for the
      // JDK); older truth files say only how many are without one.
      if (want.withStack !== null ? b.withStack !== want.withStack : b.noStack !== want.noStack)
        wrong.push(`  ${name}: ${want.withStack !== null ? `with a stack: JDK ${want.withStack}, rows ${b.withStack}` : `without a stack: JDK ${want.noStack}, rows ${b.noStack}`}`);
      if (Math.abs(b.ms - want.ms) > 1e-3 * Math.max(1, want.ms)) wrong.push(`  ${name}: durations: JDK ${want.ms.toFixed(3)} ms, rows ${b.ms.toFixed(3)} ms`);
      const wt = threads.get(name) ?? new Map<string, number>();
      const diff = [...new Set([...wt.keys(), ...b.threads.keys()])].filter((k) => (wt.get(k) ?? 0) !== (b.threads.get(k) ?? 0));
      if (diff.length) wrong.push(`  ${name}: ${diff.length} threads differ, e.g. ${diff.slice(0, 4).map((k) => `"${k}" JDK ${wt.get(k) ?? 0} rows ${b.threads.get(k) ?? 0}`).join(', ')}`);
    }
  }
  const golden = process.env.GOLDEN;
  let stackTypes = 0;
  if (golden) {
    const name0 = basename(file).replace(/\.gz$/, '');
    const path = (t: string) => join(golden, `${name0}.${t}.collapsed.gz`);
    const names = p.strings;
    const memo = new Map<number, string>();
    const stackText = (k: number): string => {
      if (k < 0) return '';
      const m = memo.get(k);
      if (m !== undefined) return m;
      const parent = p.stacks.prefix[k];
      const f = names[p.frames.name[p.stacks.frame[k]]];
      const out = parent < 0 ? f : `${stackText(parent)};${f}`;
      memo.set(k, out);
      return out;
    };
    p.eventTypes.forEach((t, ty) => {
      if (!t.hasStack || !existsSync(path(t.name))) return;
      stackTypes++;
      const want = new Map<string, number>();
      for (const l of gunzipSync(readFileSync(path(t.name))).toString('utf8').split('\n')) {
        if (!l) continue;
        const cut = l.lastIndexOf(' ');
        want.set(l.slice(0, cut), Number(l.slice(cut + 1)));
      }
      const got = new Map<string, number>();
      const wall = t.name === 'profiler.WallClockSample';
      for (let i = 0; i < p.events.length; i++) {
        if (p.events.type[i] !== ty) continue;
        const key = stackText(p.events.stack[i]);
        got.set(key, (got.get(key) ?? 0) + (wall ? p.events.weight[i] : 1));
      }
      const diff = [...new Set([...want.keys(), ...got.keys()])].filter((k) => (want.get(k) ?? 0) !== (got.get(k) ?? 0));
      if (diff.length) wrong.push(`  ${t.name}: ${diff.length} of ${want.size} stacks differ, e.g. ${diff.slice(0, 2).map((k) => `"${k.slice(-160)}" JDK ${want.get(k) ?? 0} rows ${got.get(k) ?? 0}`).join(', ')}`);
    });
  }
  if (golden) lines.push(`stacks compared: ${stackTypes} types`);
  lines.push(`errors: ${p.info.errors.length}${p.info.errors.slice(0, 5).map((e) => `\n  chunk ${e.chunk} @${e.offset}: ${e.message}`).join('')}`);
  lines.push(wrong.length ? `MISMATCHES (${wrong.length}):\n${wrong.join('\n')}` : `every type agrees with the JDK (${jdk.size} types)`);
  console.log(lines.join('\n'));
  expect(wrong).toEqual([]);
});
