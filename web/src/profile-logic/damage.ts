/**
 * What is wrong with a damaged recording, in plain sentences: one per problem (the parser's
 * passes can meet one problem twice), the cut chunk's lost stacks counted, and where the data
 * really ends when the header claims more. A chunk still being written (the newest file of a
 * running JVM's repository, given with the others) is no damage: it is named, and left out.
 */
import type { RecordingInfo } from '../columns/profile';
import { formatCount, formatMs } from './format';

/** "… (chunk 2, at offset 0x1f4)" → the message without its place. */
function bare(message: string): string {
  return message.replace(/\s*\(chunk \d+, at offset 0x[0-9a-f]+\)\s*$/i, '');
}

/** The parser's word for a chunk whose header says it is still being written. */
const IN_PROGRESS = /^the chunk is still being written\b/;

export function damageReport(info: RecordingInfo): string[] {
  const out: string[] = [];
  const seen = new Set<string>();
  for (const e of info.errors) {
    const what = bare(e.message);
    const key = `${e.chunk}:${what}`;
    if (seen.has(key)) continue;
    seen.add(key);
    const m = /^the file is truncated: the chunk declares (\d+) bytes but only (\d+) are present$/.exec(what);
    if (m) {
      out.push(
        `The recording was cut in chunk ${e.chunk + 1} of ${info.chunks}: it declares ${formatCount(Number(m[1]))} bytes but only ${formatCount(Number(m[2]))} are there; what was written before the cut is shown.`,
      );
      continue;
    }
    if (IN_PROGRESS.test(what)) {
      out.push(`Chunk ${e.chunk + 1} is still being written (as the newest file of a running JVM's repository is): nothing in it can be read yet, so it was left out.`);
      continue;
    }
    // The end of a cut chunk, met again while decoding it, is the same problem.
    if (what === 'unexpected end of data' && [...seen].some((k) => k.startsWith(`${e.chunk}:the file is truncated`))) continue;
    out.push(`Chunk ${e.chunk + 1} is damaged at byte ${formatCount(e.offset)}: ${what}.`);
  }
  if (info.stacksLost > 0) {
    out.push(
      `${formatCount(info.stacksLost)} events of the cut chunk lost their stacks (its constant pools were never written): they are shown apart, as “(stack lost: chunk cut)”, not mixed with whole ones.`,
    );
  }
  if (out.length && info.dataEndMs !== null && info.dataEndMs - info.startMs < info.durationMs - 1) {
    out.push(`The data ends at ${formatMs(info.dataEndMs - info.startMs)}.`);
  } else if (out.length && info.dataEndMs !== null) {
    out.push(`The data ends at ${formatMs(info.durationMs)} after the start.`);
  }
  return out;
}

/** Whether something of the recording could not be read: a problem other than a chunk still being written. */
export function isDamaged(info: RecordingInfo): boolean {
  return info.errors.some((e) => !IN_PROGRESS.test(bare(e.message)));
}

/**
 * The sentence the page shows over a recording with problems: `damaged` unless the only
 * problem is a chunk still being written; null when nothing is wrong.
 */
export function damageNotice(info: RecordingInfo): { damaged: boolean; text: string } | null {
  const report = damageReport(info);
  if (report.length === 0) return null;
  const damaged = isDamaged(info);
  return { damaged, text: `${damaged ? 'The recording is damaged; showing what could be read.' : 'Showing what could be read.'} ${report.join(' ')}` };
}
