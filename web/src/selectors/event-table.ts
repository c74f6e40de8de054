/**
 * The events table's data: the type it shows, its rows (the page's columns, or every field once
 * decoded), and the rows the range, thread and stack filters keep.
 *
 *   state.tableType ─ type index ─ pageRows (instant) / arrowRows of the type table (every field, when decoded)
 *     ─ tableRows (range, threads of the thread filter, stack filters for types with stacks)
 */
import { useMemo } from 'react';
import type { Profile } from '../columns/profile';
import type { Table } from 'apache-arrow';
import { arrowRows, pageRows, tableRows, type EventRows } from '../profile-logic/event-table';
import { eventTest } from '../profile-logic/filters';
import type { ViewState } from '../app/state';
import type { Derived } from './derive';

/** The type the table shows: state.tableType, else the Event menu's type. */
export function useTableType(profile: Profile, s: ViewState, d: Derived): number {
  return useMemo(() => {
    const i = s.tableType ? profile.eventTypes.findIndex((t) => t.name === s.tableType) : -1;
    return i >= 0 ? i : d.typeIndex;
  }, [profile, s.tableType, d.typeIndex]);
}

/** The page's rows of the type (null when the view is not shown). */
export function usePageRows(profile: Profile, d: Derived, type: number, enabled: boolean): EventRows | null {
  return useMemo(() => (enabled && type >= 0 ? pageRows(profile, d.index, type) : null), [profile, d.index, type, enabled]);
}

/** The rows of `rows` the filters keep: in the range, on kept threads, through the stack filters where the type has stacks. */
export function useFilteredRows(profile: Profile, s: ViewState, d: Derived, type: number, rows: EventRows | null): Int32Array | null {
  const stackRe = d.regex.stack.ok ? d.regex.stack.re : null;
  const excludeRe = d.regex.exclude.ok ? d.regex.exclude.re : null;
  const hasStack = profile.eventTypes[type]?.hasStack ?? false;
  const test = useMemo(
    () =>
      hasStack && (stackRe || excludeRe)
        ? eventTest(profile, { type, thread: null, stack: stackRe, exclude: excludeRe, state: '', hiddenThreads: new Set() })
        : null,
    [profile, type, hasStack, stackRe, excludeRe],
  );
  const threadFiltered = d.regex.thread.ok && d.regex.thread.re !== null;
  return useMemo(
    () => (rows ? tableRows(rows, { range: s.range, threads: d.filtered.threads, threadFiltered, test }) : null),
    [rows, s.range, d.filtered.threads, threadFiltered, test],
  );
}

/**
 * The rows the table shows: every field once the type table is in (joined to the page's events),
 * the page's own columns meanwhile (null while neither is there).
 */
export function useTableRows(profile: Profile, type: number, page: EventRows | null, full: Table | null): EventRows | null {
  const fromFull = useMemo(() => (full && type >= 0 ? arrowRows(profile, full, type) : null), [profile, full, type]);
  return fromFull ?? page;
}
