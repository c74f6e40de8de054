/**
 * A lazy load, the same in the browser (one worker per group of chunks) and in Node (tests):
 *
 *   count round   every group: counts, description, errors, no rows      ─ mergeDescriptions
 *   first round   rows of what the first view shows: its type, and the types its lanes draw
 *                 while the row budget lasts (a small file: every type that fits the budget)
 *   later rounds  rows of a deferred type when the user picks it          ─ Merger(had, new)
 *   window rounds a type too large to hold whole: the rows of the chunks overlapping the view
 *                 (decode on zoom), replacing the type's previous window   ─ Merger(had − type, new)
 *
 * Rows stream from the decoders in pieces into one preallocated set of columns (merge.ts).
 *
 * A count pass reads a chunk at several times the speed of a full decode, and rows cost far more
 * memory than the file's bytes (58 B per row against 15–40 B per event in the file), so a
 * recording dominated by one huge type (14 M file reads in 1 M other events) opens with what
 * fits and decodes the rest when it is asked for. Rows are not what a round costs, though: the
 * stacks they name are. A recording whose bytes are mostly stack pools (deep, nearly unique
 * stacks written again by every chunk) spends nearly all of a full decode resolving the stacks of
 * its allocation events, which no first view shows; so past a small file the first round decodes
 * only what the first view draws.
 */
import type { Profile } from '../columns/profile';
import { chunkJvms, decodable, groupOverrides, joinOverrides, overridesIn, type Description, type PartColumns, type ShapeBins, type SharedInto, type ThreadOverrides } from './parts';
import { mergeShapes } from './shape';
import { chainRuns, type ChunkSpan } from './layout';
import { Merger, mergeDescriptions, type PartData } from './merge';
import { toProfile } from './tables';
import { shareQueues, type ChunkTask, type StealPlan } from './steal';

/** One group of chunks and the parser that reads it (a worker, or wasm called directly). */
export interface GroupDecoder {
  /** Bytes of the file this group covers (for progress). */
  readonly size: number;
  /** Its chunks. */
  readonly spans: ChunkSpan[];
  /** It can read any chunk of the file (a File's, not bytes of its own chunks alone): a round may share out its chunks (steal.ts). */
  readonly readsWholeFile: boolean;
  /** `onShape`: the shape of what it counted so far, now and then. */
  count(onProgress: (done: number) => void, onShape?: (s: ShapeBins) => void): Promise<Description>;
  /** Rows of `types` (`expected` of them, as the count pass found), in pieces; the last one
   * carries the errors decoding met. `onPiece` keeps nothing of a piece's event columns: once
   * it returns, their buffers go back to the decoder for its next pieces. */
  rows(
    types: string[],
    expected: number,
    onProgress: (done: number) => void,
    onPiece: (piece: PartColumns, last: boolean) => void,
    chunks?: number[],
    threads?: ThreadOverrides,
    into?: SharedInto,
    /** Keep the chunks held from the count pass for later passes (else each is let go once decoded). */
    keep?: boolean,
    /** The round shares out its chunks (steal.ts): the rows go to their chunks' ranges of `into`. */
    steal?: StealPlan,
  ): Promise<void>;
}

/** A time window of one type: which chunks of each group it decodes, and how many rows. */
export interface WindowPlan {
  type: string;
  /** Per group: offsets of its chunks in the window. */
  chunks: number[][];
  /** Per group: rows of the type in those chunks (as the count pass found). */
  rows: number[];
  /** Where the window's chunks start and end, ms since the recording's start. */
  fromMs: number;
  toMs: number;
  /** Every chunk overlapping the view is in it (none left out for room). */
  complete: boolean;
}

/** Where a chunk of a description lies, ms since `originMs`. */
function chunkSpanMs(c: Description['chunks'][number], originMs: number): [number, number] {
  const start = Number(BigInt(c.startNs)) / 1e6 - originMs;
  return [start, start + Number(BigInt(c.durationNs)) / 1e6];
}

/** Rows of type number `t` (an index into `d.types`) in chunk `k` of one decoder's description (its chunkCounts). */
function rowsInChunk(d: Description, t: number, k: number): number {
  const pairs = d.chunkCounts?.[k] ?? [];
  for (let i = 0; i + 1 < pairs.length; i += 2) if (pairs[i] === t) return pairs[i + 1];
  return 0;
}

/**
 * The window of `type` to decode for a view of [fromMs, toMs] with room for `room` rows: the
 * chunks overlapping the view, or, when their rows do not fit, as many of them from the view's
 * start as fit. Null when not even one chunk with rows of the type fits.
 */
export function planWindow(counted: Description[], originMs: number, type: string, fromMs: number, toMs: number, room: number): WindowPlan | null {
  const all: { g: number; offset: number; start: number; end: number; rows: number }[] = [];
  counted.forEach((d, g) => {
    const t = d.types.findIndex((x) => x.name === type);
    d.chunks.forEach((c, k) => {
      const [start, end] = chunkSpanMs(c, originMs);
      if (start <= toMs && end >= fromMs) all.push({ g, offset: c.offset, start, end, rows: rowsInChunk(d, t, k) });
    });
  });
  all.sort((a, b) => a.start - b.start || a.offset - b.offset);
  const plan: WindowPlan = { type, chunks: counted.map(() => []), rows: counted.map(() => 0), fromMs: Infinity, toMs: -Infinity, complete: true };
  let used = 0;
  for (const c of all) {
    if (used + c.rows > room) {
      plan.complete = false;
      break;
    }
    used += c.rows;
    plan.chunks[c.g].push(c.offset);
    plan.rows[c.g] += c.rows;
    plan.fromMs = Math.min(plan.fromMs, c.start);
    plan.toMs = Math.max(plan.toMs, c.end);
  }
  return used > 0 ? plan : null;
}

/** The columns without the rows of event type `type` (an index into the description's types). */
function withoutType(c: PartData, type: number): PartData {
  c.pending?.fillAll(c);
  const keep: number[] = [];
  for (let i = 0; i < c.eventType.length; i++) if (c.eventType[i] !== type) keep.push(i);
  if (keep.length === c.eventType.length) return c;
  const pick = <T extends Float64Array | Float32Array | Int32Array | Uint16Array>(a: T): T => {
    const out = new (a.constructor as new (n: number) => T)(keep.length);
    for (let j = 0; j < keep.length; j++) out[j] = a[keep[j]];
    return out;
  };
  return {
    ...c,
    eventType: pick(c.eventType),
    eventStart: pick(c.eventStart),
    eventDuration: pick(c.eventDuration),
    eventThread: pick(c.eventThread),
    eventStack: pick(c.eventStack),
    eventWeight: pick(c.eventWeight),
    eventState: pick(c.eventState),
    eventSubject: pick(c.eventSubject),
    eventValue: pick(c.eventValue),
    eventPeer: pick(c.eventPeer),
    eventOffset: pick(c.eventOffset),
    // (Of rows some of which are gone.)
    extent: undefined,
    pending: undefined,
  };
}

/** Bytes of columns per event row in the page (docs/columns.md). */
const ROW_BYTES = 58;

/**
 * Rows a page holds at most, of all rounds together: 58 B each, 2.3 GB of columns, and up to
 * twice that for the moment a round merges into a new set. A type that would pass it stays in
 * the file, with a message pointing to the command-line tool, instead of crashing the tab.
 */
export const MAX_ROWS = 40_000_000;

/** A deferred type that would take the page past its row limit. */
export class RowLimitError extends Error {
  constructor(types: { name: string; count: number }[], have: number, limit: number) {
    const more = types.reduce((a, t) => a + t.count, 0);
    const gb = (rows: number) => (rows * ROW_BYTES >= 1e9 ? `${((rows * ROW_BYTES) / 1e9).toFixed(1)} GB` : `${Math.ceil((rows * ROW_BYTES) / 1e6)} MB`);
    const names = types.map((t) => t.name).join(', ');
    super(
      `${names} ${types.length === 1 ? 'has' : 'have'} ${more.toLocaleString('en-US')} events: with the ${have.toLocaleString('en-US')} rows already decoded ` +
        `that makes about ${gb(have + more)} of columns, past the ${limit.toLocaleString('en-US')} rows (${gb(limit)}) this page holds at most. ` +
        `Zoom in to a shorter time range to decode a window of it, or use the jfrscope command-line tool: \`jfrscope collapse FILE --event ${types[0].name}\`.`,
    );
    this.name = 'RowLimitError';
  }
}

/** Rows the first round may decode: 58 B each, so at most about 45% of the file's size. */
export function rowBudget(fileSize: number): number {
  return Math.max(2_000_000, Math.floor(fileSize / 128));
}

/**
 * What the first view shows: `shown`, the type it shows (decoded whatever its size, as long as the
 * row limit allows), and `lanes`, the types its timeline draws beside it (decoded while the row
 * budget lasts, smallest first). The page names them from the count pass's types
 * (profile-logic/kinds.ts firstView); a caller that knows its type names it alone.
 */
export interface FirstView {
  shown: string[];
  lanes: string[];
}
export type ViewOf = (types: Description['types']) => FirstView;

/**
 * Files up to this size decode, in their first round, every type that fits the row budget: a
 * whole decode of them takes well under a second, and every view is ready at once.
 */
export const WHOLE_FIRST_BYTES = 32 * 1024 * 1024;

/**
 * The first round's types: what the view shows (its type whatever its size, its lanes' types
 * smallest first while the budget lasts), then, for a small file (`rest`), the other types
 * smallest first while the budget lasts (many small types beat one big one). The shown type does
 * not use the budget up; past the row limit a type stays deferred and its pick says why.
 */
export function firstRound(d: Description, budget: number, view: FirstView, limit = MAX_ROWS, rest = true): string[] {
  const out = new Set<string>();
  // Rows of every type chosen (the limit), and of those chosen for fitting the budget.
  let rows = 0;
  let fitted = 0;
  const byName = new Map(d.types.filter(decodable).map((t) => [t.name, t]));
  for (const name of view.shown) {
    const t = byName.get(name);
    if (t && !out.has(name) && rows + t.count <= limit) {
      rows += t.count;
      out.add(name);
    }
  }
  const fill = (names: Iterable<string>) => {
    for (const t of [...names].flatMap((n) => byName.get(n) ?? []).sort((a, b) => a.count - b.count)) {
      if (out.has(t.name)) continue;
      if (fitted + t.count > budget || rows + t.count > limit) break;
      fitted += t.count;
      rows += t.count;
      out.add(t.name);
    }
  };
  fill(view.lanes);
  if (rest) fill(byName.keys());
  return [...out];
}

/**
 * Bytes of a File the workers keep (all of them together) from the count pass, so those chunks
 * are not read twice: for the first rows round, and after it for later rounds too (keepsChunks);
 * the rest is read again from the disk.
 */
export const HELD_BYTES = 1024 ** 3;

/**
 * Whether a round's decoders keep the chunks they hold from the count pass once it is done, so
 * that later rounds (a pick, a time window, a type's table, an event opened) decode them from
 * memory instead of reading the file again: on two cores, reading 317 MB again through the
 * browser kept each decoder of a 16.6 M-row pick waiting 0.25–0.3 s for bytes. Only a file the
 * count pass held whole (up to HELD_BYTES): past it, the first round lets each chunk go once
 * decoded, as it does when its columns would outgrow half the file, so the open's peak stays the
 * file or its columns, not both.
 */
export function keepsChunks(first: boolean, rows: number, fileSize: number): boolean {
  return fileSize <= HELD_BYTES && (!first || rows * ROW_BYTES <= fileSize / 2);
}

function expectedRows(d: Description | undefined, types: string[]): number {
  return (d?.types ?? []).filter((t) => types.includes(t.name)).reduce((a, t) => a + t.count, 0);
}

export class Session {
  description: Description | null = null;
  readonly loaded = new Set<string>();
  private columns: PartData | null = null;
  /** What numbers the columns' strings, threads, frames and stacks (kept across rounds). */
  private merger: Merger | null = null;
  /** Each group's own count pass. */
  private counted: Description[] = [];
  /** Per group, the thread overrides of its chunks (chainThreads, chained once after the count), for its rows passes, type tables and events shown. */
  threads: ThreadOverrides[] = [];
  private busy: Promise<unknown> = Promise.resolve();
  /** Types held as a time window only (too many rows to hold whole). */
  readonly windows = new Map<string, { fromMs: number; toMs: number; rows: number }>();
  /** The shape of all the decoders have counted so far, while they count. */
  onShape: ((s: ShapeBins | undefined) => void) | null = null;
  /** What reading the file's chunk headers found wrong (bytes after the last chunk). */
  layoutErrors: Description['errors'] = [];
  /** Of several files joined: their joined layout (each span's file), whose runs of chunks the JDK reads as one (layout.ts chainRuns) chain their threads apart; unset, every chunk is one run. */
  joined: ChunkSpan[] | undefined = undefined;
  /**
   * Decoders write their rows straight into the page's columns, in shared memory (set before
   * `open`; the page must be cross-origin isolated), instead of handing them over in pieces to copy.
   */
  sharedColumns = false;
  /** Called once the count pass is done, before any row is decoded (the overview). */
  onCounted: ((d: Description) => void) | null = null;
  /**
   * With shared columns and decoders that read the whole file: a rows round shares out its
   * chunks as the decoders go (steal.ts), instead of each decoding its own group.
   */
  stealChunks = true;

  constructor(
    readonly groups: GroupDecoder[],
    readonly originMs: number,
    readonly fileSize: number,
    readonly budget = rowBudget(fileSize),
    readonly limit = MAX_ROWS,
    readonly wholeFirstBytes = WHOLE_FIRST_BYTES,
  ) {}

  /**
   * Count, then decode the first round: `want` names the type the view shows, or says what the
   * view shows once the counts are known. Progress runs over both passes.
   */
  async open(want: string[] | ViewOf, onProgress: (done: number, total: number) => void): Promise<Profile> {
    const total = 2 * this.fileSize;
    const done = this.groups.map(() => 0);
    const report = (g: number) => (n: number) => {
      done[g] = n;
      onProgress(done.reduce((a, b) => a + b, 0), total);
    };
    const partial: (ShapeBins | undefined)[] = this.groups.map(() => undefined);
    const shaped = (i: number) => (s: ShapeBins) => {
      partial[i] = s;
      this.onShape?.(mergeShapes(partial));
    };
    this.counted = await Promise.all(this.groups.map((g, i) => g.count(report(i), shaped(i))));
    performance.mark('jfrscope:counted');
    this.description = mergeDescriptions(this.counted);
    this.threads = groupOverrides(this.counted, this.joined && chainRuns(this.joined, chunkJvms(this.counted)));
    this.description.errors.push(...this.layoutErrors);
    this.onCounted?.(this.description);
    const view = typeof want === 'function' ? want(this.description.types) : { shown: want, lanes: [] };
    const first = firstRound(this.description, this.budget, view, this.limit, this.fileSize <= this.wholeFirstBytes);
    return this.round(first, (n) => onProgress(this.fileSize + n, total));
  }

  /** The thread overrides of chunk `chunk` alone (for one event shown). */
  threadsOf(chunk: number): ThreadOverrides | undefined {
    const g = this.threads.find((o) => o.chunk.includes(chunk));
    return g && overridesIn(g, (c) => c === chunk);
  }

  /** Types with rows still in the file only. */
  deferred(): string[] {
    return (this.description?.types ?? []).filter((t) => decodable(t) && !this.loaded.has(t.name)).map((t) => t.name);
  }

  /**
   * Decode `types` (those not loaded yet) and return the profile with their rows added; a
   * RowLimitError, and nothing decoded, when they would take the page past its row limit.
   */
  load(types: string[], onProgress: (done: number, total: number) => void, view?: [number, number]): Promise<Profile> {
    const next = this.busy.then(async () => {
      const todo = types.filter((t) => this.deferred().includes(t) && !this.windows.has(t));
      const have = this.columns?.eventType.length ?? 0;
      const rows = (this.description?.types ?? []).filter((t) => todo.includes(t.name));
      if (have + rows.reduce((a, t) => a + t.count, 0) <= this.limit) return this.round(todo, (n) => onProgress(n, this.fileSize));
      // Too many to hold whole: a window of each, around the view, while they fit.
      if (!view) throw new RowLimitError(rows, have, this.limit);
      let profile: Profile | null = null;
      for (const t of rows) {
        const plan = this.planWindow(t.name, view);
        if (!plan) throw new RowLimitError([t], this.columns?.eventType.length ?? 0, this.limit);
        profile = await this.round([t.name], (n) => onProgress(n, this.fileSize), plan);
      }
      return profile!;
    });
    this.busy = next.catch(() => {});
    return next;
  }

  /**
   * The window of `type` a view of [fromMs, toMs] (ms since the start) would decode, with room
   * for what the page holds besides the type's current window; null when none fits.
   */
  planWindow(type: string, [fromMs, toMs]: [number, number]): WindowPlan | null {
    const have = (this.columns?.eventType.length ?? 0) - (this.windows.get(type)?.rows ?? 0);
    return planWindow(this.counted, this.originMs, type, fromMs, toMs, this.limit - have);
  }

  /**
   * Decode the window of a type too large to hold whole (see `windows`) that the view of
   * [fromMs, toMs] asks for, replacing its previous window; the profile unchanged when the
   * window it has already covers the view, a RowLimitError when no chunk of it fits.
   */
  loadWindow(type: string, view: [number, number], onProgress: (done: number, total: number) => void): Promise<Profile> {
    const next = this.busy.then(() => {
      const plan = this.planWindow(type, view);
      if (!plan) {
        const t = this.description?.types.find((x) => x.name === type);
        throw new RowLimitError(t ? [t] : [], this.columns?.eventType.length ?? 0, this.limit);
      }
      const w = this.windows.get(type);
      if (w && w.fromMs <= plan.fromMs && w.toMs >= plan.toMs) return this.round([], () => {});
      return this.round([type], (n) => onProgress(n, this.fileSize), plan);
    });
    this.busy = next.catch(() => {});
    return next;
  }

  /**
   * Per group, its chunks with rows of `types` (of the window's chunks only, with one), each
   * with its rows as the count pass found them; their ranges (`at`) are set by the caller.
   */
  private tasks(types: string[], window?: WindowPlan): ChunkTask[][] {
    return this.counted.map((d, g) => {
      const want = types.map((t) => d.types.findIndex((x) => x.name === t)).filter((k) => k >= 0);
      const only = window && new Set(window.chunks[g]);
      const spans = new Map(this.groups[g].spans.map((s) => [s.offset, s]));
      const out: ChunkTask[] = [];
      d.chunks.forEach((c, k) => {
        const span = spans.get(c.offset);
        if (!span || (only && !only.has(c.offset))) return;
        const rows = want.reduce((a, t) => a + rowsInChunk(d, t, k), 0);
        if (rows > 0) out.push({ offset: span.offset, size: span.size, index: span.index, at: 0, rows });
      });
      return out;
    });
  }

  private async round(types: string[], onProgress: (done: number) => void, window?: WindowPlan): Promise<Profile> {
    const d = this.description;
    if (!d) throw new Error('The recording was not counted yet.');
    if (types.length || !this.columns) {
      const names = d.types.map((t) => t.name);
      // One merger for every round: the columns decoded so far index its dictionaries, so they
      // are copied in as they are, and only the new rows' strings, frames and stacks are merged.
      const merger = (this.merger ??= new Merger(names, this.sharedColumns));
      const round = merger.next();
      // A new window of a type replaces its rows.
      const had = this.columns && window ? withoutType(this.columns, names.indexOf(window.type)) : this.columns;
      const mine = had ? merger.source(had.eventType.length) : null;
      const expected = window ? window.rows : this.groups.map((_, i) => expectedRows(this.counted[i], types));
      const shareOut = merger.shared && this.stealChunks && this.groups.length > 1 && this.groups.every((g) => g.readsWholeFile);
      const tasks = shareOut ? this.tasks(types, window) : null;
      // Sharing out the chunks: each decoder's dictionaries, and a range per chunk in file order.
      const sources = tasks ? this.groups.map(() => merger.dictionary()) : expected.map((n) => merger.source(n));
      tasks?.forEach((ts) => ts.forEach((t) => (t.at = merger.range(t.rows).start)));
      const steal = tasks && { queues: shareQueues(tasks), tasks, chunkRows: tasks.flat().reduce((a, t) => Math.max(a, t.rows), 0), threads: joinOverrides(this.threads) };
      const keep = keepsChunks(!this.columns, expected.reduce((a, b) => a + b, 0), this.fileSize);
      if (had && mine) merger.addOwn(mine, had);
      const errors: Description['errors'] = [];
      const done = this.groups.map(() => 0);
      await Promise.all(
        this.groups.map((g, i) =>
          g.rows(
            types,
            expected[i],
            (n) => {
              done[i] = n;
              onProgress(done.reduce((a, b) => a + b, 0));
            },
            (piece, last) => {
              // A worker of a round that failed may still be sending: its rows go nowhere.
              if (merger.round !== round) return;
              merger.add(sources[i], piece, piece.description.types.map((t) => t.name));
              if (last) errors.push(...piece.description.errors);
            },
            window?.chunks[i],
            this.threads[i],
            merger.shared ? merger.into(sources[i]) : undefined,
            keep,
            steal ? { ...steal, own: i } : undefined,
          ),
        ),
      );
      performance.mark('jfrscope:rows decoded');
      this.columns = merger.finish();
      // The count pass saw every event's size and type; only decoding a body finds what is wrong
      // inside it, so the errors of each round join the recording's. A problem both passes
      // meet (the end of a truncated chunk) is one problem.
      const seen = new Set(d.errors.map((e) => `${e.chunk}@${e.offset}:${e.message}`));
      for (const e of errors) {
        const key = `${e.chunk}@${e.offset}:${e.message}`;
        if (!seen.has(key)) d.errors.push(e);
        seen.add(key);
      }
      types.forEach((t) => this.loaded.add(t));
      if (window) this.windows.set(window.type, { fromMs: window.fromMs, toMs: window.toMs, rows: window.rows.reduce((a, b) => a + b, 0) });
      performance.mark('jfrscope:merged');
    }
    const profile = toProfile({ ...this.columns, description: d }, this.originMs, this.fileSize, this.loaded);
    for (const t of profile.eventTypes) {
      const w = this.windows.get(t.name);
      if (w) t.window = { ...w };
    }
    performance.mark('jfrscope:profile built');
    return profile;
  }
}
