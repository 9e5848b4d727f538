import type { ReadAllOptions, RecordedEvent, SubscriptionHandler } from './event-store.ts';
import { WakeableSleep } from '../runtime/wakeable-sleep.ts';

const BATCH_SIZE = 500;
/** Poll while committed events are hidden: an older transaction may end without a notification. */
const FIRST_RETRY_MS = 5;
/** The slowest poll, and the only one while nothing is hidden (a notification lost with its connection). */
const MAX_IDLE_WAIT_MS = 500;
/** After a failed read or batch (the database unreachable, say): 250 ms, doubling, at most 2 s. */
const FIRST_FAILURE_WAIT_MS = 250;
const MAX_FAILURE_WAIT_MS = 2000;

/** A read of the log: its visible events, and whether committed events were still hidden. */
export interface LogWindow {
  events: RecordedEvent[];
  hidden: boolean;
}

/**
 * Catch-up then live reading of the global log from a checkpoint, one batch at a time.
 * Every append notifies (LISTEN/NOTIFY, or in process), and a wake-up ends the wait. While
 * the last read saw committed events still hidden behind an older transaction, short
 * retries with backoff cover their becoming visible without a notification (that
 * transaction may end without appending). Otherwise the follower reads again only when
 * woken, or after the slowest poll.
 */
export class LogFollower {
  private running = false;
  private loop: Promise<void> | undefined;
  private readonly pause = new WakeableSleep();
  private woken = false;

  constructor(
    private readonly read: (options: ReadAllOptions) => Promise<LogWindow>,
    private position: bigint,
    private readonly handler: SubscriptionHandler,
  ) {}

  start(): void {
    this.running = true;
    this.loop = this.run();
  }

  wake(): void {
    this.woken = true;
    this.pause.wake();
  }

  async stop(): Promise<void> {
    this.running = false;
    this.wake();
    await this.loop;
  }

  private async run(): Promise<void> {
    let idleWait = FIRST_RETRY_MS;
    let failures = 0;
    while (this.running) {
      let hidden: boolean;
      try {
        this.woken = false;
        const window = await this.read({ after: this.position, limit: BATCH_SIZE });
        const { events } = window;
        hidden = window.hidden;
        failures = 0;
        if (events.length > 0) {
          await this.handler.onEvents(events);
          this.position = events[events.length - 1]!.position;
          idleWait = FIRST_RETRY_MS;
          // A full batch may have more behind it; a shorter one read all that was visible.
          if (events.length === BATCH_SIZE) continue;
        }
      } catch (error) {
        if (!this.running) return;
        this.handler.onError?.(error);
        // A wake (an append in this process) ends the wait early: the database is back.
        failures++;
        await this.pause.sleep(
          Math.min(MAX_FAILURE_WAIT_MS, FIRST_FAILURE_WAIT_MS * 2 ** Math.min(failures - 1, 10)),
        );
        continue;
      }
      if (this.woken) {
        idleWait = FIRST_RETRY_MS;
        continue;
      }
      if (!hidden) {
        await this.pause.sleep(MAX_IDLE_WAIT_MS);
        continue;
      }
      await this.pause.sleep(idleWait);
      idleWait = Math.min(idleWait * 2, MAX_IDLE_WAIT_MS);
    }
  }
}
