/**
 * Collapsed stacks (`root;…;leaf WEIGHT`, one line per distinct stack) of a profile's events:
 * the text format flame-graph tools exchange, and what the CLI prints.
 */
import type { IndexIntoEventTypes, IndexIntoStacks, Profile } from '../columns/profile';
import { eventWeight, type WeightMode } from './kinds';

/** Frame names of a stack, root first. */
export function stackNames(profile: Profile, stack: IndexIntoStacks): string[] {
  const out: string[] = [];
  const { frame, prefix } = profile.stacks;
  for (let s = stack; s >= 0; s = prefix[s]) out.push(profile.strings[profile.frames.name[frame[s]]]);
  return out.reverse();
}

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
    const line = s < 0 ? '' : stackNames(profile, s).join(';');
    merged.set(line, (merged.get(line) ?? 0) + w);
  }
  return [...merged].map(([l, w]) => `${l} ${Math.max(0, Math.round(w * scale))}`).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
}
