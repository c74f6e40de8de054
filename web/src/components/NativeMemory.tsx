/**
 * Native memory (async-profiler's nativemem): what was allocated and never freed, as a table of
 * stacks (most bytes first), a flame graph of unfreed bytes, and the outstanding bytes over time.
 */
import { useMemo, useState } from 'react';
import type { Profile } from '../columns/profile';
import { callTree } from '../profile-logic/calltree';
import { formatBytes, formatCount, formatMs } from '../profile-logic/format';
import { visibleName } from '../profile-logic/names';
import { unfreedByStack, unfreedIn, type NativeMemory } from '../profile-logic/nativemem';
import { FlameGraph } from './FlameGraph';
import { LineChart } from './LineChart';

interface Props {
  profile: Profile;
  nm: NativeMemory;
  viewport: [number, number] | null;
  range: [number, number] | null;
  clock: number | null;
  search: string;
}

export function NativeMemoryView({ profile, nm, viewport, range, clock, search }: Props) {
  // The table and the flame graph: what the range allocated (the whole recording without one).
  const part = useMemo(() => unfreedIn(profile, nm, range), [profile, nm, range]);
  const sites = useMemo(() => unfreedByStack(profile, part), [profile, part]);
  const tree = useMemo(() => callTree(profile, part.weights, 'unfreed'), [profile, part]);
  const series = useMemo(() => [{ name: '', t: nm.t, v: nm.bytes }], [nm]);
  const [open, setOpen] = useState<number | null>(null);
  return (
    <div className="nativemem">
      <p className="summary" aria-label="Native memory summary">
        {formatBytes(part.bytes)} in {formatCount(part.count)} allocations never freed, of {formatBytes(part.allocatedBytes)} in {formatCount(part.allocations)} allocated{' '}
        {range ? `from ${formatMs(range[0])} to ${formatMs(range[1])} (the range; ${formatBytes(nm.unfreedBytes)} never freed in the whole recording)` : 'during the recording'};{' '}
        {formatCount(nm.frees)} frees matched an allocation by address{nm.unmatchedFrees ? `, ${formatCount(nm.unmatchedFrees)} freed memory allocated before the recording began` : ''}.
      </p>
      {/* Allocated in the recording and not yet freed, at each malloc and free. */}
      <LineChart series={series} unit="bytes" label="Outstanding bytes" duration={profile.info.durationMs} viewport={viewport} range={range} clock={clock} />
      <table className="grid" aria-label="Unfreed allocations by stack">
        <thead>
          <tr>
            <th scope="col">Allocated at</th>
            <th scope="col" className="num">Unfreed bytes</th>
            <th scope="col" className="num">Allocations</th>
          </tr>
        </thead>
        <tbody>
          {sites.map((s, k) => (
            <tr key={k}>
              <td>
                <button type="button" className="link" aria-expanded={open === k} onClick={() => setOpen(open === k ? null : k)} title={s.frames.map(visibleName).join('\n')}>
                  {visibleName(s.site)}
                  {s.via !== null && <span className="muted"> ← {visibleName(s.via)}</span>}
                </button>
                {open === k && (
                  <ol className="stack" aria-label={`Stack of ${visibleName(s.site)}, leaf first`}>
                    {s.frames.map((f, j) => (
                      <li key={j}>{visibleName(f)}</li>
                    ))}
                  </ol>
                )}
              </td>
              <td className="num">{formatBytes(s.bytes)}</td>
              <td className="num">{formatCount(s.count)}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <FlameGraph tree={tree} mode="bytes" inverted={false} search={search} label="Flame graph of unfreed native bytes" />
    </div>
  );
}
