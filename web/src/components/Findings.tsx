/** The selection in words: a few sentences with numbers, each with a link to the view that shows it. */
import type { Finding } from '../profile-logic/findings';

interface Props {
  findings: Finding[];
  /** Whether a range is selected (else the findings speak of the whole recording). */
  ranged: boolean;
  onShow: (f: Finding) => void;
}

const VIEW_NAME: Record<Finding['view'], string> = { locks: 'Locks', threads: 'Thread time', flame: 'Flame graph' };

export function FindingsView({ findings, ranged, onShow }: Props) {
  if (findings.length === 0) {
    return (
      <p className="hint">
        Nothing stands out in {ranged ? 'the selection' : 'the recording'}: no pile-up on a lock, no rise in threads held up, no I/O slower than
        in the rest, GC pauses under 5% of the time. Select a spike (Next spike) to ask about it.
      </p>
    );
  }
  return (
    <ul className="findings" aria-label="Findings">
      {findings.map((f, k) => (
        <li key={k}>
          <span>{f.text}</span>{' '}
          <button type="button" className="link" onClick={() => onShow(f)}>
            Show in {VIEW_NAME[f.view]}
          </button>
        </li>
      ))}
    </ul>
  );
}
