import { useEffect, useRef } from 'react';

/**
 * A strip of controls that scrolls sideways when the window is too narrow for it (the timeline
 * tools at 1366 px): `data-more` says on which sides controls are out of view ("left", "right",
 * or both; the stylesheet fades the right end), and a vertical wheel over it scrolls it sideways, as a
 * mouse without a horizontal wheel can. An overlay scrollbar alone shows nothing until used.
 */
export function useOverflowStrip<T extends HTMLElement>() {
  const ref = useRef<T>(null);
  useEffect(() => {
    const el = ref.current;
    if (!el) return;
    const mark = () => {
      const more = [el.scrollLeft > 1 ? 'left' : '', el.scrollLeft + el.clientWidth < el.scrollWidth - 1 ? 'right' : ''].filter(Boolean).join(' ');
      if ((el.dataset.more ?? '') !== more) el.dataset.more = more;
    };
    const wheel = (e: WheelEvent) => {
      if (el.scrollWidth <= el.clientWidth || Math.abs(e.deltaY) <= Math.abs(e.deltaX)) return;
      e.preventDefault();
      el.scrollLeft += e.deltaY;
    };
    mark();
    const seen = new ResizeObserver(mark);
    seen.observe(el);
    // (Controls come and go with the selection: a range adds its buttons.)
    const changed = new MutationObserver(mark);
    changed.observe(el, { childList: true, subtree: true });
    el.addEventListener('scroll', mark, { passive: true });
    el.addEventListener('wheel', wheel, { passive: false });
    return () => {
      seen.disconnect();
      changed.disconnect();
      el.removeEventListener('scroll', mark);
      el.removeEventListener('wheel', wheel);
    };
  }, []);
  return ref;
}
