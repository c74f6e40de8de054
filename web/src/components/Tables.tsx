/**
 * Top methods (self and total), the sandwich of one method, what the selection waits on or
 * touches (subjects), and where each thread's time went.
 */
import type { Profile } from '../columns/profile';
import { formatMs, formatPercent, formatWeight } from '../profile-logic/format';
import { LOST_LINE } from '../profile-logic/collapsed';
import { threadLabel, visibleName } from '../profile-logic/names';
import { hasInstances, KINDS } from '../profile-logic/kinds';
import { sandwich } from '../profile-logic/methods';
import type { SubjectRow } from '../profile-logic/subjects';
import type { ThreadTime } from '../profile-logic/threadtime';
import { covered, WAIT_INFO, WAIT_KINDS } from '../profile-logic/waits';
import type { Derived } from '../selectors/derive';
import type { ViewIntents, ViewValues } from './intents';
import { RowCap } from './RowCap';

interface Props {
  profile: Profile;
  derived: Derived;
  state: ViewValues;
  on: ViewIntents;
}

const METHOD_ROWS = 300;
const SUBJECT_ROWS = 500;
const THREAD_ROWS = 1000;

export function MethodsTable({ profile, derived, state, on }: Props) {
  const rows = (state.methodSort === 'self' ? [...derived.methods].sort((a, b) => b.self - a.self || b.total - a.total) : derived.methods).slice(0, METHOD_ROWS);
  const total = derived.totalWeight;
  const selectedIdx = state.selectedMethod === null ? -1 : profile.strings.indexOf(state.selectedMethod);
  const sw = selectedIdx >= 0 ? sandwich(profile, derived.stackWeights(), selectedIdx) : null;
  const choose = (name: string) => on.onChooseMethod(name === state.selectedMethod ? null : name);
  const lost = derived.stackLost;
  return (
    <div className="methods">
      <div>
        <table aria-label="Top methods" className="grid">
          <thead>
            <tr>
              <th>Method</th>
              <SortHeader label="Self" active={state.methodSort === 'self'} onClick={() => on.onSortMethods('self')} />
              <th className="num">Self %</th>
              <SortHeader label="Total" active={state.methodSort === 'total'} onClick={() => on.onSortMethods('total')} />
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
                      {visibleName(name)}
                    </button>
                    <button type="button" className="link sandwich-link" aria-label={`Sandwich of ${visibleName(name)}`} title="Its callers and callees as flame graphs (the sandwich)" onClick={(e) => (e.stopPropagation(), on.onSandwich(name))}>
                      ⇅
                    </button>
                  </td>
                  <td className="num">{formatWeight(r.self, derived.weightMode)}</td>
                  <td className="num">{formatPercent(r.self, total)}</td>
                  <td className="num">{formatWeight(r.total, derived.weightMode)}</td>
                  <td className="num">{formatPercent(r.total, total)}</td>
                </tr>
              );
            })}
            {lost > 0 && (
              <tr className="lost" title="Events of the cut chunk whose stacks were never written: kept apart, not mixed with whole stacks">
                <td className="name">{LOST_LINE}</td>
                <td className="num">{formatWeight(lost, derived.weightMode)}</td>
                <td className="num">{formatPercent(lost, total)}</td>
                <td className="num">{formatWeight(lost, derived.weightMode)}</td>
                <td className="num">{formatPercent(lost, total)}</td>
              </tr>
            )}
          </tbody>
        </table>
        <RowCap shown={rows.length} total={derived.methods.length} noun="methods" order={`by ${state.methodSort} weight`} />
      </div>
      {sw && state.selectedMethod && (
        <section className="sandwich" aria-label="Callers and callees">
          <h3>{visibleName(state.selectedMethod)}</h3>
          <button type="button" className="link" onClick={() => on.onSandwich(state.selectedMethod!)}>
            Callers and callees as flame graphs (sandwich) →
          </button>
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
                    <td className="name">{c.name >= 0 ? visibleName(profile.strings[c.name]) : '(root)'}</td>
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
                    <td className="name">{visibleName(profile.strings[c.name])}</td>
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

const escapeRegex = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * The filter a row of the subjects table sets: its instance exactly, or its class with any
 * instance of it (lock waits and parks name the instance after the class).
 */
function rowFilter(r: SubjectRow, cls: string): string {
  return Number.isNaN(r.address) ? `^${escapeRegex(cls)}( @ 0x[0-9a-f]+)?$` : `^${escapeRegex(r.label)}$`;
}

/**
 * The selection by subject (monitor class, file or host, allocated class), or for lock waits
 * and parks by instance: events, distinct threads and weight. Choosing a row filters to it;
 * choosing it again clears the filter.
 */
export function SubjectsTable({ profile, derived, state, on, heading, rows }: Props & { heading: string; rows: SubjectRow[] }) {
  const instances = hasInstances(profile.eventTypes[derived.typeIndex]?.kind);
  const byInstance = instances && state.subjectBy === 'instance';
  const total = derived.totalWeight;
  const choose = (re: string) => on.onFilterSubject(state.subjectFilter === re ? '' : re);
  return (
    <div>
      {instances && (
        <div className="view-bar">
          <Segmented
            label="Rows by"
            value={state.subjectBy}
            options={[
              ['class', 'By class'],
              ['instance', 'By instance'],
            ]}
            onChange={on.onRowsBy}
          />
          <p className="hint">
            {byInstance
              ? 'Each object by its address when the event was recorded (a moving collector can show one object at two addresses).'
              : 'Each class, all its instances together.'}
          </p>
        </div>
      )}
      <table aria-label="Subjects" className="grid">
        <thead>
          <tr>
            <th>{byInstance ? `${heading} @ address` : heading}</th>
            <th className="num">Events</th>
            <th className="num">Threads</th>
            <th className="num">{derived.weightMode === 'duration' ? 'Wait time' : derived.weightMode === 'bytes' ? 'Bytes' : 'Weight'}</th>
            <th className="num">Share</th>
          </tr>
        </thead>
        <tbody>
          {rows.slice(0, SUBJECT_ROWS).map((r) => {
            const re = r.subject >= 0 ? rowFilter(r, profile.strings[r.subject]) : '';
            const chosen = re !== '' && state.subjectFilter === re;
            return (
              <tr key={`${r.subject}:${r.address}`} className={chosen ? 'selected' : ''} onClick={() => re && choose(re)}>
                <td className="name">
                  {re ? (
                    <button type="button" className="link" title={chosen ? 'Show every subject again' : 'Keep only this one'} onClick={(e) => (e.stopPropagation(), choose(re))}>
                      {visibleName(r.label)}
                    </button>
                  ) : (
                    visibleName(r.label)
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
      <RowCap shown={Math.min(rows.length, SUBJECT_ROWS)} total={rows.length} noun="subjects" order="heaviest first" />
    </div>
  );
}

/**
 * Where each thread's time went in the selection (or the whole recording): waiting on locks,
 * parked, sleeping, in I/O, next to its matching events of the selected type. Choosing a
 * thread filters to it; choosing it again clears the filter.
 */
export function ThreadTimeTable({ profile, derived, state, on, noun, rows }: Props & { noun: string; rows: ThreadTime[] }) {
  const [from, to] = state.range ?? [0, profile.info.durationMs];
  // A column per kind of wait the recording has at all.
  const kinds = WAIT_KINDS.filter((k) => derived.waits[k].some((tr) => covered(tr, -Infinity, Infinity) > 0));
  const waiting = profile.eventTypes.filter((t) => t.deferred && KINDS[t.kind].interval);
  const span = Math.max(to - from, 1e-9);
  const choose = (name: string) => {
    const re = `^${escapeRegex(name)}$`;
    on.onFilterThread(state.threadFilter === re ? '' : re);
  };
  return (
    <div>
      <p className="hint">
        Time of {state.range ? 'the selection' : 'the whole recording'} ({formatMs(span)}) each thread spent in each kind of wait:
        contention (monitors, parks on locks, I/O) apart from idling (Object.wait, join, idle pool parks, sleeps), whatever the stack filters
        say, each wait only inside the range and overlapping waits of one kind once; and its {noun} there that the filters keep.
        {waiting.length > 0 && ` Not decoded yet, so not counted: ${waiting.map((t) => t.name).join(', ')}.`}
      </p>
      <table aria-label="Thread time" className="grid">
        <thead>
          <tr>
            <th>Thread</th>
            <th className="num">{noun}</th>
            {kinds.map((k) => (
              <th key={k} className="num" title={WAIT_INFO[k].title}>
                <i className="swatch" style={{ background: WAIT_INFO[k].color }} /> {WAIT_INFO[k].label}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.slice(0, THREAD_ROWS).map((r) => {
            const name = profile.strings[profile.threads.name[r.thread]];
            const chosen = state.threadFilter === `^${escapeRegex(name)}$`;
            return (
              <tr key={r.thread} className={chosen ? 'selected' : ''} onClick={() => choose(name)}>
                <td className="name">
                  <button type="button" className="link" title={chosen ? 'Show every thread again' : name === '' ? 'Keep only the unnamed threads (the thread filter matches recorded names)' : 'Keep only this thread'} onClick={(e) => (e.stopPropagation(), choose(name))}>
                    {visibleName(threadLabel(profile, r.thread))}
                  </button>
                </td>
                <td className="num">{r.matching.toLocaleString('en-US')}</td>
                {kinds.map((k) => (
                  <td key={k} className="num bar" title={`${formatPercent(r.ms[k], span)} of the time`}>
                    <span style={{ width: `${Math.min(100, (100 * r.ms[k]) / span)}%` }} />
                    {r.ms[k] > 0 ? formatMs(r.ms[k]) : '–'}
                  </td>
                ))}
              </tr>
            );
          })}
        </tbody>
      </table>
      <RowCap shown={Math.min(rows.length, THREAD_ROWS)} total={rows.length} noun="threads" order="most blocked first" />
    </div>
  );
}

/** A choice of a few, as a row of radio buttons. */
export function Segmented<T extends string>({ label, value, options, onChange }: { label: string; value: T; options: [T, string][]; onChange: (v: T) => void }) {
  return (
    <div role="radiogroup" aria-label={label} className="segmented">
      {options.map(([v, text]) => (
        <button key={v} type="button" role="radio" aria-checked={value === v} onClick={() => onChange(v)}>
          {text}
        </button>
      ))}
    </div>
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
