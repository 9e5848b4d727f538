import pg from 'pg';

/**
 * Whether this process can reach its PostgreSQL, and since when it cannot. /healthz answers
 * 503 once the database has been gone for longer than the grace (DATABASE_LOST_UNHEALTHY_SECONDS),
 * so that an orchestrator restarts a process that cannot get its database back; /readyz
 * answers 503 from the first failed probe on.
 *
 * Two sources mark it: a probe (`select 1` on a connection of its own, every
 * PROBE_INTERVAL_MS, each bounded by PROBE_TIMEOUT_MS: a busy request pool never makes the
 * database look gone), and, for the embedded database, its supervisor, which marks it down
 * the moment the postmaster exits (./embedded-supervisor.ts).
 */
export class DatabaseHealth {
  #downSince: number | undefined;
  #reason: string | undefined;

  constructor(private readonly now: () => number = Date.now) {}

  /** The first call of an outage sets its start; later calls keep it. */
  markDown(reason: string): void {
    if (this.#downSince !== undefined) return;
    this.#downSince = this.now();
    this.#reason = reason;
  }

  markUp(): void {
    this.#downSince = undefined;
    this.#reason = undefined;
  }

  get down(): boolean {
    return this.#downSince !== undefined;
  }

  /** Milliseconds since the database was lost (0 while it answers). */
  downForMs(): number {
    return this.#downSince === undefined ? 0 : Math.max(0, this.now() - this.#downSince);
  }

  get reason(): string | undefined {
    return this.#reason;
  }
}

export const PROBE_INTERVAL_MS = 2000;
export const PROBE_TIMEOUT_MS = 2000;

export interface DatabaseProbe {
  stop(): Promise<void>;
}

/** Probes `url` every PROBE_INTERVAL_MS and marks `health` up or down. */
export function probeDatabase(url: string, health: DatabaseHealth): DatabaseProbe {
  const pool = new pg.Pool({
    connectionString: url,
    max: 1,
    connectionTimeoutMillis: PROBE_TIMEOUT_MS,
    query_timeout: PROBE_TIMEOUT_MS,
    idleTimeoutMillis: PROBE_INTERVAL_MS * 3,
  });
  pool.on('connect', (client) => client.on('error', () => undefined));
  pool.on('error', () => undefined);
  let stopped = false;
  let inFlight: Promise<void> | undefined;
  const probe = async () => {
    try {
      await pool.query('select 1');
      if (!stopped) health.markUp();
    } catch (error) {
      if (!stopped) health.markDown(`the database does not answer: ${(error as Error).message}`);
    }
  };
  const timer = setInterval(() => {
    inFlight ??= probe().finally(() => (inFlight = undefined));
  }, PROBE_INTERVAL_MS);
  timer.unref();
  return {
    async stop() {
      stopped = true;
      clearInterval(timer);
      await inFlight;
      await pool.end().catch(() => undefined);
    },
  };
}
