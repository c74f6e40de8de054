/**
 * The sandwich of one method, as speedscope's sandwich and JMC's butterfly draw it:
 *
 *        main            ▲ callers: the method at the bottom, who called it growing upward
 *     serve   handle     │
 *   ═══ parse ════════   ┘ (the method, where the two graphs meet)
 *   ═══ parse ════════   ┐
 *     read   skipBytes   │ callees: the method at the top, what it called growing downward
 *                        ▼
 * Both weighed as the flame graph of the same filters and range (selectors/derive useSandwich).
 * A click zooms; S (or a frame's menu) makes another method the sandwich's.
 */
import type { MethodRow } from '../profile-logic/methods';
import { formatPercent, formatWeight } from '../profile-logic/format';
import type { WeightMode } from '../profile-logic/kinds';
import { visibleName } from '../profile-logic/names';
import type { SandwichView as Sandwich } from '../selectors/derive';
import { FlameGraph } from './FlameGraph';

interface Props {
  sandwich: Sandwich | null;
  mode: WeightMode;
  search: string;
  /** The heaviest methods, offered when none is chosen; their names. */
  top: MethodRow[];
  names: readonly string[];
  onSandwich: (name: string) => void;
}

export function SandwichView({ sandwich, mode, search, top, names, onSandwich }: Props) {
  if (!sandwich) {
    return (
      <div className="sandwich-view">
        <p className="hint">
          The sandwich shows one method’s callers above it and its callees below. Choose one: focus the flame graph and press S on a frame, right-click a
          frame, or pick a row of Top methods or Compare. The heaviest here:
        </p>
        <ul className="picks" aria-label="Heaviest methods">
          {top.slice(0, 12).map((m) => (
            <li key={m.name}>
              <button type="button" className="link" onClick={() => onSandwich(names[m.name])}>
                {visibleName(names[m.name])}
              </button>
            </li>
          ))}
        </ul>
      </div>
    );
  }
  const { method, callers, callees, total, self, selection } = sandwich;
  const shown = visibleName(method);
  return (
    <div className="sandwich-view">
      <header>
        <h3>{shown}</h3>
        <p>
          total {formatWeight(total, mode)} ({formatPercent(total, selection)} of the selection), self {formatWeight(self, mode)} ({formatPercent(self, selection)})
          {total > 0 ? ' · recursion counted once per stack, at its outermost call' : ''}
        </p>
      </header>
      {total <= 0 ? (
        <p className="empty">No selected event has {shown} on its stack: the filters or the range leave none.</p>
      ) : (
        <>
          <section aria-label={`Callers of ${shown}`}>
            <h4>Callers ▲ who called it, out to the threads’ roots</h4>
            <div className="flame-pane sandwich-pane">
              <FlameGraph tree={callers} mode={mode} inverted={false} search={search} label={`Callers of ${shown}`} whole="the method" onSandwich={onSandwich} />
            </div>
          </section>
          <section aria-label={`Callees of ${shown}`}>
            <h4>Callees ▼ what it called</h4>
            <div className="flame-pane sandwich-pane">
              <FlameGraph tree={callees} mode={mode} inverted search={search} label={`Callees of ${shown}`} whole="the method" onSandwich={onSandwich} />
            </div>
          </section>
        </>
      )}
    </div>
  );
}
