/**
 * Every field of one event type, decoded in the recording's workers when the events table asks
 * for it (engine's loadTypeTable): the table when done, progress meanwhile, the reason if it
 * failed. One table per (recording, type) is kept while the recording is open, so going back to
 * a type shows it at once.
 */
import { useEffect, useState } from 'react';
import type { Table } from 'apache-arrow';
import type { Profile } from '../columns/profile';
import { CancelledError, loadTypeTable } from '../engine';

export interface TypeTableState {
  table: Table | null;
  /** Fraction decoded (0–1) while decoding, else null. */
  progress: number | null;
  error: string | null;
}

const kept = new WeakMap<Profile, Map<string, Table>>();

export function useTypeTable(profile: Profile, type: string, enabled: boolean): TypeTableState {
  const [state, setState] = useState<{ profile: Profile; type: string } & TypeTableState>({ profile, type, table: null, progress: null, error: null });
  const cached = kept.get(profile)?.get(type) ?? null;
  useEffect(() => {
    if (!enabled || !type || kept.get(profile)?.has(type)) return;
    const ctl = new AbortController();
    setState({ profile, type, table: null, progress: 0, error: null });
    loadTypeTable(profile, type, (done, total) => setState((s) => (s.profile === profile && s.type === type && s.progress !== null ? { ...s, progress: total > 0 ? done / total : 0 } : s)), ctl.signal).then(
      (table) => {
        if (ctl.signal.aborted) return;
        let m = kept.get(profile);
        if (!m) kept.set(profile, (m = new Map()));
        m.set(type, table);
        setState({ profile, type, table, progress: null, error: null });
      },
      (e: unknown) => {
        if (ctl.signal.aborted || e instanceof CancelledError) return;
        setState({ profile, type, table: null, progress: null, error: e instanceof Error ? e.message : String(e) });
      },
    );
    return () => ctl.abort();
  }, [profile, type, enabled]);
  if (cached) return { table: cached, progress: null, error: null };
  return state.profile === profile && state.type === type ? state : { table: null, progress: enabled ? 0 : null, error: null };
}
