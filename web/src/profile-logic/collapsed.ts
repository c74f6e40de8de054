/**
 * Collapsed stacks (`root;…;leaf WEIGHT`, one line per distinct stack) of a profile's events:
 * the text format flame-graph tools exchange, and what the CLI prints.
 */
import { STACK_LOST, type IndexIntoEventTypes, type IndexIntoStacks, type Profile } from '../columns/profile';
import { eventWeight, type WeightMode } from './kinds';

/** Frame names of a stack, root first. */
export function stackNames(profile: Profile, stack: IndexIntoStacks): string[] {
  const out: string[] = [];
  const { frame, prefix } = profile.stacks;
  for (let s = stack; s >= 0; s = prefix[s]) out.push(profile.strings[profile.frames.name[frame[s]]]);
  return out.reverse();
}

/**
 * A frame name as a collapsed line may hold it, the CLI's escape exactly: `\\`, `\x3b` for the
 * separator `;`, `\n` `\r` `\t`, `\xHH` for other C0 controls and DEL, `\u{HH}` for C1 ones, so a
 * name cannot forge a line, a frame or a terminal escape.
 */
export function escapeFrame(name: string): string {
  let out = '';
  for (const ch of name) {
    const c = ch.codePointAt(0)!;
    if (ch === '\\') out += '\\\\';
    else if (ch === ';') out += '\\x3b';
    else if (ch === '\n') out += '\\n';
    else if (ch === '\r') out += '\\r';
    else if (ch === '\t') out += '\\t';
    else if (c < 0x20 || c === 0x7f) out += `\\x${c.toString(16).padStart(2, '0')}`;
    else if (c >= 0x80 && c <= 0x9f) out += `\\u{${c.toString(16)}}`;
    else out += ch;
  }
  return out;
}

/** The line a lost stack (its chunk cut before its constant pools) goes under, as the CLI writes it. */
export const LOST_LINE = '(stack lost: chunk cut)';

/**
 * Lines for the events of `type` accepted by `keep`, sorted by code unit, each stack weighed as
 * the view weighs it (kinds.ts): samples (wall-clock batches count their `samples`), bytes, one
 * per event, or durations, written in whole microseconds since the format's weights are integers.
 */
export function collapsedStacks(
  profile: Profile,
  type: IndexIntoEventTypes,
  mode: WeightMode,
  keep: (event: number) => boolean = () => true,
): string[] {
  const e = profile.events;
  const perStack = new Map<number, number>();
  for (let i = 0; i < e.length; i++) {
    if (e.type[i] !== type || !keep(i)) continue;
    const w = eventWeight(profile, i, mode);
    perStack.set(e.stack[i], (perStack.get(e.stack[i]) ?? 0) + w);
  }
  const scale = mode === 'duration' ? 1000 : 1;
  const merged = new Map<string, number>();
  for (const [s, w] of perStack) {
    const line = s === STACK_LOST ? LOST_LINE : s < 0 ? '' : stackNames(profile, s).map(escapeFrame).join(';');
    merged.set(line, (merged.get(line) ?? 0) + w);
  }
  return [...merged].map(([l, w]) => `${l} ${Math.max(0, Math.round(w * scale))}`).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
}
