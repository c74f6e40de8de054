/**
 * Names from a recording (threads, frames, paths, hosts, properties, event strings) as the page
 * shows them. A recording is someone else's file: a name may carry control characters or bidi
 * overrides that would rewrite what is around it. Those are drawn as visible escapes,
 *
 *   "evil\u202Egnp.exe"  →  "evil\u202egnp.exe"      (the override shown, not obeyed)
 *   "line\nbreak\u0000"  →  "line\nbreak\u0000"     (as text: backslash, n, …)
 *
 * and everything else is left as it is. Names are inserted as text, never HTML, everywhere; the
 * page also isolates them (unicode-bidi: isolate, <bdi>) so a right-to-left name stays inside
 * its cell.
 */
import type { Profile } from '../columns/profile';

// C0, DEL and C1 controls; ALM; LRM, RLM; LRE, RLE, PDF, LRO, RLO; LRI, RLI, FSI, PDI; line and
// paragraph separators.
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

const SHORT: Record<string, string> = { '\n': '\\n', '\r': '\\r', '\t': '\\t' };

/** `s` with every control and bidi formatting character written as an escape. */
export function visibleName(s: string): string {
  return s.replace(CONTROL, (c) => SHORT[c] ?? `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/**
 * Text of several lines (OS and CPU descriptions, decoded fields), shown as preformatted text:
 * visibleName line by line, tabs kept (a /proc/cpuinfo dump aligns its columns with them).
 */
export function visibleText(s: string): string {
  return s
    .split('\n')
    .map((line) => line.split('\t').map(visibleName).join('\t'))
    .join('\n');
}

/**
 * `s` cut in the middle to fit `room` (as `width` measures it): "data-plane-kafka-re…handler-3",
 * so both the name's family and its number stay in view. The longest such text that fits, at
 * least one character each side when anything at all is cut; whole code points only.
 */
export function elideMiddle(s: string, room: number, width: (t: string) => number): string {
  if (width(s) <= room) return s;
  const cps = Array.from(s);
  // The most characters kept (split head ≥ tail) whose elided text fits, by bisection.
  const text = (keep: number) => {
    const head = Math.ceil(keep / 2);
    return `${cps.slice(0, head).join('')}…${cps.slice(cps.length - (keep - head)).join('')}`;
  };
  let lo = 2;
  let hi = cps.length - 1;
  if (width(text(lo)) > room) return text(Math.min(2, cps.length));
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (width(text(mid)) <= room) lo = mid;
    else hi = mid - 1;
  }
  return text(lo);
}

/** A label by row number (a thread without Java or OS id): rows may be numbered otherwise when the file is opened again, so a link leaves it out. */
export const ROW_LABEL = /^\(unnamed(?: virtual)? thread row \d+\)$/;

/**
 * A thread's name as shown: its name, or for a thread without one (virtual threads of an
 * executor are unnamed, as the JDK reads them too) what tells it apart: "(unnamed virtual thread
 * #42)", by its Java id, else its OS id. Threads are hidden and pinned by it (so one unnamed
 * thread's lane hides alone, and the URL keeps it); the thread filter and exports match the
 * recorded name.
 */
export function threadLabel(profile: Profile, row: number): string {
  const name = profile.strings[profile.threads.name[row]];
  if (name !== '') return name;
  const { javaId, osId, virtual } = profile.threads;
  const id = javaId[row] > 0 ? `#${javaId[row]}` : osId[row] > 0 ? `os ${osId[row]}` : `row ${row}`;
  return `(unnamed${virtual[row] ? ' virtual' : ''} thread ${id})`;
}
