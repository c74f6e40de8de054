/**
 * The other recording a comparison is made against (yesterday's, before a fix): opened beside the
 * first, decoded by the same engine into a second Profile with its own workers, closed when
 * replaced or cleared.
 *
 *   file ─ engine.loadRecording (the type the view shows, by name) ─ fingerprint ─ other
 *     ─ (that type deferred) ─ loadTypes
 *
 * A link made while comparing names the other recording (`fp2`, `file2`): until it is opened
 * here, the link keeps naming it and a notice says which file is needed.
 */
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { CancelledError, closeRecording, fileEnds, loadRecording, type LoadHandle } from '../engine';
import { formatBytes, formatCount } from '../profile-logic/format';
import { fingerprint } from './fingerprint';
import { useDeferredTypes } from './useDeferredTypes';
import type { UrlExtras } from './url';
import type { Loaded, Progress } from './useRecording';

/** The other recording a link names: its fingerprint (`<size>-<hash>`) and file name. */
export interface OtherNamed {
  fingerprint: string;
  name?: string;
}

/** "name (1.2 MiB, 1,234,567 bytes)": the file a link names, as people look for it. */
export function otherFile(o: OtherNamed): string {
  const size = Number(o.fingerprint.split('-')[0]);
  return `${o.name ?? 'a recording'} (${formatBytes(size)}, ${formatCount(size)} bytes)`;
}

/** What a link says is needed to show its comparison, or nothing. */
export function otherNeeded(extras: UrlExtras): string[] {
  if (!extras.otherFingerprint) return [];
  const file = otherFile({ fingerprint: extras.otherFingerprint, name: extras.otherName });
  return [`This link compares with another recording, ${file}: open it with “Compare with another recording” in the Compare view.`];
}

export interface OtherRecording {
  /** The other recording, decoded; null while none is open. */
  loaded: Loaded | null;
  /** The one a link names, not opened yet. */
  pending: OtherNamed | null;
  progress: Progress | null;
  error: string | null;
}

/**
 * `eventType`: the type the view shows, decoded in the first round (and at once if deferred).
 * `onNotice`: a sentence for the page's notices.
 */
export function useOtherRecording(link: UrlExtras, eventType: string, onNotice: (n: string) => void) {
  const [loaded, setLoaded] = useState<Loaded | null>(null);
  const [pending, setPending] = useState<OtherNamed | null>(link.otherFingerprint ? { fingerprint: link.otherFingerprint, name: link.otherName } : null);
  const [progress, setProgress] = useState<Progress | null>(null);
  const [error, setError] = useState<string | null>(null);
  const handle = useRef<LoadHandle | null>(null);
  const loadedRef = useRef<Loaded | null>(null);
  loadedRef.current = loaded;
  const pendingRef = useRef(pending);
  pendingRef.current = pending;
  const noticeRef = useRef(onNotice);
  noticeRef.current = onNotice;

  /** Stop a load under way and close the open one: its workers end. */
  const drop = useCallback(() => {
    handle.current?.cancel();
    handle.current = null;
    if (loadedRef.current) closeRecording(loadedRef.current.profile);
    loadedRef.current = null;
    setLoaded(null);
    setProgress(null);
    setError(null);
  }, []);

  const openOther = useCallback(
    (f: File) => {
      drop();
      setProgress({ done: 0, total: 1, what: `Reading ${f.name}…` });
      const h = loadRecording(f, f.name, (done, total) => setProgress({ done, total, what: `Reading ${f.name}…` }), eventType ? [eventType] : []);
      handle.current = h;
      h.promise.then(
        async (profile) => {
          if (handle.current !== h) return closeRecording(profile);
          const ends = fileEnds(profile);
          const fp = ends ? await fingerprint(ends.size, ends.head, ends.tail) : '';
          if (handle.current !== h) return closeRecording(profile);
          const want = pendingRef.current;
          if (want && fp && want.fingerprint !== fp) {
            noticeRef.current(`The link compared with ${want.name ?? 'another recording'}; ${f.name} is a different file, compared anyway.`);
          }
          setPending(null);
          setProgress(null);
          setLoaded({ profile, name: f.name, fingerprint: fp });
          if (profile.info.errors.length) setError(`${f.name} is damaged; comparing with what could be read.`);
        },
        (e: unknown) => {
          if (e instanceof CancelledError || handle.current !== h) return;
          setProgress(null);
          setError(`Could not open ${f.name}: ${e instanceof Error ? e.message : String(e)}`);
        },
      );
    },
    [drop, eventType],
  );

  const clearOther = useCallback(() => {
    drop();
    setPending(null);
  }, [drop]);

  // The type the view shows, when the other recording deferred it (a lazy load), is decoded now.
  useDeferredTypes(loaded, setLoaded, (name) => name === eventType, setProgress, () => {}, loaded ? ` of ${loaded.name}` : '');

  // The page goes: so do the other recording's workers.
  useEffect(() => drop, [drop]);

  // (One object while its parts stay: the workspace re-renders only when its props change.)
  const other: OtherRecording = useMemo(() => ({ loaded, pending, progress, error }), [loaded, pending, progress, error]);
  return { other, openOther, clearOther };
}
