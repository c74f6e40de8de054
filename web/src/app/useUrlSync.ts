/**
 * The URL follows the view state (pushState, or replaceState within 800 ms so typing makes one
 * history entry); back and forward put the state the URL holds back.
 */
import { useEffect, useRef, type Dispatch } from 'react';
import type { Action, ViewState } from './state';
import { stateFromUrl, urlFromState } from './url';
import type { OtherNamed } from './useOtherRecording';
import type { Loaded } from './useRecording';

/** `other`: the other recording compared with (open, or named by the link and not open yet). */
export function useUrlSync(state: ViewState, loaded: Loaded | null, dispatch: Dispatch<Action>, other: OtherNamed | null = null): void {
  const lastPush = useRef(0);
  useEffect(() => {
    if (!loaded) return;
    // A recording from the user's disk is named, so the link says which file it needs.
    const named = loaded.fingerprint ? { fileName: loaded.url ? undefined : loaded.name, startMs: loaded.profile.info.startMs } : {};
    const next = urlFromState(state, { url: loaded.url, fingerprint: loaded.fingerprint, ...named, otherFingerprint: other?.fingerprint, otherName: other?.name });
    if (next === window.location.search) return;
    const now = performance.now();
    try {
      if (now - lastPush.current < 800) window.history.replaceState(null, '', next);
      else window.history.pushState(null, '', next);
    } catch {
      // A URL past what the browser takes (thousands of hidden threads' names): the view keeps
      // its state, the address bar its last one.
    }
    lastPush.current = now;
  }, [state, loaded, other]);
  useEffect(() => {
    const onPop = () => {
      const p = stateFromUrl(window.location.search);
      lastPush.current = 0;
      dispatch({ type: 'replace', state: p.state });
    };
    window.addEventListener('popstate', onPop);
    return () => window.removeEventListener('popstate', onPop);
  }, [dispatch]);
}
