/**
 * A call tree as a standalone SVG flame graph: roots at the bottom, each frame as wide as its
 * weight, its name inside (cut to fit) and in full in its <title>, with the weight.
 *
 *   <svg …><rect x y width height fill/><text>Class.method</text><title>Class.method · 812 ms (41.2%)</title>…</svg>
 *
 * Names from the recording are text: made visible (names.ts) and XML-escaped, never markup.
 * Frames narrower than `minWidth` px are left out (with everything above them), as any flame
 * graph drawn at a width must.
 */
import type { CallNode } from './calltree';
import { formatPercent, formatWeight } from './format';
import type { WeightMode } from './kinds';
import { visibleName } from './names';

export interface FlameSvgOptions {
  width?: number;
  frameHeight?: number;
  /** Fill per frame kind (FrameKind order); the root's fill apart. */
  colors: readonly string[];
  rootColor: string;
  mode: WeightMode;
  title: string;
  minWidth?: number;
}

/** Text for XML character data and attribute values. */
export function xmlText(s: string): string {
  return visibleName(s).replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' })[c]!);
}

const CHAR_W = 6.6; // 11 px monospace

interface Placed {
  node: CallNode;
  x: number;
  w: number;
  depth: number;
}

export function flameSvg(tree: CallNode, o: FlameSvgOptions): { svg: string; width: number; height: number } {
  const width = o.width ?? 1200;
  const fh = o.frameHeight ?? 18;
  const minW = o.minWidth ?? 0.5;
  const total = tree.value || 1;
  const placed: Placed[] = [];
  const visit = (node: CallNode, x: number, depth: number) => {
    const w = (node.value / total) * width;
    if (w < minW) return;
    placed.push({ node, x, w, depth });
    let cx = x;
    for (const c of node.children) {
      visit(c, cx, depth + 1);
      cx += (c.value / total) * width;
    }
  };
  visit(tree, 0, 0);
  const depth = placed.reduce((m, p) => Math.max(m, p.depth), 0) + 1;
  const top = 28;
  const height = top + depth * fh + 4;
  const out: string[] = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="monospace" font-size="11">`,
    `<rect width="100%" height="100%" fill="#ffffff"/>`,
    `<text x="6" y="17" font-size="13" font-family="sans-serif" fill="#212529">${xmlText(o.title)}</text>`,
  ];
  for (const p of placed) {
    const y = top + (depth - 1 - p.depth) * fh;
    const fill = p.depth === 0 ? o.rootColor : (o.colors[p.node.kind] ?? o.rootColor);
    const name = p.node.name;
    const label = `${name} · ${formatWeight(p.node.value, o.mode)} (${formatPercent(p.node.value, total)})`;
    out.push(`<g><title>${xmlText(label)}</title>`);
    out.push(`<rect x="${+p.x.toFixed(2)}" y="${y}" width="${+Math.max(0.1, p.w - 0.5).toFixed(2)}" height="${fh - 1}" fill="${fill}"/>`);
    const fits = Math.floor((p.w - 6) / CHAR_W);
    if (fits >= 3) {
      const chars = Array.from(visibleName(name));
      const text = chars.length <= fits ? chars.join('') : `${chars.slice(0, fits - 1).join('')}…`;
      out.push(`<text x="${+(p.x + 3).toFixed(2)}" y="${y + fh - 5}" fill="#000000">${xmlText(text)}</text>`);
    }
    out.push('</g>');
  }
  out.push('</svg>');
  return { svg: out.join('\n'), width, height };
}
