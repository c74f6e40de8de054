/**
 * Who held the lock while everyone waited: each monitor or parked-on object with its bursts of
 * overlapping waits, the holder (the previous owner that held it longest), and for the chosen burst
 * what the holder ran meanwhile beside the waiters' stacks at the wait.
 */
import type { Profile } from '../columns/profile';
import type { Burst, LockRow } from '../profile-logic/locks';
import { threadLabel } from '../profile-logic/names';
import { formatClock, formatMs } from '../profile-logic/format';
import type { BurstDetail } from '../selectors/derive';
import { FlameGraph } from './FlameGraph';
import { RowCap } from './RowCap';

interface Props {
  profile: Profile;
  rows: LockRow[];
  detail: BurstDetail | null;
  /** Times read as the clock (UTC): epoch ms of the start, else null. */
  clock: number | null;
  search: string;
  /** Select the burst's time range and pin its holder's lane on top. */
  onSelectBurst: (range: [number, number], holder: string | null) => void;
  /** Open a method's sandwich (in the selection of the Event menu and the range). */
  onSandwich?: (name: string) => void;
}

const name = (profile: Profile, t: number) => threadLabel(profile, t);

/** Why a burst names no holder. */
function unknownHolder(b: Burst): string {
  return b.kind === 'park'
    ? 'unknown: JFR records no owner for java.util.concurrent locks'
    : b.kind === 'mutex'
      ? 'unknown: async-profiler records no owner for native mutexes'
      : 'unknown: this recording gives no previous owner (async-profiler lock events carry none)';
}

function holderText(profile: Profile, b: Burst): string {
  if (b.holder < 0) return unknownHolder(b);
  const grants = b.chainOk + b.chainBroken;
  // (Each grant after the first should name as previous owner the waiter granted before it, or the holder.)
  const chain =
    grants === 0
      ? ''
      : b.chainBroken === 0
        ? ` (all ${grants + 1} grants in order: each from the waiter granted before it or from the holder)`
        : ` (${b.chainBroken} of the ${grants} grants after the first came from another thread: waits under the threshold are missing, or the holder is uncertain)`;
  return `${name(profile, b.holder)}${chain}`;
}

/** Bursts listed under a lock at most: the largest in the range first. */
const BURSTS_SHOWN = 30;

/** A lock's bursts as listed: the most wait in the range first, then by time. */
export function largestFirst(bursts: Burst[]): Burst[] {
  return [...bursts].sort((a, b) => b.clipped - a.clipped || b.waiters - a.waiters || a.start - b.start).slice(0, BURSTS_SHOWN);
}

export function LocksView({ profile, rows, detail, clock, search, onSelectBurst, onSandwich }: Props) {
  if (rows.length === 0) {
    return <p className="hint">No waits on a monitor, a java.util.concurrent lock or a native mutex overlap the selection (idle pool parks, Object.wait and sleeps are not contention).</p>;
  }
  const sel = detail?.burst;
  return (
    <div className="locks">
      <div className="locks-table">
        <p className="hint">
          Waits on one object that overlap form a burst; the waiters are granted one after another, each grant naming the previous owner, and
          the one that held the monitor longest meanwhile is its holder. Every wait on each object counts, whatever the filters say (a holder is
          named from all of a burst&apos;s grants). Choose a burst to select it and pin its holder&apos;s lane on top.
        </p>
        <table aria-label="Locks" className="grid">
          <thead>
            <tr>
              <th>Monitor or lock</th>
              <th className="num">Bursts</th>
              <th className="num">Waits</th>
              <th className="num">Waiters</th>
              <th className="num" title="All the wait of the bursts that overlap the selection">Wait</th>
              <th className="num" title="The part of that wait inside the selection">Wait in range</th>
              <th>Holder</th>
            </tr>
          </thead>
          <tbody>
            {rows.slice(0, 200).flatMap((r) => [
              <tr key={`${r.kind}:${r.cls}:${r.address}`} className="group">
                <td className="name">{r.label}</td>
                <td className="num">{r.bursts.length}</td>
                <td className="num">{r.waits.toLocaleString('en-US')}</td>
                <td className="num">{r.waiters}</td>
                <td className="num">{formatMs(r.total)}</td>
                <td className="num">{formatMs(r.clipped)}</td>
                <td>
                  {r.holders
                    .map((h) => (h.thread >= 0 ? `${name(profile, h.thread)} (${h.bursts} of ${r.bursts.length}, ${formatMs(h.wait)})` : `${unknownHolder(r.bursts[0])} (${h.bursts})`))
                    .join(', ')}
                </td>
              </tr>,
              ...largestFirst(r.bursts).map((b) => {
                const chosen = b === sel;
                // Its start to the millisecond, and how long it lasted (bursts of a busy lock are
                // often shorter than a millisecond).
                const at = clock === null ? `${(b.start / 1000).toFixed(3)} s` : `${formatClock(clock + b.start, 1)} UTC`;
                return (
                  <tr key={`${r.kind}:${r.cls}:${r.address}:${b.start}`} className={chosen ? 'selected burst' : 'burst'}>
                    <td className="name">
                      {/* Pins go by the label (threadLabel): an unnamed holder pins its own lane alone. */}
                      <button type="button" className="link" aria-pressed={chosen} onClick={() => onSelectBurst([b.start, b.end], b.holder >= 0 ? name(profile, b.holder) : null)}>
                        burst {at} · {formatMs(b.end - b.start)}
                      </button>
                    </td>
                    <td className="num" />
                    <td className="num">{b.waits.length}</td>
                    <td className="num">{b.waiters}</td>
                    <td className="num">{formatMs(b.total)}</td>
                    <td className="num">{formatMs(b.clipped)}</td>
                    {/* Why a burst names no holder is said once, on its object's row. */}
                    <td title={b.holder < 0 ? unknownHolder(b) : undefined}>{b.holder < 0 ? 'unknown' : holderText(profile, b)}</td>
                  </tr>
                );
              }),
              ...(r.bursts.length > BURSTS_SHOWN
                ? [
                    <tr key={`${r.kind}:${r.cls}:${r.address}:more`} className="burst">
                      <td className="name hint" colSpan={7}>
                        … the {BURSTS_SHOWN} bursts with the most wait in the range of its {r.bursts.length} shown: select a range to see the others
                      </td>
                    </tr>,
                  ]
                : []),
            ])}
          </tbody>
        </table>
        <RowCap shown={Math.min(rows.length, 200)} total={rows.length} noun="monitors and locks" order="as listed" />
      </div>
      {detail && (
        <div className="locks-detail">
          {detail.holderTree ? (
            <section aria-label="What the holder ran">
              <h3>
                What {name(profile, detail.burst.holder)} ran during the burst ({formatMs(detail.burst.end - detail.burst.start)})
              </h3>
              {detail.holderTree.value > 0 ? (
                <div className="flame-pane">
                  <FlameGraph tree={detail.holderTree} mode="samples" inverted={false} search={search} label="What the holder ran" onSandwich={onSandwich} />
                </div>
              ) : (
                <p className="hint">No samples of it in the burst (it may have been off CPU: see its lane).</p>
              )}
            </section>
          ) : (
            <section aria-label="On CPU meanwhile">
              <h3>The recording cannot tell who held it</h3>
              <p className="hint">
                {unknownHolder(detail.burst)}. On CPU meanwhile, not waiting on it:{' '}
                {detail.onCpu.length ? detail.onCpu.map((c) => `${name(profile, c.thread)} (${c.samples} samples)`).join(', ') : 'no thread has samples'}.
              </p>
            </section>
          )}
          <section aria-label="Waiters' stacks">
            <h3>The waiters&apos; stacks at the wait</h3>
            <div className="flame-pane">
              <FlameGraph tree={detail.waitersTree} mode="duration" inverted={false} search={search} label="The waiters’ stacks" onSandwich={onSandwich} />
            </div>
          </section>
        </div>
      )}
    </div>
  );
}
