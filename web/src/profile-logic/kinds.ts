/**
 * What each kind of event means, in one table: how it weighs, whether it is an interval, what
 * its subject is, how it is named and coloured. Every view, table and export asks here.
 */
import type { EventKind, IndexIntoEventTypes, Profile } from '../columns/profile';

/** How an event type's events weigh in the flame graph, the tables and the export. */
export type WeightMode = 'samples' | 'bytes' | 'duration' | 'events';

/** The subject of an event (what it waits on or touches), as its filter, tab and column name it. */
export interface SubjectNames {
  label: string;
  what: string;
  tab: string;
  column: string;
}

export interface KindInfo {
  /** The Event menu's group ("CPU", "Lock"). */
  label: string;
  /** How the status line names its events ("lock waits"). */
  noun: string;
  weight: WeightMode;
  /** Drawn as a bar with its duration on the lanes (lock waits, parks, sleeps, I/O). */
  interval: boolean;
  /** Its subject names an object instance (class @ address) as well as its class. */
  instances: boolean;
  subject: SubjectNames;
  /** Timeline colours: matching events, and matching events in a waiting state. */
  color: string;
  light: string;
  /** Place in the Event menu (lower first); null: never offered (no stacks to show). */
  order: number | null;
}

const OTHER_SUBJECT: SubjectNames = { label: 'Subject', what: 'subject', tab: 'Subjects', column: 'Subject' };

export const KINDS: Record<EventKind, KindInfo> = {
  cpu: { label: 'CPU', noun: 'CPU samples', weight: 'samples', interval: false, instances: false, subject: OTHER_SUBJECT, color: '#e8590c', light: '#ffc078', order: 0 },
  wall: { label: 'Wall clock', noun: 'wall-clock samples', weight: 'samples', interval: false, instances: false, subject: OTHER_SUBJECT, color: '#1c7ed6', light: '#a5d8ff', order: 1 },
  native: { label: 'Native', noun: 'native samples', weight: 'samples', interval: false, instances: false, subject: OTHER_SUBJECT, color: '#f59f00', light: '#ffe066', order: 2 },
  lock: {
    label: 'Lock',
    noun: 'lock waits',
    weight: 'duration',
    interval: true,
    instances: true,
    subject: { label: 'Monitor', what: 'monitor class', tab: 'Monitors', column: 'Monitor class' },
    color: '#d6336c',
    light: '#fcc2d7',
    order: 3,
  },
  wait: {
    label: 'Wait',
    noun: 'Object.wait calls',
    weight: 'duration',
    interval: true,
    instances: true,
    subject: { label: 'Monitor', what: 'monitor class', tab: 'Monitors', column: 'Monitor class' },
    color: '#e64980',
    light: '#fcc2d7',
    order: 4,
  },
  park: {
    label: 'Park',
    noun: 'parks',
    weight: 'duration',
    interval: true,
    instances: true,
    subject: { label: 'Parked on', what: 'the class parked on', tab: 'Parked on', column: 'Parked on (class)' },
    color: '#7950f2',
    light: '#d0bfff',
    order: 4.5,
  },
  sleep: { label: 'Sleep', noun: 'sleeps', weight: 'duration', interval: true, instances: false, subject: OTHER_SUBJECT, color: '#868e96', light: '#dee2e6', order: 5 },
  io: {
    label: 'I/O',
    noun: 'I/O events',
    weight: 'duration',
    interval: true,
    instances: false,
    subject: { label: 'File or host', what: 'path or host:port', tab: 'Files & hosts', column: 'File or host' },
    color: '#2b8a3e',
    light: '#b2f2bb',
    order: 6,
  },
  alloc: {
    label: 'Allocation',
    noun: 'allocation samples',
    weight: 'bytes',
    interval: false,
    instances: false,
    subject: { label: 'Allocated class', what: 'allocated class', tab: 'Classes', column: 'Allocated class' },
    color: '#f08c00',
    light: '#ffd8a8',
    order: 7,
  },
  gc: {
    label: 'GC',
    noun: 'GC events',
    weight: 'events',
    interval: false,
    instances: false,
    subject: { label: 'Collector', what: 'GC name', tab: 'Collectors', column: 'Collector' },
    color: '#fcc419',
    light: '#fff3bf',
    order: null,
  },
  pinned: {
    label: 'Pinned',
    noun: 'pinned virtual threads',
    weight: 'duration',
    interval: true,
    instances: false,
    subject: { label: 'Pinned reason', what: 'why the virtual thread was pinned', tab: 'Reasons', column: 'Pinned reason' },
    color: '#c2255c',
    light: '#ffdeeb',
    order: 4.7,
  },
  method: {
    label: 'Method trace',
    noun: 'method traces',
    weight: 'duration',
    interval: true,
    instances: false,
    subject: { label: 'Method', what: 'traced method', tab: 'Methods', column: 'Traced method' },
    color: '#1098ad',
    light: '#99e9f2',
    order: 5.5,
  },
  span: {
    label: 'Span',
    noun: 'spans',
    weight: 'duration',
    interval: true,
    instances: false,
    subject: { label: 'Tag', what: 'span tag', tab: 'Tags', column: 'Tag' },
    color: '#5c940d',
    light: '#d8f5a2',
    order: null,
  },
  nativemem: {
    label: 'Native memory',
    noun: 'native allocations',
    weight: 'bytes',
    interval: false,
    instances: false,
    subject: OTHER_SUBJECT,
    color: '#9c36b5',
    light: '#eebefa',
    order: 7.5,
  },
  thread: { label: 'Thread', noun: 'thread events', weight: 'events', interval: false, instances: false, subject: OTHER_SUBJECT, color: '#adb5bd', light: '#e9ecef', order: null },
  other: { label: 'Other', noun: 'events', weight: 'events', interval: false, instances: false, subject: OTHER_SUBJECT, color: '#495057', light: '#ced4da', order: 8 },
};

/** The kinds drawn as bars with their duration, in legend and column order. */
export type IntervalKind = 'lock' | 'wait' | 'park' | 'sleep' | 'io' | 'pinned' | 'method' | 'span';
export const INTERVAL_KIND_LIST = (Object.keys(KINDS) as EventKind[]).filter((k) => KINDS[k].interval) as IntervalKind[];

/** The kind of an event type (index into eventTypes); `other` when out of range. */
export function kindOf(profile: Profile, type: IndexIntoEventTypes): KindInfo {
  return KINDS[profile.eventTypes[type]?.kind ?? 'other'];
}

/**
 * Types that weigh and read otherwise than the rest of their kind: async-profiler's frees carry
 * an address and no size (and no stack), so they count as events, not as bytes allocated.
 */
const TYPE_OVERRIDES: Record<string, { noun: string; weight: WeightMode }> = {
  'profiler.Free': { noun: 'native frees', weight: 'events' },
};

/** How the status line names a type's events: the kind's noun, or "<label> events". */
export function nounOf(profile: Profile, type: IndexIntoEventTypes): string {
  const t = profile.eventTypes[type];
  if (!t) return '';
  const own = TYPE_OVERRIDES[t.name];
  if (own) return own.noun;
  return t.kind === 'other' || t.kind === 'gc' || t.kind === 'thread' ? `${t.label} events` : KINDS[t.kind].noun;
}

export function weightModeOf(profile: Profile, type: IndexIntoEventTypes): WeightMode {
  const t = profile.eventTypes[type];
  if (!t) return 'events';
  return TYPE_OVERRIDES[t.name]?.weight ?? kindOf(profile, type).weight;
}

/** One event's weight: samples (the batch size of wall-clock samples), bytes, ms, or 1. */
export function eventWeight(profile: Profile, i: number, mode: WeightMode): number {
  switch (mode) {
    case 'samples':
    case 'bytes':
      return profile.events.weight[i];
    case 'duration':
      return profile.events.duration[i];
    default:
      return 1;
  }
}

/** Kinds whose events name an object instance (by address) as well as its class. */
export function hasInstances(kind: EventKind | undefined): boolean {
  return kind !== undefined && KINDS[kind].instances;
}

/** What choosing a type needs to know of it (a profile's event types, or a count pass's). */
export interface TypeCount {
  name: string;
  kind: EventKind;
  count: number;
  hasStack: boolean;
}

function choicesOf(types: readonly TypeCount[]): number[] {
  return types
    .map((t, i) => ({ t, i, order: KINDS[t.kind].order }))
    .filter(({ t, order }) => t.hasStack && t.count > 0 && order !== null)
    .sort((a, b) => (a.order ?? 0) - (b.order ?? 0) || b.t.count - a.t.count)
    .map(({ i }) => i);
}

/** Stack-bearing types the Event selector offers, most useful first. */
export function eventChoices(profile: Profile): number[] {
  return choicesOf(profile.eventTypes);
}

export function defaultEventType(profile: Profile): string {
  const c = eventChoices(profile);
  return c.length ? profile.eventTypes[c[0]].name : '';
}

/**
 * What a recording's first view shows, from its types' counts alone (before any row is
 * decoded): `shown`, the type chosen (or the default one), and `lanes`, the types its timeline
 * draws in every lane whatever the type shown: waits and other intervals, GCs, thread starts.
 */
export function firstView(types: readonly TypeCount[], chosen: string): { shown: string[]; lanes: string[] } {
  const c = choicesOf(types);
  const shown = chosen && types.some((t) => t.name === chosen) ? chosen : c.length ? types[c[0]].name : '';
  const lanes = types.filter((t) => t.count > 0 && t.name !== shown && (KINDS[t.kind].interval || t.kind === 'gc' || t.kind === 'thread')).map((t) => t.name);
  return { shown: shown ? [shown] : [], lanes };
}

/** What the status line puts before the selection's total weight. */
export const WEIGHT_LABEL: Record<WeightMode, string> = {
  samples: '',
  bytes: 'allocated ',
  duration: 'wait time ',
  events: '',
};
