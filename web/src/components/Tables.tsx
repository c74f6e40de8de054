/**
 * Top methods (self and total), the sandwich of one method, and what the selection waits on or
 * touches (subjects).
 */
import { useMemo, type Dispatch } from 'react';
import type { Action, ViewState } from '../app/state';
import type { Derived } from '../app/derive';
import { formatPercent, formatWeight } from '../profile-logic/format';
import { sandwich } from '../profile-logic/methods';
import type { Profile } from '../profile-logic/profile';
import { subjectsInRange } from '../profile-logic/subjects';

interface Props {
  profile: Profile;
  derived: Derived;
  state: ViewState;
  dispatch: Dispatch<Action>;
}

export function MethodsTable({ profile, derived, state, dispatch }: Props) {
  const rows = (state.methodSort === 'self' ? [...derived.methods].sort((a, b) => b.self - a.self || b.total - a.total) : derived.methods).slice(0, 300);
  const total = derived.totalWeight;
  const selectedIdx = state.selectedMethod === null ? -1 : profile.strings.indexOf(state.selectedMethod);
  const sw = selectedIdx >= 0 ? sandwich(profile, derived.weights, selectedIdx) : null;
  const choose = (name: string) => dispatch({ type: 'set', patch: { selectedMethod: name === state.selectedMethod ? null : name } });
  return (
    <div className="methods">
      <table aria-label="Top methods" className="grid">
        <thead>
          <tr>
            <th>Method</th>
            <SortHeader label="Self" active={state.methodSort === 'self'} onClick={() => dispatch({ type: 'set', patch: { methodSort: 'self' } })} />
            <th className="num">Self %</th>
            <SortHeader label="Total" active={state.methodSort === 'total'} onClick={() => dispatch({ type: 'set', patch: { methodSort: 'total' } })} />
            <th className="num">Total %</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((r) => {
            const name = profile.strings[r.name];
            return (
              <tr key={r.name} className={name === state.selectedMethod ? 'selected' : ''} onClick={() => choose(name)}>
                <td className="name">
                  <button type="button" className="link" onClick={(e) => (e.stopPropagation(), choose(name))}>
                    {name}
                  </button>
                </td>
                <td className="num">{formatWeight(r.self, derived.weightMode)}</td>
                <td className="num">{formatPercent(r.self, total)}</td>
                <td className="num">{formatWeight(r.total, derived.weightMode)}</td>
                <td className="num">{formatPercent(r.total, total)}</td>
              </tr>
            );
          })}
        </tbody>
      </table>
      {sw && state.selectedMethod && (
        <section className="sandwich" aria-label="Callers and callees">
          <h3>{state.selectedMethod}</h3>
          <p>
            total {formatWeight(sw.total, derived.weightMode)} ({formatPercent(sw.total, total)}), self {formatWeight(sw.self, derived.weightMode)}
          </p>
          <div className="sandwich-cols">
            <table className="grid" aria-label="Callers">
              <thead>
                <tr>
                  <th>Callers</th>
                  <th className="num">Weight</th>
                </tr>
              </thead>
              <tbody>
                {sw.callers.map((c) => (
                  <tr key={c.name} onClick={() => c.name >= 0 && choose(profile.strings[c.name])}>
                    <td className="name">{c.name >= 0 ? profile.strings[c.name] : '(root)'}</td>
                    <td className="num">{formatPercent(c.weight, sw.total)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
            <table className="grid" aria-label="Callees">
              <thead>
                <tr>
                  <th>Callees</th>
                  <th className="num">Weight</th>
                </tr>
              </thead>
              <tbody>
                {sw.self > 0 && (
                  <tr>
                    <td className="name">(self)</td>
                    <td className="num">{formatPercent(sw.self, sw.total)}</td>
                  </tr>
                )}
                {sw.callees.map((c) => (
                  <tr key={c.name} onClick={() => choose(profile.strings[c.name])}>
                    <td className="name">{profile.strings[c.name]}</td>
                    <td className="num">{formatPercent(c.weight, sw.total)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </section>
      )}
    </div>
  );
}

/** Regex matching exactly `text`. */
function exactly(text: string): string {
  return `^${text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`;
}

/**
 * The selection by subject (monitor class, file or host, allocated class): events, distinct
 * threads and weight. Choosing a row filters to that subject; choosing it again clears the filter.
 */
export function SubjectsTable({ profile, derived, state, dispatch, heading }: Props & { heading: string }) {
  const rows = useMemo(
    () => subjectsInRange(profile, derived.density.parts, state.range, derived.weightMode),
    [profile, derived.density, state.range, derived.weightMode],
  );
  const total = derived.totalWeight;
  const choose = (subject: number) => {
    if (subject < 0) return;
    const re = exactly(profile.strings[subject]);
    dispatch({ type: 'set', patch: { subjectFilter: state.subjectFilter === re ? '' : re } });
  };
  return (
    <table aria-label="Subjects" className="grid">
      <thead>
        <tr>
          <th>{heading}</th>
          <th className="num">Events</th>
          <th className="num">Threads</th>
          <th className="num">{derived.weightMode === 'duration' ? 'Wait time' : derived.weightMode === 'bytes' ? 'Bytes' : 'Weight'}</th>
          <th className="num">Share</th>
        </tr>
      </thead>
      <tbody>
        {rows.slice(0, 500).map((r) => {
          const name = r.subject >= 0 ? profile.strings[r.subject] : '(none)';
          const chosen = r.subject >= 0 && state.subjectFilter === exactly(name);
          return (
            <tr key={r.subject} className={chosen ? 'selected' : ''} onClick={() => choose(r.subject)}>
              <td className="name">
                {r.subject >= 0 ? (
                  <button type="button" className="link" title={chosen ? 'Show every subject again' : 'Keep only this one'} onClick={(e) => (e.stopPropagation(), choose(r.subject))}>
                    {name}
                  </button>
                ) : (
                  name
                )}
              </td>
              <td className="num">{r.events.toLocaleString('en-US')}</td>
              <td className="num">{r.threads}</td>
              <td className="num">{formatWeight(r.weight, derived.weightMode)}</td>
              <td className="num">{formatPercent(r.weight, total)}</td>
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}

export function SortHeader({ label, active, onClick, title }: { label: string; active: boolean; onClick: () => void; title?: string }) {
  return (
    <th className="num" aria-sort={active ? 'descending' : 'none'}>
      <button type="button" className="link sort" onClick={onClick} title={title ?? `Sort by ${label.toLowerCase()} weight`}>
        {label}
        {active ? ' ▾' : ''}
      </button>
    </th>
  );
}
