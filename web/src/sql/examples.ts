/**
 * Example queries for the hunt, each over the views of schema.ts. Those needing an event type
 * the recording lacks are offered with the reason instead.
 */
import type { Profile } from '../columns/profile';
import type { SqlExample } from '../columns/sql-view';

interface Template {
  title: string;
  /** Types (any one of them) that must have rows. */
  needs: string[];
  sql: (range: [number, number] | null) => string;
}

const within = (range: [number, number] | null, col = 'start') =>
  range ? `${col} BETWEEN ${+range[0].toFixed(3)} AND ${+range[1].toFixed(3)}` : 'true -- the whole recording: select a range on the timeline first for a window';

const TEMPLATES: Template[] = [
  {
    title: 'p99 of file reads per path per minute',
    needs: ['jdk.FileRead'],
    sql: () => `-- Slowest file reads: the 99th percentile of each path's reads, minute by minute
SELECT subject AS path,
       time_bucket(INTERVAL 1 minute, time) AS minute,
       quantile_cont(duration, 0.99) AS p99_ms,
       count(*) AS reads,
       sum(value) AS bytes
FROM "jdk.FileRead"
GROUP BY ALL
ORDER BY p99_ms DESC
LIMIT 100`,
  },
  {
    title: 'Threads with the most lock-wait time',
    needs: ['jdk.JavaMonitorEnter', 'jdk.ThreadPark', 'jdk.JavaMonitorWait'],
    sql: (range) => `-- Time each thread spent blocked on monitors and parked on locks
SELECT e.thread,
       sum(e.duration) AS wait_ms,
       count(*) AS waits,
       max(e.duration) AS longest_ms
FROM events e JOIN types t ON t.name = e.type
WHERE t.kind IN ('lock', 'park') AND ${within(range, 'e.start')}
GROUP BY e.thread
ORDER BY wait_ms DESC
LIMIT 50`,
  },
  {
    title: 'Top frames in the selected range',
    needs: ['jdk.ExecutionSample'],
    sql: (range) => `-- The methods on top of the CPU samples' stacks (self time)
SELECT f.name AS frame,
       count(*) AS samples,
       round(100.0 * count(*) / sum(count(*)) OVER (), 1) AS percent
FROM "jdk.ExecutionSample" s
JOIN stacks st ON st.id = s.stack
JOIN frames f ON f.id = st.frame
WHERE ${within(range, 's.start')}
GROUP BY f.name
ORDER BY samples DESC
LIMIT 30`,
  },
  {
    title: 'Allocations during collections (and the second before)',
    needs: ['jdk.GarbageCollection'],
    sql: () => `-- Who allocated while each collection ran, and in the second before it (what filled the heap)
SELECT g.value AS gc_id,
       CASE WHEN a.start >= g.start THEN 'during' ELSE 'second before' END AS phase,
       a.thread,
       a.subject AS class,
       sum(a.weight) AS bytes,
       count(*) AS allocations
FROM "jdk.GarbageCollection" g
JOIN events a ON a.start BETWEEN g.start - 1000 AND g.start + g.duration
JOIN types t ON t.name = a.type AND t.kind = 'alloc'
GROUP BY ALL
ORDER BY bytes DESC
LIMIT 50`,
  },
  {
    title: 'Longest lock waits (click a row to see it)',
    needs: ['jdk.JavaMonitorEnter'],
    sql: (range) => `-- Each row is one event: clicking it selects it on the timeline
SELECT event, start, duration, thread, subject AS monitor, peer AS previous_owner
FROM "jdk.JavaMonitorEnter"
WHERE ${within(range)}
ORDER BY duration DESC
LIMIT 100`,
  },
];

/** The examples, with the selected range written into those that take one. */
export function examples(profile: Profile, range: [number, number] | null): SqlExample[] {
  const present = new Set(profile.eventTypes.filter((t) => t.count > 0).map((t) => t.name));
  return TEMPLATES.map((t) => ({
    title: t.title,
    sql: t.sql(range),
    missing: t.needs.some((n) => present.has(n)) ? null : `This recording has no ${t.needs.join(' or ')} events.`,
  }));
}
