import pg from 'pg';
import type { Logger } from '../logging/logger.ts';

/** The channel an erasure notifies, with the subject id as payload (sent at commit). */
export const ERASURE_CHANNEL = 'personal_data_erased';

export interface ErasureListenerEvents {
  /** Another (or this) process erased a subject's key. */
  erased(subjectId: string): void;
  /** Listening (again): notifications from now on arrive; any sent meanwhile were missed. */
  listening(): void;
  /** Not listening: erasures elsewhere may go unnoticed until listening() again. */
  lost(): void;
}

/**
 * One LISTEN connection on ERASURE_CHANNEL. Every instance shares the database, so
 * PostgreSQL delivers each erasure to every instance, with or without Redis. When the
 * connection breaks it is made again with a growing pause (up to 5 s) until `stop`.
 */
export class ErasureListener {
  private client: pg.Client | undefined;
  private timer: NodeJS.Timeout | undefined;
  private failures = 0;
  private stopped = false;

  constructor(
    private readonly url: string,
    private readonly events: ErasureListenerEvents,
    private readonly logger: Logger,
  ) {}

  start(): void {
    this.connect();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    const client = this.client;
    this.client = undefined;
    await client?.end().catch(() => undefined);
  }

  private connect(): void {
    if (this.stopped) return;
    const client = new pg.Client({ connectionString: this.url, connectionTimeoutMillis: 10_000 });
    this.client = client;
    let lost = false;
    const onLost = (error?: Error) => {
      if (lost) return;
      lost = true;
      if (this.client === client) this.client = undefined;
      void client.end().catch(() => undefined);
      if (this.stopped) return;
      this.events.lost();
      if (this.failures === 0) {
        this.logger.warn(
          { error: error?.message },
          'erasure notifications lost; personal-data keys are read from the database until they are back',
        );
      }
      this.failures++;
      this.timer = setTimeout(() => this.connect(), Math.min(5000, 100 * 2 ** this.failures));
      this.timer.unref();
    };
    client.on('error', onLost);
    client.on('end', () => onLost());
    client.on('notification', (message) => {
      if (message.channel === ERASURE_CHANNEL && message.payload) this.events.erased(message.payload);
    });
    client
      .connect()
      .then(() => client.query(`listen ${ERASURE_CHANNEL}`))
      .then(() => {
        if (lost || this.stopped) return;
        this.failures = 0;
        this.events.listening();
      }, onLost);
  }
}
