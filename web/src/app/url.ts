/**
 * View state ⇄ URL query. Two pure functions and a version number with one upgrader per
 * version, so links made today still open after the format changes. Unknown keys are ignored;
 * malformed values are dropped with a notice, never thrown.
 *
 *   ?v=3&event=jdk.ExecutionSample&stack=NativeThreadSet&range=4000-5000&hide=a&hide=b&view=flame
 *     &fp=281405-0123456789abcdef&file=example.jfr&start=2026-11-23T14:03:20.125Z&url=…
 *
 * A link made on a recording from the user's disk names it (`file`, the size in `fp`, `start`),
 * so whoever opens the link knows which file to give it, and a wrong file is told apart.
 *   ?v=2&…&view=sandwich&method=java.io.DataInputStream.skipBytes     (the sandwich of a method)
 *   ?v=2&…&view=stack&pin=search-worker-3                              (the stack chart of pinned lanes)
 *
 * A `url` is a recording to open: `recordingSource` tells the page's own files (opened at once)
 * from another site's (named to the user, never fetched: the page's policy is connect-src 'self').
 */
import { ROW_LABEL } from '../profile-logic/names';
import { initialState, type ActiveView, type ViewState } from './state';

export const URL_VERSION = 3;

/** Keys that are not view state but travel with it. */
export interface UrlExtras {
  /** Recording to fetch (`?url=`). */
  url?: string;
  /** Fingerprint of the recording the view belongs to: `<size>-<hash>`. */
  fingerprint?: string;
  /** That recording's file name (`file`) and start, ms since the Unix epoch (`start`, ISO 8601 UTC). */
  fileName?: string;
  startMs?: number;
  /** The other recording compared with (`fp2`, `file2`): its fingerprint and file name. */
  otherFingerprint?: string;
  otherName?: string;
}

const VIEWS: ActiveView[] = ['flame', 'sandwich', 'stack', 'methods', 'subjects', 'threads', 'locks', 'findings', 'latency', 'compare', 'events', 'sql', 'recording', 'nativemem'];

function rangeToText(r: [number, number] | null): string | null {
  return r ? `${+r[0].toFixed(3)}-${+r[1].toFixed(3)}` : null;
}

function rangeFromText(s: string): [number, number] | null {
  const m = /^(-?\d+(?:\.\d+)?)-(-?\d+(?:\.\d+)?)$/.exec(s);
  if (!m) return null;
  const a = Number(m[1]);
  const b = Number(m[2]);
  return isFinite(a) && isFinite(b) && a <= b ? [a, b] : null;
}

export function urlFromState(state: ViewState, extras: UrlExtras = {}): string {
  const q = new URLSearchParams();
  q.set('v', String(URL_VERSION));
  if (extras.url) q.set('url', extras.url);
  if (extras.fingerprint) q.set('fp', extras.fingerprint);
  if (extras.otherFingerprint) q.set('fp2', extras.otherFingerprint);
  if (extras.fileName) q.set('file', extras.fileName);
  if (extras.startMs !== undefined && Number.isFinite(extras.startMs)) q.set('start', new Date(extras.startMs).toISOString());
  if (extras.otherName) q.set('file2', extras.otherName);
  const put = (k: string, v: string | null | undefined, def?: string) => {
    if (v !== null && v !== undefined && v !== '' && v !== def) q.set(k, v);
  };
  put('event', state.eventType);
  put('thread', state.threadFilter);
  put('stack', state.stackFilter);
  put('exclude', state.excludeFilter);
  put('subject', state.subjectFilter);
  put('span', state.spanFilter);
  put('subjby', state.subjectBy, 'class');
  put('state', state.threadState);
  put('range', rangeToText(state.range));
  put('zoom', rangeToText(state.viewport));
  put('base', rangeToText(state.baseline));
  put('range2', rangeToText(state.otherRange));
  put('dur', rangeToText(state.durationFilter));
  // One `hide` per thread: a name may hold any character, a newline or a comma too.
  for (const t of state.hiddenThreads) if (!ROW_LABEL.test(t)) q.append('hide', t);
  if (state.groupThreads) q.set('group', '1');
  if (state.virtualOpen) q.set('vt', 'open');
  put('sort', state.sortLanes, 'samples');
  put('method', state.selectedMethod);
  put('msort', state.methodSort, 'total');
  put('cmp', state.compareAs, 'table');
  if (state.inverted) q.set('inverted', '1');
  if (state.clock) q.set('clock', '1');
  put('act', state.activity, 'auto');
  if (state.hiddenLayers.length) q.set('layers', state.hiddenLayers.join(','));
  for (const t of state.pinnedThreads) if (!ROW_LABEL.test(t)) q.append('pin', t);
  put('search', state.search);
  put('view', state.view, 'flame');
  put('table', state.tableType);
  put('sql', state.sql);
  return `?${q.toString()}`;
}

export interface Parsed {
  state: ViewState;
  extras: UrlExtras;
  notices: string[];
}

/** Upgraders: each turns the query of version N into version N+1. */
const upgraders: Record<number, (q: URLSearchParams) => void> = {
  // 0 (links without a version, from before versions existed): `filter` was the stack filter.
  0: (q) => {
    const f = q.get('filter');
    if (f !== null && !q.has('stack')) q.set('stack', f);
    q.delete('filter');
  },
  // 1: hidden threads were one `hide` joined by newlines; now one `hide` each.
  1: (q) => {
    const hide = q.get('hide');
    q.delete('hide');
    for (const t of hide?.split('\n') ?? []) q.append('hide', t);
  },
  // 2: the other recording's file name was `name2`; now `file2`, beside the recording's own `file`.
  2: (q) => {
    const name2 = q.get('name2');
    q.delete('name2');
    if (name2 !== null && !q.has('file2')) q.set('file2', name2);
  },
};

export function stateFromUrl(search: string): Parsed {
  const q = new URLSearchParams(search);
  const notices: string[] = [];
  let v = q.has('v') ? Number(q.get('v')) : q.toString() === '' ? URL_VERSION : 0;
  if (!Number.isInteger(v) || v < 0) {
    notices.push(`Unknown link version “${q.get('v')}”; reading it as version ${URL_VERSION}.`);
    v = URL_VERSION;
  }
  if (v > URL_VERSION) notices.push(`This link was made by a newer jfrscope (version ${v}); some settings may be ignored.`);
  for (let n = v; n < URL_VERSION; n++) upgraders[n]?.(q);

  const s: ViewState = { ...initialState, hiddenThreads: [] };
  const str = (k: string) => q.get(k) ?? '';
  s.eventType = str('event');
  s.threadFilter = str('thread');
  s.stackFilter = str('stack');
  s.excludeFilter = str('exclude');
  s.subjectFilter = str('subject');
  s.spanFilter = str('span');
  const subjby = q.get('subjby');
  if (subjby === 'class' || subjby === 'instance') s.subjectBy = subjby;
  else if (subjby !== null) notices.push(`Ignored an unknown subject grouping “${subjby}”.`);
  s.threadState = str('state');
  s.search = str('search');
  for (const [k, field] of [['range', 'range'], ['zoom', 'viewport'], ['base', 'baseline'], ['range2', 'otherRange'], ['dur', 'durationFilter']] as const) {
    const t = q.get(k);
    if (t === null) continue;
    const r = rangeFromText(t);
    if (r) s[field] = r;
    else notices.push(`Ignored a malformed ${k} “${t}”.`);
  }
  s.hiddenThreads = q.getAll('hide').filter((x) => x.length > 0);
  s.groupThreads = q.get('group') === '1';
  s.virtualOpen = q.get('vt') === 'open';
  const sort = q.get('sort');
  if (sort === 'samples' || sort === 'name') s.sortLanes = sort;
  else if (sort !== null) notices.push(`Ignored an unknown lane order “${sort}”.`);
  s.selectedMethod = q.get('method');
  const msort = q.get('msort');
  if (msort === 'self' || msort === 'total') s.methodSort = msort;
  else if (msort !== null) notices.push(`Ignored an unknown method order “${msort}”.`);
  const cmp = q.get('cmp');
  if (cmp === 'table' || cmp === 'flame') s.compareAs = cmp;
  else if (cmp !== null) notices.push(`Ignored an unknown comparison view “${cmp}”.`);
  s.inverted = q.get('inverted') === '1';
  s.clock = q.get('clock') === '1';
  const act = q.get('act');
  if (act === 'auto' || act === 'count' || act === 'duration' || act === 'threads') s.activity = act;
  else if (act !== null) notices.push(`Ignored an unknown activity weight “${act}”.`);
  const layers = q.get('layers');
  if (layers) s.hiddenLayers = layers.split(',').filter((x) => /^[a-z]+$/.test(x));
  s.pinnedThreads = q.getAll('pin').filter((x) => x.length > 0);
  const view = q.get('view');
  if (view !== null) {
    if ((VIEWS as string[]).includes(view)) s.view = view as ActiveView;
    else notices.push(`Ignored an unknown view “${view}”.`);
  }
  s.tableType = str('table');
  s.sql = str('sql');
  const extras: UrlExtras = {};
  const url = q.get('url');
  if (url) {
    if (recordingSource(url, 'http://page.invalid/').kind !== 'refused') extras.url = url;
    else notices.push(`Ignored a recording URL that is not http(s): “${url}”.`);
  }
  const fp = q.get('fp');
  if (fp) {
    if (/^\d+-[0-9a-f]{8,64}$/.test(fp)) {
      extras.fingerprint = fp;
      const file = q.get('file');
      if (file) extras.fileName = file;
      const start = q.get('start');
      // ISO 8601 in UTC, as urlFromState writes it; anything else is dropped.
      const ms = start && /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$/.test(start) ? Date.parse(start) : NaN;
      if (Number.isFinite(ms)) extras.startMs = ms;
      else if (start) notices.push(`Ignored a malformed recording start “${start}”.`);
    } else notices.push('Ignored a malformed recording fingerprint.');
  }
  const fp2 = q.get('fp2');
  if (fp2) {
    if (/^\d+-[0-9a-f]{8,64}$/.test(fp2)) {
      extras.otherFingerprint = fp2;
      const file2 = q.get('file2');
      if (file2) extras.otherName = file2;
    } else notices.push('Ignored a malformed fingerprint of the other recording.');
  }
  return { state: s, extras, notices };
}

/**
 * Where a link's recording lives, read as the browser will read it: resolved against the page
 * (`new URL(value, pageHref)`), so `//other.host/x.jfr` and `/\\other.host/x.jfr` are seen to
 * name another host, as they are, not a path on this one. Only http(s).
 */
export type RecordingSource =
  | { kind: 'same-origin'; href: string }
  | { kind: 'other-origin'; href: string; host: string }
  | { kind: 'refused' };

export function recordingSource(value: string, pageHref: string): RecordingSource {
  let u: URL;
  try {
    u = new URL(value, pageHref);
  } catch {
    return { kind: 'refused' };
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') return { kind: 'refused' };
  if (u.origin === new URL(pageHref).origin) return { kind: 'same-origin', href: u.href };
  return { kind: 'other-origin', href: u.href, host: u.host };
}
