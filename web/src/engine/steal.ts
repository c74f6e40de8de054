/**
 * A rows round whose decoders share out the chunks as they go, so none sits idle while another
 * still has chunks left (a decoder given less of a core, or chunks holding more new stacks,
 * finishes later than the rest):
 *
 *   page     each chunk's rows get their range of the output in file order (the count pass says
 *            how many), and each group a queue of its chunks: [front, back) in shared memory
 *   decoder  takes its own queue's front chunk (held from the count pass, or read next); once
 *            that is empty, the back chunk of the queue with most left, read from the file
 *
 * Rows land in their chunk's range whoever decodes them, so the output is in file order as a
 * round without stealing makes it; each decoder's pieces still index its own dictionaries.
 * Only where the decoders can all read the whole file (a File, not bytes handed to each) and
 * write into the page's columns (shared memory).
 */
import type { ThreadOverrides } from './parts';

/** One chunk of a round: where it is in the file, its rows' range in the output. */
export interface ChunkTask {
  offset: number;
  size: number;
  /** The chunk's index in the file. */
  index: number;
  /** Its rows' first position in the output, and how many the count pass found. */
  at: number;
  rows: number;
}

/** What a decoder of a round that shares out its chunks is told. */
export interface StealPlan {
  /** Per group, [front, back) of its queue (ShareQueues). */
  queues: SharedArrayBuffer;
  /** The decoder's own group. */
  own: number;
  /** Per group, its chunks with rows in the round, in file order. */
  tasks: ChunkTask[][];
  /** The most rows of the round in one chunk (what the parser makes room for). */
  chunkRows: number;
  /** The thread overrides of every chunk (any decoder may decode any chunk). */
  threads?: ThreadOverrides;
}

const LOW = 0xffffffffn;

/** The groups' queues, each whole: front 0, back its length (low and high 32 bits of one word). */
export function shareQueues(tasks: ChunkTask[][]): SharedArrayBuffer {
  const sab = new SharedArrayBuffer(8 * Math.max(1, tasks.length));
  const q = new BigInt64Array(sab);
  tasks.forEach((t, g) => (q[g] = BigInt(t.length) << 32n));
  return sab;
}

/** Take the front (or back) task of group g's queue: its index, or -1 when the queue is empty. */
function take(q: BigInt64Array, g: number, front: boolean): number {
  for (;;) {
    const v = Atomics.load(q, g);
    const lo = Number(v & LOW);
    const hi = Number(v >> 32n);
    if (lo >= hi) return -1;
    const next = front ? (v & ~LOW) | BigInt(lo + 1) : (BigInt(hi - 1) << 32n) | BigInt(lo);
    if (Atomics.compareExchange(q, g, v, next) === v) return front ? lo : hi - 1;
  }
}

/** Tasks left in group g's queue. */
function left(q: BigInt64Array, g: number): number {
  const v = Atomics.load(q, g);
  return Math.max(0, Number(v >> 32n) - Number(v & LOW));
}

/**
 * The next chunk for decoder `own`: its own queue's front, else the back of the queue with most
 * left (the chunk its owner would come to last); null once every queue is empty.
 */
export function claim(queues: SharedArrayBuffer, own: number): { group: number; k: number } | null {
  const q = new BigInt64Array(queues);
  const groups = q.length;
  const mine = take(q, own, true);
  if (mine >= 0) return { group: own, k: mine };
  for (;;) {
    let best = -1;
    let most = 0;
    for (let g = 0; g < groups; g++) {
      const n = left(q, g);
      if (n > most) {
        most = n;
        best = g;
      }
    }
    if (best < 0) return null;
    const k = take(q, best, false);
    if (k >= 0) return { group: best, k };
  }
}
