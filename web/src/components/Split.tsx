/**
 * The handle between the timeline and the views below it: drag it, or ↑ ↓ by one lane with it
 * focused, Home and End to the limits. The panes share the height the bars above leave as flex
 * grow factors (share and 1 − share, from a basis of 0), so no pane is measured to lay them out;
 * the share is kept in localStorage and the page opens as it was left whatever the window's size.
 *
 *   ┌ timeline (flex: share; its lanes fill what its head leaves) ┐
 *   ├──────────────── handle (role separator) ────────────────────┤
 *   └ views (flex: 1 − share) ────────────────────────────────────┘
 */
import { useCallback, useState } from 'react';

const SPLIT_KEY = 'jfrscope:split';
/** The timeline's default share of the height the bars leave. */
export const SPLIT_DEFAULT = 0.55;
export const SPLIT_HANDLE = 6;

function stored(): number {
  try {
    const v = Number(localStorage.getItem(SPLIT_KEY));
    return v > 0 && v < 1 ? v : SPLIT_DEFAULT;
  } catch {
    return SPLIT_DEFAULT;
  }
}

/** The timeline's share of the height and its setter (kept in localStorage). */
export function useSplitShare(): [number, (v: number) => void] {
  const [share, setShare] = useState(stored);
  const set = useCallback((v: number) => {
    const c = Math.min(0.95, Math.max(0.05, v));
    setShare(c);
    try {
      localStorage.setItem(SPLIT_KEY, c.toFixed(4));
    } catch {
      // storage refused: the split lasts for this page only
    }
  }, []);
  return [share, set];
}

interface Props {
  share: number;
  onShare: (v: number) => void;
  /** Smallest heights (px) of the pane above and the pane below. */
  minTop: number;
  minBottom: number;
  /** A keyboard step, px (a lane). */
  step: number;
}

/** The panes' heights, read from the handle's neighbours: [above, below]. */
function panes(handle: HTMLElement): [number, number] {
  const a = handle.previousElementSibling?.getBoundingClientRect().height ?? 0;
  const b = handle.nextElementSibling?.getBoundingClientRect().height ?? 0;
  return [a, b];
}

export function SplitHandle({ share, onShare, minTop, minBottom, step }: Props) {
  const [dragging, setDragging] = useState(false);
  // Move the edge to `top` px below the pane above's top, within the limits.
  const moveTo = (handle: HTMLElement, top: number) => {
    const [a, b] = panes(handle);
    const room = a + b;
    if (room <= 0) return;
    const px = Math.min(room - minBottom, Math.max(minTop, top));
    onShare(px / room);
  };
  return (
    <div
      className={`split-handle${dragging ? ' active' : ''}`}
      role="separator"
      aria-orientation="horizontal"
      aria-label="Timeline height: drag, or ↑ ↓ with the handle focused"
      aria-valuenow={Math.round(share * 100)}
      aria-valuemin={5}
      aria-valuemax={95}
      tabIndex={0}
      style={{ height: SPLIT_HANDLE }}
      onKeyDown={(ev) => {
        const [a, b] = panes(ev.currentTarget);
        const to = ev.key === 'ArrowUp' ? a - step : ev.key === 'ArrowDown' ? a + step : ev.key === 'Home' ? minTop : ev.key === 'End' ? a + b - minBottom : null;
        if (to === null) return;
        ev.preventDefault();
        ev.stopPropagation();
        moveTo(ev.currentTarget, to);
      }}
      onPointerDown={(ev) => {
        if (ev.button !== 0) return;
        ev.preventDefault();
        ev.currentTarget.setPointerCapture(ev.pointerId);
        setDragging(true);
      }}
      onPointerMove={(ev) => {
        if (!dragging) return;
        const above = ev.currentTarget.previousElementSibling?.getBoundingClientRect().top ?? 0;
        moveTo(ev.currentTarget, ev.clientY - above - SPLIT_HANDLE / 2);
      }}
      onPointerUp={() => setDragging(false)}
      onPointerCancel={() => setDragging(false)}
    />
  );
}
