/**
 * The page: open a recording (drop, picker, example, ?url=), then the timeline, the filters and
 * the views of the selection. View state lives in one reducer; the URL mirrors it.
 *
 *   URL ─ stateFromUrl ─ reducer state ─ useDerived (profile-logic) ─ components ─ pixels
 *                 ▲                           │
 *                 └──── urlFromState ◀────────┘ (pushState; back/forward dispatch 'replace')
 */
import { useCallback, useDeferredValue, useEffect, useLayoutEffect, useMemo, useReducer, useRef, useState } from 'react';
import exampleUrl from '../../../fixtures/example.jfr?url';
import { CancelledError, closeRecording, fileEnds, loadRecording, loadRecordingFromUrl, loadTypes, warmUp, type LoadHandle } from '../engine';
import { formatClock, formatCount, formatPercent, formatWeight } from '../profile-logic/format';
import { nextSpike } from '../profile-logic/histogram';
import type { Profile } from '../profile-logic/profile';
import { EventPanel } from '../components/EventPanel';
import { ExportButton } from '../components/ExportButton';
import { FlameGraph } from '../components/FlameGraph';
import { RecordingPanel } from '../components/RecordingPanel';
import { CompareView } from '../components/Compare';
import { MethodsTable, SubjectsTable, ThreadTimeTable } from '../components/Tables';
import { Timeline } from '../components/Timeline';
import { FRAME_COLOR, FRAME_KIND_NAME, KIND_COLOR, KIND_LIGHT, THEME } from '../components/colors';
import type { WeightMode } from '../profile-logic/filters';
import { defaultEventType, eventChoices, useComparison, useDerived, useSubjects, useThreadTimes, type Derived } from './derive';
import { fingerprint } from './fingerprint';
import { initialState, reducer, type Action, type ActiveView, type ViewState } from './state';
import { stateFromUrl, urlFromState } from './url';
import { UpdatePrompt } from './UpdatePrompt';

interface Loaded {
  profile: Profile;
  name: string;
  fingerprint: string;
  url?: string;
  /** Deferred types that could not be decoded (past the page's row limit), and why. */
  failed?: Record<string, string>;
}

const KIND_LABEL: Record<string, string> = {
  cpu: 'CPU',
  native: 'Native',
  wall: 'Wall clock',
  lock: 'Lock',
  park: 'Park',
  sleep: 'Sleep',
  io: 'I/O',
  alloc: 'Allocation',
  other: 'Other',
};

export function App() {
  const initial = useMemo(() => stateFromUrl(window.location.search), []);
  const [state, dispatch] = useReducer(reducer, initial.state);
  const [loaded, setLoaded] = useState<Loaded | null>(null);
  const [progress, setProgress] = useState<{ done: number; total: number; what?: string } | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [notices, setNotices] = useState<string[]>(initial.notices);
  const [selectedEvent, setSelectedEvent] = useState<number | null>(null);
  const [dragOver, setDragOver] = useState(false);
  const handle = useRef<LoadHandle | null>(null);
  const [requested, setRequested] = useState<string[]>([]);
  const linkFingerprint = useRef(initial.extras.fingerprint);
  // The type the view shows is decoded in the first round, whatever its size.
  const eventTypeRef = useRef(state.eventType);
  eventTypeRef.current = state.eventType;
  const want = () => (eventTypeRef.current ? [eventTypeRef.current] : []);
  const loadedRef = useRef<Loaded | null>(null);
  loadedRef.current = loaded;

  const open = useCallback((start: () => LoadHandle, name: string, url?: string) => {
    handle.current?.cancel();
    setRequested([]);
    setError(null);
    setSelectedEvent(null);
    setProgress({ done: 0, total: 1 });
    const h = start();
    handle.current = h;
    h.promise.then(
      async (profile) => {
        if (handle.current !== h) return;
        const ends = fileEnds(profile);
        const fp = ends ? await fingerprint(ends.size, ends.head, ends.tail) : '';
        if (loadedRef.current) closeRecording(loadedRef.current.profile);
        setProgress(null);
        setLoaded({ profile, name, fingerprint: fp, url });
        if (profile.info.errors.length) {
          setError(`The recording is damaged; showing what could be read. ${profile.info.errors.map((e) => e.message).join(' · ')}`);
        }
        if (linkFingerprint.current && fp && linkFingerprint.current !== fp) {
          setNotices((n) => [...n, 'This link was made for a different recording; its view was applied anyway.']);
        }
        linkFingerprint.current = undefined;
      },
      (e: unknown) => {
        if (e instanceof CancelledError || handle.current !== h) return;
        setProgress(null);
        setError(e instanceof Error ? e.message : String(e));
      },
    );
  }, []);

  const openFile = useCallback(
    (f: File) => open(() => loadRecording(f, f.name, (done, total) => setProgress({ done, total }), want()), f.name),
    [open],
  );
  const openUrl = useCallback(
    (url: string, name: string, share = true) =>
      open(() => loadRecordingFromUrl(url, (done, total) => setProgress({ done, total }), want()), name, share ? url : undefined),
    [open],
  );

  // Decoding workers start (and compile the wasm) while the page waits for a file.
  useEffect(() => {
    const id = setTimeout(warmUp, 200);
    return () => clearTimeout(id);
  }, []);

  // ?url= opens a recording with no drop at all.
  useEffect(() => {
    if (initial.extras.url) openUrl(initial.extras.url, initial.extras.url.split('/').pop() || 'recording');
  }, [initial, openUrl]);

  // Files handed over by the OS to the installed app.
  useEffect(() => {
    const lq = (window as unknown as { launchQueue?: { setConsumer(f: (p: { files: { getFile(): Promise<File> }[] }) => void): void } }).launchQueue;
    lq?.setConsumer(async (params) => {
      if (params.files.length) openFile(await params.files[0].getFile());
    });
  }, [openFile]);

  // Drop anywhere on the page.
  useEffect(() => {
    const over = (e: DragEvent) => {
      e.preventDefault();
      setDragOver(true);
    };
    const leave = (e: DragEvent) => {
      if (e.relatedTarget === null) setDragOver(false);
    };
    const drop = (e: DragEvent) => {
      e.preventDefault();
      setDragOver(false);
      const f = e.dataTransfer?.files?.[0];
      if (f) openFile(f);
    };
    window.addEventListener('dragover', over);
    window.addEventListener('dragleave', leave);
    window.addEventListener('drop', drop);
    return () => {
      window.removeEventListener('dragover', over);
      window.removeEventListener('dragleave', leave);
      window.removeEventListener('drop', drop);
    };
  }, [openFile]);

  // Default event type once a recording is in.
  useEffect(() => {
    if (!loaded) return;
    const names = loaded.profile.eventTypes.map((t) => t.name);
    if (!state.eventType || !names.includes(state.eventType)) dispatch({ type: 'set', patch: { eventType: defaultEventType(loaded.profile) } });
  }, [loaded, state.eventType]);

  // Types whose rows were deferred (too many for the first round) are decoded when one is picked
  // or when the timeline's "Decode" asks for them.
  useEffect(() => {
    const l = loaded;
    const todo = l?.profile.eventTypes.filter((x) => x.deferred && !l.failed?.[x.name] && (x.name === state.eventType || requested.includes(x.name))) ?? [];
    if (!l || todo.length === 0) return;
    let live = true;
    const n = todo.reduce((a, t) => a + t.count, 0);
    const what = `Decoding ${formatCount(n)} ${todo.length === 1 ? todo[0].name : 'more'} events…`;
    setProgress({ done: 0, total: 1, what });
    loadTypes(l.profile, todo.map((t) => t.name), (done, total) => live && setProgress({ done, total, what })).then(
      (profile) => {
        if (!live) return;
        setProgress(null);
        setLoaded((cur) => (cur === l ? { ...l, profile } : cur));
      },
      (e: unknown) => {
        if (!live || e instanceof CancelledError) return;
        setProgress(null);
        const why = e instanceof Error ? e.message : String(e);
        setError(`Could not decode ${todo.map((t) => t.name).join(', ')}: ${why}`);
        // Not tried again while this recording is open; the view says why instead of waiting.
        setLoaded((cur) => (cur === l ? { ...l, failed: { ...l.failed, ...Object.fromEntries(todo.map((t) => [t.name, why])) } } : cur));
      },
    );
    return () => {
      live = false;
    };
  }, [loaded, state.eventType, requested]);

  // The URL follows the state; back and forward walk it.
  const lastPush = useRef(0);
  useEffect(() => {
    if (!loaded) return;
    const next = urlFromState(state, { url: loaded.url, fingerprint: loaded.fingerprint });
    if (next === window.location.search) return;
    const now = performance.now();
    if (now - lastPush.current < 800) window.history.replaceState(null, '', next);
    else window.history.pushState(null, '', next);
    lastPush.current = now;
  }, [state, loaded]);
  useEffect(() => {
    const onPop = () => {
      const p = stateFromUrl(window.location.search);
      lastPush.current = 0;
      dispatch({ type: 'replace', state: p.state });
    };
    window.addEventListener('popstate', onPop);
    return () => window.removeEventListener('popstate', onPop);
  }, []);

  return (
    <div className={`app${dragOver ? ' drag-over' : ''}`}>
      <header className="top">
        <h1>jfrscope</h1>
        <label className="button">
          Open recording
          <input
            type="file"
            aria-label="Open recording"
            accept=".jfr,.gz,application/octet-stream"
            onChange={(e) => {
              const f = e.currentTarget.files?.[0];
              if (f) openFile(f);
              e.currentTarget.value = '';
            }}
          />
        </label>
        <button type="button" onClick={() => openUrl(exampleUrl, 'example.jfr', false)}>
          Open example
        </button>
        {loaded && <span className="file-name">{loaded.name}</span>}
        {loaded && <CopyLink />}
      </header>
      <UpdatePrompt />
      {progress && (
        <div className="progress">
          <progress aria-label="Loading" max={progress.total} value={progress.done} />
          {progress.what && <span>{progress.what}</span>}
          <span>{progress.total > 1 ? formatPercent(progress.done, progress.total) : 'reading…'}</span>
        </div>
      )}
      {error && (
        <div role="alert" className="error">
          {error}
        </div>
      )}
      {notices.length > 0 && (
        <div className="notice" role="note">
          {notices.map((n, k) => (
            <div key={k}>{n}</div>
          ))}
          <button type="button" onClick={() => setNotices([])}>
            Dismiss
          </button>
        </div>
      )}
      {loaded ? (
        <Workspace
          key={loaded.fingerprint + loaded.name}
          loaded={loaded}
          state={state}
          dispatch={dispatch}
          selectedEvent={selectedEvent}
          setSelectedEvent={setSelectedEvent}
          requested={requested}
          onDecode={setRequested}
        />
      ) : (
        !progress && (
          <main className="welcome">
            <h2>Java Flight Recorder, in the browser</h2>
            <p>Drop a recording (.jfr or .jfr.gz) anywhere on this page, open one, or try the example.</p>
            <p>The recording is decoded in your browser; nothing of it leaves your machine.</p>
            <dl className="keys">
              <dt>Select a time range</dt>
              <dd>drag on the activity histogram or the lanes</dd>
              <dt>Zoom</dt>
              <dd>wheel over the histogram, ctrl+wheel over the lanes, or + and − with the timeline focused</dd>
              <dt>Pan</dt>
              <dd>drag the time axis, shift+drag, shift+wheel, or ← →</dd>
              <dt>Keys</dt>
              <dd>0 whole recording · Enter select the visible window · ] and [ next and previous spike of matching events · Esc clear the selection</dd>
              <dt>Threads</dt>
              <dd>right-click a lane name to hide it, or use the Threads menu</dd>
              <dt>Details</dt>
              <dd>click a sample or a bar for its full stack and fields; click a frame to zoom the flame graph</dd>
            </dl>
          </main>
        )
      )}
    </div>
  );
}

function CopyLink() {
  const [copied, setCopied] = useState(false);
  return (
    <button
      type="button"
      onClick={() => {
        void navigator.clipboard?.writeText(window.location.href).then(() => {
          setCopied(true);
          setTimeout(() => setCopied(false), 1500);
        });
      }}
    >
      {copied ? 'Link copied' : 'Copy link'}
    </button>
  );
}

interface WorkspaceProps {
  loaded: Loaded;
  state: ViewState;
  dispatch: React.Dispatch<Action>;
  selectedEvent: number | null;
  setSelectedEvent: (i: number | null) => void;
  /** Deferred types asked for with the timeline's button (decoding, or decoded). */
  requested: string[];
  /** Decode these deferred types. */
  onDecode: (types: string[]) => void;
}

/** What an event type's subject is, as its filter, table tab and column name it. */
const SUBJECT: Record<string, { label: string; what: string; tab: string; column: string }> = {
  lock: { label: 'Monitor', what: 'monitor class', tab: 'Monitors', column: 'Monitor class' },
  park: { label: 'Parked on', what: 'the class parked on', tab: 'Parked on', column: 'Parked on (class)' },
  io: { label: 'File or host', what: 'path or host:port', tab: 'Files & hosts', column: 'File or host' },
  alloc: { label: 'Allocated class', what: 'allocated class', tab: 'Classes', column: 'Allocated class' },
  gc: { label: 'Collector', what: 'GC name', tab: 'Collectors', column: 'Collector' },
  other: { label: 'Subject', what: 'subject', tab: 'Subjects', column: 'Subject' },
};

/** How the status line names the selected type's events. */
const KIND_NOUN: Record<string, string> = {
  cpu: 'CPU samples',
  native: 'native samples',
  wall: 'wall-clock samples',
  lock: 'lock waits',
  park: 'parks',
  sleep: 'sleeps',
  io: 'I/O events',
  alloc: 'allocation samples',
};

function Workspace({ loaded, state, dispatch, selectedEvent, setSelectedEvent, requested, onDecode }: WorkspaceProps) {
  const { profile } = loaded;
  // Inputs follow every keystroke at once; the selectors run on a deferred copy of the state, so
  // on a huge recording a burst of typing recomputes once, for the latest text.
  const deferred = useDeferredValue(state);
  const stale = deferred !== state;
  const d = useDerived(profile, deferred);
  // For bench/browser.mjs: when a recording's (or a decoded type's) view is first on screen.
  useEffect(() => {
    requestAnimationFrame(() => performance.mark('jfrscope:shown'));
  }, [profile]);
  const comparison = useComparison(profile, deferred, d, state.view === 'compare');
  const subjects = useSubjects(profile, deferred, d, state.view === 'subjects');
  const threadTimes = useThreadTimes(profile, deferred, d, state.view === 'threads');
  // Another view opens at its top, not where the last one was scrolled to (a layout effect, so
  // the flame graph's own scroll to its root, a passive effect, comes after it).
  const viewBody = useRef<HTMLDivElement>(null);
  useLayoutEffect(() => {
    viewBody.current?.scrollTo(0, 0);
  }, [state.view]);
  const choices = useMemo(() => eventChoices(profile), [profile]);
  // Deferred types not being decoded already (the picked one is, and those asked for).
  const waiting = profile.eventTypes.filter((t) => t.deferred && t.name !== state.eventType && !requested.includes(t.name) && !loaded.failed?.[t.name]);
  const waitingCount = waiting.reduce((a, t) => a + t.count, 0);
  const set = (patch: Partial<ViewState>) => dispatch({ type: 'set', patch });
  const goSpike = (dir: 1 | -1) => {
    const r = nextSpike(d.spikes, state.range, dir);
    if (r) set({ range: r });
  };
  const type = profile.eventTypes[d.typeIndex];
  const selected = d.selectedCount;
  const noun = type ? (KIND_NOUN[type.kind] ?? `${type.label} events`) : '';
  const notDecoded = type?.deferred ? loaded.failed?.[type.name] : undefined;
  const status = type?.deferred
    ? notDecoded
      ? `${formatCount(type.count)} ${noun}, not decoded: more than this page can hold`
      : `Decoding ${formatCount(type.count)} ${noun}…`
    : type
    ? `${formatCount(selected)} of ${formatCount(d.typeTotal)} ${noun} selected` +
      ` · ${WEIGHT_LABEL[d.weightMode]}${formatWeight(d.totalWeight, d.weightMode)}` +
      (deferred.range
        ? deferred.clock
          ? ` · range ${formatClock(profile.info.startMs + deferred.range[0], 10)}–${formatClock(profile.info.startMs + deferred.range[1], 10)} UTC`
          : ` · range ${(deferred.range[0] / 1000).toFixed(2)}–${(deferred.range[1] / 1000).toFixed(2)} s`
        : '')
    : 'This recording has no events with stacks.';
  const input = (label: string, key: 'threadFilter' | 'stackFilter' | 'excludeFilter' | 'subjectFilter', bad: string | null, placeholder: string) => (
    <label className={`field${bad ? ' invalid' : ''}`} title={bad ?? undefined}>
      <span>{label}</span>
      <input
        type="search"
        aria-label={label}
        aria-invalid={bad !== null}
        placeholder={placeholder}
        value={state[key]}
        spellCheck={false}
        autoComplete="off"
        onChange={(e) => set({ [key]: e.currentTarget.value } as Partial<ViewState>)}
      />
    </label>
  );
  const regexError = (k: 'thread' | 'stack' | 'exclude' | 'subject') => {
    const r = d.regex[k];
    return r.ok ? null : r.error;
  };
  const subject = SUBJECT[type?.kind ?? ''] ?? SUBJECT.other;
  const views: [ActiveView, string][] = [
    ['flame', 'Flame graph'],
    ['methods', 'Top methods'],
    ...(d.hasSubjects ? [['subjects', subject.tab] as [ActiveView, string]] : []),
    ['threads', 'Thread time'],
    ['compare', 'Compare'],
    ['recording', 'Recording'],
  ];
  const gcCount = d.gc.length;
  const kindsPresent = useMemo(() => [...new Set(d.intervals.types.map((t) => profile.eventTypes[t].kind))].sort(), [d.intervals, profile]);
  return (
    <main className="workspace">
      <section className="filters" aria-label="Filters">
        <label className="field">
          <span>Event</span>
          <select aria-label="Event" value={state.eventType || type?.name || ''} onChange={(e) => set({ eventType: e.currentTarget.value, selectedMethod: null, threadState: '' })}>
            {choices.map((i) => {
              const t = profile.eventTypes[i];
              return (
                <option key={t.name} value={t.name}>
                  {KIND_LABEL[t.kind] ?? t.kind} – {t.name} ({formatCount(t.count)}{t.deferred ? ', decoded when picked' : ''})
                </option>
              );
            })}
          </select>
        </label>
        {input('Thread filter', 'threadFilter', regexError('thread'), 'regex on thread name')}
        {input('Stack filter', 'stackFilter', regexError('stack'), 'regex: keep stacks with a frame…')}
        {input('Exclude stacks', 'excludeFilter', regexError('exclude'), 'regex: drop stacks with a frame…')}
        {(d.hasSubjects || state.subjectFilter !== '') && input(`${subject.label} filter`, 'subjectFilter', regexError('subject'), `regex on ${subject.what}`)}
        {d.states.length > 0 && (
          <label className="field">
            <span>Thread state</span>
            <select aria-label="Thread state" value={state.threadState} onChange={(e) => set({ threadState: e.currentTarget.value })}>
              <option value="">all</option>
              {d.states.map((s) => (
                <option key={s} value={s}>
                  {s.replace(/^STATE_/, '').toLowerCase()}
                </option>
              ))}
            </select>
          </label>
        )}
        <ThreadsMenu profile={profile} derived={d} state={state} dispatch={dispatch} />
        <label className="field">
          <span>Lanes</span>
          <select aria-label="Lane order" value={state.sortLanes} onChange={(e) => set({ sortLanes: e.currentTarget.value as 'name' | 'samples' })}>
            <option value="samples">by matching events</option>
            <option value="name">by name</option>
          </select>
        </label>
        <label className="check">
          <input type="checkbox" checked={state.groupThreads} onChange={(e) => set({ groupThreads: e.currentTarget.checked })} />
          Group by name
        </label>
        {(['thread', 'stack', 'exclude', 'subject'] as const).map((k) => {
          const err = regexError(k);
          return err === null ? null : (
            <span key={k} className="regex-error">
              {k}: {err}
            </span>
          );
        })}
      </section>
      <div className="statusbar">
        <div role="status" className={`status${stale ? ' stale' : ''}`} aria-live="polite" aria-busy={stale}>
          {status}
        </div>
        <div className="tools" aria-label="Timeline tools">
          {state.range && (
            <>
              <button type="button" onClick={() => set({ viewport: state.range })}>
                Zoom to selection
              </button>
              <button type="button" onClick={() => set({ range: null })}>
                Clear selection
              </button>
              <button type="button" onClick={() => set({ baseline: state.range, range: null })} title="Compare later selections against this range">
                Use as baseline
              </button>
            </>
          )}
          {d.spikes.length > 0 && (
            <span className="spike-nav" title="Spikes of matching events: select the previous or next one (also [ and ] on the timeline)">
              <button type="button" aria-label="Previous spike" onClick={() => goSpike(-1)}>
                ◀
              </button>
              <span>{d.spikes.length === 1 ? '1 spike' : `${d.spikes.length} spikes`}</span>
              <button type="button" aria-label="Next spike" onClick={() => goSpike(1)}>
                ▶
              </button>
            </span>
          )}
          <label className="check" title={`Read times as the clock showed them (UTC); the recording started ${new Date(profile.info.startMs).toISOString()}`}>
            <input type="checkbox" checked={state.clock} onChange={(e) => set({ clock: e.currentTarget.checked })} />
            Clock time (UTC)
          </label>
          <ExportButton profile={profile} typeIndex={d.typeIndex} select={d.select} weightMode={d.weightMode} fileName={loaded.name} />
          {state.baseline && (
            <button type="button" onClick={() => set({ baseline: null })}>
              Clear baseline
            </button>
          )}
          {state.viewport && (
            <button type="button" onClick={() => set({ viewport: null })}>
              Zoom out
            </button>
          )}
          <span className="legend" aria-label="Timeline legend">
            <i style={{ background: KIND_COLOR[type?.kind ?? 'cpu'] }} /> matching
            {d.states.length > 1 && (
              <>
                <i style={{ background: KIND_LIGHT[type?.kind ?? 'cpu'] }} /> matching, not running
              </>
            )}
            <i style={{ background: THEME.other }} /> filtered out
            {kindsPresent.map((k) => (
              <span key={k} className="legend-bar">
                <i style={{ background: KIND_COLOR[k as keyof typeof KIND_COLOR] }} /> {KIND_LABEL[k] ?? k}
              </span>
            ))}
            {gcCount > 0 && (
              <>
                <i style={{ background: THEME.gcMark }} /> GC
              </>
            )}
          </span>
          {waiting.length > 0 && (
            <button
              type="button"
              className="decode-rest"
              title={`Not decoded yet (too many rows to decode at once): ${waiting.map((t) => `${t.name} (${formatCount(t.count)})`).join(', ')}`}
              onClick={() => onDecode([...requested, ...waiting.map((t) => t.name)])}
            >
              Decode {formatCount(waitingCount)} more events ({waiting.length === 1 ? waiting[0].name : `${waiting.length} types`})
            </button>
          )}
        </div>
      </div>
      <Timeline profile={profile} derived={d} state={state} dispatch={dispatch} selectedEvent={selectedEvent} onSelectEvent={setSelectedEvent} />
      <div className="lower">
        <div className="views">
          <nav role="tablist" aria-label="Views">
            {views.map(([v, label]) => (
              <button key={v} role="tab" type="button" aria-selected={state.view === v} onClick={() => set({ view: v })}>
                {label}
              </button>
            ))}
            {state.view === 'flame' && (
              <div className="flame-bar">
                <label className="check">
                  <input type="checkbox" checked={state.inverted} onChange={(e) => set({ inverted: e.currentTarget.checked })} />
                  Inverted (callers)
                </label>
                <label className="field inline">
                  <span>Search</span>
                  <input type="search" aria-label="Search frames" placeholder="highlight frames" value={state.search} onChange={(e) => set({ search: e.currentTarget.value })} />
                </label>
                {state.selectedMethod && (
                  <button type="button" className="chip" onClick={() => set({ view: 'methods' })} title="Callers and callees of the method chosen in the flame graph">
                    {state.selectedMethod} · callers &amp; callees →
                  </button>
                )}
                <span className="legend" aria-label="Frame colours">
                  {FRAME_KIND_NAME.map((n, k) => (
                    <span key={n}>
                      <i style={{ background: FRAME_COLOR[k] }} /> {n}
                    </span>
                  ))}
                </span>
              </div>
            )}
          </nav>
          <div className="view-body" ref={viewBody}>
            {type?.deferred && state.view !== 'recording' && (
              <p className="empty">
                {notDecoded ?? `Decoding ${formatCount(type.count)} ${noun}; the ${state.view === 'flame' ? 'flame graph' : 'table'} follows when they are in.`}
              </p>
            )}
            {!type?.deferred && state.view === 'flame' && (
              <FlameGraph
                tree={d.tree}
                mode={d.weightMode}
                inverted={deferred.inverted}
                search={state.search}
                onSelect={(name) => set({ selectedMethod: name })}
              />
            )}
            {!type?.deferred && state.view === 'methods' && <MethodsTable profile={profile} derived={d} state={state} dispatch={dispatch} />}
            {!type?.deferred && state.view === 'subjects' && subjects && (
              <SubjectsTable profile={profile} derived={d} state={deferred} dispatch={dispatch} heading={subject.column} rows={subjects} />
            )}
            {!type?.deferred && state.view === 'threads' && threadTimes && (
              <ThreadTimeTable profile={profile} derived={d} state={deferred} dispatch={dispatch} noun={noun} rows={threadTimes} />
            )}
            {!type?.deferred && state.view === 'compare' && (
              <CompareView profile={profile} comparison={comparison} state={state} dispatch={dispatch} mode={d.weightMode} />
            )}
            {state.view === 'recording' && <RecordingPanel profile={profile} fileName={loaded.name} />}
          </div>
        </div>
        {selectedEvent !== null && selectedEvent < profile.events.length && (
          <EventPanel profile={profile} event={selectedEvent} clock={state.clock} onClose={() => setSelectedEvent(null)} />
        )}
      </div>
    </main>
  );
}

const WEIGHT_LABEL: Record<WeightMode, string> = {
  samples: '',
  bytes: 'allocated ',
  duration: 'wait time ',
  events: '',
};

/** Show or hide threads by name; the keyboard way to what right-clicking a lane label does. */
function ThreadsMenu({ profile, derived, state, dispatch }: { profile: Profile; derived: Derived; state: ViewState; dispatch: React.Dispatch<Action> }) {
  const [query, setQuery] = useState('');
  const threads = useMemo(() => {
    const byName = new Map<string, number>();
    for (let t = 0; t < profile.threads.length; t++) {
      if (derived.index.perThread[t] === 0) continue;
      const name = profile.strings[profile.threads.name[t]];
      byName.set(name, (byName.get(name) ?? 0) + derived.counts.count[t]);
    }
    return [...byName].sort((a, b) => a[0].localeCompare(b[0], 'en', { numeric: true }));
  }, [profile, derived.index, derived.counts]);
  const q = query.toLowerCase();
  const shown = threads.filter(([n]) => n.toLowerCase().includes(q));
  const hidden = new Set(state.hiddenThreads);
  // Threads (among those listed) with no event of the selected type, still shown.
  const empty = shown.filter(([n, count]) => count === 0 && !hidden.has(n)).map(([n]) => n);
  return (
    <details className="menu">
      <summary aria-label="Threads">
        Threads{hidden.size ? ` (${hidden.size} hidden)` : ''}
      </summary>
      <div className="menu-body">
        <input type="search" aria-label="Find thread" placeholder="find thread" value={query} onChange={(e) => setQuery(e.currentTarget.value)} />
        <div className="menu-actions">
          <button type="button" onClick={() => dispatch({ type: 'showThreads', threads: shown.map(([n]) => n) })}>
            Show {q ? 'these' : 'all'}
          </button>
          <button type="button" onClick={() => dispatch({ type: 'hideThreads', threads: shown.map(([n]) => n) })}>
            Hide {q ? 'these' : 'all'}
          </button>
          {empty.length > 0 && (
            <button type="button" title="Hide the threads with no event of the selected type" onClick={() => dispatch({ type: 'hideThreads', threads: empty })}>
              Hide {empty.length} without events
            </button>
          )}
        </div>
        <ul>
          {shown.map(([name, count]) => (
            <li key={name}>
              <label className="check">
                <input type="checkbox" checked={!hidden.has(name)} onChange={() => dispatch({ type: 'toggleHidden', thread: name })} />
                <span className="thread-name">{name}</span>
                <span className="count">{formatCount(count)}</span>
              </label>
            </li>
          ))}
        </ul>
      </div>
    </details>
  );
}

export { initialState };
