/**
 * What the SQL layer (web/src/sql) hands the SQL view: plain data, drawn as it is.
 */

export interface SqlSchemaColumn {
  name: string;
  type: string;
}

export interface SqlSchemaTable {
  /** As a query names it: `events`, `"jdk.FileRead"`, `fields."jdk.FileRead"`. */
  name: string;
  about: string;
  columns: SqlSchemaColumn[];
}

/** Where a result row points on the timeline. */
export interface SqlRowLink {
  /** Row of the page's events table (an `event` column). */
  event: number | null;
  /** ms since the recording's start: `start`, to `start + duration` (or `end`) when given. */
  range: [number, number] | null;
  /** A `thread` column's name, to pin its lane. */
  thread: string | null;
}

export interface SqlResult {
  columns: { name: string; type: string; numeric: boolean }[];
  /** The first rows, as text (null cells are null). */
  rows: (string | null)[][];
  /** Rows of the whole result (rows.length of them shown). */
  total: number;
  /** Bars of the first numeric column over the first rows, labelled by the first other column. */
  chart: { column: string; label: string | null; bars: { label: string; value: number }[] } | null;
  /** One per shown row; null when the result has no event, start or thread column. */
  links: SqlRowLink[] | null;
  ms: number;
}

export interface SqlExample {
  title: string;
  sql: string;
  /** Why it is not offered for this recording (a type it needs is absent), or null. */
  missing: string | null;
}
