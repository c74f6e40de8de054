/**
 * One event in words, as the timeline's hover and the event panel both show it: type, time,
 * duration, thread, state, subject, the other thread involved, and its stack leaf first.
 */
import type { IndexIntoEvents, Profile } from '../columns/profile';
import { stackNames } from './collapsed';
import { formatMs, formatTime } from './format';
import { subjectText } from './subjects';
import { threadLabel } from './names';

export interface EventSummary {
  /** "Java Monitor Blocked at 4.213 s, lasting 81 ms" */
  title: string;
  thread: string;
  state: string | null;
  subject: string | null;
  /** "handed over by search-worker-3 (…)", "notified by main", or null. */
  peer: string | null;
  /** Frame names, leaf first. */
  frames: string[];
}

export function threadName(profile: Profile, row: number): string {
  return row >= 0 ? threadLabel(profile, row) : '–';
}

/** `clock`: epoch ms of the recording's start when times read as the clock, else null. */
export function summarize(profile: Profile, i: IndexIntoEvents, clock: number | null): EventSummary {
  const e = profile.events;
  const type = profile.eventTypes[e.type[i]];
  const peerName = e.peer[i] >= 0 ? threadName(profile, e.peer[i]) : null;
  return {
    title: `${type?.label ?? 'Event'} at ${formatTime(e.start[i], clock)}${e.duration[i] > 0 ? `, lasting ${formatMs(e.duration[i])}` : ''}`,
    thread: threadName(profile, e.thread[i]),
    state: e.state[i] >= 0 ? profile.strings[e.state[i]] : null,
    subject: subjectText(profile, i),
    peer:
      peerName === null
        ? null
        : type?.name === 'jdk.JavaMonitorWait'
          ? `notified by ${peerName}`
          : type?.kind === 'pinned'
            ? `pinned to its carrier ${peerName} (held while pinned)`
            : `handed over by ${peerName} (the previous owner; in a pile-up often another waiter: Locks names who held it)`,
    frames: e.stack[i] >= 0 ? stackNames(profile, e.stack[i]).reverse() : [],
  };
}

/** The hover's lines: the summary with at most `maxFrames` frames, `note` before them. */
export function summaryLines(s: EventSummary, note: string | null = null, maxFrames = 6): string[] {
  const lines = [s.title, `thread ${s.thread}`];
  if (s.state !== null) lines.push(s.state);
  if (s.subject !== null) lines.push(s.subject);
  if (s.peer !== null) lines.push(s.peer);
  if (note !== null) lines.push(note);
  lines.push(...s.frames.slice(0, maxFrames).map((f) => `  ${f}`));
  if (s.frames.length > maxFrames) lines.push(`  … ${s.frames.length - maxFrames} more (click for all)`);
  return lines;
}
