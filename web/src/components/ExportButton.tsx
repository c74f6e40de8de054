/**
 * Saves the current selection as collapsed stacks (`root;…;leaf WEIGHT`), the text format
 * flame-graph tools read. Made in the page and saved through a blob: URL; nothing is uploaded.
 */
import { collapsedStacks } from '../profile-logic/collapsed';
import type { Profile } from '../columns/profile';
import type { WeightMode } from '../profile-logic/kinds';

interface Props {
  profile: Profile;
  typeIndex: number;
  /** The selected events, built when the user asks (the list can hold millions). */
  select: () => Int32Array;
  weightMode: WeightMode;
  fileName: string;
}

export function ExportButton({ profile, typeIndex, select, weightMode, fileName }: Props) {
  const save = () => {
    const selection = select();
    const keep = new Uint8Array(profile.events.length);
    for (let k = 0; k < selection.length; k++) keep[selection[k]] = 1;
    const lines = collapsedStacks(profile, typeIndex, weightMode, (i) => keep[i] === 1);
    const blob = new Blob([lines.join('\n') + '\n'], { type: 'text/plain' });
    const url = URL.createObjectURL(blob);
    const a = document.createElement('a');
    a.href = url;
    a.download = `${fileName.replace(/\.jfr(\.gz)?$/, '')}.${profile.eventTypes[typeIndex]?.name ?? 'events'}.collapsed.txt`;
    document.body.appendChild(a);
    a.click();
    a.remove();
    setTimeout(() => URL.revokeObjectURL(url), 1000);
  };
  return (
    <button type="button" onClick={save} title={`Save the selection as collapsed stacks, weighted as the flame graph (${weightMode === 'duration' ? 'wait time in µs' : weightMode})`}>
      Export stacks
    </button>
  );
}
