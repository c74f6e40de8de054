/**
 * Saving the selection: as collapsed stacks (`root;…;leaf WEIGHT`, the text format flame-graph
 * tools read, weighted as the flame graph weighs), and as pictures: the flame graph as SVG or
 * PNG, the timeline as PNG. Made in the page and saved through a blob: URL; nothing is uploaded.
 */
import { collapsedStacks } from '../profile-logic/collapsed';
import type { Profile } from '../columns/profile';
import type { CallNode } from '../profile-logic/calltree';
import { flameSvg } from '../profile-logic/flame-svg';
import type { WeightMode } from '../profile-logic/kinds';
import { FRAME_COLOR } from './colors';
import { download, exportName } from './download';

interface Props {
  profile: Profile;
  typeIndex: number;
  /** The selected events, built when the user asks (the list can hold millions). */
  select: () => Int32Array;
  weightMode: WeightMode;
  fileName: string;
  /** The flame graph's tree (the selection's, as the view draws it). */
  tree: CallNode;
  /** What the flame graph shows, for the picture's title. */
  title: string;
}

const ROOT_COLOR = '#dee2e6';

/** An SVG drawn on a canvas (through a data: URL, which the page's policy allows for images) as PNG. */
async function svgToPng(svg: string, width: number, height: number, scale = 2): Promise<Blob> {
  const img = new Image();
  img.src = `data:image/svg+xml;base64,${base64(svg)}`;
  await img.decode();
  const c = document.createElement('canvas');
  c.width = Math.round(width * scale);
  c.height = Math.round(height * scale);
  const g = c.getContext('2d')!;
  g.scale(scale, scale);
  g.drawImage(img, 0, 0, width, height);
  return canvasPng(c);
}

function canvasPng(c: HTMLCanvasElement): Promise<Blob> {
  return new Promise((resolve, reject) => c.toBlob((b) => (b ? resolve(b) : reject(new Error('The picture could not be made.'))), 'image/png'));
}

/** The timeline's canvases (histogram and axis, then the lanes in view), one under the other. */
async function timelinePng(): Promise<Blob> {
  const canvases = [...document.querySelectorAll<HTMLCanvasElement>('.timeline canvas')];
  if (!canvases.length) throw new Error('No timeline on screen.');
  const c = document.createElement('canvas');
  c.width = Math.max(...canvases.map((x) => x.width));
  c.height = canvases.reduce((h, x) => h + x.height, 0);
  const g = c.getContext('2d')!;
  g.fillStyle = getComputedStyle(document.body).backgroundColor || '#ffffff';
  g.fillRect(0, 0, c.width, c.height);
  let y = 0;
  for (const x of canvases) {
    g.drawImage(x, 0, y);
    y += x.height;
  }
  return canvasPng(c);
}

/** UTF-8 bytes as base64 (btoa reads one byte per character). */
function base64(text: string): string {
  const bytes = new TextEncoder().encode(text);
  let s = '';
  for (let i = 0; i < bytes.length; i += 0x8000) s += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(s);
}

export function ExportButton({ profile, typeIndex, select, weightMode, fileName, tree, title }: Props) {
  const typeName = profile.eventTypes[typeIndex]?.name ?? 'events';
  const save = () => {
    const selection = select();
    const keep = new Uint8Array(profile.events.length);
    for (let k = 0; k < selection.length; k++) keep[selection[k]] = 1;
    const lines = collapsedStacks(profile, typeIndex, weightMode, (i) => keep[i] === 1);
    download(new Blob([lines.join('\n') + '\n'], { type: 'text/plain' }), `${exportName(fileName, typeName)}.collapsed.txt`);
  };
  const flame = () => flameSvg(tree, { colors: FRAME_COLOR, rootColor: ROOT_COLOR, mode: weightMode, title });
  const close = (ev: React.MouseEvent) => (ev.currentTarget.closest('details') as HTMLDetailsElement | null)?.removeAttribute('open');
  const picture = async (what: 'flame-svg' | 'flame-png' | 'timeline-png') => {
    const base = exportName(fileName, typeName);
    try {
      if (what === 'flame-svg') download(new Blob([flame().svg], { type: 'image/svg+xml' }), `${base}.flame.svg`);
      else if (what === 'flame-png') {
        const f = flame();
        download(await svgToPng(f.svg, f.width, f.height), `${base}.flame.png`);
      } else download(await timelinePng(), `${base}.timeline.png`);
    } catch (e) {
      alert(`Could not save the picture: ${e instanceof Error ? e.message : String(e)}`);
    }
  };
  return (
    <>
      <button type="button" onClick={save} title={`Save the selection as collapsed stacks, weighted as the flame graph (${weightMode === 'duration' ? 'wait time in µs' : weightMode})`}>
        Export stacks
      </button>
      <details className="menu">
        <summary aria-label="Save a picture">Picture</summary>
        <div className="menu-body picture-menu" role="group" aria-label="Pictures">
          <button type="button" onClick={(e) => (close(e), void picture('flame-svg'))}>
            Flame graph (SVG)
          </button>
          <button type="button" onClick={(e) => (close(e), void picture('flame-png'))}>
            Flame graph (PNG)
          </button>
          <button type="button" onClick={(e) => (close(e), void picture('timeline-png'))}>
            Timeline (PNG)
          </button>
        </div>
      </details>
    </>
  );
}
