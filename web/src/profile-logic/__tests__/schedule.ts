/**
 * The scenario's known windows (fixtures/expected/NAME.schedule.tsv, written by the scenario as
 * it ran: kind, thread, start and end in epoch ns), in ms since the recording's start: the truth
 * the analyses are tested against, never the app's own output.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';

export interface Scheduled {
  kind: string;
  /** The thread that made the window (for a hold: the holder). */
  thread: string;
  window: [number, number];
}

/** Every window of the schedule, in the order written (by start). */
export function schedule(name: string, startMs: number): Scheduled[] {
  return readFileSync(resolve(__dirname, `../../../../fixtures/expected/${name}.schedule.tsv`), 'utf8')
    .trim()
    .split('\n')
    .map((l) => l.split('\t'))
    .map((r) => ({ kind: r[0], thread: r[1], window: [Number(BigInt(r[2]) / 1000n) / 1000 - startMs, Number(BigInt(r[3]) / 1000n) / 1000 - startMs] as [number, number] }));
}

export function scheduleWindows(name: string, kind: string, startMs: number): [number, number][] {
  return schedule(name, startMs)
    .filter((r) => r.kind === kind)
    .map((r) => r.window);
}
