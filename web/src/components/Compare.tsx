/**
 * What changed in the selection against a baseline (the rest of the recording, a range set
 * aside, or another recording opened beside it, in its own range): a table of methods with both sides' counts, shares, the change and its p-value, or the
 * selection's flame graph with each frame coloured by its method's row (compare.ts measures both).
 * Too few events on a side: a sentence saying so, no numbers.
 */
import { useMemo, useState } from 'react';
import { direction, formatP, MIN_EVENTS, sortRises, type Change, type Measure, type Rise, type RiseKey, type Totals } from '../profile-logic/compare';
import { formatCount, formatRange, formatWeight, parseRange } from '../profile-logic/format';
import type { WeightMode } from '../profile-logic/kinds';
import type { Comparison, OtherSide } from '../selectors/derive';
import type { OtherIntents, OtherValues, ViewIntents, ViewValues } from './intents';
import { FlameGraph } from './FlameGraph';
import { Segmented } from './Tables';
import { RowCap } from './RowCap';
import { FilePicker } from './FilePicker';

interface Props {
  comparison: Comparison | null;
  state: ViewValues;
  on: ViewIntents;
  mode: WeightMode;
  other: OtherValues;
  /** The other recording's side (null while none is open). */
  otherSide: OtherSide | null;
  onOther: OtherIntents;
}

type Level = '0.05' | '0.01' | '0.001';

const pct = (x: number) => `${(x * 100).toFixed(1)}%`;
const points = (x: number) => `${x > 0 ? '+' : ''}${(x * 100).toFixed(1)} pt`;

/** Counts are whole; other weights keep their unit. */
const countLike = (mode: WeightMode) => mode === 'samples' || mode === 'events';
const noun = (mode: WeightMode) => (mode === 'samples' ? 'samples' : 'events');

/** "3 samples", or "12 events (4.1 MiB)" when the weight is not a count. */
function holds(weight: number, events: number, mode: WeightMode): string {
  return countLike(mode) ? formatWeight(weight, mode) : `${formatCount(events)} events (${formatWeight(weight, mode)})`;
}

export function CompareView(props: Props) {
  return (
    <div>
      <OtherBar other={props.other} on={props.onOther} />
      <Comparing {...props} />
    </div>
  );
}

/** Open another recording as the baseline, its range, and back to comparing within this one. */
function OtherBar({ other, on }: { other: OtherValues; on: OtherIntents }) {
  return (
    <div className="view-bar other-bar" aria-label="Other recording">
      <FilePicker label="Compare with another recording" onFiles={(files) => on.onOpenOther(files[0])} />
      {other.name !== null && (
        <>
          <span className="file-name" title="The baseline: this recording's selection is compared with it">
            against {other.name}
          </span>
          <OtherRangeInput range={other.range} durationMs={other.durationMs} onRange={on.onOtherRange} />
        </>
      )}
      {other.name === null && other.wanted && <span className="hint">The link compared with {other.wanted}: open it to see that comparison.</span>}
      {(other.name !== null || other.busy || other.wanted) && (
        <button type="button" onClick={on.onClearOther}>
          Clear other recording
        </button>
      )}
      {other.busy && (
        <span className="hint" role="progressbar" aria-label={other.busy.what} aria-valuenow={other.busy.done === null ? undefined : Math.round(other.busy.done * 100)}>
          {other.busy.what}
          {other.busy.done !== null && other.busy.done > 0 ? ` ${Math.round(other.busy.done * 100)}%` : ''}
        </span>
      )}
      {other.error && (
        <span className="regex-error" role="alert">
          {other.error}
        </span>
      )}
    </div>
  );
}

/** The other recording's range in seconds from its start, read on Enter; empty is all of it. */
function OtherRangeInput({ range, durationMs, onRange }: { range: [number, number] | null; durationMs: number; onRange: (r: [number, number] | null) => void }) {
  const shown = range ? formatRange(range, null) : '';
  const [text, setText] = useState(shown);
  const [seen, setSeen] = useState(shown);
  const [bad, setBad] = useState(false);
  // The range changed elsewhere (a link, back or forward): show it.
  if (seen !== shown) {
    setSeen(shown);
    setText(shown);
    setBad(false);
  }
  const apply = () => {
    if (text.trim() === '') return onRange(null);
    const r = parseRange(text, null);
    setBad(r === null);
    if (r) onRange(r);
  };
  return (
    <label className={`field inline${bad ? ' invalid' : ''}`} title={`Seconds from the other recording's start (it lasts ${formatRange([0, durationMs], null)} s); empty for all of it; Enter applies`}>
      <span>Baseline range</span>
      <input
        type="text"
        aria-label="Baseline range"
        aria-invalid={bad}
        placeholder={`all: ${formatRange([0, durationMs], null)} s`}
        value={text}
        size={14}
        spellCheck={false}
        onChange={(e) => setText(e.currentTarget.value)}
        onKeyDown={(e) => {
          if (e.key === 'Enter') apply();
          if (e.key === 'Escape') setText(shown);
        }}
      />
    </label>
  );
}

function Comparing({ comparison, state, on, mode, other, otherSide }: Props) {
  const [level, setLevel] = useState<Level>('0.01');
  if (otherSide?.kind === 'missing') {
    return (
      <p className="hint needs-more">
        {other.name} has no {otherSide.type} events: there is nothing to compare this recording’s with. Pick an event type both recordings hold, or
        open another recording.
      </p>
    );
  }
  if (otherSide?.kind === 'deferred') {
    return <p className="hint">{otherSide.failed ?? `Decoding ${formatCount(otherSide.count)} ${otherSide.type} events of ${other.name}; the comparison follows.`}</p>;
  }
  if (!comparison) {
    return (
      <p className="hint">
        Select a time range on the timeline (drag) to compare it with the rest of the recording, or with a baseline range (select one and
        press “Use as baseline” first), or compare this recording with another one.
      </p>
    );
  }
  const two = otherSide?.kind === 'ready';
  const measure: Measure = state.methodSort;
  const selection = two ? (state.range ? 'this recording’s selection' : 'all of this recording') : state.range ? 'the selection' : 'the whole recording';
  const against = two
    ? `${other.name}${other.range ? ` ${formatRange(other.range, null)} s` : ''} through the same filters`
    : state.baseline
      ? `the baseline ${(state.baseline[0] / 1000).toFixed(2)}–${(state.baseline[1] / 1000).toFixed(2)} s`
      : 'everything outside it';
  const { totals } = comparison;
  const sides = `${selection} (${holds(totals.a, totals.na, mode)}) against ${against} (${holds(totals.b, totals.nb, mode)})`;
  if (!comparison.enough) {
    return (
      <p className="hint needs-more">
        The comparison needs more events: {selection} holds {formatCount(totals.na)} {noun(mode)} and {against} {formatCount(totals.nb)}, among the
        events the filters keep; it needs at least {MIN_EVENTS} on each side. Select a longer range
        {two ? ' or baseline range' : state.baseline ? ' or baseline' : ''}, or loosen the filters.
      </p>
    );
  }
  return (
    <div>
      <div className="view-bar">
        <Segmented
          label="Show the comparison as"
          value={state.compareAs}
          options={[
            ['table', 'Methods'],
            ['flame', 'Flame graph'],
          ]}
          onChange={on.onCompareAs}
        />
        <Segmented
          label="Measure"
          value={measure}
          options={[
            ['total', 'Total'],
            ['self', 'Self'],
          ]}
          onChange={on.onSortMethods}
        />
        <Segmented
          label="Significance level"
          value={level}
          options={[
            ['0.05', 'p < 0.05'],
            ['0.01', 'p < 0.01'],
            ['0.001', 'p < 0.001'],
          ]}
          onChange={setLevel}
        />
        <p className="hint">
          {state.compareAs === 'flame' ? (
            <>
              The selection’s flame graph, {sides}; each frame coloured by its method’s {measure} change, as in the table:{' '}
              <i className="swatch up" /> rose, <i className="swatch down" /> fell, grey where the change is not significant at p &lt; {level}.
            </>
          ) : (
            <>
              Shares of {sides}, among the events the filters keep. {measure === 'total' ? 'Total counts the method and what it calls' : 'Self counts the method itself (the frame on top)'}
              ; changes not significant at p &lt; {level} are grey. {howSure(comparison.rises, measure, Number(level), mode)}
            </>
          )}
        </p>
      </div>
      {state.compareAs === 'flame' && comparison.tree ? (
        <FlameGraph tree={comparison.tree} mode={mode} inverted={state.inverted} search={state.search} diff level={Number(level)} onSelect={(name) => on.onChooseMethod(name)} onSandwich={on.onSandwich} />
      ) : (
        <RisesTable names={comparison.names} rises={comparison.rises} totals={totals} measure={measure} level={Number(level)} mode={mode} on={on} />
      )}
    </div>
  );
}

/**
 * How many methods pass the level against how many chance alone would pass, and how many still
 * pass once the number compared is accounted for (q, Benjamini–Hochberg). Weights that are not
 * counts (time, bytes) are compared as shares, but the test is of the events under each method:
 * the sentence says so, so that a method's significance is not read as its share's.
 */
export function howSure(rises: readonly Rise[], measure: Measure, level: number, mode: WeightMode): string {
  let tested = 0;
  let below = 0;
  let sure = 0;
  for (const r of rises) {
    const c = r[measure];
    if (Number.isNaN(c.p)) continue;
    tested++;
    if (c.p < level) below++;
    if (direction(c, level) !== 0 && c.q < level) sure++;
  }
  const chance = tested * level;
  const what = countLike(mode) ? 'methods changed' : `methods' numbers of events changed (the test counts events; the shares are of ${mode === 'bytes' ? 'bytes' : 'time'})`;
  return (
    `${formatCount(below)} of ${formatCount(tested)} ${what} at p < ${level}, where chance alone would give at most about ${chance < 1 ? chance.toFixed(1) : formatCount(chance)}; ` +
    `${formatCount(sure)} still do once the ${formatCount(tested)} compared are accounted for (q < ${level}: at most about ${level * 100}% of those expected to be chance).`
  );
}

interface Column {
  key: RiseKey;
  label: string;
  title: string;
}

const RISE_ROWS = 300;

function RisesTable({ names, rises, totals, measure, level, mode, on }: { names: readonly string[]; rises: Rise[]; totals: Totals; measure: Measure; level: number; mode: WeightMode; on: ViewIntents }) {
  const [sort, setSort] = useState<{ key: RiseKey; descending: boolean }>({ key: 'score', descending: true });
  const rows = useMemo(() => sortRises(rises, sort.key, measure, sort.descending, (n) => names[n]).slice(0, RISE_ROWS), [rises, sort, measure, names]);
  const maxDelta = rows.reduce((m, r) => Math.max(m, Math.abs(r[measure].delta)), 0) || 1;
  const unit = countLike(mode) ? noun(mode) : mode === 'bytes' ? 'bytes; events' : 'ms; events';
  const tested = countLike(mode)
    ? `Two-sided exact binomial test of the method's ${noun(mode)}: under no change, its selection count of the two sides' total is Binomial(n, A / (A + B)), A and B each side's ${noun(mode)}`
    : `The weights (${mode === 'bytes' ? 'bytes' : 'durations'}) are not counts: the p-value tests the events under the method instead (two-sided exact binomial test: under no change, its selection events of the two sides' total are Binomial(n, A / (A + B)), A and B each side's events)`;
  const columns: Column[] = [
    { key: 'name', label: 'Method', title: 'Sort by name' },
    { key: 'a', label: `Selection (${unit})`, title: `The selection's ${measure} weight under the method (${formatWeight(totals.a, mode)} in all)` },
    { key: 'b', label: `Baseline (${unit})`, title: `The baseline's ${measure} weight under the method (${formatWeight(totals.b, mode)} in all)` },
    { key: 'share', label: 'Selection %', title: "The method's share of the selection" },
    { key: 'baseShare', label: 'Baseline %', title: "The method's share of the baseline" },
    { key: 'delta', label: 'Change', title: 'Selection share minus baseline share, in points' },
    { key: 'p', label: 'p-value', title: tested },
    { key: 'q', label: 'q (FDR)', title: "The p-value adjusted for the number of methods compared (Benjamini–Hochberg): among the methods at least this significant, the share expected to be chance alone" },
    { key: 'score', label: 'Score', title: 'The change times (1 − p): large and sure changes first (the default order)' },
  ];
  const click = (key: RiseKey) =>
    setSort((s) => (s.key === key ? { key, descending: !s.descending } : { key, descending: key !== 'name' && key !== 'p' && key !== 'q' }));
  const amount = (c: Change, side: 'a' | 'b') => {
    const w = c[side];
    const n = side === 'a' ? c.na : c.nb;
    return countLike(mode) ? formatCount(w) : `${formatWeight(w, mode)}; ${formatCount(n)}`;
  };
  return (
    <>
      <table className="grid" aria-label="Methods that changed">
        <thead>
          <tr>
            {columns.map((c) => {
              const active = sort.key === c.key;
              return (
                <th key={c.key} className={c.key === 'name' ? undefined : 'num'} aria-sort={active ? (sort.descending ? 'descending' : 'ascending') : 'none'}>
                  <button type="button" className="link sort" onClick={() => click(c.key)} title={c.title}>
                    {c.label}
                    {active ? (sort.descending ? ' ▾' : ' ▴') : ''}
                  </button>
                </th>
              );
            })}
            <th className="delta-col" aria-hidden="true" />
          </tr>
        </thead>
        <tbody>
          {rows.map((r) => {
            const c = r[measure];
            const dir = direction(c, level);
            const cls = dir > 0 ? 'up' : dir < 0 ? 'down' : 'ns';
            const grey = dir === 0 ? { color: '#868e96' } : undefined;
            return (
              <tr key={r.name}>
                <td className="name">
                  <button type="button" className="link" title="Its callers and callees as flame graphs (the sandwich)" onClick={() => on.onSandwich(names[r.name])}>
                    {names[r.name]}
                  </button>
                </td>
                <td className="num">{amount(c, 'a')}</td>
                <td className="num">{amount(c, 'b')}</td>
                <td className="num">{pct(c.share)}</td>
                <td className="num">{pct(c.baseShare)}</td>
                <td className={`num ${cls}`} style={grey}>
                  {points(c.delta)}
                </td>
                <td className={`num ${cls}`} style={grey}>
                  {formatP(c.p)}
                </td>
                <td className="num">{formatP(c.q)}</td>
                <td className="num">{(c.score * 100).toFixed(1)}</td>
                <td className="delta-col" aria-hidden="true">
                  {dir !== 0 && <span className={cls} style={{ width: `${(50 * Math.abs(c.delta)) / maxDelta}%`, [c.delta > 0 ? 'left' : 'right']: '50%' }} />}
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
      <RowCap shown={rows.length} total={rises.length} noun="methods" order="as sorted" />
    </>
  );
}
