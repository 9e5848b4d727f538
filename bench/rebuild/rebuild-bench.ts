import { createPool } from '../../shared/db/pool.ts';
import { runChildUntil } from '../lib/child.ts';
import type { BenchConfig } from '../lib/config.ts';
import type { Figure } from '../lib/figures.ts';
import type { Progress } from '../lib/progress.ts';
import type { BenchServer } from '../lib/server.ts';
import { sealedPersonas } from '../lib/onboarding-events.ts';
import { TEAM_ID } from '../lib/sample-event.ts';
import { allProjections } from '../../services/app/projections.ts';
import { createStandInTable, projectionsUnderTest } from '../lib/stand-in-projection.ts';
import { fillLog } from './fill-log.ts';
import { measurePhysicalLimit } from './physical-limit.ts';
import type { RebuildInput, RebuildOutput, RebuildTick } from './rebuild-child.ts';

const MB = 1024 * 1024;
/** Data subjects whose sealed values the generated clients share. */
const PERSONAS = 256;

/**
 * Part 5: fills a fresh database with `rebuildEvents` events (bench/rebuild/fill-log.ts),
 * then replays them into fresh copies of the read models and swaps them in
 * (shared/projections/rebuild.ts) in a child process; events per second and peak memory.
 */
export async function runRebuildBench(
  server: BenchServer,
  config: BenchConfig,
  progress: Progress,
): Promise<{ figures: Figure[]; description: string; fillSeconds: number }> {
  const url = await server.createDatabase('bench_rebuild', { migrated: true });
  const pool = createPool(url, 4);
  let fillSeconds: number;
  try {
    await createStandInTable(pool);
    const fill = progress.phase('write the log to rebuild', config.rebuildEvents, 'events');
    const started = performance.now();
    const personas = await sealedPersonas(pool, TEAM_ID, PERSONAS);
    const written = await fillLog(pool, config.rebuildEvents, fill, personas);
    // A long-lived log has been vacuumed and analysed by autovacuum; a fresh bulk load not yet.
    await pool.query('vacuum (analyze) events');
    await pool.query('vacuum (analyze) event_streams');
    fillSeconds = (performance.now() - started) / 1000;
    fill.done(
      `${written.toLocaleString('en-US')} events in ${fillSeconds.toFixed(1)} s (vacuum analyze included)`,
    );
  } finally {
    await pool.end();
  }

  const main = await replay(url, config, progress, false);
  const limitPhase = progress.phase('physical limit: COPY the final rows, build the indexes', 1, 'runs');
  // Measured on the rows the rebuild made: a stopped rebuild left the live tables empty.
  const limit = main.finished
    ? await measurePhysicalLimit(url, allProjections)
    : {
        ms: Number.NaN,
        copyMs: Number.NaN,
        indexMs: Number.NaN,
        rows: 0,
        indexes: 0,
        cpu: { nodeMs: Number.NaN, postgresMs: Number.NaN },
      };
  const limitRate = (main.result.events * 1000) / limit.ms;
  limitPhase.done(
    `${(limit.ms / 1000).toFixed(1)} s (${Math.round(limitRate).toLocaleString('en-US')} events/s)`,
  );
  // Diagnostic: the same log into the set-based stand-in projection alone.
  const standIn = await replay(url, config, progress, true);
  const part = '5 rebuild';
  return {
    description: main.result.description || projectionsUnderTest(allProjections).description,
    fillSeconds,
    figures: [
      {
        part,
        name: 'rebuild rate',
        value: main.rate,
        unit: 'events/s',
        target: { op: '>=', value: 50_000 },
        note: main.note,
      },
      {
        part,
        name: 'rebuild time ÷ its physical limit',
        value: main.result.ms / limit.ms,
        digits: 2,
        unit: '×',
        target: { op: '<=', value: 1.5 },
        note:
          `limit: the final rows of every read model (${limit.rows.toLocaleString('en-US')}) copied into fresh ` +
          `tables (COPY out piped into COPY in, ${(limit.copyMs / 1000).toFixed(1)} s) and their ` +
          `${limit.indexes} indexes built (${(limit.indexMs / 1000).toFixed(1)} s), as many at a time as cores: ` +
          `${(limit.ms / 1000).toFixed(1)} s, ${Math.round(limitRate).toLocaleString('en-US')} events/s`,
      },
      {
        part: '5 diagnostic',
        name: 'CPU per 1,000 events: rebuild, its physical limit, the log read alone (stand-in)',
        value: null,
        unit: '',
        note: [
          cpuPerThousand('rebuild', main.result.cpu, main.result.events),
          cpuPerThousand('limit', limit.cpu, main.result.events),
          cpuPerThousand('stand-in', standIn.result.cpu, main.result.events),
        ].join('; '),
      },
      {
        part,
        name: 'rebuild peak RSS',
        value: Math.max(main.result.peakRssBytes, main.result.maxRssBytes) / MB,
        unit: 'MB',
        target: { op: '<', value: 300 },
        note: `child process; sampled peak ${Math.round(main.result.peakRssBytes / MB)} MB, maxRSS ${Math.round(
          main.result.maxRssBytes / MB,
        )} MB, at start ${Math.round(main.result.baselineRssBytes / MB)} MB`,
      },
      {
        part: '5 diagnostic',
        name: 'rebuild rate, set-based stand-in projection only',
        value: standIn.rate,
        unit: 'events/s',
        note: `diagnostic: same log into bench/lib/stand-in-projection.ts (one upsert per batch); ${standIn.note}`,
      },
      {
        part: '5 diagnostic',
        name: 'rebuild peak RSS, stand-in only',
        value: Math.max(standIn.result.peakRssBytes, standIn.result.maxRssBytes) / MB,
        unit: 'MB',
      },
    ],
  };
}

interface Replay {
  /** Whether the rebuild swapped its tables in before the deadline. */
  finished: boolean;
  result: RebuildOutput;
  rate: number;
  note: string;
}

/** One rebuild in a child process, stopped at the deadline (its rate is then that of the part replayed). */
async function replay(
  url: string,
  config: BenchConfig,
  progress: Progress,
  standInOnly: boolean,
): Promise<Replay> {
  await endLeftoverSessions(url);
  const phase = progress.phase(
    standInOnly ? 'rebuild, stand-in only' : 'rebuild',
    config.rebuildEvents,
    'events',
  );
  let last: RebuildTick | undefined;
  const finished = await runChildUntil<RebuildInput, RebuildTick, RebuildOutput>(
    new URL('./rebuild-child.ts', import.meta.url),
    { url, standInOnly },
    (tick) => {
      last = tick;
      phase.update(tick.events);
    },
    config.rebuildSeconds * 1000,
  );
  const result: RebuildOutput = finished ?? {
    events: last?.events ?? 0,
    ms: last && last.eventsPerSecond > 0 ? (last.events * 1000) / last.eventsPerSecond : Number.NaN,
    peakRssBytes: last?.peakRssBytes ?? Number.NaN,
    maxRssBytes: last?.maxRssBytes ?? Number.NaN,
    baselineRssBytes: last?.baselineRssBytes ?? Number.NaN,
    description: '',
    cpu: { nodeMs: Number.NaN, postgresMs: Number.NaN },
  };
  const rate = (result.events * 1000) / result.ms;
  phase.done(
    `${Math.round(rate).toLocaleString('en-US')} events/s, peak RSS ${Math.round(result.peakRssBytes / MB)} MB` +
      (finished ? '' : ` (stopped after ${config.rebuildSeconds} s)`),
  );
  const note = finished
    ? `${result.events.toLocaleString('en-US')} events in ${(result.ms / 1000).toFixed(1)} s`
    : `stopped after ${config.rebuildSeconds} s (BENCH_REBUILD_SECONDS) at ${result.events.toLocaleString('en-US')} of ` +
      `${config.rebuildEvents.toLocaleString('en-US')} events; the whole replay would take ~${Math.round(
        config.rebuildEvents / rate,
      )} s; rate and memory so far`;
  return { finished: finished !== undefined, result, rate, note };
}

/** A replay stopped at its deadline may leave its sessions (and its rebuild lock) behind for a moment. */
async function endLeftoverSessions(url: string): Promise<void> {
  const pool = createPool(url, 1);
  try {
    await pool.query(
      `select pg_terminate_backend(pid) from pg_stat_activity
       where datname = current_database() and pid <> pg_backend_pid()`,
    );
  } finally {
    await pool.end();
  }
}

/** CPU of a phase per 1,000 events of the log: node's, PostgreSQL's and both. */
function cpuPerThousand(label: string, { nodeMs, postgresMs }: RebuildOutput['cpu'], events: number): string {
  const per = (ms: number) => ((ms * 1000) / events).toFixed(1);
  return `${label}: node ${per(nodeMs)} ms + PostgreSQL ${per(postgresMs)} ms = ${per(nodeMs + postgresMs)} ms`;
}
