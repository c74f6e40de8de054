import { describe, expect, it } from 'vitest';
import { initialState, type ViewState } from '../state';
import { recordingSource, stateFromUrl, urlFromState, URL_VERSION } from '../url';

const full: ViewState = {
  eventType: 'profiler.WallClockSample',
  threadFilter: 'search-worker-\\d+',
  stackFilter: 'NativeThreadSet|skip&Bytes',
  excludeFilter: 'Unsafe.park',
  subjectFilter: '^sun\\.nio\\.ch\\.NativeThreadSet$',
  spanFilter: '^leak$',
  subjectBy: 'instance',
  threadState: 'STATE_RUNNABLE',
  activity: 'threads',
  hiddenLayers: ['idle', 'sleep'],
  durationFilter: [12.5, 480],
  pinnedThreads: ['index-merger', 'a thread\nwith a newline'],
  range: [4012.5, 5001.25],
  viewport: [0, 16000],
  baseline: [0, 3999.125],
  otherRange: [250, 9000.5],
  hiddenThreads: ['C2 CompilerThread0', 'name with\ttab & ünïcode', 'two\nlines, a comma', '\u202eevil\u0000', '(unnamed virtual thread #42)'],
  groupThreads: true,
  virtualOpen: true,
  sortLanes: 'name',
  selectedMethod: 'java.io.DataInputStream.skipBytes',
  methodSort: 'self',
  compareAs: 'flame',
  inverted: true,
  clock: true,
  search: 'skip',
  view: 'subjects',
  tableType: 'jdk.GCHeapSummary',
  sql: `-- lock waits; "quoted" & 100% sure?
SELECT thread, sum(duration) AS wait_ms
FROM "jdk.JavaMonitorEnter" WHERE subject LIKE '%#a+b%'
GROUP BY ALL ORDER BY 2 DESC`,
};

describe('URL state', () => {
  it('carries the SQL view and its query text as typed (newlines, quotes, %, #, +, &)', () => {
    const s = { ...initialState, view: 'sql' as const, sql: full.sql };
    const link = urlFromState(s);
    expect(link).toContain('view=sql');
    expect(new URLSearchParams(link).get('sql')).toBe(full.sql);
    expect(stateFromUrl(link).state).toEqual(s);
    // Links made before the SQL view keep an empty query.
    expect(stateFromUrl('?v=2&view=flame').state.sql).toBe('');
  });

  it('round-trips every field', () => {
    const extras = { url: 'https://example.org/a.jfr', fingerprint: '123-00ff00ff00ff00ff', fileName: 'a.jfr', startMs: 1763906600125 };
    const back = stateFromUrl(urlFromState(full, extras));
    expect(back.state).toEqual(full);
    expect(back.extras).toEqual(extras);
    expect(back.notices).toEqual([]);
  });

  it('round-trips the other recording: its fingerprint, file name and range', () => {
    const s = { ...initialState, view: 'compare' as const, range: [1000, 2000] as [number, number], otherRange: [0.5, 3000] as [number, number] };
    const extras = { fingerprint: '123-00ff00ff00ff00ff', otherFingerprint: '456789-0123456789abcdef', otherName: 'today, after the fix.jfr.gz' };
    const link = urlFromState(s, extras);
    expect(link).toContain('fp2=456789-0123456789abcdef');
    expect(link).toContain('range2=0.5-3000');
    const back = stateFromUrl(link);
    expect(back.state).toEqual(s);
    expect(back.extras).toEqual(extras);
    expect(back.notices).toEqual([]);
    // A malformed fingerprint drops the other recording (its name too) with a notice.
    const bad = stateFromUrl('?v=3&fp2=nope&file2=x.jfr&range2=1-2');
    expect(bad.extras).toEqual({});
    expect(bad.state.otherRange).toEqual([1, 2]);
    expect(bad.notices).toHaveLength(1);
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

describe('the sandwich and the stack chart', () => {
  it('round-trips its view with the method it shows', () => {
    const sandwich: ViewState = { ...initialState, view: 'sandwich', selectedMethod: 'java.io.DataInputStream.skipBytes', range: [4000, 5000.5], stackFilter: 'NativeThreadSet' };
    const link = urlFromState(sandwich);
    expect(link).toContain('view=sandwich');
    expect(link).toContain('method=java.io.DataInputStream.skipBytes');
    expect(stateFromUrl(link)).toEqual({ state: sandwich, extras: {}, notices: [] });
  });

  it('round-trips the stack chart with the pinned threads it draws', () => {
    const stack: ViewState = { ...initialState, view: 'stack', pinnedThreads: ['search-worker-3', 'index merger; #2'], viewport: [100, 900], selectedMethod: 'a$b.c' };
    expect(stateFromUrl(urlFromState(stack))).toEqual({ state: stack, extras: {}, notices: [] });
    // A link of version 1 with the new views reads them too (they are additions, nothing to upgrade).
    expect(stateFromUrl('?v=1&view=stack&pin=w').state).toMatchObject({ view: 'stack', pinnedThreads: ['w'] });
  });
});

describe('the recording a link names', () => {
  const named = { fingerprint: '281405-0123456789abcdef', fileName: 'prod #3, "after" the fix; ünïcode\n.jfr', startMs: Date.UTC(2026, 10, 23, 14, 3, 20, 125) };

  it('round-trips its file name, size (in the fingerprint) and start, to the millisecond', () => {
    const link = urlFromState({ ...initialState, stackFilter: 'x' }, named);
    expect(link).toContain('start=2026-11-23T14%3A03%3A20.125Z');
    const back = stateFromUrl(link);
    expect(back.extras).toEqual(named);
    expect(back.notices).toEqual([]);
    // Through a real location too.
    expect(stateFromUrl(new URL(`https://h.example/${link}`).search).extras).toEqual(named);
  });

  it('a start that is no ISO time in UTC is dropped with a notice; the file name stays', () => {
    for (const bad of ['yesterday', '2026-11-23 14:03:20', '2026-11-23T14:03:20+01:00', '2026-13-45T99:99:99Z']) {
      const r = stateFromUrl(`?v=3&fp=281405-0123456789abcdef&file=a.jfr&start=${encodeURIComponent(bad)}`);
      expect(r.extras, bad).toEqual({ fingerprint: '281405-0123456789abcdef', fileName: 'a.jfr' });
      expect(r.notices, bad).toHaveLength(1);
    }
  });

  it('a name or start without a fingerprint names nothing', () => {
    expect(stateFromUrl('?v=3&file=a.jfr&start=2026-11-23T14:03:20Z').extras).toEqual({});
  });

  it('upgrades version 2: the other recording’s `name2` is now `file2`', () => {
    const r = stateFromUrl('?v=2&fp=1-00ff00ff00ff00ff&fp2=456789-0123456789abcdef&name2=before.jfr&view=compare');
    expect(r.extras).toEqual({ fingerprint: '1-00ff00ff00ff00ff', otherFingerprint: '456789-0123456789abcdef', otherName: 'before.jfr' });
    expect(r.state.view).toBe('compare');
    expect(r.notices).toEqual([]);
    // Written back as version 3.
    const again = urlFromState(r.state, r.extras);
    expect(again).toMatch(/^\?v=3&/);
    expect(again).toContain('file2=before.jfr');
    expect(again).not.toContain('name2');
    expect(stateFromUrl(again)).toEqual(r);
  });
});

describe('hidden threads', () => {
  it('round-trips a name holding a newline, a comma, bidi and control characters', () => {
    const s: ViewState = { ...initialState, hiddenThreads: ['line one\nline two', 'a,b', '\u202egnp.exe', 'nul\u0000bell\u0007', 'x'.repeat(600)] };
    const text = urlFromState(s);
    expect(stateFromUrl(text).state.hiddenThreads).toEqual(s.hiddenThreads);
    // Through a real location too: what the page reads back after pushState.
    expect(stateFromUrl(new URL(`https://h.example/${text}`).search).state.hiddenThreads).toEqual(s.hiddenThreads);
  });

  it('keeps an unnamed thread by its id, and leaves out one known only by its row (rows may differ on the next open)', () => {
    const s: ViewState = { ...initialState, hiddenThreads: ['(unnamed virtual thread #42)', '(unnamed thread row 7)', '(unnamed thread os 812)'], pinnedThreads: ['(unnamed virtual thread row 3)', 'main'] };
    const back = stateFromUrl(urlFromState(s)).state;
    expect(back.hiddenThreads).toEqual(['(unnamed virtual thread #42)', '(unnamed thread os 812)']);
    expect(back.pinnedThreads).toEqual(['main']);
  });

  it('reads links of version 1, whose hidden threads were joined by newlines', () => {
    const r = stateFromUrl(`?v=1&hide=${encodeURIComponent('main\nC2 CompilerThread0')}`);
    expect(r.state.hiddenThreads).toEqual(['main', 'C2 CompilerThread0']);
    expect(r.notices).toEqual([]);
  });
});

describe('recording URLs', () => {
  const page = 'https://jfr.example/jfrscope/?v=2';

  it('sees the two scheme-relative attacks as another host', () => {
    expect(recordingSource('//other.host/x.jfr', page)).toEqual({ kind: 'other-origin', href: 'https://other.host/x.jfr', host: 'other.host' });
    expect(recordingSource('/\\other.host/x.jfr', page)).toEqual({ kind: 'other-origin', href: 'https://other.host/x.jfr', host: 'other.host' });
    expect(recordingSource('https://other.host/x', page)).toEqual({ kind: 'other-origin', href: 'https://other.host/x', host: 'other.host' });
    expect(recordingSource('http://jfr.example:8080/x.jfr', page)).toMatchObject({ kind: 'other-origin', host: 'jfr.example:8080' });
  });

  it('opens relative paths and the page\'s own origin as same-origin', () => {
    expect(recordingSource('/jfrscope/a.jfr', page)).toEqual({ kind: 'same-origin', href: 'https://jfr.example/jfrscope/a.jfr' });
    expect(recordingSource('./a.jfr', page)).toEqual({ kind: 'same-origin', href: 'https://jfr.example/jfrscope/a.jfr' });
    expect(recordingSource('a.jfr', page)).toEqual({ kind: 'same-origin', href: 'https://jfr.example/jfrscope/a.jfr' });
    expect(recordingSource('../x/b.jfr.gz', page)).toEqual({ kind: 'same-origin', href: 'https://jfr.example/x/b.jfr.gz' });
    expect(recordingSource('https://jfr.example/b.jfr', page)).toEqual({ kind: 'same-origin', href: 'https://jfr.example/b.jfr' });
  });

  it('refuses what is not http(s)', () => {
    for (const v of ['javascript:alert(1)', 'data:application/octet-stream;base64,AAAA', 'file:///etc/passwd', 'blob:https://jfr.example/1', 'http://[::1']) {
      expect(recordingSource(v, page), v).toEqual({ kind: 'refused' });
    }
  });

  it('keeps an http(s) or relative ?url= in the extras and drops the rest with a notice', () => {
    expect(stateFromUrl(`?v=2&url=${encodeURIComponent('//other.host/x.jfr')}`).extras.url).toBe('//other.host/x.jfr');
    expect(stateFromUrl('?v=2&url=a.jfr').extras.url).toBe('a.jfr');
    const r = stateFromUrl(`?v=2&url=${encodeURIComponent('data:,x')}`);
    expect(r.extras.url).toBeUndefined();
    expect(r.notices[0]).toMatch(/not http\(s\)/);
  });
});
