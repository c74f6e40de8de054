/**
 * The page: open a recording (drop, picker, example, ?url=), then the timeline, the filters and
 * the views of the selection. View state lives in one reducer; the URL mirrors it.
 *
 *   URL ─ stateFromUrl ─ reducer state ─ useDerived (profile-logic) ─ components ─ pixels
 *                 ▲                           │
 *                 └──── urlFromState ◀────────┘ (pushState; back/forward dispatch 'replace')
 */
import { useCallback, useEffect, useMemo, useReducer, useRef, useState } from 'react';
import exampleUrl from '../../../fixtures/example.jfr?url';
import { CancelledError, fileBytes, loadRecording, loadRecordingFromUrl, type LoadHandle } from '../engine';
import { formatCount, formatPercent, formatWeight } from '../profile-logic/format';
import type { Profile } from '../profile-logic/profile';
import { EventPanel } from '../components/EventPanel';
import { FlameGraph } from '../components/FlameGraph';
import { RecordingPanel } from '../components/RecordingPanel';
import { CompareTable, MethodsTable } from '../components/Tables';
import { Timeline } from '../components/Timeline';
import { defaultEventType, eventChoices, useComparison, useDerived } from './derive';
import { fingerprint } from './fingerprint';
import { initialState, reducer, type ActiveView, type ViewState } from './state';
import { stateFromUrl, urlFromState } from './url';
import { UpdatePrompt } from './UpdatePrompt';

interface Loaded {
  profile: Profile;
  name: string;
  fingerprint: string;
  url?: string;
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
  const [progress, setProgress] = useState<{ done: number; total: number } | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [notices, setNotices] = useState<string[]>(initial.notices);
  const [selectedEvent, setSelectedEvent] = useState<number | null>(null);
  const [dragOver, setDragOver] = useState(false);
  const handle = useRef<LoadHandle | null>(null);
  const linkFingerprint = useRef(initial.extras.fingerprint);

  const open = useCallback((start: () => LoadHandle, name: string, url?: string) => {
    handle.current?.cancel();
    setError(null);
    setSelectedEvent(null);
    setProgress({ done: 0, total: 1 });
    const h = start();
    handle.current = h;
    h.promise.then(
      async (profile) => {
        if (handle.current !== h) return;
        const bytes = fileBytes(profile);
        const fp = bytes ? await fingerprint(bytes) : '';
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
    (f: File) => open(() => loadRecording(f, f.name, (done, total) => setProgress({ done, total })), f.name),
    [open],
  );
  const openUrl = useCallback(
    (url: string, name: string, share = true) =>
      open(() => loadRecordingFromUrl(url, (done, total) => setProgress({ done, total })), name, share ? url : undefined),
    [open],
  );

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
        />
      ) : (
        !progress && (
          <main className="welcome">
            <p>Drop a Java Flight Recorder file (.jfr or .jfr.gz) anywhere on this page, open one, or try the example.</p>
            <p>The recording is decoded in your browser; nothing of it leaves your machine.</p>
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
  dispatch: React.Dispatch<import('./state').Action>;
  selectedEvent: number | null;
  setSelectedEvent: (i: number | null) => void;
}

function Workspace({ loaded, state, dispatch, selectedEvent, setSelectedEvent }: WorkspaceProps) {
  const { profile } = loaded;
  const d = useDerived(profile, state);
  const rises = useComparison(profile, state, d);
  const choices = useMemo(() => eventChoices(profile), [profile]);
  const set = (patch: Partial<ViewState>) => dispatch({ type: 'set', patch });
  const type = profile.eventTypes[d.typeIndex];
  const selected = d.selection.length;
  const status = type
    ? `${formatCount(selected)} of ${formatCount(d.typeTotal)} ${type.label} events selected` +
      ` · ${formatWeight(d.totalWeight, d.weightMode)}` +
      (state.range ? ` · range ${(state.range[0] / 1000).toFixed(2)}–${(state.range[1] / 1000).toFixed(2)} s` : '')
    : 'This recording has no events with stacks.';
  const input = (label: string, key: 'threadFilter' | 'stackFilter' | 'excludeFilter', bad: boolean, placeholder: string) => (
    <label className={`field${bad ? ' invalid' : ''}`}>
      <span>{label}</span>
      <input
        type="search"
        aria-label={label}
        aria-invalid={bad}
        placeholder={placeholder}
        value={state[key]}
        spellCheck={false}
        onChange={(e) => set({ [key]: e.currentTarget.value } as Partial<ViewState>)}
      />
    </label>
  );
  const views: [ActiveView, string][] = [
    ['flame', 'Flame graph'],
    ['methods', 'Top methods'],
    ['compare', 'Compare'],
    ['recording', 'Recording'],
  ];
  return (
    <main className="workspace">
      <section className="filters" aria-label="Filters">
        <label className="field">
          <span>Event</span>
          <select aria-label="Event" value={type?.name ?? ''} onChange={(e) => set({ eventType: e.currentTarget.value, selectedMethod: null })}>
            {choices.map((i) => {
              const t = profile.eventTypes[i];
              return (
                <option key={t.name} value={t.name}>
                  {KIND_LABEL[t.kind] ?? t.kind} – {t.name} ({formatCount(t.count)})
                </option>
              );
            })}
          </select>
        </label>
        {input('Thread filter', 'threadFilter', !d.regex.thread.ok, 'regex, e.g. search-worker')}
        {input('Stack filter', 'stackFilter', !d.regex.stack.ok, 'regex, e.g. NativeThreadSet')}
        {input('Exclude stacks', 'excludeFilter', !d.regex.exclude.ok, 'regex')}
        {d.states.length > 0 && (
          <label className="field">
            <span>Thread state</span>
            <select aria-label="Thread state" value={state.threadState} onChange={(e) => set({ threadState: e.currentTarget.value })}>
              <option value="">all</option>
              {d.states.map((s) => (
                <option key={s} value={s}>
                  {s}
                </option>
              ))}
            </select>
          </label>
        )}
        <label className="field">
          <span>Lanes</span>
          <select aria-label="Lane order" value={state.sortLanes} onChange={(e) => set({ sortLanes: e.currentTarget.value as 'name' | 'samples' })}>
            <option value="name">by name</option>
            <option value="samples">by matching events</option>
          </select>
        </label>
        <label className="check">
          <input type="checkbox" checked={state.groupThreads} onChange={(e) => set({ groupThreads: e.currentTarget.checked })} />
          Group threads by name
        </label>
        {state.hiddenThreads.length > 0 && (
          <button type="button" onClick={() => set({ hiddenThreads: [] })}>
            Show {state.hiddenThreads.length} hidden thread{state.hiddenThreads.length > 1 ? 's' : ''}
          </button>
        )}
        {state.range && (
          <button type="button" onClick={() => set({ range: null })}>
            Clear selection
          </button>
        )}
        {state.range && (
          <button type="button" onClick={() => set({ baseline: state.range, range: null })} title="Use the selected range as the comparison baseline">
            Use as baseline
          </button>
        )}
        {state.viewport && (
          <button type="button" onClick={() => set({ viewport: null })}>
            Zoom out
          </button>
        )}
        {(['thread', 'stack', 'exclude'] as const).map((k) => {
          const r = d.regex[k];
          return r.ok ? null : (
            <span key={k} className="regex-error">
              {k}: {r.error}
            </span>
          );
        })}
      </section>
      <div role="status" className="status" aria-live="polite">
        {status}
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
          </nav>
          {state.view === 'flame' && (
            <div>
              <div className="flame-bar">
                <label className="check">
                  <input type="checkbox" checked={state.inverted} onChange={(e) => set({ inverted: e.currentTarget.checked })} />
                  Inverted (callers)
                </label>
                <label className="field inline">
                  <span>Search</span>
                  <input type="search" aria-label="Search frames" value={state.search} onChange={(e) => set({ search: e.currentTarget.value })} />
                </label>
                <span className="legend">
                  <i style={{ background: '#50e150' }} /> Java <i style={{ background: '#50cccc' }} /> inlined <i style={{ background: '#e15a5a' }} /> native{' '}
                  <i style={{ background: '#c8c83c' }} /> C++ <i style={{ background: '#e17d00' }} /> kernel
                </span>
              </div>
              <FlameGraph tree={d.tree} mode={d.weightMode} inverted={state.inverted} search={state.search} onSelect={(name) => set({ selectedMethod: name })} />
            </div>
          )}
          {state.view === 'methods' && <MethodsTable profile={profile} derived={d} state={state} dispatch={dispatch} />}
          {state.view === 'compare' && <CompareTable profile={profile} rises={rises} state={state} />}
          {state.view === 'recording' && <RecordingPanel profile={profile} fileName={loaded.name} />}
        </div>
        {selectedEvent !== null && selectedEvent < profile.events.length && (
          <EventPanel profile={profile} event={selectedEvent} onClose={() => setSelectedEvent(null)} />
        )}
      </div>
    </main>
  );
}

export { initialState };
