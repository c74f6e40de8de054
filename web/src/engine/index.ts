/**
 * Loading a recording in the browser:
 *
 *   File/Blob/URL ─ bytes (DecompressionStream for .gz) ─ chunkLayout ─ partition by chunk
 *     ─ N workers (wasm Parser each, N ≤ hardwareConcurrency) ─ mergeParts ─ toProfile
 *
 * The main thread only slices buffers and merges columns; decoding happens in workers, which
 * are terminated when the load is cancelled (another file dropped).
 */
import type { Profile } from '../profile-logic/profile';
import type { PartColumns } from './columns';
import { chunkLayout, partition, type ChunkSpan } from './layout';
import { mergeParts } from './merge';
import { toProfile } from './profile';
import type { WorkerRequest, WorkerResponse } from './protocol';

export interface LoadHandle {
  promise: Promise<Profile>;
  cancel(): void;
}

/** wasm32 memory is at most 4 GiB; each worker copies its chunks in and columns out. */
export const MAX_FILE_BYTES = 2 * 1024 ** 3;

const files = new WeakMap<Profile, { buf: ArrayBuffer; spans: ChunkSpan[] }>();

/** The decoded file's bytes (for its fingerprint), while the profile is loaded. */
export function fileBytes(profile: Profile): ArrayBuffer | null {
  return files.get(profile)?.buf ?? null;
}

function newWorker(): Worker {
  return new Worker(new URL('./parse.worker.ts', import.meta.url), { type: 'module' });
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
    `This recording is ${gb} GiB; the browser can decode at most ${MAX_FILE_BYTES / 1024 ** 3} GiB ` +
      '(WebAssembly memory limit). Use the jfrscope command-line tool instead: `jfrscope summary FILE` or ' +
      '`jfrscope collapse FILE --event jdk.ExecutionSample`.',
  );
}

async function readAll(stream: ReadableStream<Uint8Array>, limit: number, onChunk: (n: number) => void): Promise<ArrayBuffer> {
  const reader = stream.getReader();
  const parts: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.length;
    if (total > limit) {
      await reader.cancel();
      throw tooLarge(total);
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

/** The recording's bytes, gunzipped as a stream when they are gzip. */
async function bytesOf(source: Blob | ArrayBuffer, onProgress: (done: number, total: number) => void): Promise<ArrayBuffer> {
  const blob = source instanceof Blob ? source : new Blob([source]);
  const head = new Uint8Array(await blob.slice(0, 2).arrayBuffer());
  if (!isGzip(head)) {
    if (blob.size > MAX_FILE_BYTES) throw tooLarge(blob.size);
    return source instanceof ArrayBuffer ? source : blob.arrayBuffer();
  }
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
    return await readAll(counted.pipeThrough(gunzip), MAX_FILE_BYTES, () => {});
  } catch (e) {
    if (e instanceof Error && e.message.startsWith('This recording is')) throw e;
    throw new Error(`The file looks gzip-compressed but could not be decompressed: ${e instanceof Error ? e.message : String(e)}`);
  }
}

function decodeParts(buf: ArrayBuffer, spans: ChunkSpan[], originMs: number, onProgress: (done: number, total: number) => void, workers: Worker[]): Promise<PartColumns[]> {
  const n = Math.max(1, Math.min(navigator.hardwareConcurrency || 2, 8, spans.length || 1));
  const groups = spans.length ? partition(spans, n) : [[]];
  const done = new Array<number>(groups.length).fill(0);
  const total = buf.byteLength;
  return Promise.all(
    groups.map(
      (group, gi) =>
        new Promise<PartColumns>((resolve, reject) => {
          const w = newWorker();
          workers.push(w);
          const base = group.length ? group[0].offset : 0;
          const end = group.length ? group[group.length - 1].offset + group[group.length - 1].size : buf.byteLength;
          const bytes = buf.slice(base, end);
          w.onmessage = (e: MessageEvent<WorkerResponse>) => {
            const m = e.data;
            if (m.kind === 'progress') {
              done[gi] = m.done;
              onProgress(done.reduce((a, b) => a + b, 0), total);
            } else if (m.kind === 'result') {
              w.terminate();
              resolve(m.part);
            } else if (m.kind === 'error') {
              w.terminate();
              reject(new Error(m.message));
            }
          };
          w.onerror = (e) => {
            w.terminate();
            reject(new Error(`The decoder failed: ${e.message || 'worker error'}`));
          };
          const req: WorkerRequest = { kind: 'parse', bytes, base, spans: group, originMs };
          w.postMessage(req, [bytes]);
        }),
    ),
  );
}

/** Decode a recording (.jfr or .jfr.gz) in workers. */
export function loadRecording(source: File | Blob | ArrayBuffer, _name: string, onProgress: (done: number, total: number) => void): LoadHandle {
  const workers: Worker[] = [];
  let cancel!: () => void;
  const cancelled = new Promise<never>((_, reject) => {
    cancel = () => {
      workers.forEach((w) => w.terminate());
      reject(new CancelledError());
    };
  });
  const run = async (): Promise<Profile> => {
    const buf = await bytesOf(source, onProgress);
    const spans = chunkLayout(buf);
    const originMs = spans.length ? Math.min(...spans.map((s) => s.startMs)) : 0;
    const parts = await decodeParts(buf, spans, originMs, onProgress, workers);
    const profile = toProfile(mergeParts(parts), originMs, buf.byteLength);
    if (profile.events.length === 0 && profile.eventTypes.length === 0 && profile.info.errors.length) {
      throw new Error(`This file could not be read as a JFR recording: ${profile.info.errors[0].message}`);
    }
    files.set(profile, { buf, spans });
    return profile;
  };
  return { promise: Promise.race([run(), cancelled]), cancel };
}

/** Fetch a recording over HTTP(S), then decode it. */
export function loadRecordingFromUrl(url: string, onProgress: (done: number, total: number) => void): LoadHandle {
  const ctl = new AbortController();
  let inner: LoadHandle | null = null;
  let cancelled = false;
  const promise = (async () => {
    let res: Response;
    try {
      res = await fetch(url, { signal: ctl.signal });
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
    inner = loadRecording(buf, url, onProgress);
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

let detailWorker: Worker | null = null;
let nextId = 0;

/** All fields of one event, decoded on demand from the file's bytes. */
export function decodeEventFields(profile: Profile, event: number): Promise<Record<string, unknown>> {
  const f = files.get(profile);
  if (!f) return Promise.reject(new Error('The recording is no longer loaded.'));
  const chunk = profile.events.chunk[event];
  const span = f.spans[chunk];
  if (!span) return Promise.reject(new Error(`Chunk ${chunk} is not in the file.`));
  detailWorker ??= newWorker();
  const w = detailWorker;
  const id = nextId++;
  const bytes = f.buf.slice(span.offset, span.offset + span.size);
  return new Promise((resolve, reject) => {
    const onMessage = (e: MessageEvent<WorkerResponse>) => {
      const m = e.data;
      if ((m.kind === 'fields' || m.kind === 'error') && m.id === id) {
        w.removeEventListener('message', onMessage);
        if (m.kind === 'fields') {
          const parsed = JSON.parse(m.json) as { type: string; fields: Record<string, unknown> };
          resolve({ eventType: parsed.type, ...parsed.fields });
        } else reject(new Error(m.message));
      }
    };
    w.addEventListener('message', onMessage);
    const req: WorkerRequest = { kind: 'decode', id, bytes, chunkOffset: span.offset, chunk, offset: profile.events.offset[event] };
    w.postMessage(req, [bytes]);
  });
}
