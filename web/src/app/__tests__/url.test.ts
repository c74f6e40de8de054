import { describe, expect, it } from 'vitest';
import { initialState, type ViewState } from '../state';
import { stateFromUrl, urlFromState, URL_VERSION } from '../url';

const full: ViewState = {
  eventType: 'profiler.WallClockSample',
  threadFilter: 'search-worker-\\d+',
  stackFilter: 'NativeThreadSet|skip&Bytes',
  excludeFilter: 'Unsafe.park',
  subjectFilter: '^sun\\.nio\\.ch\\.NativeThreadSet$',
  subjectBy: 'instance',
  threadState: 'STATE_RUNNABLE',
  activity: 'threads',
  hiddenLayers: ['idle', 'sleep'],
  range: [4012.5, 5001.25],
  viewport: [0, 16000],
  baseline: [0, 3999.125],
  hiddenThreads: ['C2 CompilerThread0', 'name with\ttab & ünïcode'],
  groupThreads: true,
  sortLanes: 'name',
  selectedMethod: 'java.io.DataInputStream.skipBytes',
  methodSort: 'self',
  compareAs: 'flame',
  inverted: true,
  clock: true,
  search: 'skip',
  view: 'subjects',
};

describe('URL state', () => {
  it('round-trips every field', () => {
    const back = stateFromUrl(urlFromState(full, { url: 'https://example.org/a.jfr', fingerprint: '123-00ff00ff00ff00ff' }));
    expect(back.state).toEqual(full);
    expect(back.extras).toEqual({ url: 'https://example.org/a.jfr', fingerprint: '123-00ff00ff00ff00ff' });
    expect(back.notices).toEqual([]);
  });

  it('round-trips each field alone against the defaults', () => {
    for (const key of Object.keys(full) as (keyof ViewState)[]) {
      const s = { ...initialState, [key]: full[key] } as ViewState;
      expect(stateFromUrl(urlFromState(s)).state, key).toEqual(s);
    }
  });

  it('writes the defaults as nothing but the version', () => {
    expect(urlFromState(initialState)).toBe(`?v=${URL_VERSION}`);
  });

  it('ignores unknown keys and drops malformed values with a notice', () => {
    const r = stateFromUrl('?v=1&bogus=1&range=abc&view=nope&sort=sideways&url=javascript:alert(1)&fp=zz');
    expect(r.state).toEqual(initialState);
    expect(r.notices).toHaveLength(5);
    expect(r.extras).toEqual({});
  });

  it('upgrades links without a version (the old `filter` key)', () => {
    const r = stateFromUrl('?filter=NativeThreadSet&event=jdk.ExecutionSample');
    expect(r.state.stackFilter).toBe('NativeThreadSet');
    expect(r.state.eventType).toBe('jdk.ExecutionSample');
  });

  it('warns about links from a newer version but reads what it knows', () => {
    const r = stateFromUrl('?v=99&stack=x');
    expect(r.state.stackFilter).toBe('x');
    expect(r.notices[0]).toMatch(/newer/);
  });
});
