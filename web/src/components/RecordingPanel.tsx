/** What the recording says about itself: JVM, arguments, OS, chunks, settings, event counts. */
import { formatBytes, formatCount, formatMs } from '../profile-logic/format';
import { visibleName, visibleText } from '../profile-logic/names';
import type { Profile } from '../columns/profile';

export function RecordingPanel({ profile, fileName }: { profile: Profile; fileName: string }) {
  const i = profile.info;
  const types = [...profile.eventTypes].filter((t) => t.count > 0).sort((a, b) => b.count - a.count);
  return (
    <div className="recording" aria-label="Recording">
      <dl>
        <dt>File</dt>
        <dd>
          {fileName} ({formatBytes(i.fileSize)})
        </dd>
        <dt>Start</dt>
        <dd>{new Date(i.startMs).toISOString()}</dd>
        <dt>Duration</dt>
        <dd>{formatMs(i.durationMs)}</dd>
        <dt>Chunks</dt>
        <dd>{i.chunks}</dd>
        <dt>JVM</dt>
        <dd>{i.jvm ? visibleName(`${i.jvm.name} ${i.jvm.version}`) : 'not recorded'}</dd>
        <dt>Arguments</dt>
        <dd className="pre">{visibleText(i.jvm?.args || '–')}</dd>
        <dt>Flags</dt>
        <dd className="pre">{visibleText(i.jvm?.flags || '–')}</dd>
        <dt>OS</dt>
        <dd className="pre">{visibleText(i.os ?? '–')}</dd>
        <dt>CPU</dt>
        <dd className="pre">{visibleText(i.cpu ?? '–')}</dd>
      </dl>
      <h3>Events</h3>
      <table className="grid" aria-label="Event counts">
        <thead>
          <tr>
            <th>Type</th>
            <th className="num">Count</th>
          </tr>
        </thead>
        <tbody>
          {types.map((t) => (
            <tr key={t.name}>
              <td className="name" title={t.label}>
                {visibleName(t.name)}
              </td>
              <td className="num">{formatCount(t.count)}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {i.settings.length > 0 && (
        <>
          <h3>Settings</h3>
          <table className="grid" aria-label="Settings">
            <tbody>
              {i.settings.map((s, k) => (
                <tr key={k}>
                  <td className="name">{visibleName(s.type)}</td>
                  <td>{visibleName(s.name)}</td>
                  <td>{visibleName(s.value)}</td>
                </tr>
              ))}
            </tbody>
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
