/** What a table leaves out, said where it leaves it out: "The first 300 of 4,512 methods shown (heaviest first)." */
import { formatCount } from '../profile-logic/format';

export function RowCap({ shown, total, noun, order }: { shown: number; total: number; noun: string; order: string }) {
  if (total <= shown) return null;
  return (
    <p className="hint" role="note" aria-label="Rows left out">
      The first {formatCount(shown)} of {formatCount(total)} {noun} shown ({order}).
    </p>
  );
}
