/**
 * The page: open a recording (drop, picker, example, ?url=), then the workspace. View state lives
 * in one reducer; the URL mirrors it.
 *
 *   URL ─ stateFromUrl ─ reducer state ─ selectors (profile-logic) ─ components ─ pixels
 *                 ▲                           │
 *                 └──── urlFromState ◀────────┘ (pushState; back/forward dispatch 'replace')
 */
import { useCallback, useEffect, useMemo, useReducer, useState } from 'react';
import exampleUrl from '../../../fixtures/example.jfr?url';
import { KeysSheet } from '../components/KeysSheet';
import { LinkedFile } from '../components/LinkedFile';
import { RemoteRecording } from '../components/RemoteRecording';
import { formatPercent } from '../profile-logic/format';
import { defaultEventType } from '../profile-logic/kinds';
import { reducer } from './state';
import { useThemeSetting, type ThemeSetting } from './theme';
import { stateFromUrl } from './url';
import { UpdatePrompt } from './UpdatePrompt';
import { useDropTarget } from './useDropTarget';
import { otherNeeded, useOtherRecording } from './useOtherRecording';
import { useRecording } from './useRecording';
import { useUrlSync } from './useUrlSync';
import { DayHeatmap } from '../components/DayHeatmap';
import { Workspace } from './Workspace';
import { FilePicker } from '../components/FilePicker';

export function App() {
  const initial = useMemo(() => stateFromUrl(window.location.search), []);
  const [state, dispatch] = useReducer(reducer, initial.state);
  const [selectedEvent, setSelectedEvent] = useState<number | null>(null);
  const { overview, loaded, progress, error, notices, setNotices, requested, setRequested, openFiles, fail, openUrl, remote, dismissRemote, wanted, held, confirmHeld } = useRecording(
    initial.extras,
    [...initial.notices, ...otherNeeded(initial.extras)],
    state.eventType,
    state.viewport,
    () => setSelectedEvent(null),
  );
  const dragOver = useDropTarget(openFiles, fail);
  // The other recording a comparison is made against, beside this one (the Compare view opens it).
  const addNotice = useCallback((n: string) => setNotices((ns) => [...ns, n]), [setNotices]);
  const { other, openOther, clearOther } = useOtherRecording(initial.extras, state.eventType, addNotice);
  const otherNamed = useMemo(
    () => (other.loaded ? { fingerprint: other.loaded.fingerprint, name: other.loaded.name } : other.pending),
    [other.loaded, other.pending],
  );
  const onOther = useMemo(
    () => ({
      onOpenOther: openOther,
      onClearOther: () => {
        clearOther();
        dispatch({ type: 'set', patch: { otherRange: null } });
      },
      onOtherRange: (otherRange: [number, number] | null) => dispatch({ type: 'set', patch: { otherRange } }),
    }),
    [openOther, clearOther],
  );
  useUrlSync(state, loaded, dispatch, otherNamed);

  // "?" anywhere but in a text field opens the sheet of keys.
  const [keysOpen, setKeysOpen] = useState(false);
  useEffect(() => {
    const onKey = (ev: KeyboardEvent) => {
      const t = ev.target as HTMLElement | null;
      if (ev.key !== '?' || ev.ctrlKey || ev.metaKey || ev.altKey) return;
      if (t && (t.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(t.tagName))) return;
      ev.preventDefault();
      setKeysOpen(true);
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);

  // Default event type once a recording is in.
  useEffect(() => {
    if (!loaded) return;
    const names = loaded.profile.eventTypes.map((t) => t.name);
    if (!state.eventType || !names.includes(state.eventType)) dispatch({ type: 'set', patch: { eventType: defaultEventType(loaded.profile) } });
  }, [loaded, state.eventType]);


  return (
    <div className={`app${dragOver ? ' drag-over' : ''}`}>
      <header className="top">
        <h1>jfrscope</h1>
        <FilePicker label="Open recording" onFiles={openFiles} multiple />
        <FilePicker label="Open folder" onFiles={openFiles} folder />
        <button type="button" onClick={() => openUrl(exampleUrl, 'example.jfr', false)}>
          Open example
        </button>
        {loaded && <span className="file-name">{loaded.name}</span>}
        {loaded && <CopyLink />}
        <ThemeSwitch />
        <button type="button" aria-haspopup="dialog" onClick={() => setKeysOpen(true)} title="Keyboard shortcuts (?)">
          Keys
        </button>
      </header>
      {keysOpen && <KeysSheet onClose={() => setKeysOpen(false)} />}
      <UpdatePrompt />
      {progress && (
        <div className="progress">
          <progress aria-label="Loading" max={progress.total} value={progress.done} />
          {progress.what && <span>{progress.what}</span>}
          <span>{progress.total > 1 ? formatPercent(progress.done, progress.total) : 'reading…'}</span>
        </div>
      )}
      {/* While a recording opens (another may be open meanwhile): its overview, from the count pass. */}
      {progress && overview && <DayHeatmap shape={overview.shape} originMs={overview.originMs} counting={!overview.final} />}
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
      {remote && <RemoteRecording host={remote.host} href={remote.href} onCancel={dismissRemote} />}
      {held ? (
        <LinkedFile want={held.want} got={held.got} onFiles={openFiles} onConfirm={confirmHeld} />
      ) : (
        wanted && !loaded && !progress && <LinkedFile want={wanted} got={null} onFiles={openFiles} onConfirm={confirmHeld} />
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
          other={other}
          onOther={onOther}
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
              <dd>0 whole recording · Enter select the visible window · ] and [ next and previous spike of matching events · ↑ ↓ choose a lane, ← → its events, Enter opens one · Esc clear the selection · ? every key</dd>
              <dt>Threads</dt>
              <dd>right-click a lane name (or p and h on the chosen lane) to pin it to the top or hide it, or use the Threads menu</dd>
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

const THEMES: [ThemeSetting, string][] = [
  ['light', 'Light'],
  ['dark', 'Dark'],
  ['system', 'System'],
];

/** Light, dark, or as the system says (kept in localStorage). */
function ThemeSwitch() {
  const [setting, setSetting] = useThemeSetting();
  return (
    <span className="segmented theme-switch" role="radiogroup" aria-label="Theme">
      {THEMES.map(([k, name]) => (
        <button key={k} type="button" role="radio" aria-checked={setting === k} onClick={() => setSetting(k)}>
          {name}
        </button>
      ))}
    </span>
  );
}
