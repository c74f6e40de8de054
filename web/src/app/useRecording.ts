/**
 * A recording's life in the page: open it (file, URL, the OS's launch queue), decode deferred
 * types when the view asks for them, close the previous one; progress, errors and notices.
 *
 *   open ─ engine.loadRecording ─ fingerprint ─ loaded ─ (a deferred type picked) ─ loadTypes
 *
 * A link's ?url= on the page's own origin opens at once; on another origin it is never fetched
 * (the policy is connect-src 'self'): `remote` names it, and the page offers to download it.
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import type { Profile, RecordingInfo, RecordingShape } from '../columns/profile';
import { CancelledError, closeRecording, fileEnds, loadRecording, loadRecordingFromUrl, recordingSources, warmUp, type LoadHandle, type RecordingSources, type ViewOf } from '../engine';
import { firstView } from '../profile-logic/kinds';
import { damageNotice } from '../profile-logic/damage';
import { fingerprint } from './fingerprint';
import { useDeferredTypes } from './useDeferredTypes';
import { useWindowedTypes } from './useWindowedTypes';
import { recordingSource } from './url';

export interface Loaded {
  profile: Profile;
  name: string;
  fingerprint: string;
  url?: string;
  /** The files it was read from, when several (a folder, chunk files), and those left out. */
  sources?: RecordingSources;
  /** Deferred types that could not be decoded (past the page's row limit), and why. */
  failed?: Record<string, string>;
}

/** A link's recording on another site, shown to the user instead of fetched. */
export interface RemoteRecording {
  href: string;
  host: string;
}

/** Files named in a message: the first few, then how many more. */
function someNames(names: string[], most = 8): string {
  return names.length <= most ? names.join(', ') : `${names.slice(0, most).join(', ')} and ${names.length - most} more`;
}

/**
 * What several files opened as one are called: their folder's name when they share one (a
 * picked or dropped folder), else the first file's and how many others.
 */
function recordingName(files: File[]): string {
  const paths = files.map((f) => (f as File & { webkitRelativePath?: string }).webkitRelativePath || f.name);
  if (paths.length === 1) return files[0].name;
  const top = paths.map((p) => (p.includes('/') ? p.slice(0, p.indexOf('/')) : null));
  if (top[0] && top.every((t) => t === top[0])) return `${top[0]}/`;
  const sorted = [...paths].sort();
  return `${sorted[0]} and ${sorted.length - 1} more`;
}

/** "repo/ (24 files, 30 chunks)": a recording read from several files, as the header names it. */
function sourcesName(name: string, s: RecordingSources | null): string {
  if (!s || (s.files.length === 1 && s.skipped.length === 0)) return name;
  const chunks = s.files.reduce((a, f) => a + f.chunks, 0);
  // Not a folder: named by the first file that opened (in time order).
  if (!name.endsWith('/') && s.files.length > 1) name = `${s.files[0].name} and ${s.files.length - 1} more`;
  return `${name} (${s.files.length} file${s.files.length === 1 ? '' : 's'}, ${chunks} chunk${chunks === 1 ? '' : 's'})`;
}

export interface Progress {
  done: number;
  total: number;
  what?: string;
}

/** What a link brings: a recording's URL to open, and the fingerprint (name, start) of the one it was made on. */
export interface LinkSource {
  url?: string;
  fingerprint?: string;
  fileName?: string;
  startMs?: number;
}

/** A recording named by its file's facts (components/LinkedFile). */
export interface NamedFile {
  name?: string;
  fingerprint: string;
  startMs?: number;
}

/** A file opened for a link made on another: decoded, held back until the user says to show it. */
export interface Held {
  loaded: Loaded;
  got: NamedFile;
  want: NamedFile;
}

/**
 * `eventType`: the type the view shows (decoded in the first round whatever its size, and
 * decoded at once if deferred). `onOpen` runs whenever another recording starts to open.
 */
export function useRecording(link: LinkSource, initialNotices: string[], eventType: string, viewport: [number, number] | null, onOpen: () => void) {
  const onOpenRef = useRef(onOpen);
  onOpenRef.current = onOpen;
  const [loaded, setLoaded] = useState<Loaded | null>(null);
  const [progress, setProgress] = useState<Progress | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [notices, setNotices] = useState<string[]>(initialNotices);
  /** What is wrong with a recording just shown: damage as an error, a chunk still being written as a notice. */
  const showDamage = useCallback((info: RecordingInfo) => {
    const d = damageNotice(info);
    if (d?.damaged) setError(d.text);
    else if (d) setNotices((n) => [...n, d.text]);
  }, []);
  const [remote, setRemote] = useState<RemoteRecording | null>(null);
  // The whole recording's shape, from the count pass: shown while the rows are decoded.
  // (`final` false: the count pass is still going; the shape fills in.)
  const [overview, setOverview] = useState<{ shape: RecordingShape; originMs: number; final: boolean } | null>(null);
  const counted = useCallback(
    (shape: RecordingShape | null, originMs: number, final: boolean) => setOverview(shape ? { shape, originMs, final } : null),
    [],
  );
  const handle = useRef<LoadHandle | null>(null);
  const [requested, setRequested] = useState<string[]>([]);
  const linkFingerprint = useRef(link.fingerprint);
  // The recording the link was made on, from the user's disk: named until a file is given.
  const [wanted, setWanted] = useState<NamedFile | null>(
    link.fingerprint && !link.url ? { fingerprint: link.fingerprint, name: link.fileName, startMs: link.startMs } : null,
  );
  const wantedRef = useRef(wanted);
  wantedRef.current = wanted;
  const [held, setHeld] = useState<Held | null>(null);
  const heldRef = useRef(held);
  heldRef.current = held;
  // The type the view shows is decoded in the first round, whatever its size.
  const eventTypeRef = useRef(eventType);
  eventTypeRef.current = eventType;
  // The first round decodes what the first view shows: its type (the default one when none is
  // asked for) and what its lanes draw; the rest when picked.
  const want = (): ViewOf => (types) => firstView(types, eventTypeRef.current);
  const loadedRef = useRef<Loaded | null>(null);
  loadedRef.current = loaded;

  const open = useCallback((start: () => LoadHandle, name: string, url?: string) => {
    handle.current?.cancel();
    if (heldRef.current) closeRecording(heldRef.current.loaded.profile);
    setHeld(null);
    setRemote(null);
    setRequested([]);
    setError(null);
    setOverview(null);
    onOpenRef.current();
    setProgress({ done: 0, total: 1 });
    const h = start();
    handle.current = h;
    h.promise.then(
      async (profile) => {
        if (handle.current !== h) return;
        const ends = fileEnds(profile);
        const fp = ends ? await fingerprint(ends.size, ends.head, ends.tail) : '';
        if (handle.current !== h) return closeRecording(profile);
        setProgress(null);
        // The open recording's view shows its overview from here on.
        setOverview(null);
        const src = recordingSources(profile);
        const several = src && (src.files.length > 1 || src.skipped.length > 0) ? src : undefined;
        name = sourcesName(name, src);
        if (src?.skipped.length) {
          const left = src.skipped.map((x) => `${x.name} (${x.why})`);
          setNotices((n) => [
            ...n,
            `Left out ${src.skipped.length} file${src.skipped.length === 1 ? '' : 's'} that ${src.skipped.length === 1 ? 'is' : 'are'} not a recording: ${someNames(left)}. The other ${src.files.length} opened as one recording.`,
          ]);
        }
        const want = wantedRef.current;
        if (want && fp && want.fingerprint !== fp && !url) {
          // Another file than the link's: both named, the view applied only if the user says so.
          setHeld({ loaded: { profile, name, fingerprint: fp, url, sources: several }, got: { name, fingerprint: fp, startMs: profile.info.startMs }, want });
          return;
        }
        if (loadedRef.current) closeRecording(loadedRef.current.profile);
        setWanted(null);
        setLoaded({ profile, name, fingerprint: fp, url, sources: several });
        showDamage(profile.info);
        if (linkFingerprint.current && fp && linkFingerprint.current !== fp) {
          setNotices((n) => [...n, 'This link was made for a different recording; its view was applied anyway.']);
        }
        linkFingerprint.current = undefined;
      },
      (e: unknown) => {
        if (e instanceof CancelledError || handle.current !== h) return;
        setProgress(null);
        setOverview(null);
        setError(e instanceof Error ? e.message : String(e));
      },
    );
  }, [showDamage]);

  /** One recording file, or several (a folder, chunk files) read as one recording in time order. */
  const openFiles = useCallback(
    (files: File[]) => {
      if (files.length === 0) return;
      const name = recordingName(files);
      open(() => loadRecording(files.length === 1 ? files[0] : files, name, (done, total) => setProgress({ done, total }), want(), counted), name);
    },
    [open, counted],
  );
  const fail = useCallback((message: string) => setError(message), []);
  const openUrl = useCallback(
    (url: string, name: string, share = true) =>
      open(() => loadRecordingFromUrl(url, (done, total) => setProgress({ done, total }), want(), counted), name, share ? url : undefined),
    [open, counted],
  );

  // Decoding workers start (and compile the wasm) while the page waits for a file.
  useEffect(() => {
    const id = setTimeout(warmUp, 200);
    return () => clearTimeout(id);
  }, []);

  // ?url= opens a recording of this site with no drop at all; another site's is only named.
  useEffect(() => {
    if (!link.url) return;
    const src = recordingSource(link.url, window.location.href);
    if (src.kind === 'same-origin') openUrl(link.url, new URL(src.href).pathname.split('/').pop() || 'recording');
    else if (src.kind === 'other-origin') setRemote({ href: src.href, host: src.host });
  }, [link, openUrl]);

  // Files handed over by the OS to the installed app.
  useEffect(() => {
    const lq = (window as unknown as { launchQueue?: { setConsumer(f: (p: { files: { getFile(): Promise<File> }[] }) => void): void } }).launchQueue;
    lq?.setConsumer(async (params) => {
      if (params.files.length) openFiles(await Promise.all(params.files.map((f) => f.getFile())));
    });
  }, [openFiles]);

  // Types whose rows were deferred (too many for the first round) are decoded when one is picked
  // or when the timeline's "Decode" asks for them.
  useDeferredTypes(
    loaded,
    setLoaded,
    (name) => name === eventType || requested.includes(name),
    setProgress,
    (types, why) => setError(`Could not decode ${types.join(', ')}: ${why}`),
  );
  // A type too large for the page follows the timeline's view, a window of chunks at a time.
  useWindowedTypes(loaded, setLoaded, viewport, setProgress, setError);

  const dismissRemote = useCallback(() => setRemote(null), []);

  /** Show the held file anyway, with the link's view; a notice keeps saying it is another file. */
  const confirmHeld = useCallback(() => {
    const h = heldRef.current;
    if (!h) return;
    if (loadedRef.current) closeRecording(loadedRef.current.profile);
    setHeld(null);
    setWanted(null);
    linkFingerprint.current = undefined;
    setLoaded(h.loaded);
    setNotices((n) => [...n, `This link was made for a different recording, ${h.want.name ?? 'another file'}; its view was applied to ${h.loaded.name}.`]);
    showDamage(h.loaded.profile.info);
  }, [showDamage]);

  return { overview, loaded, progress, error, notices, setNotices, requested, setRequested, openFiles, fail, openUrl, remote, dismissRemote, wanted, held, confirmHeld };
}
