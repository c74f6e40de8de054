/**
 * The recording a link was made on, when it lives on somebody's disk (the link carries its
 * fingerprint, name and start, not its bytes): which file to give the page, with a picker; and
 * when the file given is another one, both named side by side before the view is applied to it.
 */
import { formatBytes, formatCount } from '../profile-logic/format';
import { visibleName } from '../profile-logic/names';
import { FilePicker } from './FilePicker';

/** What names a recording file: its name, size, fingerprint (`<size>-<hash>`) and start. */
export interface FileFacts {
  name?: string;
  fingerprint: string;
  /** Start of the recording, ms since the Unix epoch. */
  startMs?: number;
}

export function sizeOf(f: FileFacts): number {
  return Number(f.fingerprint.split('-')[0]);
}

/** "2026-11-23 14:03:20 UTC" (milliseconds when there are any). */
export function startText(ms: number): string {
  const iso = new Date(ms).toISOString();
  return `${iso.slice(0, 10)} ${iso.slice(11, iso.endsWith('.000Z') ? 19 : 23)} UTC`;
}

/** "example.jfr (274.8 KiB, 281,405 bytes, started 2026-11-23 14:03:20 UTC)". */
export function factsText(f: FileFacts): string {
  const size = sizeOf(f);
  const parts = [`${formatBytes(size)}, ${formatCount(size)} bytes`];
  if (f.startMs !== undefined) parts.push(`started ${startText(f.startMs)}`);
  return `${f.name ? visibleName(f.name) : 'a recording'} (${parts.join(', ')})`;
}

interface Props {
  /** The recording the link names. */
  want: FileFacts;
  /** A file opened that is not it, decoded and held back; null until one is. */
  got: FileFacts | null;
  onFiles: (files: File[]) => void;
  /** Show the file given anyway, with the link's view. */
  onConfirm: () => void;
}

export function LinkedFile({ want, got, onFiles, onConfirm }: Props) {
  if (got) {
    return (
      <section className="linked-file wrong" role="alertdialog" aria-modal="false" aria-labelledby="linked-file-wrong" aria-describedby="linked-file-why">
        <h2 id="linked-file-wrong">Not the link’s recording</h2>
        <p id="linked-file-why">
          This is {factsText(got)}, the link is for {factsText(want)}. The fingerprints differ ({got.fingerprint} and {want.fingerprint}).
        </p>
        <div className="linked-file-actions">
          <button type="button" className="primary" onClick={onConfirm}>
            Open {got.name ? visibleName(got.name) : 'it'} anyway, with the link’s view
          </button>
          <FilePicker primary label="Choose another file" onFiles={onFiles} multiple />
          <FilePicker label="Choose another folder" onFiles={onFiles} folder />
        </div>
      </section>
    );
  }
  const size = sizeOf(want);
  return (
    <section className="linked-file" aria-labelledby="linked-file-title">
      <h2 id="linked-file-title">This link needs a recording from your disk</h2>
      <p>It was made on a file nobody uploaded (nothing of a recording leaves the machine it is opened on). Give it the same file:</p>
      <dl>
        <dt>File</dt>
        <dd className="pre">{want.name ? visibleName(want.name) : '(not named in the link)'}</dd>
        <dt>Size</dt>
        <dd>
          {formatBytes(size)} ({formatCount(size)} bytes)
        </dd>
        <dt>Started</dt>
        <dd>{want.startMs !== undefined ? startText(want.startMs) : '(not named in the link)'}</dd>
        <dt>Fingerprint</dt>
        <dd className="pre">{want.fingerprint}</dd>
      </dl>
      <div className="linked-file-actions">
        <FilePicker primary label={`Choose ${want.name ? visibleName(want.name) : 'the recording'}…`} onFiles={onFiles} multiple />
        <FilePicker label="Choose a folder…" onFiles={onFiles} folder />
        <span className="hint">or drop it anywhere on this page</span>
      </div>
    </section>
  );
}
