/**
 * Decode a recording's deferred types when the view asks for them (a lazy load left them in the
 * file): progress while they decode, the recording with their rows when done, and on failure the
 * types marked as failed with the reason, so they are not tried again while it is open.
 */
import { useEffect, type Dispatch, type SetStateAction } from 'react';
import { CancelledError, loadTypes } from '../engine';
import { formatCount } from '../profile-logic/format';
import type { Loaded, Progress } from './useRecording';

/** `wanted(name)`: whether the view wants that type now; `label` names the recording in progress text. */
export function useDeferredTypes(
  loaded: Loaded | null,
  setLoaded: Dispatch<SetStateAction<Loaded | null>>,
  wanted: (name: string) => boolean,
  setProgress: (p: Progress | null) => void,
  onError: (types: string[], why: string) => void,
  label = '',
): void {
  // The wanted names as one string, so the effect runs when they change, not on every render.
  const todoKey = loaded?.profile.eventTypes.filter((x) => x.deferred && !loaded.failed?.[x.name] && wanted(x.name)).map((x) => x.name).join('\n') ?? '';
  useEffect(() => {
    const l = loaded;
    const todo = l && todoKey ? l.profile.eventTypes.filter((x) => todoKey.split('\n').includes(x.name)) : [];
    if (!l || todo.length === 0) return;
    let live = true;
    const n = todo.reduce((a, t) => a + t.count, 0);
    const what = `Decoding ${formatCount(n)} ${todo.length === 1 ? todo[0].name : 'more'} events${label}…`;
    setProgress({ done: 0, total: 1, what });
    // A type too large to hold whole gets a window of it, from the recording's start.
    loadTypes(l.profile, todo.map((t) => t.name), (done, total) => live && setProgress({ done, total, what }), [0, l.profile.info.durationMs]).then(
      (profile) => {
        if (!live) return;
        setProgress(null);
        setLoaded((cur) => (cur === l ? { ...l, profile } : cur));
      },
      (e: unknown) => {
        if (!live || e instanceof CancelledError) return;
        setProgress(null);
        const why = e instanceof Error ? e.message : String(e);
        onError(todo.map((t) => t.name), why);
        setLoaded((cur) => (cur === l ? { ...l, failed: { ...l.failed, ...Object.fromEntries(todo.map((t) => [t.name, why])) } } : cur));
      },
    );
    return () => {
      live = false;
    };
    // onError and setProgress are state setters or stable callbacks; the todo list is in todoKey.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [loaded, todoKey, label]);
}
