import { describe, expect, it } from 'vitest';
import { initialState, reducer } from '../state';

describe('view state reducer', () => {
  it('hides and shows threads without duplicates, returning the same object when nothing changes', () => {
    let s = reducer(initialState, { type: 'hideThreads', threads: ['search-worker-1', 'search-worker-2'] });
    expect(s.hiddenThreads).toEqual(['search-worker-1', 'search-worker-2']);
    const again = reducer(s, { type: 'hideThreads', threads: ['search-worker-2'] });
    expect(again).toBe(s);
    s = reducer(s, { type: 'toggleHidden', thread: 'search-worker-1' });
    expect(s.hiddenThreads).toEqual(['search-worker-2']);
    s = reducer(s, { type: 'toggleHidden', thread: 'main' });
    expect(s.hiddenThreads).toEqual(['search-worker-2', 'main']);
    s = reducer(s, { type: 'showThreads', threads: ['main', 'nope'] });
    expect(s.hiddenThreads).toEqual(['search-worker-2']);
    expect(reducer(s, { type: 'showThreads', threads: ['nope'] })).toBe(s);
  });

  it('patches and replaces', () => {
    const s = reducer(initialState, { type: 'set', patch: { eventType: 'jdk.ExecutionSample', stackFilter: 'x', range: [1, 2], methodSort: 'self' } });
    expect(s).toMatchObject({ eventType: 'jdk.ExecutionSample', stackFilter: 'x', range: [1, 2], methodSort: 'self' });
    expect(reducer(s, { type: 'replace', state: initialState })).toBe(initialState);
  });

  it('stays plain data: a JSON round trip gives the same state', () => {
    const s = reducer(initialState, { type: 'set', patch: { range: [1.5, 2.5], viewport: [0, 10], hiddenThreads: ['a'], inverted: true } });
    expect(JSON.parse(JSON.stringify(s))).toEqual(s);
  });
});
