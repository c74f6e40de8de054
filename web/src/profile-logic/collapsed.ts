/**
 * Collapsed stacks (`root;…;leaf WEIGHT`, one line per distinct stack) of a profile's events:
 * the text format flame-graph tools exchange, and what the CLI prints.
 */
import type { IndexIntoEventTypes, IndexIntoStacks, Profile } from './profile';

export type CollapseWeight = 'events' | 'weight';

/** Frame names of a stack, root first. */
export function stackNames(profile: Profile, stack: IndexIntoStacks): string[] {
  const out: string[] = [];
  const { frame, prefix } = profile.stacks;
  for (let s = stack; s >= 0; s = prefix[s]) out.push(profile.strings[profile.frames.name[frame[s]]]);
  return out.reverse();
}

/**
 * Lines for the events of `type` accepted by `keep`, sorted by code unit; `weight` 'events'
 * counts events, 'weight' sums the weight column (wall-clock `samples`, allocation bytes).
 */
export function collapsedStacks(
  profile: Profile,
  type: IndexIntoEventTypes,
  weight: CollapseWeight,
  keep: (event: number) => boolean = () => true,
): string[] {
  const e = profile.events;
  const perStack = new Map<number, number>();
  for (let i = 0; i < e.length; i++) {
    if (e.type[i] !== type || !keep(i)) continue;
    const w = weight === 'events' ? 1 : Math.max(0, Math.trunc(e.weight[i]));
    perStack.set(e.stack[i], (perStack.get(e.stack[i]) ?? 0) + w);
  }
  const merged = new Map<string, number>();
  for (const [s, w] of perStack) {
    const line = s < 0 ? '' : stackNames(profile, s).join(';');
    merged.set(line, (merged.get(line) ?? 0) + w);
  }
  return [...merged].map(([l, w]) => `${l} ${w}`).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
}
