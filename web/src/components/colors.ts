/** Colours shared by the timeline and the flame graph. */
import type { EventKind } from '../profile-logic/profile';

export const KIND_COLOR: Record<EventKind, string> = {
  cpu: '#e8590c',
  native: '#f59f00',
  wall: '#1c7ed6',
  lock: '#d6336c',
  park: '#7950f2',
  sleep: '#868e96',
  io: '#2b8a3e',
  alloc: '#f08c00',
  gc: '#fcc419',
  thread: '#adb5bd',
  other: '#495057',
};

/** Frame kinds coloured as async-profiler does: Java green, inlined aqua, native red, C++ yellow, kernel orange. */
export const FRAME_COLOR = ['#b2e1b2', '#50e150', '#50cccc', '#e15a5a', '#c8c83c', '#e17d00', '#c0c0c0'];
export const FRAME_KIND_NAME = ['Interpreted', 'JIT compiled', 'Inlined', 'Native', 'C++', 'Kernel', 'Unknown'];
