/**
 * What changed in the selection against a baseline (the rest of the recording, or a range set
 * aside): a table of methods with both sides' counts, shares, the change and its p-value, or the
 * selection's flame graph with each frame coloured by its method's row (compare.ts measures both).
 * Too few events on a side: a sentence saying so, no numbers.
 */
import { useMemo, useState } from 'react';
import { direction, formatP, MIN_EVENTS, sortRises, type Change, type Measure, type Rise, type RiseKey, type Totals } from '../profile-logic/compare';
import { formatCount, formatWeight } from '../profile-logic/format';
import type { WeightMode } from '../profile-logic/kinds';
import type { Comparison } from '../selectors/derive';
import type { ViewIntents, ViewValues } from './intents';
import type { Profile } from '../columns/profile';
import { FlameGraph } from './FlameGraph';
import { Segmented } from './Tables';

interface Props {
  profile: Profile;
  comparison: Comparison | null;
  state: ViewValues;
  on: ViewIntents;
  mode: WeightMode;
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

export function CompareView({ profile, comparison, state, on, mode }: Props) {
  const [level, setLevel] = useState<Level>('0.01');
  if (!comparison) {
    return (
      <p className="hint">
        Select a time range on the timeline (drag) to compare it with the rest of the recording, or with a baseline range (select one and
        press “Use as baseline” first).
      </p>
    );
  }
  const measure: Measure = state.methodSort;
  const against = state.baseline ? `the baseline ${(state.baseline[0] / 1000).toFixed(2)}–${(state.baseline[1] / 1000).toFixed(2)} s` : 'everything outside it';
  const { totals } = comparison;
  const sides = `${state.range ? 'the selection' : 'the whole recording'} (${holds(totals.a, totals.na, mode)}) against ${against} (${holds(totals.b, totals.nb, mode)})`;
  if (!comparison.enough) {
    return (
      <p className="hint needs-more">
        The comparison needs more events: {state.range ? 'the selection' : 'the whole recording'} holds {formatCount(totals.na)} {noun(mode)} and{' '}
        {against} {formatCount(totals.nb)}, among the events the filters keep; it needs at least {MIN_EVENTS} on each side. Select a longer range
        {state.baseline ? ' or baseline' : ''}, or loosen the filters.
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
              ; changes not significant at p &lt; {level} are grey. With hundreds of methods a few pass any level by chance: read the counts.
            </>
          )}
        </p>
      </div>
      {state.compareAs === 'flame' && comparison.tree ? (
        <FlameGraph tree={comparison.tree} mode={mode} inverted={state.inverted} search={state.search} diff level={Number(level)} onSelect={(name) => on.onChooseMethod(name)} />
      ) : (
        <RisesTable profile={profile} rises={comparison.rises} totals={totals} measure={measure} level={Number(level)} mode={mode} on={on} />
      )}
    </div>
  );
}

interface Column {
  key: RiseKey;
  label: string;
  title: string;
}

function RisesTable({ profile, rises, totals, measure, level, mode, on }: { profile: Profile; rises: Rise[]; totals: Totals; measure: Measure; level: number; mode: WeightMode; on: ViewIntents }) {
  const [sort, setSort] = useState<{ key: RiseKey; descending: boolean }>({ key: 'score', descending: true });
  const rows = useMemo(() => sortRises(rises, sort.key, measure, sort.descending, (n) => profile.strings[n]).slice(0, 300), [rises, sort, measure, profile]);
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
    { key: 'score', label: 'Score', title: 'The change times (1 − p): large and sure changes first (the default order)' },
  ];
  const click = (key: RiseKey) =>
    setSort((s) => (s.key === key ? { key, descending: !s.descending } : { key, descending: key !== 'name' && key !== 'p' }));
  const amount = (c: Change, side: 'a' | 'b') => {
    const w = c[side];
    const n = side === 'a' ? c.na : c.nb;
    return countLike(mode) ? formatCount(w) : `${formatWeight(w, mode)}; ${formatCount(n)}`;
  };
  return (
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
                <button type="button" className="link" title="Show its callers and callees" onClick={() => on.onChooseMethod(profile.strings[r.name], true)}>
                  {profile.strings[r.name]}
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
              <td className="num">{(c.score * 100).toFixed(1)}</td>
              <td className="delta-col" aria-hidden="true">
                {dir !== 0 && <span className={cls} style={{ width: `${(50 * Math.abs(c.delta)) / maxDelta}%`, [c.delta > 0 ? 'left' : 'right']: '50%' }} />}
              </td>
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}
