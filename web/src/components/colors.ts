/** Colours shared by the timeline and the flame graph (each event kind's own colours are in profile-logic/kinds). */

export type ThemeName = 'light' | 'dark';

/** A palette of the canvases (which cannot read CSS variables cheaply). */
export interface Palette {
  text: string;
  muted: string;
  rule: string;
  labelBg: string;
  axisBg: string;
  lane: string;
  laneAlt: string;
  other: string;
  selection: string;
  baseline: string;
  gcBand: string;
  gcMark: string;
}

const LIGHT: Palette = {
  text: '#212529',
  muted: '#6c757d',
  rule: '#dee2e6',
  labelBg: '#f8f9fa',
  axisBg: '#ffffff',
  lane: '#ffffff',
  laneAlt: '#f8f9fa',
  other: '#ced4da',
  selection: 'rgba(28, 126, 214, 0.14)',
  baseline: 'rgba(134, 142, 150, 0.20)',
  gcBand: 'rgba(250, 176, 5, 0.22)',
  gcMark: '#f59f00',
};

const DARK: Palette = {
  text: '#e9ecef',
  muted: '#adb5bd',
  rule: '#3b3f45',
  labelBg: '#25272b',
  axisBg: '#1a1b1e',
  lane: '#1a1b1e',
  laneAlt: '#212327',
  other: '#5c636a',
  selection: 'rgba(116, 192, 252, 0.20)',
  baseline: 'rgba(173, 181, 189, 0.20)',
  gcBand: 'rgba(250, 176, 5, 0.18)',
  gcMark: '#fab005',
};

/** The timeline's (and heatmap's) palette in a theme. */
export function THEME(theme: ThemeName): Palette {
  return theme === 'dark' ? DARK : LIGHT;
}

/**
 * Frame kinds coloured as async-profiler does: interpreted pale green, JIT green, inlined aqua,
 * native red, C++ yellow, kernel orange. The parser files async-profiler's "C1 compiled" under
 * Unknown, so Unknown takes async-profiler's C1 colour.
 */
export const FRAME_COLOR = ['#b2e1b2', '#50e150', '#50cccc', '#e15a5a', '#c8c83c', '#e17d00', '#cce880'];
export const FRAME_KIND_NAME = ['Interpreted', 'JIT compiled', 'Inlined', 'Native', 'C++', 'Kernel', 'C1 / other'];
