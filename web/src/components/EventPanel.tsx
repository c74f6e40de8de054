/** One event in full: its stack and every field, the fields decoded on demand by `loadFields`. */
import { useEffect, useState } from 'react';
import type { Profile } from '../columns/profile';
import { summarize } from '../profile-logic/describe';
import { visibleName, visibleText } from '../profile-logic/names';
import { FRAME_COLOR, FRAME_KIND_NAME } from './colors';

interface Props {
  profile: Profile;
  event: number;
  clock: boolean;
  /** Every field of the event, resolved (the app reads them from the file). */
  loadFields: (event: number) => Promise<Record<string, unknown>>;
  /** Which file of several, and where in it, the event lies ("a.jfr, byte 1,234"); null for one file. */
  placeOf?: (event: number) => string | null;
  onClose: () => void;
}

export function EventPanel({ profile, event, clock, loadFields, placeOf, onClose }: Props) {
  const [fields, setFields] = useState<{ event: number; text: string } | null>(null);
  useEffect(() => {
    let live = true;
    loadFields(event).then(
      // JSON escapes C0 controls already; each line then shows DEL, C1 and bidi controls too.
      (f) => live && setFields({ event, text: visibleText(JSON.stringify(f, null, 2)) }),
      (e: unknown) => live && setFields({ event, text: `Could not decode the fields: ${e instanceof Error ? e.message : String(e)}` }),
    );
    return () => {
      live = false;
    };
  }, [loadFields, event]);
  const e = profile.events;
  const type = profile.eventTypes[e.type[event]];
  const s = summarize(profile, event, clock ? profile.info.startMs : null);
  const place = placeOf?.(event) ?? null;
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
        {type?.name} · {s.title}
        <br />
        thread <bdi>{visibleName(s.thread)}</bdi>
        {s.subject !== null && (
          <>
            <br />
            <bdi>{visibleName(s.subject)}</bdi>
          </>
        )}
        {s.peer !== null && (
          <>
            <br />
            <bdi>{visibleName(s.peer)}</bdi>
          </>
        )}
        {place !== null && (
          <>
            <br />
            <span aria-label="Place in the files">
              in <bdi>{visibleName(place)}</bdi>
            </span>
          </>
        )}
      </p>
      <h4>Stack ({frames.length} frames, leaf first)</h4>
      <ol className="stack">
        {frames.map((f, k) => (
          <li key={k} title={FRAME_KIND_NAME[f.kind]}>
            <i className="kind" style={{ background: FRAME_COLOR[f.kind] }} />
            <bdi>{visibleName(f.name)}</bdi>
            {f.line >= 0 && <span className="line">:{f.line}</span>}
          </li>
        ))}
      </ol>
      <h4>Fields</h4>
      <pre className="fields">{fields && fields.event === event ? fields.text : 'decoding…'}</pre>
    </aside>
  );
}
