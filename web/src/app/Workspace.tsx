/**
 * The workspace of an open recording: the filter bar, the status bar with the timeline's tools,
 * the timeline, and the views of the selection. It wires the store to the components: state
 * goes down as values, the components' intents come back as actions.
 */
import { lazy, memo, Suspense, useCallback, useDeferredValue, useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react';
import { decodeEventFields, eventFile } from '../engine';
import { formatClock, formatCount, formatMs, formatRange, formatThreads, formatWeight, parseRange } from '../profile-logic/format';
import { threadLabel } from '../profile-logic/names';
import { LONG_RECORDING_MS } from '../profile-logic/day';
import { DayHeatmap } from '../components/DayHeatmap';
import { eventChoices, KINDS, nounOf, WEIGHT_LABEL } from '../profile-logic/kinds';
import { nextSpike } from '../profile-logic/spikes';
import { WAIT_INFO, WAIT_KINDS } from '../profile-logic/waits';
import { Segmented } from '../components/Tables';
import { useBurstDetail, useComparison, useDerived, useFindings, useHeatmap, useLocks, useOtherSide, useSandwich, useStackCharts, useSubjects, useThreadTimes } from '../selectors/derive';
import { SandwichView } from '../components/Sandwich';
import { StackChartView } from '../components/StackChart';
import { HEAT_ROWS, HeatmapView } from '../components/Heatmap';
import { FindingsView } from '../components/Findings';
import { LocksView } from '../components/Locks';
import { NativeMemoryView } from '../components/NativeMemory';
import { hasNativeMemory, nativeMemory } from '../profile-logic/nativemem';
import { CompareView } from '../components/Compare';
import { EventPanel } from '../components/EventPanel';
import { ExportButton } from '../components/ExportButton';
import { EventsView } from '../components/EventsView';
import { useFilteredRows, usePageRows, useTableRows, useTableType } from '../selectors/event-table';
import { useTypeTable } from './useTypeTable';
import { useOverflowStrip } from './useOverflowStrip';
import { tableToParquet } from '../sql/parquet';
import { typeTableErrors } from '../columns/type-table';
import { FlameGraph } from '../components/FlameGraph';
import { RecordingPanel } from '../components/RecordingPanel';
import { MethodsTable, SubjectsTable, ThreadTimeTable } from '../components/Tables';
import { ThreadsMenu } from '../components/ThreadsMenu';
import { SplitHandle, useSplitShare } from '../components/Split';
import { Timeline } from '../components/Timeline';
import { HEAD_H, LANE_H } from '../components/timeline/geometry';
import { FRAME_COLOR, FRAME_KIND_NAME, THEME } from '../components/colors';
import { useThemeName } from '../components/useTheme';
import { examples as sqlExamples } from '../sql/examples';
import { useViewIntents } from './intents';
import { useSql } from './useSql';
import type { Action, ActiveView, ViewState } from './state';
import type { OtherIntents } from '../components/intents';
import { otherFile, type OtherRecording } from './useOtherRecording';
import type { Loaded } from './useRecording';

// The SQL view's component comes with DuckDB, the first time the view opens.
const SqlView = lazy(() => import('../components/SqlView').then((m) => ({ default: m.SqlView })));

/** Types with more events than this have every field decoded only when asked. */
const FULL_AUTO_ROWS = 1_000_000;

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
  /** Another recording to compare with, and opening, ranging and clearing it. */
  other: OtherRecording;
  onOther: OtherIntents;
}

/**
 * The views of an open recording, re-rendered only when their props change: the page's progress
 * ticks (a pick of a deferred type streams dozens while its rows decode) redraw the progress bar
 * alone, not every view and the timeline's canvas, on a thread the decoders share two cores with.
 */
export const Workspace = memo(WorkspaceView);

function WorkspaceView({ loaded, state, dispatch, selectedEvent, setSelectedEvent, requested, onDecode, other, onOther }: WorkspaceProps) {
  const { profile } = loaded;
  const themeName = useThemeName();
  // Inputs follow every keystroke at once; the selectors run on a deferred copy of the state, so
  // on a huge recording a burst of typing recomputes once, for the latest text.
  const deferred = useDeferredValue(state);
  const stale = deferred !== state;
  const toolsRef = useOverflowStrip<HTMLDivElement>();
  const d = useDerived(profile, deferred);
  const on = useViewIntents(dispatch);
  // For bench/browser.mjs: when a recording's (or a decoded type's) view is first on screen.
  useEffect(() => {
    requestAnimationFrame(() => performance.mark('jfrscope:shown'));
  }, [profile]);
  const otherSide = useOtherSide(other.loaded?.profile ?? null, other.loaded?.failed, deferred, d, profile.eventTypes[d.typeIndex]?.name ?? '', state.view === 'compare');
  const comparison = useComparison(profile, deferred, d, state.view === 'compare', otherSide);
  const subjects = useSubjects(profile, deferred, d, state.view === 'subjects');
  const threadTimes = useThreadTimes(profile, deferred, d, state.view === 'threads');
  const locks = useLocks(profile, deferred, d, state.view === 'locks');
  // Native memory: computed once per profile, when its view is open.
  const hasNm = useMemo(() => hasNativeMemory(profile), [profile]);
  const nmOn = state.view === 'nativemem' && hasNm;
  const nm = useMemo(() => (nmOn ? nativeMemory(profile) : null), [profile, nmOn]);
  const burst = useBurstDetail(profile, deferred, d, locks);
  const found = useFindings(profile, deferred, d, state.view === 'findings');
  const tableType = useTableType(profile, deferred, d);
  const tableInfo = profile.eventTypes[tableType];
  const tableOn = state.view === 'events';
  const pageRowsOf = usePageRows(profile, d, tableType, tableOn && !tableInfo?.deferred);
  // Every field of the type, decoded in the workers; the page's columns show meanwhile.
  // Past FULL_AUTO_ROWS events, only when asked (every field of millions of events takes memory).
  const [fullAsked, setFullAsked] = useState<string | null>(null);
  const fullWanted = tableInfo !== undefined && (tableInfo.count <= FULL_AUTO_ROWS || fullAsked === tableInfo.name);
  const full = useTypeTable(profile, tableInfo?.name ?? '', tableOn && fullWanted);
  const tableRows = useTableRows(profile, tableType, tableInfo?.deferred ? null : pageRowsOf, full.table);
  const tableKept = useFilteredRows(profile, deferred, d, tableType, tableRows);
  // A deferred type opened in the table is decoded as the Event menu would decode it (its rows
  // are the page's events, which the timeline draws).
  const tableWaits = tableOn && tableInfo?.deferred && !requested.includes(tableInfo.name) && !loaded.failed?.[tableInfo.name] && tableInfo.name !== state.eventType;
  useEffect(() => {
    if (tableWaits && tableInfo) onDecode([...requested, tableInfo.name]);
  }, [tableWaits, tableInfo, requested, onDecode]);
  const fullErrors = useMemo(() => (full.table ? typeTableErrors(full.table) : []), [full.table]);
  const tableNote = !tableInfo
    ? 'This recording has no events.'
    : full.error
      ? `Could not decode every field of ${tableInfo.name}: ${full.error}${pageRowsOf?.length ? ' (the page’s own columns are shown)' : ''}`
      : full.progress !== null
        ? `Decoding every field of ${formatCount(tableInfo.count)} ${tableInfo.name} events… ${Math.round(full.progress * 100)}%${pageRowsOf?.length && !tableInfo.deferred ? ' (the page’s own columns meanwhile)' : ''}`
        : fullErrors.length
          ? `Some ${tableInfo.name} events could not be read: ${fullErrors[0].message} (chunk ${fullErrors[0].chunk}, offset ${fullErrors[0].offset})${fullErrors.length > 1 ? ` and ${fullErrors.length - 1} more problems` : ''}; the rows read are shown.`
          : tableInfo.deferred && !full.table
            ? (loaded.failed?.[tableInfo.name] ?? `Decoding ${formatCount(tableInfo.count)} ${tableInfo.name} events…`)
            : null;
  const sql = useSql(profile, state.view === 'sql');
  const sqlExampleList = useMemo(() => sqlExamples(profile, state.range), [profile, state.range]);
  // A link's query runs once DuckDB is up (the query is the link's point).
  const sqlRanOnce = useRef(false);
  const { engine: sqlEngine, run: sqlRun } = sql;
  useEffect(() => {
    if (sqlEngine !== 'ready' || sqlRanOnce.current || state.view !== 'sql') return;
    sqlRanOnce.current = true;
    if (state.sql.trim()) sqlRun(state.sql);
  }, [sqlEngine, sqlRun, state.view, state.sql]);
  const sandwich = useSandwich(profile, deferred, d, state.view === 'sandwich');
  const [split, setSplit] = useSplitShare();
  const stackCharts = useStackCharts(profile, deferred, d, selectedEvent, state.view === 'stack');
  const laneThreads = useMemo(() => [...new Set(d.lanes.flatMap((l) => l.threads).map((t) => threadLabel(profile, t)))], [d.lanes, profile]);
  const [heatCols, setHeatCols] = useState(0);
  // The whole recording by minute and second: shown from the start on a long recording.
  const shape = profile.info.shape ?? null;
  const [showDay, setShowDay] = useState(() => profile.info.durationMs > LONG_RECORDING_MS);
  const heat = useHeatmap(profile, deferred, d, heatCols, HEAT_ROWS, state.view === 'latency');
  // Another view opens at its top, not where the last one was scrolled to (a layout effect, so
  // the flame graph's own scroll to its root, a passive effect, comes after it).
  const viewBody = useRef<HTMLDivElement>(null);
  useLayoutEffect(() => {
    viewBody.current?.scrollTo(0, 0);
  }, [state.view]);
  const choices = useMemo(() => eventChoices(profile), [profile]);
  const loadFields = useCallback((event: number) => decodeEventFields(profile, event), [profile]);
  // A recording of several files: the file and byte each event comes from.
  const placeOf = useMemo(
    () =>
      loaded.sources
        ? (event: number) => {
            const at = eventFile(profile, profile.events.offset[event]);
            return at ? `${at.name}, byte ${at.offset.toLocaleString('en-US')}` : null;
          }
        : undefined,
    [loaded.sources, profile],
  );
  // Deferred types not being decoded already (the picked one is, and those asked for).
  const waiting = profile.eventTypes.filter((t) => t.deferred && t.name !== state.eventType && !requested.includes(t.name) && !loaded.failed?.[t.name]);
  const waitingCount = waiting.reduce((a, t) => a + t.count, 0);
  // Types held as a time window (too many rows for the page), said on screen.
  const windowed = profile.eventTypes.filter((t) => t.window);
  const set = (patch: Partial<ViewState>) => dispatch({ type: 'set', patch });
  // async-profiler's spans: events can be kept to those inside spans of a tag.
  const hasSpans = useMemo(() => profile.eventTypes.some((t) => t.kind === 'span' && t.count > 0), [profile]);
  // Virtual threads with events: their lanes go under one group (lanes.ts).
  const virtualThreads = useMemo(() => {
    let n = 0;
    for (let t = 0; t < profile.threads.length; t++) if (profile.threads.virtual?.[t] && d.index.perThread[t] > 0) n++;
    return n;
  }, [profile, d.index]);
  const goSpike = (dir: 1 | -1) => {
    const r = nextSpike(d.spikes, state.range, dir);
    if (r) set({ range: r });
  };
  const type = profile.eventTypes[d.typeIndex];
  const selected = d.selectedCount;
  const noun = nounOf(profile, d.typeIndex);
  const notDecoded = type?.deferred ? loaded.failed?.[type.name] : undefined;
  const clockStart = state.clock ? profile.info.startMs : null;
  const status = type?.deferred
    ? notDecoded
      ? `${formatCount(type.count)} ${noun}, not decoded: more than this page can hold`
      : `Decoding ${formatCount(type.count)} ${noun}…`
    : type
    ? `${formatCount(selected)} of ${formatCount(d.typeTotal)} ${noun} ${d.tracks && deferred.range ? 'in the range' : 'selected'}` +
      ` · ${WEIGHT_LABEL[d.weightMode]}${d.tracks && deferred.range ? 'inside it ' : ''}${formatWeight(d.totalWeight, d.weightMode)}` +
      (d.timeBefore > 0 ? ` (${formatWeight(d.timeBefore, d.weightMode)} before the recording)` : '') +
      (d.waitingInRange !== null && deferred.range ? ` · ${formatThreads(d.waitingInRange)} threads waiting on average` : '') +
      (deferred.range ? ` · range ${formatRange(deferred.range, deferred.clock ? profile.info.startMs : null)}${deferred.clock ? ' UTC' : ' s'}` : '')
    : 'This recording has no events with stacks.';
  const input = (label: string, key: 'threadFilter' | 'stackFilter' | 'excludeFilter' | 'subjectFilter' | 'spanFilter', bad: string | null, placeholder: string) => (
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
        // Enter: done typing, on to the lanes (the timeline's keys).
        onKeyDown={(e) => e.key === 'Enter' && document.querySelector<HTMLElement>('.timeline .lanes')?.focus()}
      />
    </label>
  );
  const regexError = (k: 'thread' | 'stack' | 'exclude' | 'subject' | 'span') => {
    const r = d.regex[k];
    return r.ok ? null : r.error;
  };
  const subject = KINDS[type?.kind ?? 'other'].subject;
  const views: [ActiveView, string][] = [
    ['flame', 'Flame graph'],
    ['sandwich', 'Sandwich'],
    ['stack', 'Stack chart'],
    ['methods', 'Top methods'],
    ...(d.hasSubjects ? [['subjects', subject.tab] as [ActiveView, string]] : []),
    ['threads', 'Thread time'],
    ['locks', 'Locks'],
    ...(hasNm ? [['nativemem', 'Native memory'] as [ActiveView, string]] : []),
    ['findings', 'Findings'],
    ...(d.tracks ? [['latency', 'Latency'] as [ActiveView, string]] : []),
    ['compare', 'Compare'],
    ['events', 'Events table'],
    ['sql', 'SQL'],
    ['recording', 'Recording'],
  ];
  // ← → (Home, End) on a tab open the neighbouring view and move the focus with it.
  const onTabKey = (ev: React.KeyboardEvent<HTMLButtonElement>) => {
    const tabs = [...(ev.currentTarget.parentElement?.querySelectorAll<HTMLButtonElement>('[role="tab"]') ?? [])];
    const at = tabs.indexOf(ev.currentTarget);
    const k = ev.key === 'ArrowRight' ? at + 1 : ev.key === 'ArrowLeft' ? at - 1 : ev.key === 'Home' ? 0 : ev.key === 'End' ? tabs.length - 1 : null;
    if (k === null || !views[(k + views.length) % views.length]) return;
    ev.preventDefault();
    const next = (k + views.length) % views.length;
    set({ view: views[next][0] });
    tabs[next]?.focus();
  };
  // Keys anywhere but in a text field: 1–9 open the views in their tabs' order, / goes to the
  // stack filter, t to the lanes.
  const viewsRef = useRef(views);
  viewsRef.current = views;
  useEffect(() => {
    const onKey = (ev: KeyboardEvent) => {
      const t = ev.target as HTMLElement | null;
      if (ev.defaultPrevented || ev.ctrlKey || ev.metaKey || ev.altKey) return;
      // Text is typed into fields (a file input, a checkbox or a button takes no text).
      const typing = t && (t.isContentEditable || /^(TEXTAREA|SELECT)$/.test(t.tagName) || (t instanceof HTMLInputElement && !/^(file|checkbox|radio|button|submit|reset|range|color)$/.test(t.type)));
      if (typing || t?.closest('[role="dialog"], [role="menu"]')) return;
      if (/^[1-9]$/.test(ev.key)) {
        const v = viewsRef.current[Number(ev.key) - 1];
        if (!v) return;
        ev.preventDefault();
        dispatch({ type: 'set', patch: { view: v[0] } });
      } else if (ev.key === '/') {
        ev.preventDefault();
        document.querySelector<HTMLInputElement>('input[aria-label="Stack filter"]')?.focus();
      } else if (ev.key === 't' || ev.key === 'T') {
        ev.preventDefault();
        document.querySelector<HTMLElement>('.timeline .lanes')?.focus();
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [dispatch]);
  const gcCount = d.gc.length;
  const kindsPresent = useMemo(() => WAIT_KINDS.filter((k) => d.waits[k].some((tr) => tr.length > 0)), [d.waits]);
  const toggleLayer = (layer: string) =>
    set({ hiddenLayers: state.hiddenLayers.includes(layer) ? state.hiddenLayers.filter((l) => l !== layer) : [...state.hiddenLayers, layer] });
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
                  {KINDS[t.kind].label} – {t.name} ({formatCount(t.count)}{t.deferred ? ', decoded when picked' : ''})
                </option>
              );
            })}
          </select>
        </label>
        {input('Thread filter', 'threadFilter', regexError('thread'), 'regex on thread name')}
        {input('Stack filter', 'stackFilter', regexError('stack'), 'regex: keep stacks with a frame…')}
        {input('Exclude stacks', 'excludeFilter', regexError('exclude'), 'regex: drop stacks with a frame…')}
        {(d.hasSubjects || state.subjectFilter !== '') && input(`${subject.label} filter`, 'subjectFilter', regexError('subject'), `regex on ${subject.what}`)}
        {(hasSpans || state.spanFilter !== '') && input('Within spans', 'spanFilter', regexError('span'), 'regex on span tags')}
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
        <ThreadsMenu
          profile={profile}
          derived={d}
          hiddenThreads={state.hiddenThreads}
          onToggle={(thread) => dispatch({ type: 'toggleHidden', thread })}
          onHide={(threads) => dispatch({ type: 'hideThreads', threads })}
          onShow={(threads) => dispatch({ type: 'showThreads', threads })}
        />
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
        {virtualThreads > 0 && (
          <button type="button" aria-expanded={state.virtualOpen} title="The virtual threads' lanes: one group lane, or each virtual thread its own lane under it" onClick={() => set({ virtualOpen: !state.virtualOpen })}>
            {state.virtualOpen ? '▾' : '▸'} Virtual threads ({virtualThreads})
          </button>
        )}
        {(['thread', 'stack', 'exclude', 'subject', 'span'] as const).map((k) => {
          const err = regexError(k);
          return err === null ? null : (
            <span key={k} className="regex-error">
              {k}: {err}
            </span>
          );
        })}
      </section>
      <div className="statusbar">
        <div role="status" className={`status${stale ? ' stale' : ''}`} aria-live="polite" aria-busy={stale} title={status}>
          {status}
        </div>
        <div className="tools" aria-label="Timeline tools" ref={toolsRef}>
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
          {/* What is set (zoom, baseline, durations, types left to decode) first: the line scrolls sideways when full. */}
          {state.viewport && (
            <button type="button" onClick={() => set({ viewport: null })}>
              Zoom out
            </button>
          )}
          {state.baseline && (
            <button type="button" onClick={() => set({ baseline: null })}>
              Clear baseline
            </button>
          )}
          {state.durationFilter && (
            <button type="button" className="chip" title="Only events with these durations are kept (from the latency heatmap)" onClick={() => set({ durationFilter: null })}>
              durations {formatMs(state.durationFilter[0])}–{formatMs(state.durationFilter[1])} ✕
            </button>
          )}
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
          {shape && (
            <button type="button" aria-pressed={showDay} title="The whole recording by minute and second: samples or waiting threads per second" onClick={() => setShowDay(!showDay)}>
              Overview
            </button>
          )}
          <RangeInput range={state.range} clock={clockStart} onRange={(range) => set({ range })} />
          {d.tracks && (
            <Segmented
              label="Activity"
              value={d.activityWeight}
              options={[
                ['count', 'Events'],
                ['duration', 'Wait time'],
                ['threads', 'Threads waiting'],
              ]}
              onChange={(activity) => set({ activity })}
            />
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
          <ExportButton profile={profile} typeIndex={d.typeIndex} select={d.select} weightMode={d.weightMode} fileName={loaded.name} tree={d.tree} title={`${loaded.name} · ${type?.name ?? ''}${deferred.inverted ? ' (inverted)' : ''}${deferred.range ? ` · ${formatRange(deferred.range, null)} s` : ''}`} />
          <span className="legend" aria-label="Timeline legend">
            <i style={{ background: KINDS[type?.kind ?? 'cpu'].color }} /> matching
            {d.states.length > 1 && (
              <>
                <i style={{ background: KINDS[type?.kind ?? 'cpu'].light }} /> matching, not running
              </>
            )}
            <i style={{ background: THEME(themeName).other }} /> filtered out
            <span className="layers" role="group" aria-label="Layers">
              <button type="button" className="layer" aria-pressed={!state.hiddenLayers.includes('samples')} title="Show or hide the samples' ticks on the lanes" onClick={() => toggleLayer('samples')}>
                <i style={{ background: KINDS[d.laneTicks.kind].color }} /> {d.laneTicks.selected ? noun : KINDS[d.laneTicks.kind].noun}
              </button>
              {kindsPresent.map((k) => (
                <button key={k} type="button" className="layer" aria-pressed={!state.hiddenLayers.includes(k)} title={`${WAIT_INFO[k].title}: show or hide on the lanes and in the strip of threads waiting`} onClick={() => toggleLayer(k)}>
                  <i style={{ background: WAIT_INFO[k].color }} /> {WAIT_INFO[k].label}
                </button>
              ))}
            </span>
            {gcCount > 0 && (
              <>
                <i style={{ background: THEME(themeName).gcMark }} /> GC
              </>
            )}
          </span>
        </div>
      </div>
      {windowed.map((t) => (
        <p key={t.name} className="hint window-note" role="note" aria-label="Decoded window">
          {t.name}: {formatCount(t.window!.rows)} of {formatCount(t.count)} events decoded, {formatClock(profile.info.startMs + t.window!.fromMs)}–
          {formatClock(profile.info.startMs + t.window!.toMs)} UTC (more would pass the rows this page holds); zoom in to decode another window.
        </p>
      ))}
      {shape && showDay && <DayHeatmap shape={shape} originMs={profile.info.startMs} range={state.range} onSelect={(r) => set({ range: r, viewport: r })} />}
      <Timeline
        profile={profile}
        derived={d}
        range={state.range}
        viewport={state.viewport}
        baseline={state.baseline}
        clock={state.clock}
        hiddenLayers={state.hiddenLayers}
        selectedEvent={selectedEvent}
        onSelectEvent={setSelectedEvent}
        onSelectRange={(range) => set({ range })}
        onViewport={(viewport) => set({ viewport })}
        onHideThreads={(threads) => dispatch({ type: 'hideThreads', threads })}
        pinned={state.pinnedThreads}
        onPin={(names, pin) => set({ pinnedThreads: pin ? [...state.pinnedThreads, ...names.filter((n) => !state.pinnedThreads.includes(n))] : state.pinnedThreads.filter((n) => !names.includes(n)) })}
        onToggleVirtual={() => set({ virtualOpen: !state.virtualOpen })}
        onStepSpike={goSpike}
        share={split}
      />
      <SplitHandle share={split} onShare={setSplit} minTop={HEAD_H + 2 * LANE_H} minBottom={120} step={LANE_H} />
      <div className="lower" style={{ flexGrow: 1 - split }}>
        <div className="views">
          <nav aria-label="Views">
            <div role="tablist" aria-label="Views" className="tabs">
              {views.map(([v, label]) => (
                <button key={v} role="tab" type="button" aria-selected={state.view === v} onClick={() => set({ view: v })} onKeyDown={onTabKey}>
                  {label}
                </button>
              ))}
            </div>
            {(state.view === 'flame' || state.view === 'sandwich') && (
              <div className="flame-bar">
                {state.view === 'flame' && (
                  <label className="check">
                    <input type="checkbox" checked={state.inverted} onChange={(e) => set({ inverted: e.currentTarget.checked })} />
                    Inverted (callers)
                  </label>
                )}
                <label className="field inline">
                  <span>Search</span>
                  <input type="search" aria-label="Search frames" placeholder="highlight frames" value={state.search} onChange={(e) => set({ search: e.currentTarget.value })} />
                </label>
                {state.selectedMethod && state.view === 'flame' && (
                  <button type="button" className="chip" onClick={() => set({ view: 'sandwich' })} title="Callers and callees of the method chosen in the flame graph, as flame graphs (S on a focused frame)">
                    {state.selectedMethod} · callers &amp; callees →
                  </button>
                )}
                <span className="hint keys-hint">Focus the graph: ↑ ↓ ← → walk, Enter zooms, S the sandwich</span>
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
          <div className="view-body" ref={viewBody} tabIndex={0} role="region" aria-label="View">
            {type?.deferred && state.view !== 'recording' && state.view !== 'events' && (
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
                onSandwich={on.onSandwich}
              />
            )}
            {!type?.deferred && state.view === 'stack' && stackCharts && (
              <StackChartView
                profile={profile}
                charts={stackCharts}
                selectedMethod={state.selectedMethod}
                lanes={laneThreads}
                pinned={state.pinnedThreads}
                onPin={(pinnedThreads) => set({ pinnedThreads })}
                onSelectMethod={(selectedMethod) => set({ selectedMethod })}
                onSelectRange={(range) => set({ range })}
              />
            )}
            {!type?.deferred && state.view === 'sandwich' && (
              <SandwichView sandwich={sandwich} mode={d.weightMode} search={state.search} top={d.methods} names={profile.strings} onSandwich={on.onSandwich} />
            )}
            {!type?.deferred && state.view === 'methods' && <MethodsTable profile={profile} derived={d} state={state} on={on} />}
            {!type?.deferred && state.view === 'subjects' && subjects && (
              <SubjectsTable profile={profile} derived={d} state={deferred} on={on} heading={subject.column} rows={subjects} />
            )}
            {!type?.deferred && state.view === 'latency' && (
              <HeatmapView
                heat={heat}
                noun={noun}
                clock={state.clock ? profile.info.startMs : null}
                durationFilter={state.durationFilter}
                onColumns={setHeatCols}
                onSelect={(range, durationFilter) => set({ range, durationFilter })}
                onClearDurations={() => set({ durationFilter: null })}
              />
            )}
            {state.view === 'findings' && found && (
              <FindingsView
                findings={found}
                ranged={deferred.range !== null}
                onShow={(f) => set({ view: f.view, ...(f.range ? { range: f.range } : {}), ...(f.pin ? { pinnedThreads: [f.pin] } : {}) })}
              />
            )}
            {state.view === 'nativemem' && nm && (
              <NativeMemoryView profile={profile} nm={nm} viewport={state.viewport} range={state.range} clock={state.clock ? profile.info.startMs : null} search={state.search} />
            )}
            {state.view === 'locks' && locks && (
              <LocksView
                profile={profile}
                rows={locks}
                detail={burst}
                clock={state.clock ? profile.info.startMs : null}
                search={state.search}
                onSelectBurst={(range, holder) => set({ range, pinnedThreads: holder ? [holder] : [] })}
                onSandwich={on.onSandwich}
              />
            )}
            {!type?.deferred && state.view === 'threads' && threadTimes && (
              <ThreadTimeTable profile={profile} derived={d} state={deferred} on={on} noun={noun} rows={threadTimes} />
            )}
            {!type?.deferred && state.view === 'compare' && (
              <CompareView
                comparison={comparison}
                state={state}
                on={on}
                mode={d.weightMode}
                otherSide={otherSide}
                onOther={onOther}
                other={{
                  name: other.loaded?.name ?? null,
                  durationMs: other.loaded?.profile.info.durationMs ?? 0,
                  range: state.otherRange,
                  busy: other.progress ? { what: other.progress.what ?? 'Reading the other recording…', done: other.progress.total > 1 ? other.progress.done / other.progress.total : null } : null,
                  error: other.error,
                  wanted: other.pending ? otherFile(other.pending) : null,
                }}
              />
            )}
            {state.view === 'events' && (
              <EventsView
                profile={profile}
                typeIndex={tableType}
                rows={tableRows}
                kept={tableKept}
                note={tableNote}
                clock={clockStart}
                range={deferred.range}
                viewport={state.viewport}
                selectedEvent={selectedEvent}
                fileName={loaded.name}
                onType={(name) => set({ tableType: name })}
                onSelectEvent={setSelectedEvent}
                toParquet={tableToParquet}
                onDecodeFields={fullWanted || !tableInfo ? undefined : () => setFullAsked(tableInfo.name)}
              />
            )}
            {state.view === 'sql' && (
              <Suspense fallback={<p className="empty">Loading the SQL view…</p>}>
                <SqlView
                  sql={state.sql}
                  onSql={(text) => set({ sql: text })}
                  engine={sql.engine}
                  schema={sql.schema}
                  examples={sqlExampleList}
                  result={sql.result}
                  error={sql.error}
                  running={sql.running}
                  loadingFields={sql.loadingFields}
                  onRun={() => sql.run(state.sql)}
                  onCancel={sql.cancel}
                  onLoadFields={sql.loadFields}
                  onRow={(link) => {
                    if (link.event !== null && link.event < profile.events.length) setSelectedEvent(link.event);
                    const patch: Partial<ViewState> = {};
                    if (link.range) {
                      // A point (an instant event, a start alone) is selected as a millisecond around it.
                      const r: [number, number] = link.range[1] > link.range[0] ? link.range : [link.range[0] - 0.5, link.range[0] + 0.5];
                      patch.range = r;
                      if (state.viewport && (r[0] < state.viewport[0] || r[1] > state.viewport[1])) patch.viewport = null;
                    }
                    // The thread the row names; an unnamed one (its name '') by its event's thread's label.
                    const th = link.event !== null && link.event < profile.events.length ? profile.events.thread[link.event] : -1;
                    if (link.thread) patch.pinnedThreads = [link.thread];
                    else if (link.thread === '' && th >= 0) patch.pinnedThreads = [threadLabel(profile, th)];
                    if (Object.keys(patch).length) set(patch);
                  }}
                />
              </Suspense>
            )}
            {state.view === 'recording' && <RecordingPanel profile={profile} fileName={loaded.name} sources={loaded.sources} onOpenTable={(name) => set({ view: 'events', tableType: name })} />}
          </div>
        </div>
        {selectedEvent !== null && selectedEvent < profile.events.length && (
          <EventPanel profile={profile} event={selectedEvent} clock={state.clock} loadFields={loadFields} placeOf={placeOf} onClose={() => setSelectedEvent(null)} />
        )}
      </div>
    </main>
  );
}

/** The selected range as text, and a typed range (seconds from the start, or clock times) read on Enter. */
function RangeInput({ range, clock, onRange }: { range: [number, number] | null; clock: number | null; onRange: (r: [number, number] | null) => void }) {
  const shown = range ? formatRange(range, clock) : '';
  const [text, setText] = useState(shown);
  const [bad, setBad] = useState(false);
  // The selection changed elsewhere (a drag, a spike): show it.
  useEffect(() => {
    setText(shown);
    setBad(false);
  }, [shown]);
  const apply = () => {
    if (text.trim() === '') return onRange(null);
    const r = parseRange(text, clock);
    setBad(r === null);
    if (r) onRange(r);
  };
  return (
    <label className={`field inline${bad ? ' invalid' : ''}`} title={clock === null ? 'Seconds from the start, e.g. 4.2-4.9; Enter selects' : 'Clock times (UTC), e.g. 14:03:20.5-14:03:21, or seconds from the start; Enter selects'}>
      <span>Range</span>
      <input
        type="text"
        aria-label="Selected range"
        aria-invalid={bad}
        placeholder={clock === null ? 'e.g. 4.2-4.9 s' : 'e.g. 14:03:20-14:03:21'}
        value={text}
        size={clock === null ? 12 : 22}
        spellCheck={false}
        onChange={(e) => setText(e.currentTarget.value)}
        onKeyDown={(e) => {
          if (e.key === 'Enter') apply();
          if (e.key === 'Escape') setText(shown);
        }}
        onBlur={() => setText(shown)}
      />
    </label>
  );
}
