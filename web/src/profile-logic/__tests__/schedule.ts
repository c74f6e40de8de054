/**
 * The scenario's known windows (fixtures/expected/NAME.schedule.tsv, written by the scenario as
 * it ran: kind, thread, start and end in epoch ns), in ms since the recording's start: the truth
 * the analyses are tested against, never the app's own output.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';

export function scheduleWindows(name: string, kind: string, startMs: number): [number, number][] {
  return readFileSync(resolve(__dirname, `../../../../fixtures/expected/${name}.schedule.tsv`), 'utf8')
    .trim()
    .split('\n')
    .map((l) => l.split('\t'))
    .filter((r) => r[0] === kind)
    .map((r) => [Number(BigInt(r[2]) / 1000n) / 1000 - startMs, Number(BigInt(r[3]) / 1000n) / 1000 - startMs]);
}
