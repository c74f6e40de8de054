/**
 * Loading a recording in the browser:
 *
 *   File ─ chunk headers read through Blob slices ─ partition by chunk ─ N workers, each given
 *     its slice of the file, which it reads a chunk at a time in each pass (N ≤ hardwareConcurrency)
 *   Files (a repository folder, chunk files) ─ each one's chunk headers ─ every chunk in time
 *     order (layout.joinLayouts) ─ one Blob of their slices (concatenated lazily, never read
 *     here) ─ as a File; files that are not recordings are named and left out
 *   URL, .gz or bytes ─ bytes (DecompressionStream for .gz) ─ chunkLayout ─ partition ─ each
 *     worker gets its slice, transferred
 *   then a lazy load (session.ts): count pass, rows of what fits, merged; the rest on demand.
 *
 * The main thread reads chunk headers and merges columns; it never holds a File's bytes. Workers
 * live as long as the recording is open: they decode deferred types and single events (the side
 * panel) from the chunks they keep from the count pass (up to HELD_BYTES) or read again.
 * Cancelling a load (another file dropped) or closing the recording terminates them.
 */
import type { Table } from 'apache-arrow';
import type { Profile, RecordingShape } from '../columns/profile';
import { recordingShape } from './shape';
import { eventBuffers, type Description, type PartColumns, type ShapeBins, type SharedInto, type ThreadOverrides } from './parts';
import { chunkHeaderAt, chunkLayout, fileKind, joinLayouts, locate, originOf, partition, spanOf, type ChunkSpan, type Piece } from './layout';
import type { WorkerRequest, WorkerResponse } from './protocol';
import { HELD_BYTES, Session, type GroupDecoder, type ViewOf } from './session';
import type { StealPlan } from './steal';
export type { FirstView, ViewOf } from './session';
import { parseEventFields } from './fields';
import { joinTableParts, type TablePart } from './type-table';

export interface LoadHandle {
  promise: Promise<Profile>;
  cancel(): void;
}

/**
 * The largest recording held as bytes in memory (fetched or gunzipped): one JS ArrayBuffer is
 * capped near this size in Chromium. A File of any size opens: its workers read it a chunk at a
 * time.
 */
export const MAX_FILE_BYTES = 2 * 1024 ** 3;

/** The files a recording was read from, and those left out (not recordings) with why. */
export interface RecordingSources {
  files: { name: string; size: number; chunks: number }[];
  skipped: { name: string; why: string }[];
  /** Where each file's bytes lie in the recording's offsets (one file: the whole of it at 0). */
  pieces: Piece[];
}

/** What stays of an open recording: its workers, and the file's size and ends (its fingerprint). */
interface Open {
  session: Session;
  groups: WorkerGroup[];
  ends: FileEnds;
  sources: RecordingSources;
}

export interface FileEnds {
  size: number;
  head: Uint8Array;
  tail: Uint8Array;
}

const opened = new WeakMap<Profile, Open>();

/** The decoded file's size, first and last 256 KiB (for its fingerprint), while it is open. */
export function fileEnds(profile: Profile): FileEnds | null {
  return opened.get(profile)?.ends ?? null;
}

/** The files the recording was read from (several for a folder or a list of chunk files). */
export function recordingSources(profile: Profile): RecordingSources | null {
  return opened.get(profile)?.sources ?? null;
}

/** The file and offset in it of an event's offset (events.offset), or null. */
export function eventFile(profile: Profile, offset: number): { name: string; offset: number } | null {
  const s = opened.get(profile)?.sources;
  const at = s ? locate(s.pieces, offset) : null;
  return s && at ? { name: s.files[at.file].name, offset: at.offset } : null;
}

function newWorker(): Worker {
  return warm.pop() ?? new Worker(new URL('./parse.worker.ts', import.meta.url), { type: 'module' });
}

/** Workers started ahead of a load (their wasm compiled while nobody waits). */
const warm: Worker[] = [];

/** Start as many workers as a load would use, so the first file does not wait for them. */
export function warmUp(): void {
  const n = Math.max(1, Math.min(navigator.hardwareConcurrency || 2, 8));
  while (warm.length < n) warm.push(new Worker(new URL('./parse.worker.ts', import.meta.url), { type: 'module' }));
}

export class CancelledError extends Error {
  constructor() {
    super('Loading was cancelled.');
    this.name = 'CancelledError';
  }
}

function tooLarge(size: number): Error {
  const gb = (size / 1024 ** 3).toFixed(1);
  return new Error(
    `This recording is over ${gb} GiB; a fetched recording is held in memory, at most ${MAX_FILE_BYTES / 1024 ** 3} GiB. ` +
      'Download it and open the file from the disk (a file of any size opens), or use the jfrscope command-line tool: `jfrscope summary FILE`.',
  );
}

async function readAll(stream: ReadableStream<Uint8Array>, limit: number, onChunk: (n: number) => void, overLimit: (total: number) => Error = tooLarge): Promise<ArrayBuffer> {
  const reader = stream.getReader();
  const parts: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.length;
    if (total > limit) {
      parts.length = 0;
      await reader.cancel();
      throw overLimit(total);
    }
    parts.push(value);
    onChunk(value.length);
  }
  const out = new Uint8Array(total);
  let pos = 0;
  for (const p of parts) {
    out.set(p, pos);
    pos += p.length;
  }
  return out.buffer;
}

function isGzip(head: Uint8Array): boolean {
  return head.length >= 2 && head[0] === 0x1f && head[1] === 0x8b;
}

/** Inflation stops past this many times the compressed size (plus GZIP_SLACK), as the CLI's does. */
export const GZIP_RATIO = 128;
const GZIP_SLACK = 64 * 1024 ** 2;

class InflateError extends Error {}

function inflatedTooFar(compressed: number, inflated: number, budget: number): Error {
  const mb = (n: number) => `${(n / 1024 ** 2).toFixed(n < 10 * 1024 ** 2 ? 1 : 0)} MB`;
  return new InflateError(
    budget < MAX_FILE_BYTES
      ? `This gzip file of ${mb(compressed)} inflates past ${mb(inflated)}, more than ${GZIP_RATIO} times its size, which no recording does; ` +
        'decompression was stopped there. If it is a recording, gunzip it and open the .jfr.'
      : `This gzip file of ${mb(compressed)} inflates past ${(MAX_FILE_BYTES / 1024 ** 3).toFixed(0)} GiB (stopped at ${mb(inflated)}), more than the ` +
        'browser can decode; use the jfrscope command-line tool: `jfrscope summary FILE`.',
  );
}

/** The bytes of a gzip-compressed recording, gunzipped as a stream, within a budget. */
export async function gunzip(blob: Blob, onProgress: (done: number, total: number) => void): Promise<ArrayBuffer> {
  let read = 0;
  const counted = blob.stream().pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, ctl) {
        read += chunk.length;
        onProgress(read, blob.size);
        ctl.enqueue(chunk);
      },
    }),
  );
  try {
    const gunzip = new DecompressionStream('gzip') as unknown as ReadableWritablePair<Uint8Array, Uint8Array>;
    // No recording compresses past GZIP_RATIO times: inflation stops there (a gzip bomb), or at
    // what the page can hold, and says so with the real sizes.
    const budget = Math.min(MAX_FILE_BYTES, GZIP_RATIO * blob.size + GZIP_SLACK);
    return await readAll(counted.pipeThrough(gunzip), budget, () => {}, (n) => inflatedTooFar(blob.size, n, budget));
  } catch (e) {
    if (e instanceof InflateError) throw e;
    throw new Error(`The file looks gzip-compressed but could not be decompressed: ${e instanceof Error ? e.message : String(e)}`);
  }
}

const ENDS = 256 * 1024;

async function endsOf(file: Blob | ArrayBuffer): Promise<FileEnds> {
  const size = file instanceof Blob ? file.size : file.byteLength;
  const cut = async (from: number, to: number) =>
    new Uint8Array(file instanceof Blob ? await file.slice(from, to).arrayBuffer() : file.slice(from, to));
  return { size, head: await cut(0, Math.min(ENDS, size)), tail: await cut(Math.max(0, size - ENDS), size) };
}

/** Chunk layout of a file read through 68-byte slices at each chunk header (no whole read). */
async function blobLayout(blob: Blob): Promise<ChunkSpan[]> {
  const spans: ChunkSpan[] = [];
  for (let pos = 0; pos + 68 <= blob.size; ) {
    const h = chunkHeaderAt(await blob.slice(pos, pos + 68).arrayBuffer(), 0);
    if (!h) break;
    spans.push(spanOf(spans.length, pos, Math.min(h.size, blob.size - pos), h));
    pos += h.size;
  }
  return spans;
}

/**
 * The bytes after a recording's last chunk that start no chunk (zeros a crash or a copy left, or
 * anything appended): not read, and said, with the chunks before them kept. After a chunk still
 * being written they are its writes since its last flush: not read either, and no damage (the
 * parser names the chunk).
 */
export function afterChunks(spans: ChunkSpan[], size: number): Description['errors'] {
  const last = spans[spans.length - 1];
  const end = last ? last.offset + last.size : 0;
  if (!last || end >= size || last.writing) return [];
  const n = size - end;
  const amount = n >= 1024 ** 2 ? `${(n / 1024 ** 2).toFixed(1)} MB` : `${n.toLocaleString('en-US')} bytes`;
  return [{ chunk: last.index, offset: end, message: `The ${amount} after the last chunk (from byte ${end.toLocaleString('en-US')}) do not start a chunk (no FLR\\0 header); they were not read.` }];
}

/** One worker and the group of chunks it owns; requests by id, answers and progress by id (exported for its tests). */
export class WorkerGroup implements GroupDecoder {
  private next = 0;
  private pending = new Map<
    number,
    {
      resolve: (m: WorkerResponse) => void;
      reject: (e: Error) => void;
      progress?: (done: number) => void;
      piece?: (p: PartColumns) => void;
      shape?: (s: ShapeBins) => void;
    }
  >();

  constructor(
    private readonly worker: Worker,
    readonly size: number,
    readonly spans: ChunkSpan[],
    /** Bytes of its chunks the worker keeps from the count pass for the first round. */
    private readonly hold = Infinity,
    /** The worker was given the whole File too (it can decode any chunk). */
    readonly readsWholeFile = false,
  ) {
    worker.onmessage = (e: MessageEvent<WorkerResponse>) => {
      const m = e.data;
      const p = this.pending.get(m.id);
      if (!p) {
        // A piece of a request that has failed still hands its buffers back: the worker, still
        // decoding, would otherwise wait for them before each piece it sends.
        if (m.kind === 'piece') this.recycle(m.part);
        return;
      }
      if (m.kind === 'progress') return p.progress?.(m.done);
      if (m.kind === 'shape') return p.shape?.(m.shape);
      if (m.kind === 'piece') {
        // A piece the page cannot take (its merge failed) fails the request, not the page's
        // event loop: the load says why instead of waiting for ever.
        try {
          p.piece?.(m.part);
        } catch (e) {
          this.pending.delete(m.id);
          p.reject(e instanceof Error ? e : new Error(String(e)));
          this.recycle(m.part);
          return;
        }
        // Merged (copied into the page's columns): its event columns' buffers go back to the
        // worker for its next pieces (a piece placed in shared columns has none: the message
        // says it is merged, so a decoder never runs far ahead of a page busy numbering stacks).
        this.recycle(m.part);
        return;
      }
      this.pending.delete(m.id);
      if (m.kind === 'error') p.reject(new Error(m.message));
      else p.resolve(m);
    };
    worker.onerror = (e) => this.fail(new Error(`The decoder failed: ${e.message || 'worker error'}`));
  }

  /** A piece's event column buffers, back to the worker for its next pieces. */
  private recycle(part: PartColumns) {
    const buffers = eventBuffers(part);
    this.worker.postMessage({ kind: 'recycle', buffers } satisfies WorkerRequest, buffers);
  }

  private fail(e: Error) {
    this.pending.forEach((p) => p.reject(e));
    this.pending.clear();
  }

  private ask(
    req: Exclude<WorkerRequest, { kind: 'open' | 'recycle' }>,
    progress?: (done: number) => void,
    piece?: (p: PartColumns) => void,
    shape?: (s: ShapeBins) => void,
  ): Promise<WorkerResponse> {
    return new Promise((resolve, reject) => {
      this.pending.set(req.id, { resolve, reject, progress, piece, shape });
      this.worker.postMessage(req);
    });
  }

  async count(onProgress: (done: number) => void, onShape?: (s: ShapeBins) => void): Promise<Description> {
    const m = await this.ask({ kind: 'count', id: this.next++, hold: this.hold }, onProgress, undefined, onShape);
    if (m.kind !== 'counted') throw new Error(`Unexpected answer ${m.kind} from the decoder.`);
    return m.description;
  }

  async rows(
    types: string[],
    expected: number,
    onProgress: (done: number) => void,
    onPiece: (p: PartColumns, last: boolean) => void,
    chunks?: number[],
    threads?: ThreadOverrides,
    into?: SharedInto,
    keep?: boolean,
    steal?: StealPlan,
  ): Promise<void> {
    const m = await this.ask({ kind: 'rows', id: this.next++, types, expected, chunks, threads, into, keep, steal }, onProgress, (p) => onPiece(p, false));
    if (m.kind !== 'rows') throw new Error(`Unexpected answer ${m.kind} from the decoder.`);
    onPiece(m.part, true);
  }

  async table(type: string, onProgress: (done: number) => void, threads?: ThreadOverrides): Promise<TablePart> {
    const m = await this.ask({ kind: 'table', id: this.next++, type, threads }, onProgress);
    if (m.kind !== 'table') throw new Error(`Unexpected answer ${m.kind} from the decoder.`);
    return m.part;
  }

  async event(chunk: number, offset: number, threads?: ThreadOverrides): Promise<string> {
    const m = await this.ask({ kind: 'event', id: this.next++, chunk, offset, threads });
    if (m.kind !== 'fields') throw new Error(`Unexpected answer ${m.kind} from the decoder.`);
    return m.json;
  }

  terminate() {
    this.worker.terminate();
    this.fail(new CancelledError());
  }
}

/**
 * A row count from `localStorage['jfrscope:' + key]`, or undefined (the session's default):
 * rowBudget, the rows the first round may decode (lower on a machine short of memory, higher to
 * decode more at once); rowLimit, the rows the page holds at most.
 */
function rowSetting(key: 'rowBudget' | 'rowLimit'): number | undefined {
  try {
    const text = localStorage.getItem(`jfrscope:${key}`);
    const v = Number(text);
    return text !== null && Number.isFinite(v) && v >= 0 ? v : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Whether decoders can write rows straight into the page's columns: shared memory, which the
 * browser gives a cross-origin isolated page only (served with COOP and COEP headers;
 * `localStorage['jfrscope:sharedColumns'] = 'off'` turns it off, to compare).
 */
function sharedColumns(): boolean {
  return typeof SharedArrayBuffer === 'function' && globalThis.crossOriginIsolated && setting('sharedColumns');
}

/** A switch of `localStorage['jfrscope:' + key]`: on unless 'off' (to compare). */
function setting(key: 'sharedColumns' | 'stealChunks'): boolean {
  try {
    return localStorage.getItem(`jfrscope:${key}`) !== 'off';
  } catch {
    return true;
  }
}

/** A file's name as the user knows it (its path inside a folder that was picked or dropped). */
function nameOf(f: Blob): string {
  if (!(f instanceof File)) return 'recording';
  return (f as File & { webkitRelativePath?: string }).webkitRelativePath || f.name;
}

/** Files read at once while their chunk headers are read. */
const FILES_AT_ONCE = 16;

/**
 * Several files as one recording: each one's chunk headers (a gzip file is inflated first),
 * every chunk in time order, one Blob of the files' slices in that order. A file that holds no
 * chunk is left out, with why; none at all is an error naming them.
 */
export async function joinFiles(files: File[], onProgress: (done: number, total: number) => void): Promise<{ blob: Blob; spans: ChunkSpan[]; sources: RecordingSources }> {
  // Name order first: time ties (and the files' own order) do not depend on how they were given.
  const sorted = [...files].sort((a, b) => (nameOf(a) < nameOf(b) ? -1 : nameOf(a) > nameOf(b) ? 1 : a.size - b.size));
  const read: ({ name: string; blob: Blob; spans: ChunkSpan[] } | { name: string; why: string })[] = new Array(sorted.length);
  let next = 0;
  let done = 0;
  const one = async (f: File) => {
    const name = nameOf(f);
    if (f.size === 0) return { name, why: 'it is empty' };
    let blob: Blob = f;
    let kind = fileKind(new Uint8Array(await f.slice(0, 4).arrayBuffer()));
    if (kind === 'gzip') {
      try {
        blob = new Blob([await gunzip(f, () => {})]);
      } catch (e) {
        return { name, why: e instanceof Error ? e.message : String(e) };
      }
      kind = fileKind(new Uint8Array(await blob.slice(0, 4).arrayBuffer()));
      if (kind !== 'jfr') return { name, why: 'it is gzip-compressed but holds no JFR recording (it does not start with FLR\\0)' };
    }
    if (kind !== 'jfr') return { name, why: 'it is not a JFR recording (it does not start with FLR\\0)' };
    const spans = await blobLayout(blob);
    if (spans.length === 0) return { name, why: 'it holds no complete chunk header (a chunk still being written?)' };
    return { name, blob, spans };
  };
  await Promise.all(
    Array.from({ length: Math.min(FILES_AT_ONCE, sorted.length) }, async () => {
      for (let i = next++; i < sorted.length; i = next++) {
        try {
          read[i] = await one(sorted[i]);
        } catch (e) {
          read[i] = { name: nameOf(sorted[i]), why: `it could not be read: ${e instanceof Error ? e.message : String(e)}` };
        }
        onProgress(++done, sorted.length);
      }
    }),
  );
  const kept = read.filter((r) => 'spans' in r);
  const skipped = read.filter((r) => 'why' in r);
  if (kept.length === 0) {
    throw new Error(`None of the ${files.length} files is a JFR recording: ${skipped.map((s) => `${s.name} (${s.why})`).join('; ')}.`);
  }
  const joined = joinLayouts(kept.map((k) => k.spans));
  const blob = new Blob(joined.pieces.map((p) => kept[p.file].blob.slice(p.from, p.from + p.size)));
  return {
    blob,
    spans: joined.spans,
    sources: {
      files: kept.map((k) => ({ name: k.name, size: k.blob.size, chunks: k.spans.length })),
      skipped,
      pieces: joined.pieces,
    },
  };
}

/**
 * Decode a recording (.jfr or .jfr.gz) in workers: one file or bytes, or several files (a JFR
 * repository folder, chunk files) read as one recording in time order. `want` names event types
 * whose rows must be in the first round (the view a link asks for), whatever their size, or
 * says what the first view shows once the types are counted (session.ts FirstView).
 */
export function loadRecording(
  source: File | Blob | ArrayBuffer | File[],
  _name: string,
  onProgress: (done: number, total: number) => void,
  want: string[] | ViewOf = [],
  onCounted?: (shape: RecordingShape | null, originMs: number, final: boolean) => void,
): LoadHandle {
  const groups: WorkerGroup[] = [];
  let stopped = false;
  let loaded = false;
  let cancel!: () => void;
  const cancelled = new Promise<never>((_, reject) => {
    cancel = () => {
      // A recording that finished loading stays usable (its view is still on screen) until
      // closeRecording: only a load in progress is stopped.
      if (loaded) return;
      stopped = true;
      groups.forEach((g) => g.terminate());
      reject(new CancelledError());
    };
  });
  const run = async (): Promise<Profile> => {
    performance.mark('jfrscope:load');
    let file: Blob | ArrayBuffer;
    let spans: ChunkSpan[];
    let sources: RecordingSources;
    if (Array.isArray(source) && source.length !== 1) {
      ({ blob: file, spans, sources } = await joinFiles(source, onProgress));
    } else {
      const one = Array.isArray(source) ? source[0] : source;
      const blob = one instanceof Blob ? one : new Blob([one]);
      const gz = isGzip(new Uint8Array(await blob.slice(0, 2).arrayBuffer()));
      // A File stays on disk until its workers read their slices, whatever its size; other
      // sources are bytes here.
      file = gz ? await gunzip(blob, onProgress) : one;
      spans = file instanceof Blob ? await blobLayout(file) : chunkLayout(file);
      const size = file instanceof Blob ? file.size : file.byteLength;
      sources = { files: [{ name: nameOf(blob), size, chunks: spans.length }], skipped: [], pieces: [{ file: 0, from: 0, size, at: 0 }] };
    }
    const size = file instanceof Blob ? file.size : file.byteLength;
    const ends = await endsOf(file);
    performance.mark('jfrscope:layout read');
    if (stopped) throw new CancelledError();
    const originMs = originOf(spans);
    const n = Math.max(1, Math.min(navigator.hardwareConcurrency || 2, 8, spans.length || 1));
    const parts = spans.length ? partition(spans, n) : [[]];
    for (const group of parts) {
      const base = group.length ? group[0].offset : 0;
      const end = group.length ? group[group.length - 1].offset + group[group.length - 1].size : size;
      const worker = newWorker();
      // A File's workers get the whole of it too: a round can share out its chunks (steal.ts).
      const blob = file instanceof Blob ? file : undefined;
      groups.push(new WorkerGroup(worker, end - base, group, HELD_BYTES / parts.length, blob !== undefined));
      const whole = file instanceof ArrayBuffer && base === 0 && end === file.byteLength;
      const slice = whole ? file : file.slice(base, end);
      const req: WorkerRequest = { kind: 'open', source: slice, base, spans: group, originMs, file: blob };
      worker.postMessage(req, slice instanceof ArrayBuffer ? [slice] : []);
    }
    file = new ArrayBuffer(0); // the workers have their slices; drop the page's copy
    const session = new Session(groups, originMs, size, rowSetting('rowBudget'), rowSetting('rowLimit'));
    session.layoutErrors = afterChunks(spans, size);
    session.sharedColumns = sharedColumns();
    session.stealChunks = setting('stealChunks');
    if (Array.isArray(source) && source.length !== 1) session.joined = spans;
    let partial = false;
    session.onShape = (s) => {
      if (!partial) performance.mark('jfrscope:overview begun');
      partial = true;
      onCounted?.(recordingShape(s), originMs, false);
    };
    session.onCounted = (d) => {
      performance.mark('jfrscope:overview');
      onCounted?.(recordingShape(d.shape), originMs, true);
    };
    const profile = await session.open(want, onProgress);
    if (profile.events.length === 0 && profile.eventTypes.length === 0 && profile.info.errors.length) {
      throw new Error(`This file could not be read as a JFR recording: ${profile.info.errors[0].message}`);
    }
    opened.set(profile, { session, groups, ends, sources });
    return profile;
  };
  const promise = Promise.race([run(), cancelled]);
  promise.then(
    () => void (loaded = true),
    () => groups.forEach((g) => g.terminate()),
  );
  return { promise, cancel };
}

/** Decode the rows of deferred `types` in the recording's workers: the profile with them added. */
export async function loadTypes(profile: Profile, types: string[], onProgress: (done: number, total: number) => void, view?: [number, number]): Promise<Profile> {
  const o = opened.get(profile);
  if (!o) throw new Error('The recording is no longer open.');
  performance.mark('jfrscope:decode');
  const next = await o.session.load(types, onProgress, view);
  opened.set(next, o);
  return next;
}

/**
 * The rows of `type` (held as a time window: too many to hold whole) for the view [fromMs,
 * toMs], ms since the start: the chunks overlapping it, replacing the previous window.
 */
export async function loadWindow(profile: Profile, type: string, view: [number, number], onProgress: (done: number, total: number) => void): Promise<Profile> {
  const o = opened.get(profile);
  if (!o) throw new Error('The recording is no longer open.');
  const next = await o.session.loadWindow(type, view, onProgress);
  opened.set(next, o);
  return next;
}

/** Whether a window of `type` for the view [fromMs, toMs] would fit the page, and what it spans. */
export function windowFor(profile: Profile, type: string, view: [number, number]): { fromMs: number; toMs: number; rows: number; complete: boolean } | null {
  const plan = opened.get(profile)?.session.planWindow(type, view);
  return plan ? { fromMs: plan.fromMs, toMs: plan.toMs, rows: plan.rows.reduce((a, b) => a + b, 0), complete: plan.complete } : null;
}

/**
 * Rows loadTypeTable decodes at most: a row of a type table takes its columns' bytes three times
 * over while it is made (wasm, the transfer, Arrow), 10 columns of 8 bytes about 250 B.
 */
export const MAX_TABLE_ROWS = 4_000_000;

/**
 * Every event of `type` with every field, as an Arrow table (columns/type-table.ts): each
 * worker decodes its chunks (read again from the file, one at a time), the page joins them in
 * file order. Progress runs over the file's bytes; `signal` abandons the wait (the workers
 * finish the chunk group they are on and the result is dropped). A type with more than `limit`
 * events is refused before any decoding, with a message naming the command-line export.
 */
export async function loadTypeTable(
  profile: Profile,
  type: string,
  onProgress: (done: number, total: number) => void = () => {},
  signal?: AbortSignal,
  limit = MAX_TABLE_ROWS,
): Promise<Table> {
  const o = opened.get(profile);
  if (!o) throw new Error('The recording is no longer open.');
  const count = profile.eventTypes.find((t) => t.name === type)?.count ?? 0;
  if (count > limit) {
    const n = (x: number) => x.toLocaleString('en-US');
    throw new Error(
      `${type} has ${n(count)} events: a table of every field of them is more than the ${n(limit)} rows this page decodes at once. ` +
        'Use the jfrscope command-line tool for it: `jfrscope export FILE --out DIR` writes every type as Parquet.',
    );
  }
  const total = o.groups.reduce((a, g) => a + g.size, 0);
  const done = o.groups.map(() => 0);
  const aborted = new Promise<never>((_, reject) => {
    if (signal?.aborted) reject(new CancelledError());
    signal?.addEventListener('abort', () => reject(new CancelledError()), { once: true });
  });
  const parts = o.groups.map((g, i) =>
    g.table(
      type,
      (n) => {
        done[i] = n;
        if (!signal?.aborted) onProgress(done.reduce((a, b) => a + b, 0), total);
      },
      o.session.threads[i],
    ),
  );
  return joinTableParts(type, await Promise.race([Promise.all(parts), aborted]));
}

/** Stop the recording's workers and let its bytes go (another recording replaced it). */
export function closeRecording(profile: Profile): void {
  opened.get(profile)?.groups.forEach((g) => g.terminate());
}

/**
 * Fetch a recording of the page's own origin, then decode it. Another origin is refused here as
 * the page's policy (connect-src 'self') refuses it: a recording's bytes come from this site or
 * from the user's disk, and no request carries anything of them elsewhere. No cookies, no referrer.
 */
export function loadRecordingFromUrl(
  url: string,
  onProgress: (done: number, total: number) => void,
  want: string[] | ViewOf = [],
  onCounted?: (shape: RecordingShape | null, originMs: number, final: boolean) => void,
): LoadHandle {
  const ctl = new AbortController();
  let inner: LoadHandle | null = null;
  let cancelled = false;
  const promise = (async () => {
    const target = new URL(url, location.href);
    if (target.origin !== location.origin) {
      throw new Error(`This page fetches recordings only from its own site, not from ${target.host}: download the file and drop it here.`);
    }
    let res: Response;
    try {
      res = await fetch(target, { signal: ctl.signal, credentials: 'omit', referrerPolicy: 'no-referrer' });
    } catch (e) {
      throw new Error(`Could not fetch ${url}: ${e instanceof Error ? e.message : String(e)}`);
    }
    if (!res.ok || !res.body) throw new Error(`Could not fetch ${url}: HTTP ${res.status}`);
    const total = Number(res.headers.get('content-length')) || 0;
    let got = 0;
    const buf = await readAll(res.body, MAX_FILE_BYTES, (n) => {
      got += n;
      onProgress(got, Math.max(total, got));
    });
    if (cancelled) throw new CancelledError();
    inner = loadRecording(buf, url, onProgress, want, onCounted);
    return inner.promise;
  })();
  return {
    promise,
    cancel() {
      cancelled = true;
      ctl.abort();
      inner?.cancel();
    },
  };
}

/** All fields of one event, decoded on demand by the worker that holds its chunk. */
export async function decodeEventFields(profile: Profile, event: number): Promise<Record<string, unknown>> {
  const o = opened.get(profile);
  if (!o) throw new Error('The recording is no longer open.');
  const offset = profile.events.offset[event];
  const inChunk = (s: ChunkSpan) => offset >= s.offset && offset < s.offset + s.size;
  const g = o.groups.find((x) => x.spans.some(inChunk));
  const span = g?.spans.find(inChunk);
  if (!g || !span) throw new Error(`No chunk of the file holds offset ${offset}.`);
  // Its threads named as in the lanes: as the JDK names them across chunks.
  return parseEventFields(await g.event(span.index, offset, o.session.threadsOf(span.index)));
}
