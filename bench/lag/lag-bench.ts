import '../lib/bench-kek.ts';
import { allProjections, inlineProjections } from '../../services/app/projections.ts';
import { inTransaction } from '../../shared/db/pool.ts';
import { ProjectionRunner } from '../../shared/projections/runner.ts';
import { createPool } from '../../shared/db/pool.ts';
import type { ExpectedRevision, NewEvent } from '../../shared/event-store/event-store.ts';
import { PostgresEventStore } from '../../shared/event-store/postgres-event-store.ts';
import type { BenchConfig } from '../lib/config.ts';
import type { Figure } from '../lib/figures.ts';
import { onboardingStreams, sealedPersonas, type Persona } from '../lib/onboarding-events.ts';
import type { Progress } from '../lib/progress.ts';
import { TEAM_ID } from '../lib/sample-event.ts';
import type { BenchServer } from '../lib/server.ts';
import { createStandInTable, projectionsUnderTest } from '../lib/stand-in-projection.ts';
import { percentile } from '../lib/stats.ts';

const TIMEOUT_MS = 5000;

interface Append {
  streamId: string;
  event: NewEvent;
  expected: ExpectedRevision;
}

/** The service's appends one by one: each onboarding's streams, event by event. */
function* appends(writer: number, personas: Persona[]): Generator<Append> {
  for (let index = 0; ; index++) {
    for (const stream of onboardingStreams(TEAM_ID, writer * 1_000_000 + index, personas)) {
      for (const [revision, event] of stream.events.entries()) {
        yield {
          streamId: stream.streamId,
          event,
          expected: revision === 0 ? 'no_stream' : BigInt(revision - 1),
        };
      }
    }
  }
}

interface Lags {
  lags: number[];
  appendMs: number[];
  timeouts: number;
  /** Appends the inline read model handles, and those whose row was current right at the commit. */
  inline: number;
  inlineCurrent: number;
}

/**
 * Part 4, read your writes. Each append goes through a transaction and appendWithin, as a
 * command's does, so the inline read model (onboardings) is written in it: right after the
 * commit its row must already hold the event (the command's answer waits for nothing).
 * Then the asynchronous lag: the time from the commit to the projection runner's checkpoint
 * passing the appended position (ProjectionRunner.waitForPosition, as a read of the events
 * feed waits). The runner runs the service's projections; one writer, then `lagWriters`
 * concurrent writers (each appends, waits, appends).
 */
export async function runLagBench(
  server: BenchServer,
  config: BenchConfig,
  progress: Progress,
): Promise<{ figures: Figure[]; description: string }> {
  const url = await server.createDatabase('bench_lag', { migrated: true });
  const pool = createPool(url, 20);
  const store = new PostgresEventStore(pool, url, inlineProjections);
  const { projections, description } = projectionsUnderTest(allProjections);
  let runner = new ProjectionRunner(pool, store, projections);
  // Diagnostic: the same runner on a pool whose commits do not wait for the WAL flush.
  const asyncCommitPool = createPool(`${url}?options=${encodeURIComponent('-c synchronous_commit=off')}`, 20);
  try {
    await createStandInTable(pool);
    const personas = await sealedPersonas(pool, TEAM_ID, 64);
    await runner.start();
    const measure = async (writers: number, label: string, count = config.lagAppends): Promise<Lags> => {
      const phase = progress.phase(label, count, 'appends');
      const result: Lags = { lags: [], appendMs: [], timeouts: 0, inline: 0, inlineCurrent: 0 };
      let started = 0;
      const writer = async (id: number) => {
        const source = appends(writers * 100 + id, personas);
        while (started < count) {
          started++;
          const { streamId, event, expected } = source.next().value as Append;
          const before = performance.now();
          const { position } = await inTransaction(pool, (tx) =>
            store.appendWithin(tx, streamId, [event], expected),
          );
          store.afterCommit();
          const appended = performance.now();
          if (await ownRowCurrent(streamId, event, expected)) result.inlineCurrent++;
          if (inlineHandles(event)) result.inline++;
          const seen = await runner.waitForPosition(position, TIMEOUT_MS);
          result.appendMs.push(appended - before);
          result.lags.push(performance.now() - appended);
          if (!seen) result.timeouts++;
          phase.update(result.lags.length);
        }
      };
      await Promise.all(Array.from({ length: writers }, (_, id) => writer(id)));
      phase.done(
        `lag p50 ${percentile(result.lags, 50).toFixed(1)} ms, p99 ${percentile(result.lags, 99).toFixed(1)} ms`,
      );
      return result;
    };
    const inlineTypes = new Set(inlineProjections.flatMap((projection) => projection.canHandle ?? []));
    const inlineHandles = (event: NewEvent) => inlineTypes.has(event.type);
    /** The onboardings row holds the appended revision (checked only for events it handles). */
    const ownRowCurrent = async (streamId: string, event: NewEvent, expected: ExpectedRevision) => {
      if (!inlineHandles(event)) return false;
      const revision = expected === 'no_stream' ? 0n : BigInt(expected as bigint) + 1n;
      const row = await pool.query<{ stream_revision: string }>(
        'select stream_revision::text from onboardings where id = $1',
        [(event.data as { onboarding_id: string }).onboarding_id],
      );
      return streamId.startsWith('onboarding-') && BigInt(row.rows[0]?.stream_revision ?? -1) >= revision;
    };
    // Warm up the pool, the runner's subscription and the plans.
    await measure(1, 'read-your-writes warm-up', 200);
    const single = await measure(1, 'read-your-writes, 1 writer');
    const many = await measure(config.lagWriters, `read-your-writes, ${config.lagWriters} writers`);
    const setting = await asyncCommitPool.query<{ synchronous_commit: string }>('show synchronous_commit');
    if (setting.rows[0]?.synchronous_commit !== 'off')
      throw new Error('synchronous_commit=off was not applied');
    await runner.stop();
    runner = new ProjectionRunner(asyncCommitPool, store, projections);
    await runner.start();
    const half = Math.max(100, Math.round(config.lagAppends / 2));
    const asyncSingle = await measure(1, 'diagnostic async commit, 1 writer', half);
    const asyncMany = await measure(
      config.lagWriters,
      `diagnostic async commit, ${config.lagWriters} writers`,
      half,
    );
    const figures: Figure[] = [];
    for (const [label, lags] of [
      ['1 writer', single],
      [`${config.lagWriters} writers`, many],
    ] as const) {
      const note = `${lags.lags.length.toLocaleString('en-US')} appends; append p50 ${percentile(lags.appendMs, 50).toFixed(1)} ms${
        lags.timeouts ? `; ${lags.timeouts} waits timed out at ${TIMEOUT_MS} ms` : ''
      }`;
      figures.push(
        {
          part: '4 read your writes',
          name: `lag p50, ${label}`,
          value: percentile(lags.lags, 50),
          unit: 'ms',
          digits: 1,
          note,
        },
        {
          part: '4 read your writes',
          name: `lag p99, ${label}`,
          value: percentile(lags.lags, 99),
          unit: 'ms',
          digits: 1,
          target: { op: '<=', value: label === '1 writer' ? 50 : 20 },
          note,
        },
        {
          part: '4 read your writes',
          name: `own read model current at the commit, ${label}`,
          value: lags.inline === 0 ? null : (100 * lags.inlineCurrent) / lags.inline,
          unit: '%',
          digits: 1,
          target: { op: '>=', value: 100 },
          note: `${lags.inline.toLocaleString('en-US')} appends the onboardings read model handles, written inline: the command waits 0 ms for it`,
        },
      );
    }
    for (const [label, lags] of [
      ['1 writer', asyncSingle],
      [`${config.lagWriters} writers`, asyncMany],
    ] as const) {
      figures.push(
        {
          part: '4 diagnostic',
          name: `lag p50, ${label}, projections w/o flush wait`,
          value: percentile(lags.lags, 50),
          unit: 'ms',
          digits: 1,
          note: 'diagnostic: runner pool with synchronous_commit=off',
        },
        {
          part: '4 diagnostic',
          name: `lag p99, ${label}, projections w/o flush wait`,
          value: percentile(lags.lags, 99),
          unit: 'ms',
          digits: 1,
          note: `${lags.lags.length.toLocaleString('en-US')} appends; append p50 ${percentile(lags.appendMs, 50).toFixed(1)} ms`,
        },
      );
    }
    return { figures, description };
  } finally {
    await runner.stop();
    await store.close();
    await pool.end();
    await asyncCommitPool.end();
  }
}
