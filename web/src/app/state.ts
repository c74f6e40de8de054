/**
 * All view state in one plain, serialisable object, changed only by the reducer. The URL is a
 * function of it (url.ts) and back/forward walk it.
 */

export type ActiveView = 'flame' | 'sandwich' | 'stack' | 'methods' | 'subjects' | 'threads' | 'locks' | 'findings' | 'latency' | 'compare' | 'events' | 'sql' | 'recording' | 'nativemem';

export interface ViewState {
  /** Event type name whose events the flame graph and tables show. */
  eventType: string;
  threadFilter: string;
  stackFilter: string;
  excludeFilter: string;
  /** Regex on the event's subject: monitor class, file path or host, allocated or parked-on class. */
  subjectFilter: string;
  /** Regex on span tags (profiler.Span): keep events inside a matching span of their thread. */
  spanFilter: string;
  /** Rows of the subjects table for lock waits and parks: by class or by object instance. */
  subjectBy: 'class' | 'instance';
  /** Thread state to keep ('' = all). */
  threadState: string;
  /** Selected time range, ms since the recording's start. */
  range: [number, number] | null;
  /** Visible window of the timeline (zoom), ms; null = whole recording. */
  viewport: [number, number] | null;
  /** Baseline range for the comparison view; null = everything outside the selection. */
  baseline: [number, number] | null;
  /** With another recording open to compare with: its range, ms since its start; null = all of it. */
  otherRange: [number, number] | null;
  hiddenThreads: string[];
  groupThreads: boolean;
  /** The virtual threads' group lane is open (each virtual thread its own lane). */
  virtualOpen: boolean;
  sortLanes: 'name' | 'samples';
  /** The method chosen (flame graph, tables, stack chart): the sandwich's root. */
  selectedMethod: string | null;
  /** Order of the top-methods table (and what the comparison ranks by). */
  methodSort: 'total' | 'self';
  /** The comparison as a table of methods or as a flame graph coloured by change. */
  compareAs: 'table' | 'flame';
  inverted: boolean;
  /** Times read as the clock (UTC) showed them, not as time since the recording's start. */
  clock: boolean;
  /** How the activity histogram weighs: events, wait time, threads waiting, or by kind ('auto'). */
  activity: 'auto' | 'count' | 'duration' | 'threads';
  /** Layers of the lanes the user turned off: 'samples' and wait kinds (waits.ts). */
  hiddenLayers: string[];
  /** Threads whose lanes stay on top (a lock's holder, when its burst is chosen); the stack chart's threads. */
  pinnedThreads: string[];
  /** Keep only events whose duration lies in [min, max] ms (a box on the latency heatmap). */
  durationFilter: [number, number] | null;
  search: string;
  view: ActiveView;
  /** The event type the events table shows ('' = the Event menu's type); any type, with a stack or not. */
  tableType: string;
  /** The SQL view's query text. */
  sql: string;
}

export const initialState: ViewState = {
  eventType: '',
  threadFilter: '',
  stackFilter: '',
  excludeFilter: '',
  subjectFilter: '',
  spanFilter: '',
  subjectBy: 'class',
  threadState: '',
  range: null,
  viewport: null,
  baseline: null,
  otherRange: null,
  hiddenThreads: [],
  groupThreads: false,
  virtualOpen: false,
  sortLanes: 'samples',
  selectedMethod: null,
  methodSort: 'total',
  compareAs: 'table',
  inverted: false,
  clock: false,
  activity: 'auto',
  hiddenLayers: [],
  pinnedThreads: [],
  durationFilter: null,
  search: '',
  view: 'flame',
  tableType: '',
  sql: '',
};

export type Action =
  | { type: 'set'; patch: Partial<ViewState> }
  | { type: 'replace'; state: ViewState }
  | { type: 'toggleHidden'; thread: string }
  | { type: 'hideThreads'; threads: string[] }
  | { type: 'showThreads'; threads: string[] };

export function reducer(state: ViewState, action: Action): ViewState {
  switch (action.type) {
    case 'set':
      return { ...state, ...action.patch };
    case 'replace':
      return action.state;
    case 'toggleHidden': {
      const hidden = state.hiddenThreads.includes(action.thread)
        ? state.hiddenThreads.filter((t) => t !== action.thread)
        : [...state.hiddenThreads, action.thread];
      return { ...state, hiddenThreads: hidden };
    }
    case 'hideThreads': {
      // (Sets: a group lane of unnamed virtual threads hides each of its thousands by its label.)
      const had = new Set(state.hiddenThreads);
      const add = [...new Set(action.threads)].filter((t) => !had.has(t));
      return add.length ? { ...state, hiddenThreads: [...state.hiddenThreads, ...add] } : state;
    }
    case 'showThreads': {
      const drop = new Set(action.threads);
      const keep = state.hiddenThreads.filter((t) => !drop.has(t));
      return keep.length !== state.hiddenThreads.length ? { ...state, hiddenThreads: keep } : state;
    }
  }
}
