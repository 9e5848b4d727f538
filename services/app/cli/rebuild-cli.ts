/**
 * `npm run rebuild`: replays the whole event log into fresh read-model tables and swaps
 * them in, while the service may keep running.
 *
 * The database: DATABASE_URL when set; else the embedded PostgreSQL of a running
 * `npm start` on the same DATA_DIR (its URL is in `<DATA_DIR>/database-url`); else an
 * embedded PostgreSQL started here for the time of the rebuild. Migrations are applied
 * first (as at a service start), so the tables to rebuild exist.
 *
 * Events a projection cannot apply are parked and the rebuild finishes all the same (exit
 * code 0); it names them (projection, position, event id and type, error code and masked
 * message: no event data) on stderr. GET /admin/v1/parked-events lists them all.
 */
import pg from 'pg';
import { ProgressBar } from '../../../shared/cli/progress-bar.ts';
import type { Settings } from '../../../shared/config/settings.ts';
import { loadCliSettings } from '../../../shared/cli/cli-settings.ts';
import { readEmbeddedDatabaseUrl, startEmbeddedPostgres } from '../../../shared/db/embedded-postgres.ts';
import { migrate } from '../../../shared/db/migrate.ts';
import { createPool } from '../../../shared/db/pool.ts';
import { createEventStore } from '../../../shared/event-store/create-event-store.ts';
import type { EventStore } from '../../../shared/event-store/event-store.ts';
import { allProjections } from '../projections.ts';
import { KekRequiredError, resolveKeyRing } from '../../../shared/privacy/kek-source.ts';
import { installProcessKeyRing } from '../../../shared/privacy/process-key-ring.ts';
import {
  rebuildProjections,
  type ParkedReport,
  type RebuildProgress,
} from '../../../shared/projections/rebuild.ts';

interface Database {
  url: string;
  /** Said on stderr: which database is rebuilt. */
  description: string;
  stop(): Promise<void>;
}

const say = (line: string) => process.stderr.write(`${line}\n`);

async function reachable(url: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 3000 });
  client.on('error', () => undefined);
  try {
    await client.connect();
    await client.query('select 1');
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => undefined);
  }
}

async function openDatabase(settings: Settings): Promise<Database> {
  const nothingToStop = async () => undefined;
  if (settings.DATABASE_URL) {
    return { url: settings.DATABASE_URL, description: 'the database of DATABASE_URL', stop: nothingToStop };
  }
  const running = await readEmbeddedDatabaseUrl(settings.DATA_DIR);
  if (running && (await reachable(running))) {
    return {
      url: running,
      description: `the running embedded PostgreSQL of ${settings.DATA_DIR}`,
      stop: nothingToStop,
    };
  }
  const started = await startEmbeddedPostgres({ dataDir: settings.DATA_DIR, persistent: true });
  return {
    url: started.url,
    description: `an embedded PostgreSQL started on ${settings.DATA_DIR}`,
    stop: started.stop,
  };
}

/**
 * The rebuild's total is not known up front (the port reads the log, it does not count it):
 * the share of the log position read so far estimates it.
 */
function estimatedTotal(progress: RebuildProgress): number {
  if (progress.position <= 0n || progress.head <= progress.position) return progress.events;
  return Math.round(progress.events * (Number(progress.head) / Number(progress.position)));
}

function reportParked(parked: ParkedReport): void {
  if (parked.total === 0) {
    say('parked events: none');
    return;
  }
  const counts = Object.entries(parked.byProjection)
    .map(([projection, count]) => `${projection} ${count}`)
    .join(', ');
  say(`parked events: ${parked.total} (${counts}); the rebuilt tables leave them out`);
  for (const event of parked.first) {
    say(
      `  ${event.projection} position ${event.position} event ${event.eventId} (${event.eventType}): ` +
        `${event.error.code ?? 'no code'} ${event.error.message}`,
    );
  }
  if (parked.total > parked.first.length) say(`  ... and ${parked.total - parked.first.length} more`);
  say('fix the cause, then retry them: POST /admin/v1/parked-events/retry (or run the rebuild again)');
}

async function main(): Promise<number> {
  const settings = loadCliSettings(say);
  if (!settings) return 1;

  // The projections open personal data with the data keys, which the KEK seals.
  try {
    installProcessKeyRing(await resolveKeyRing(settings, { warn: (_fields, message) => say(message) }));
  } catch (error) {
    if (!(error instanceof KekRequiredError)) throw error;
    say(error.message);
    return 1;
  }
  const database = await openDatabase(settings);
  const pool = createPool(database.url, 8);
  let store: EventStore | undefined;
  try {
    say(`rebuilding in ${database.description}`);
    const applied = await migrate(pool);
    if (applied.length > 0) say(`applied migrations: ${applied.join(', ')}`);
    store = createEventStore(settings, pool, database.url);
    const names = allProjections.map((projection) => projection.name);
    say(`projections: ${names.length > 0 ? names.join(', ') : '(none)'}`);

    const bar = new ProgressBar(0, { label: 'rebuild', unit: 'events' });
    const startedAt = performance.now();
    const result = await rebuildProjections(pool, store, allProjections, (progress) =>
      bar.update(progress.events, estimatedTotal(progress)),
    );
    bar.finish();
    const seconds = (performance.now() - startedAt) / 1000;
    say(
      `rebuilt ${names.length} projection(s) from ${result.events} events in ${seconds.toFixed(1)} s; ` +
        'the new tables are live',
    );
    reportParked(result.parked);
    return 0;
  } finally {
    await store?.close().catch(() => undefined);
    await pool.end().catch(() => undefined);
    await database.stop();
  }
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    say(`rebuild failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
    process.exit(1);
  },
);
