import { mkdir, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { runTwinCompareBench } from './api/twin-compare-bench.ts';
import { runEventStoreBench } from './eventstore/event-store-bench.ts';
import { runLagBench } from './lag/lag-bench.ts';
import { loadBenchConfig } from './lib/config.ts';
import type { Figure } from './lib/figures.ts';
import { createProgress } from './lib/progress.ts';
import { figuresTable, summary, writeResults, type RunContext } from './lib/report.ts';
import { mergeResults } from './lib/merge-results.ts';
import { LAST_RUN, RESULTS_FILE, ANALYSIS_FILE } from './lib/results-files.ts';
import { serverSettings, startBenchServer, WORK_DIR } from './lib/server.ts';
import { runSealedReadsBench } from './sealed/sealed-reads-bench.ts';
import { runPinBench } from './pin/pin-bench.ts';
import { runLongStreamBench } from './long-stream/autosave-bench.ts';
import { runProfileBench } from './profile/profile-bench.ts';
import { runPagesBench } from './pages/pages-bench.ts';
import { runRebuildBench } from './rebuild/rebuild-bench.ts';
import { runClientSearchBench } from './search/client-search-bench.ts';
import { runLargeTeamBench } from './large-team/large-team-bench.ts';

/**
 * npm run bench: every part against one embedded PostgreSQL (default durability), then the
 * table of figures and targets on stdout and in bench/RESULTS.md. BENCH_SCALE=0.1 for a
 * quick run. Parts run one after the other; a part that fails is reported and the others
 * still run. BENCH_PARTS=6 (or 3,6: the leading numbers of part names) runs only those
 * parts and updates their figures in bench/RESULTS.md, keeping the others.
 */
const config = loadBenchConfig();
const progress = createProgress();
const startedAt = new Date();
const figures: Figure[] = [];
const context: RunContext = { startedAt, seconds: 0, scale: config.scale, server: {}, load: [], notes: [] };

progress.log(
  `npm run bench: BENCH_SCALE=${config.scale}, ${os.cpus().length} cores, ` +
    `${(os.totalmem() / 1024 ** 3).toFixed(1)} GiB, load ${os.loadavg()[0]!.toFixed(1)}`,
);
const server = await startBenchServer();

const onlyParts = process.env.BENCH_PARTS?.split(',')
  .map((part) => part.trim())
  .filter(Boolean);

async function part(name: string, work: () => Promise<void>): Promise<void> {
  if (onlyParts && !onlyParts.some((wanted) => name.split(' ')[0] === wanted)) return;
  progress.log(`\n== ${name}`);
  const before = os.loadavg()[0]!;
  const started = performance.now();
  try {
    await work();
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    progress.log(`  ${name} failed: ${message}`);
    figures.push({ part: name, name: 'part failed', value: null, unit: '', note: message.split('\n')[0] });
  }
  context.load.push({
    part: name,
    before,
    after: os.loadavg()[0]!,
    seconds: (performance.now() - started) / 1000,
  });
}

try {
  context.server = await serverSettings(server.url);
  await part('1-2 event stores', async () => {
    const result = await runEventStoreBench(server, config, progress);
    figures.push(...result.figures);
    context.plans = result.plans;
    context.notes.push(
      'Parts 1–2: the project adapter, Emmett 0.42 (`getPostgreSQLEventStore`, `appendToStream`, `readMessagesBatch`) and ' +
        'raw single-row INSERTs each use their own database on the one server. Each append writes one event to a new ' +
        'stream. Per concurrency, rounds run every contender in rotating order; each turn opens the contender with a pg ' +
        'pool of that concurrency, warms it up unmeasured, measures, closes it. Figures are medians of rounds, ratios ' +
        'medians of per-round ratios. Emmett keeps its own (global) pg type parsers; the project side gets pg defaults ' +
        'per pool. "ours, prepared" is a diagnostic: the adapter\'s append statement, captured from it, sent as a named ' +
        'statement.',
      `Global-log read: each log filled to the same size with its own append (100 events per append), then read from ` +
        `the start in batches of ${config.readBatch}, one unmeasured scan first, stores alternating.`,
    );
  });
  await part('3 API vs CRUD twin', async () => {
    const result = await runTwinCompareBench(server, config, progress);
    figures.push(...result.figures);
    context.notes.push(
      `Part 3: the service (services/app/runtime.ts startService in the bench process, RATE_LIMITS=off) and its CRUD ` +
        `twin (bench/crud-twin: fastify + pg, same validation, reads, rows and outbox row, no events), each on its own ` +
        `database of the one server, the same tenant (Business team, key, template snapshot, client). Highest rate: ` +
        `autocannon in a child process, closed loop for ${config.apiSeconds} s (create and send 16 connections, get and ` +
        `list limit=50 64), two rounds per side alternating which side goes first; the best round with zero errors ` +
        `counts. Latency: a fixed rate of 70% of the twin's highest rate for ${config.apiSeconds} s on each side. ` +
        `Before send, the side that created fewer onboardings gets the difference (unmeasured) so lists and gets read ` +
        `tables of the same size. Ratios are ours / twin.`,
    );
  });
  await part('4 read your writes', async () => {
    const result = await runLagBench(server, config, progress);
    figures.push(...result.figures);
    context.notes.push(
      `Part 4: appends of the generated onboarding log one event at a time, each in a transaction through ` +
        `appendWithin as a command's (the onboardings read model written inline in it); "own read model current" = ` +
        `the onboardings row read right after the commit already holds the event; lag = commit → ` +
        `ProjectionRunner.waitForPosition resolved (the asynchronous read models). Projections: ${result.description}.`,
    );
  });
  await part('5 rebuild', async () => {
    const result = await runRebuildBench(server, config, progress);
    figures.push(...result.figures);
    context.notes.push(
      `Part 5: ${config.rebuildEvents.toLocaleString('en-US')} events (onboardings of 9 events: client.created + 8 ` +
        `onboarding events, domain types, client fields sealed with real keys) written in ${result.fillSeconds.toFixed(0)} s ` +
        `by bench/rebuild/fill-log.ts: multi-row INSERTs of ~10,800 events per transaction in the adapter's format ` +
        `(position = xid × 65536 + index, transaction_id = pg_current_xact_id(), event_streams rows), then VACUUM ANALYZE. ` +
        `shared/projections/rebuild.ts rebuildProjections ran in a child process, stopped after ${config.rebuildSeconds} s ` +
        `(BENCH_REBUILD_SECONDS, 0 = no limit) if not done; then the same log into the set-based stand-in alone ` +
        `(diagnostic). Projections: ${result.description}.`,
    );
  });
  await part('6 PIN link', async () => {
    const result = await runPinBench(server, config, progress);
    figures.push(...result.figures);
    context.notes.push(result.note);
  });
  await part('7 long streams', async () => {
    const result = await runLongStreamBench(server, config, progress);
    figures.push(...result.figures);
    context.notes.push(result.note);
  });
  await part('8 CPU profile', async () => {
    const result = await runProfileBench(server, config, progress);
    figures.push(...result.figures);
    context.notes.push(result.note);
  });
  await part('9 pages', async () => {
    const result = await runPagesBench(server, config, progress);
    figures.push(...result.figures);
    context.notes.push(result.note);
  });
  await part('10 sealed reads', async () => {
    const result = await runSealedReadsBench(server, config, progress);
    figures.push(...result.figures);
    context.notes.push(result.note);
  });
  await part('11 client search', async () => {
    const result = await runClientSearchBench(server, config, progress);
    figures.push(...result.figures);
    context.notes.push(result.note);
  });
  await part('12 large team', async () => {
    const result = await runLargeTeamBench(server, config, progress);
    figures.push(...result.figures);
    context.notes.push(result.note);
  });
} finally {
  context.seconds = (Date.now() - startedAt.getTime()) / 1000;
  // A service left with stuck requests may still hold connections that the server's
  // shutdown terminates; that is expected here and must not crash the report.
  process.on('uncaughtException', (error: Error & { code?: string }) => {
    if (error.code === '57P01') return;
    console.error(error);
    process.exit(1);
  });
  await server.stop();
}

await mkdir(WORK_DIR, { recursive: true });
const table = figuresTable(figures);
process.stdout.write(`\n${table}\n\n${summary(figures)}\n`);
if (onlyParts) {
  await mergeResults(RESULTS_FILE, figures, context);
  progress.log(`parts ${onlyParts.join(', ')} updated in bench/RESULTS.md`);
} else {
  await writeFile(path.join(WORK_DIR, LAST_RUN), JSON.stringify({ figures, context }, null, 1));
  await writeResults(RESULTS_FILE, ANALYSIS_FILE, figures, context);
  progress.log('written to bench/RESULTS.md');
}
process.exit(0);
