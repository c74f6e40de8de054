/** One event in full: its stack and every field, decoded on demand from the file. */
import { useEffect, useState } from 'react';
import { decodeEventFields } from '../engine';
import { formatMs, formatTime } from '../profile-logic/format';
import type { Profile } from '../profile-logic/profile';
import { subjectText } from '../profile-logic/subjects';
import { FRAME_COLOR, FRAME_KIND_NAME } from './colors';

export function EventPanel({ profile, event, clock, onClose }: { profile: Profile; event: number; clock: boolean; onClose: () => void }) {
  const [fields, setFields] = useState<{ event: number; text: string } | null>(null);
  useEffect(() => {
    let live = true;
    decodeEventFields(profile, event).then(
      (f) => live && setFields({ event, text: JSON.stringify(f, null, 2) }),
      (e: unknown) => live && setFields({ event, text: `Could not decode the fields: ${e instanceof Error ? e.message : String(e)}` }),
    );
    return () => {
      live = false;
    };
  }, [profile, event]);
  const e = profile.events;
  const type = profile.eventTypes[e.type[event]];
  const subject = subjectText(profile, event);
  // Leaf first, with line numbers and frame kinds.
  const frames: { name: string; line: number; kind: number }[] = [];
  for (let st = e.stack[event]; st >= 0; st = profile.stacks.prefix[st]) {
    const f = profile.stacks.frame[st];
    frames.push({ name: profile.strings[profile.frames.name[f]], line: profile.frames.line[f], kind: profile.frames.kind[f] });
  }
  return (
    <aside className="event-panel" aria-label="Event details">
      <header>
        <strong>{type?.label ?? 'Event'}</strong>
        <button type="button" onClick={onClose} aria-label="Close details">
          ×
        </button>
      </header>
      <p>
        {type?.name} at {formatTime(e.start[event], clock ? profile.info.startMs : null)}
        {e.duration[event] > 0 ? ` for ${formatMs(e.duration[event])}` : ''}
        <br />
        thread {e.thread[event] >= 0 ? profile.strings[profile.threads.name[e.thread[event]]] : '–'}
        {subject !== null && (
          <>
            <br />
            {subject}
          </>
        )}
      </p>
      <h4>Stack ({frames.length} frames, leaf first)</h4>
      <ol className="stack">
        {frames.map((f, k) => (
          <li key={k} title={FRAME_KIND_NAME[f.kind]}>
            <i className="kind" style={{ background: FRAME_COLOR[f.kind] }} />
            {f.name}
            {f.line >= 0 && <span className="line">:{f.line}</span>}
          </li>
        ))}
      </ol>
      <h4>Fields</h4>
      <pre className="fields">{fields && fields.event === event ? fields.text : 'decoding…'}</pre>
    </aside>
  );
}
