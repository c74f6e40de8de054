/**
 * Decode on zoom: a type too large for the page is held as a time window of its chunks
 * (engine/session.ts). When the timeline's view leaves that window, and all of the view's chunks
 * fit, their rows replace the window's (after the view has rested a moment). A view wider than
 * fits (zoomed out) keeps the window there is.
 */
import { useEffect, type Dispatch, type SetStateAction } from 'react';
import { CancelledError, loadWindow, windowFor } from '../engine';
import { formatCount } from '../profile-logic/format';
import type { Loaded, Progress } from './useRecording';

const REST_MS = 400;

export function useWindowedTypes(
  loaded: Loaded | null,
  setLoaded: Dispatch<SetStateAction<Loaded | null>>,
  viewport: [number, number] | null,
  setProgress: (p: Progress | null) => void,
  onError: (why: string) => void,
): void {
  const from = viewport?.[0] ?? 0;
  const to = viewport?.[1] ?? loaded?.profile.info.durationMs ?? 0;
  useEffect(() => {
    const l = loaded;
    if (!l) return;
    const view: [number, number] = [from, to];
    const todo = l.profile.eventTypes.filter((t) => {
      const w = t.window;
      if (!w || (w.fromMs <= view[0] && w.toMs >= view[1])) return false;
      const next = windowFor(l.profile, t.name, view);
      return next !== null && next.complete && (next.fromMs !== w.fromMs || next.toMs !== w.toMs);
    });
    if (todo.length === 0) return;
    let live = true;
    const id = setTimeout(async () => {
      let profile = l.profile;
      try {
        for (const t of todo) {
          const what = `Decoding the ${t.name} events of the view (of ${formatCount(t.count)})…`;
          setProgress({ done: 0, total: 1, what });
          profile = await loadWindow(profile, t.name, view, (done, total) => live && setProgress({ done, total, what }));
        }
        if (!live) return;
        setProgress(null);
        setLoaded((cur) => (cur === l ? { ...l, profile } : cur));
      } catch (e) {
        if (!live || e instanceof CancelledError) return;
        setProgress(null);
        onError(e instanceof Error ? e.message : String(e));
      }
    }, REST_MS);
    return () => {
      live = false;
      clearTimeout(id);
    };
    // setProgress and onError are state setters or stable callbacks.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [loaded, from, to]);
}
