import { createWriteStream } from 'node:fs';
import { rename, rm } from 'node:fs/promises';
import type { Writable } from 'node:stream';
import { finished } from 'node:stream/promises';
import { parseArgs } from 'node:util';
import { ProgressBar } from '../../../shared/cli/progress-bar.ts';
import { loadSettings, SettingsError, type Settings } from '../../../shared/config/settings.ts';
import { readEmbeddedDatabaseUrl, startEmbeddedPostgres } from '../../../shared/db/embedded-postgres.ts';
import { migrate } from '../../../shared/db/migrate.ts';
import { createPool, type Pool } from '../../../shared/db/pool.ts';
import { createEventStore } from '../../../shared/event-store/create-event-store.ts';
import { exportEvents } from '../../events/index.ts';

const USAGE = `Usage: npm run events:export -- [--from <position>] [--out <file>] [--batch-size <n>]

Writes the event log as NDJSON, one event per line in log order:
  {"position":"…","id":"…","stream_id":"…","revision":0,"type":"…","time":"…","data":{…},"metadata":{…}}
  --from <position>  only events after this position (exclusive); default: from the start
  --out <file>       write to this file (replaced when the export is complete); default: stdout
  --batch-size <n>   events read per query (default 1000)
Progress goes to stderr. The export stops at the log head as it was when it began; the
last line on stderr gives the --from for the next, incremental export.

Database: DATABASE_URL; else the running embedded server of DATA_DIR (<DATA_DIR>/database-url);
else the embedded server is started for the export. EVENTSTORE_URL reads EventStoreDB instead.`;

interface Arguments {
  from: bigint;
  out: string | undefined;
  batchSize: number;
}

function parseArguments(argv: string[]): Arguments | 'help' {
  const { values } = parseArgs({
    args: argv,
    options: {
      from: { type: 'string' },
      out: { type: 'string' },
      'batch-size': { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
    strict: true,
  });
  if (values.help) return 'help';
  const from = values.from ?? '0';
  if (!/^\d+$/.test(from))
    throw new UsageError(`--from: expected a log position (digits), got ${JSON.stringify(from)}`);
  const batch = values['batch-size'] ?? '1000';
  if (!/^\d+$/.test(batch) || Number(batch) < 1 || Number(batch) > 100_000) {
    throw new UsageError(`--batch-size: expected a number from 1 to 100000, got ${JSON.stringify(batch)}`);
  }
  if (values.out === '') throw new UsageError('--out: expected a file name');
  return { from: BigInt(from), out: values.out, batchSize: Number(batch) };
}

class UsageError extends Error {}

interface Database {
  url: string;
  stop(): Promise<void>;
}

async function reachable(url: string): Promise<boolean> {
  const probe = createPool(url, 1);
  try {
    await probe.query('select 1');
    return true;
  } catch {
    return false;
  } finally {
    await probe.end().catch(() => undefined);
  }
}

/** DATABASE_URL, else the running embedded server's URL, else an embedded server started here. */
async function openDatabase(settings: Settings): Promise<Database & { startedHere: boolean }> {
  const none = async () => undefined;
  if (settings.DATABASE_URL) return { url: settings.DATABASE_URL, stop: none, startedHere: false };
  const running = await readEmbeddedDatabaseUrl(settings.DATA_DIR);
  if (running && (await reachable(running))) return { url: running, stop: none, startedHere: false };
  const started = await startEmbeddedPostgres({ dataDir: settings.DATA_DIR, persistent: true });
  return { ...started, startedHere: true };
}

async function main(): Promise<number> {
  let args: Arguments | 'help';
  let settings: Settings;
  try {
    args = parseArguments(process.argv.slice(2));
    settings = loadSettings();
  } catch (error) {
    if (!(error instanceof UsageError || error instanceof SettingsError || error instanceof TypeError))
      throw error;
    console.error(`${error.message}\n\n${USAGE}`);
    return 2;
  }
  if (args === 'help') {
    console.error(USAGE);
    return 0;
  }

  // EventStoreDB needs no PostgreSQL: the pool is then never used (pg connects lazily).
  const database = settings.EVENTSTORE_URL
    ? { url: 'postgres://unused@127.0.0.1/unused', stop: async () => undefined, startedHere: false }
    : await openDatabase(settings);
  const pool: Pool = createPool(database.url, 2);
  const store = createEventStore(settings, pool, database.url);
  const partial = args.out ? `${args.out}.partial` : undefined;
  try {
    // A server started here may hold a fresh cluster: give it the schema (idempotent).
    if (database.startedHere) await migrate(pool);
    const out: Writable = partial ? createWriteStream(partial) : process.stdout;
    const progress = new ProgressBar(0, { label: 'export', unit: 'events' });
    const result = await exportEvents(store, out, {
      from: args.from,
      batchSize: args.batchSize,
      progress,
    });
    if (partial && args.out) {
      out.end();
      await finished(out);
      await rename(partial, args.out);
    }
    console.error(
      `exported ${result.events} events after position ${args.from} up to ${result.lastPosition}; ` +
        `next time: --from ${result.lastPosition}`,
    );
    return 0;
  } catch (error) {
    if (partial) await rm(partial, { force: true });
    throw error;
  } finally {
    await store.close().catch(() => undefined);
    await pool.end().catch(() => undefined);
    await database.stop();
  }
}

// A closed stdout (`| head`) ends the export quietly.
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code === 'EPIPE') process.exit(0);
});

main().then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    console.error(`export failed: ${error instanceof Error ? error.message : String(error)}`);
    process.exitCode = 1;
  },
);
