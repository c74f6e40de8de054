/**
 * The keyboard shortcuts (and the mouse's moves) the page has, on a sheet: "?" or the header's
 * Keys button opens it, Escape or Close shuts it.
 */
import { useEffect, useRef } from 'react';

const KEYS: [string, string][] = [
  ['?', 'this sheet (Escape closes it)'],
  ['Tab  Shift+Tab', 'move between controls; the timeline and its lanes take the keys below once focused'],
  ['1 … 9', 'open the views in their tabs’ order (outside text fields); ← → Home End on a tab: the next view'],
  ['/', 'the stack filter'],
  ['t', 'the lanes (the timeline’s keys)'],
  ['+  −', 'zoom in, out (timeline focused)'],
  ['←  →', 'pan the timeline (Shift+← → when a lane is chosen); on the lane names’ edge, make the column narrower or wider'],
  ['↑  ↓  Home  End', 'choose a lane (the first, the last)'],
  ['←  →  on a lane', 'previous and next event of the selected type on it that the filters keep'],
  ['Enter', 'open the event stepped to in the details panel; with none, select the visible window'],
  ['s', 'select around the event stepped to: the spike holding it, or the event with a margin'],
  ['p', 'pin the chosen lane to the top, or unpin it (kept in the link)'],
  ['h', 'hide the chosen lane’s threads (the Threads menu shows them again)'],
  ['Shift+F10  ContextMenu', 'the chosen lane’s menu: pin, hide'],
  ['0', 'the whole recording'],
  [']  [', 'next and previous spike of matching events'],
  ['Escape', 'clear the selection, the selected event and the chosen lane'],
  ['↑  ↓  Home  End', 'on the handle under the timeline: its height, a lane at a time'],
  ['↑  ↓  ←  →', 'flame graph focused: walk the frames (↑ ↓ as drawn: toward callees or callers; ← → along a row)'],
  ['Enter', 'flame graph: zoom into the focused frame'],
  ['Escape', 'flame graph: zoom out'],
  ['Home', 'flame graph: back to the root frame'],
  ['S', 'flame graph: the focused method’s sandwich (its callers above, its callees below)'],
  ['Shift+F10', 'flame graph: the focused frame’s menu'],
  ['←  →  ↑  ↓', 'stack chart focused: along a row, to the caller above, to the first callee below'],
  ['Enter  Page Up  Page Down', 'stack chart: choose the focused frame’s method; the previous or next thread'],
];

const MOUSE: [string, string][] = [
  ['drag', 'select a time range on the histogram or the lanes'],
  ['wheel', 'zoom over the histogram; ctrl+wheel over the lanes'],
  ['shift+drag, shift+wheel', 'pan; dragging the time axis pans too'],
  ['click', 'a sample or a bar: its stack and fields; a frame: zoom the flame graph'],
  ['right-click', 'a lane name: its menu (pin to the top, hide)'],
  ['drag the handle under the timeline', 'share the height between the timeline and the views'],
  ['right-click a frame', 'its menu: zoom, or its callers and callees (sandwich)'],
  ['click a stack chart box', 'choose its method (the flame graph’s, the sandwich’s)'],
  ['drag on the stack chart', 'select a time range'],
  ['drag the lane names’ edge', 'resize the column'],
];

export function KeysSheet({ onClose }: { onClose: () => void }) {
  const close = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    const before = document.activeElement as HTMLElement | null;
    close.current?.focus();
    return () => before?.focus?.();
  }, []);
  return (
    <div className="sheet-backdrop" onClick={onClose}>
      <div
        className="sheet"
        role="dialog"
        aria-modal="true"
        aria-label="Keyboard shortcuts"
        onClick={(ev) => ev.stopPropagation()}
        onKeyDown={(ev) => {
          if (ev.key === 'Escape') {
            ev.preventDefault();
            ev.stopPropagation();
            onClose();
          } else if (ev.key === 'Tab') {
            // Focus stays on the sheet while it is open: its one control.
            ev.preventDefault();
            close.current?.focus();
          }
        }}
      >
        <header>
          <h2>Keyboard shortcuts</h2>
          <button type="button" ref={close} onClick={onClose}>
            Close
          </button>
        </header>
        <h3>Keys</h3>
        <dl className="keys">
          {KEYS.map(([k, what]) => (
            <div key={`${k} ${what}`}>
              <dt>
                <kbd>{k}</kbd>
              </dt>
              <dd>{what}</dd>
            </div>
          ))}
        </dl>
        <h3>Mouse</h3>
        <dl className="keys">
          {MOUSE.map(([k, what]) => (
            <div key={k}>
              <dt>{k}</dt>
              <dd>{what}</dd>
            </div>
          ))}
        </dl>
      </div>
    </div>
  );
}
