/**
 * A decoded recording as the UI sees it: the Arrow tables of docs/columns.md, plus the same
 * columns as typed arrays (views of the Arrow buffers, not copies) for the pure functions of
 * profile-logic. Index types name what they index, as in Firefox Profiler's tables.
 */
import type { Table } from 'apache-arrow';
import type { CallNodeColumns } from './ids';

export type IndexIntoStrings = number;
export type IndexIntoThreads = number;
export type IndexIntoFrames = number;
export type IndexIntoStacks = number;
export type IndexIntoEvents = number;
export type IndexIntoEventTypes = number;

/** Frame kinds as async-profiler colours them. */
export const FrameKind = {
  Interpreted: 0,
  JitCompiled: 1,
  Inlined: 2,
  Native: 3,
  Cpp: 4,
  Kernel: 5,
  Unknown: 6,
} as const;
export type FrameKind = (typeof FrameKind)[keyof typeof FrameKind];

export type EventKind =
  | 'cpu' | 'native' | 'wall' | 'lock' | 'wait' | 'park' | 'sleep' | 'io' | 'alloc' | 'gc' | 'thread'
  | 'pinned' | 'nativemem' | 'span' | 'method' | 'other';

export interface EventTypeInfo {
  name: string;
  label: string;
  kind: EventKind;
  count: number;
  hasStack: boolean;
  /** Its events are counted but their rows are not in the events table yet (a lazy load). */
  deferred: boolean;
  /** None of its rows holds a thread state (known as they were decoded; absent: not known). */
  noStates?: boolean;
  /**
   * Too many to hold whole: only the rows of the chunks overlapping this time window (ms since
   * the recording's start) are in the events table, `rows` of `count`.
   */
  window?: { fromMs: number; toMs: number; rows: number };
}

/**
 * The whole recording's shape per second, from the count pass over every event (decoded or
 * not): execution samples, allocation samples, and waiting threads on average (monitor, park,
 * sleep and I/O waits overlapping the second, divided by its length).
 */
export interface RecordingShape {
  /** Start of the first bin, wall-clock ms since the epoch (a whole second). */
  startMs: number;
  /** Width of a bin, ms. */
  binMs: number;
  samples: Uint32Array;
  allocs: Uint32Array;
  waiting: Float64Array;
}

export interface ThreadTable {
  name: Int32Array; // IndexIntoStrings
  osId: Float64Array;
  javaId: Float64Array;
  /** 1 for a virtual thread. */
  virtual: Uint8Array;
  length: number;
}

export interface FrameTable {
  name: Int32Array; // IndexIntoStrings of "Class.method"
  cls: Int32Array; // IndexIntoStrings
  line: Int32Array;
  bci: Int32Array;
  kind: Uint8Array; // FrameKind
  length: number;
}

export interface StackTable {
  frame: Int32Array; // IndexIntoFrames
  prefix: Int32Array; // IndexIntoStacks, -1 at the root
  length: number;
  /** The call nodes of these rows, when the merge made them as it numbered the rows (profile-logic/callnodes.ts). */
  calls?: CallNodeColumns;
}

/** Rows in file order (chunk by chunk), which is close to, but not exactly, time order. */
export interface EventTable {
  type: Uint16Array; // IndexIntoEventTypes
  start: Float64Array; // ms since info.startMs
  duration: Float32Array; // ms
  thread: Int32Array; // IndexIntoThreads or -1
  stack: Int32Array; // IndexIntoStacks, -1 (no stack) or STACK_LOST
  weight: Float64Array;
  state: Int32Array; // IndexIntoStrings or -1
  subject: Int32Array; // IndexIntoStrings or -1
  value: Float64Array; // NaN when absent
  peer: Int32Array; // IndexIntoThreads: previous monitor owner / notifier, or -1
  offset: Float64Array; // absolute byte offset of the event in the file
  length: number;
}

/** `events.stack` of an event whose chunk was cut before its constant pools: its stack was never written. */
export const STACK_LOST = -2;

export interface RecordingError {
  message: string;
  chunk: number;
  offset: number;
}

export interface RecordingInfo {
  /** The times' zero: wall-clock ms since the Unix epoch, the first chunk's start to within half a µs, never after it (engine/layout.ts originOf). */
  startMs: number;
  /** To the chunk headers' end; to the data's end when the recording is damaged and the data ends sooner. */
  durationMs: number;
  /** Where the decoded rows end (wall-clock ms), null with none. */
  dataEndMs: number | null;
  /** Rows whose stack was lost (STACK_LOST): their chunk was cut before its constant pools. */
  stacksLost: number;
  chunks: number;
  fileSize: number;
  jvm: { name: string; version: string; args: string; flags: string } | null;
  os: string | null;
  cpu: string | null;
  settings: { type: string; name: string; value: string }[];
  properties: { key: string; value: string }[];
  /** JVM flags from the jdk.*Flag events (jdk.BooleanFlag, jdk.IntFlag…): name, value, origin. */
  flags: { name: string; value: string; origin: string }[];
  /** Per chunk, in file order: byte offset and size, start (wall-clock ms) and duration (ms). */
  chunkList: { offset: number; size: number; startMs: number; durationMs: number }[];
  errors: RecordingError[];
  /** Samples and waiting threads per second over the whole recording; null when not counted. */
  shape?: RecordingShape | null;
}

export interface Profile {
  strings: string[];
  threads: ThreadTable;
  frames: FrameTable;
  stacks: StackTable;
  events: EventTable;
  eventTypes: EventTypeInfo[];
  info: RecordingInfo;
  /** The same data as Arrow tables (strings dictionary-encoded). */
  arrow: { threads: Table; frames: Table; stacks: Table; events: Table };
}
