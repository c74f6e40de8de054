/**
 * What the views read of the view state and what they can ask for: plain values down, named
 * intents up. The app turns an intent into a state change; a view never patches state itself.
 */
export interface ViewValues {
  range: [number, number] | null;
  baseline: [number, number] | null;
  methodSort: 'total' | 'self';
  selectedMethod: string | null;
  subjectBy: 'class' | 'instance';
  subjectFilter: string;
  threadFilter: string;
  compareAs: 'table' | 'flame';
  inverted: boolean;
  search: string;
}

export interface ViewIntents {
  onSortMethods: (by: 'total' | 'self') => void;
  /** Choose a method (null: none); `show` opens the top-methods table on it. */
  onChooseMethod: (name: string | null, show?: boolean) => void;
  /** Open the sandwich (callers and callees flame graphs) of a method. */
  onSandwich: (name: string) => void;
  /** Keep only events whose subject matches this regex ('' clears the filter). */
  onFilterSubject: (re: string) => void;
  onRowsBy: (by: 'class' | 'instance') => void;
  /** Keep only threads whose name matches this regex ('' clears the filter). */
  onFilterThread: (re: string) => void;
  onCompareAs: (as: 'table' | 'flame') => void;
}

/** Another recording to compare with (the baseline), as the Compare view shows it. */
export interface OtherValues {
  /** Its file name once open; null while none is. */
  name: string | null;
  /** Its length, ms: its range is read against it. */
  durationMs: number;
  /** Its range, ms since its start; null = all of it. */
  range: [number, number] | null;
  /** Reading or decoding it: what, and how far (0..1, or null when unknown). */
  busy: { what: string; done: number | null } | null;
  error: string | null;
  /** The file a link compared with, not open yet ("name (size)"); null when none is wanted. */
  wanted: string | null;
}

export interface OtherIntents {
  onOpenOther: (file: File) => void;
  onClearOther: () => void;
  onOtherRange: (range: [number, number] | null) => void;
}
