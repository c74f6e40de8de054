/**
 * What the recording says about itself: JVM, arguments, flags (searchable), OS, damage, chunks,
 * event counts (sortable), settings by event type, system properties.
 */
import { useMemo, useState } from 'react';
import { formatBytes, formatCount, formatMs } from '../profile-logic/format';
import { visibleName, visibleText } from '../profile-logic/names';
import { damageNotice, damageReport } from '../profile-logic/damage';
import type { Profile } from '../columns/profile';

type CountKey = 'name' | 'label' | 'count';

/** Decoded rows per chunk (rows not decoded yet, in a lazy load, are not counted). */
function rowsPerChunk(profile: Profile): number[] {
  const list = profile.info.chunkList;
  const out = new Array<number>(list.length).fill(0);
  const off = profile.events.offset;
  for (let i = 0; i < off.length; i++) {
    let lo = 0;
    let hi = list.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (list[mid].offset <= off[i]) lo = mid;
      else hi = mid - 1;
    }
    if (lo < list.length) out[lo]++;
  }
  return out;
}

function Flags({ flags, fromInfo }: { flags: Profile['info']['flags']; fromInfo: string }) {
  const [filter, setFilter] = useState('');
  const q = filter.trim().toLowerCase();
  const sorted = useMemo(() => [...flags].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0)), [flags]);
  const shown = q ? sorted.filter((f) => f.name.toLowerCase().includes(q) || f.value.toLowerCase().includes(q)) : sorted;
  if (flags.length === 0) {
    return <dd className="pre">{fromInfo ? visibleText(fromInfo) : 'none recorded (no jdk.*Flag events and no jvmFlags in jdk.JVMInformation)'}</dd>;
  }
  return (
    <dd>
      {fromInfo && <div className="pre">{visibleText(fromInfo)}</div>}
      <label className="field inline">
        {formatCount(flags.length)} flags from the jdk.*Flag events{q ? `, ${formatCount(shown.length)} match` : ''}
        <input type="search" aria-label="Filter flags" placeholder="filter flags" value={filter} onChange={(e) => setFilter(e.target.value)} />
      </label>
      <div style={{ maxHeight: 320, overflow: 'auto' }}>
        <table className="grid" aria-label="Flags">
          <thead>
            <tr>
              <th>Flag</th>
              <th>Value</th>
              <th>Origin</th>
            </tr>
          </thead>
          <tbody>
            {shown.map((f, k) => (
              <tr key={k}>
                <td className="name">{visibleName(f.name)}</td>
                <td className="pre">{visibleText(f.value)}</td>
                <td>{visibleName(f.origin)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </dd>
  );
}

function EventCounts({ profile, onOpenTable }: { profile: Profile; onOpenTable: (type: string) => void }) {
  const [sort, setSort] = useState<{ key: CountKey; descending: boolean }>({ key: 'count', descending: true });
  const types = useMemo(() => {
    const rows = profile.eventTypes.filter((t) => t.count > 0);
    const by = (a: (typeof rows)[number], b: (typeof rows)[number]) => {
      if (sort.key === 'count') return a.count - b.count || (a.name < b.name ? 1 : -1);
      const x = sort.key === 'name' ? a.name : a.label;
      const y = sort.key === 'name' ? b.name : b.label;
      return x < y ? -1 : x > y ? 1 : 0;
    };
    return rows.sort((a, b) => (sort.descending ? -by(a, b) : by(a, b)));
  }, [profile, sort]);
  const click = (key: CountKey) => setSort((s) => (s.key === key ? { key, descending: !s.descending } : { key, descending: key === 'count' }));
  const columns: { key: CountKey; label: string }[] = [
    { key: 'name', label: 'Type' },
    { key: 'label', label: 'Label' },
    { key: 'count', label: 'Count' },
  ];
  return (
    <table className="grid" aria-label="Event counts">
      <thead>
        <tr>
          {columns.map((c) => {
            const active = sort.key === c.key;
            return (
              <th key={c.key} className={c.key === 'count' ? 'num' : undefined} aria-sort={active ? (sort.descending ? 'descending' : 'ascending') : 'none'}>
                <button type="button" className="link sort" onClick={() => click(c.key)}>
                  {c.label}
                  {active ? (sort.descending ? ' ▾' : ' ▴') : ''}
                </button>
              </th>
            );
          })}
        </tr>
      </thead>
      <tbody>
        {types.map((t) => (
          <tr key={t.name}>
            <td className="name">
              <button type="button" className="link" title="Open the table of its events" onClick={() => onOpenTable(t.name)}>
                {visibleName(t.name)}
              </button>
            </td>
            <td>{visibleName(t.label)}</td>
            <td className="num">{formatCount(t.count)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** The files a recording was read from when several (a folder, chunk files), and those left out. */
export interface SourceFiles {
  files: { name: string; size: number; chunks: number }[];
  skipped: { name: string; why: string }[];
}

function Files({ sources }: { sources: SourceFiles }) {
  return (
    <dd>
      {formatCount(sources.files.length)} files read as one recording, in time order
      {sources.skipped.length > 0 && `; ${formatCount(sources.skipped.length)} left out`}
      <div style={{ maxHeight: 240, overflow: 'auto' }}>
        <table className="grid" aria-label="Files">
          <thead>
            <tr>
              <th>File</th>
              <th className="num">Size</th>
              <th className="num">Chunks</th>
            </tr>
          </thead>
          <tbody>
            {sources.files.map((f, k) => (
              <tr key={k}>
                <td className="name">{visibleName(f.name)}</td>
                <td className="num">{formatBytes(f.size)}</td>
                <td className="num">{formatCount(f.chunks)}</td>
              </tr>
            ))}
            {sources.skipped.map((f, k) => (
              <tr key={`s${k}`}>
                <td className="name">{visibleName(f.name)}</td>
                <td colSpan={2}>left out: {visibleText(f.why)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </dd>
  );
}

export function RecordingPanel({
  profile,
  fileName,
  sources,
  onOpenTable,
}: {
  profile: Profile;
  fileName: string;
  sources?: SourceFiles;
  onOpenTable: (type: string) => void;
}) {
  const i = profile.info;
  const damage = useMemo(() => (i.errors.length > 0 ? damageReport(i) : []), [i]);
  // A chunk still being written is left out, not damage.
  const damaged = useMemo(() => damageNotice(i)?.damaged ?? false, [i]);
  const perChunk = useMemo(() => rowsPerChunk(profile), [profile]);
  // Settings grouped by event type, types and names in order.
  const settings = useMemo(() => {
    const groups = new Map<string, { name: string; value: string }[]>();
    for (const s of i.settings) {
      const g = groups.get(s.type) ?? [];
      g.push({ name: s.name, value: s.value });
      groups.set(s.type, g);
    }
    const cmp = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
    return [...groups.entries()].sort((a, b) => cmp(a[0], b[0])).map(([type, rows]) => ({ type, rows: rows.sort((a, b) => cmp(a.name, b.name) || cmp(a.value, b.value)) }));
  }, [i.settings]);
  const jvm = i.jvm;
  // The version string usually starts with the JVM's name: say it once.
  const jvmText = jvm ? (jvm.version.startsWith(jvm.name) || !jvm.name ? jvm.version : `${jvm.name} ${jvm.version}`) : null;
  return (
    <div className="recording" aria-label="Recording">
      {damage.length > 0 && (
        <div role="note" aria-label={damaged ? 'Damage' : 'Not read'}>
          <h3>{damaged ? 'Damage' : 'Not read'}</h3>
          <ul>
            {damage.map((d, k) => (
              <li key={k}>{visibleText(d)}</li>
            ))}
          </ul>
        </div>
      )}
      <dl>
        <dt>File</dt>
        <dd>
          {fileName} ({formatBytes(i.fileSize)})
        </dd>
        {sources && (
          <>
            <dt>Files</dt>
            <Files sources={sources} />
          </>
        )}
        <dt>Start</dt>
        <dd>{new Date(i.startMs).toISOString()}</dd>
        <dt>Duration</dt>
        <dd>{formatMs(i.durationMs)}</dd>
        <dt>Chunks</dt>
        <dd>{i.chunks}</dd>
        <dt>JVM</dt>
        <dd className="pre">{jvmText !== null ? visibleText(jvmText) : 'not recorded'}</dd>
        <dt>Arguments</dt>
        <dd className="pre">{visibleText(jvm?.args || '–')}</dd>
        <dt>Flags</dt>
        <Flags flags={i.flags} fromInfo={jvm?.flags ?? ''} />
        <dt>OS</dt>
        <dd className="pre">{visibleText(i.os ?? '–')}</dd>
        <dt>CPU</dt>
        <dd className="pre">{visibleText(i.cpu ?? '–')}</dd>
      </dl>
      {i.chunkList.length > 0 && (
        <>
          <h3>Chunks</h3>
          <table className="grid" aria-label="Chunks">
            <thead>
              <tr>
                <th className="num">#</th>
                <th>Start</th>
                <th className="num">Duration</th>
                <th className="num">Size</th>
                <th className="num" title="Rows decoded so far (a lazy load decodes some types later)">
                  Events
                </th>
              </tr>
            </thead>
            <tbody>
              {i.chunkList.map((c, k) => (
                <tr key={k}>
                  <td className="num">{k}</td>
                  <td>+{formatMs(c.startMs - i.startMs)}</td>
                  <td className="num">{formatMs(c.durationMs)}</td>
                  <td className="num">{formatBytes(c.size)}</td>
                  <td className="num">{formatCount(perChunk[k])}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </>
      )}
      <h3>Events</h3>
      <EventCounts profile={profile} onOpenTable={onOpenTable} />
      {settings.length > 0 && (
        <>
          <h3>Settings</h3>
          <table className="grid" aria-label="Settings">
            {settings.map((g) => (
              <tbody key={g.type}>
                <tr>
                  <th colSpan={2} className="name" scope="rowgroup">
                    {visibleName(g.type)}
                  </th>
                </tr>
                {g.rows.map((s, k) => (
                  <tr key={k}>
                    <td>{visibleName(s.name)}</td>
                    <td>{visibleName(s.value)}</td>
                  </tr>
                ))}
              </tbody>
            ))}
          </table>
        </>
      )}
      {i.properties.length > 0 && (
        <>
          <h3>System properties</h3>
          <table className="grid" aria-label="System properties">
            <tbody>
              {i.properties.map((p, k) => (
                <tr key={k}>
                  <td className="name">{visibleName(p.key)}</td>
                  <td className="pre">{visibleText(p.value)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </>
      )}
    </div>
  );
}
