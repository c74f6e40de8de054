/**
 * What rose in the selection against a baseline (the rest of the recording, or a range set
 * aside): a table of methods by total or self share, or the selection's flame graph with each
 * frame coloured by how its share changed.
 */
import type { Rise } from '../profile-logic/compare';
import type { WeightMode } from '../profile-logic/kinds';
import { visibleName } from '../profile-logic/names';
import type { Comparison } from '../selectors/derive';
import type { ViewIntents, ViewValues } from './intents';
import type { Profile } from '../columns/profile';
import { FlameGraph } from './FlameGraph';
import { Segmented, SortHeader } from './Tables';

interface Props {
  profile: Profile;
  comparison: Comparison | null;
  state: ViewValues;
  on: ViewIntents;
  mode: WeightMode;
}

const pct = (x: number) => `${(x * 100).toFixed(1)}%`;

export function CompareView({ profile, comparison, state, on, mode }: Props) {
  if (!comparison) {
    return (
      <p className="hint">
        Select a time range on the timeline (drag) to compare it with the rest of the recording, or with a baseline range (select one and
        press “Use as baseline” first).
      </p>
    );
  }
  const bySelf = state.methodSort === 'self';
  const against = state.baseline ? `the baseline ${(state.baseline[0] / 1000).toFixed(2)}–${(state.baseline[1] / 1000).toFixed(2)} s` : 'everything outside it';
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
        <p className="hint">
          {state.compareAs === 'flame' ? (
            <>
              The selection’s flame graph; each frame coloured by how its share changed against {against}:{' '}
              <i className="swatch up" /> rose, <i className="swatch down" /> fell, grey unchanged.
            </>
          ) : (
            <>
              Share of {state.range ? 'the selection' : 'the whole recording'} against {against}, among the events the filters keep: methods whose{' '}
              {bySelf ? 'self' : 'total'} share rose most first. Total counts the method and what it calls; self, the method itself (the frame on
              top).
            </>
          )}
        </p>
      </div>
      {state.compareAs === 'flame' && comparison.tree ? (
        <FlameGraph tree={comparison.tree} mode={mode} inverted={state.inverted} search={state.search} diff onSelect={(name) => on.onChooseMethod(name)} />
      ) : (
        <RisesTable profile={profile} rises={comparison.rises} bySelf={bySelf} on={on} />
      )}
    </div>
  );
}

function RisesTable({ profile, rises, bySelf, on }: { profile: Profile; rises: Rise[]; bySelf: boolean; on: ViewIntents }) {
  const delta = (r: Rise) => (bySelf ? r.selfDelta : r.delta);
  const maxDelta = rises.reduce((m, r) => Math.max(m, Math.abs(delta(r))), 0) || 1;
  const sortBy = on.onSortMethods;
  const change = (x: number) => (
    <td className={`num ${x > 0 ? 'up' : x < 0 ? 'down' : ''}`}>
      {x > 0 ? '+' : ''}
      {(x * 100).toFixed(1)} pt
    </td>
  );
  return (
    <table className="grid" aria-label="Methods that rose">
      <thead>
        <tr>
          <th>Method</th>
          <th className="num">Total: selection</th>
          <th className="num">baseline</th>
          <SortHeader label="Total change" active={!bySelf} onClick={() => sortBy('total')} title="Rank by the change of total share" />
          <th className="num">Self: selection</th>
          <th className="num">baseline</th>
          <SortHeader label="Self change" active={bySelf} onClick={() => sortBy('self')} title="Rank by the change of self share" />
          <th className="delta-col" aria-hidden="true" />
        </tr>
      </thead>
      <tbody>
        {rises.slice(0, 200).map((r) => (
          <tr key={r.name}>
            <td className="name">
              <button
                type="button"
                className="link"
                title="Show its callers and callees"
                onClick={() => on.onChooseMethod(profile.strings[r.name], true)}
              >
                {visibleName(profile.strings[r.name])}
              </button>
            </td>
            <td className="num">{pct(r.share)}</td>
            <td className="num">{pct(r.baseShare)}</td>
            {change(r.delta)}
            <td className="num">{pct(r.selfShare)}</td>
            <td className="num">{pct(r.baseSelfShare)}</td>
            {change(r.selfDelta)}
            <td className="delta-col" aria-hidden="true">
              <span className={delta(r) > 0 ? 'up' : 'down'} style={{ width: `${(50 * Math.abs(delta(r))) / maxDelta}%`, [delta(r) > 0 ? 'left' : 'right']: '50%' }} />
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
