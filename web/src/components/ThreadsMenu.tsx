import { useMemo, useState } from 'react';
import type { Profile } from '../columns/profile';
import { formatCount } from '../profile-logic/format';
import { threadLabel, visibleName } from '../profile-logic/names';
import type { Derived } from '../selectors/derive';

/** Show or hide threads by name; the keyboard way to what right-clicking a lane label does. */
interface Props {
  profile: Profile;
  derived: Derived;
  hiddenThreads: string[];
  onToggle: (thread: string) => void;
  onHide: (threads: string[]) => void;
  onShow: (threads: string[]) => void;
}

/** Threads listed at most (a recording may hold 100 K virtual threads); the rest are found by name. */
const MENU_ROWS = 500;

export function ThreadsMenu({ profile, derived, hiddenThreads, onToggle, onHide, onShow }: Props) {
  const [query, setQuery] = useState('');
  const threads = useMemo(() => {
    const byName = new Map<string, number>();
    for (let t = 0; t < profile.threads.length; t++) {
      if (derived.index.perThread[t] === 0) continue;
      const name = threadLabel(profile, t);
      byName.set(name, (byName.get(name) ?? 0) + derived.counts.count[t]);
    }
    return [...byName].sort((a, b) => a[0].localeCompare(b[0], 'en', { numeric: true }));
  }, [profile, derived.index, derived.counts]);
  const q = query.toLowerCase();
  const shown = threads.filter(([n]) => n.toLowerCase().includes(q));
  const hidden = new Set(hiddenThreads);
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
          <button type="button" onClick={() => onShow(shown.map(([n]) => n))}>
            Show {q ? 'these' : 'all'}
          </button>
          <button type="button" onClick={() => onHide(shown.map(([n]) => n))}>
            Hide {q ? 'these' : 'all'}
          </button>
          {empty.length > 0 && (
            <button type="button" title="Hide the threads with no event of the selected type" onClick={() => onHide(empty)}>
              Hide {empty.length} without events
            </button>
          )}
        </div>
        <ul>
          {shown.slice(0, MENU_ROWS).map(([name, count]) => (
            <li key={name}>
              <label className="check">
                <input type="checkbox" checked={!hidden.has(name)} onChange={() => onToggle(name)} />
                <span className="thread-name">{visibleName(name)}</span>
                <span className="count">{formatCount(count)}</span>
              </label>
            </li>
          ))}
          {shown.length > MENU_ROWS && <li className="more">{formatCount(shown.length - MENU_ROWS)} more: find one by name</li>}
        </ul>
      </div>
    </details>
  );
}
