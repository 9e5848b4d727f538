import type { ReadAllOptions, RecordedEvent, SubscriptionHandler } from './event-store.ts';
import { WakeableSleep } from './wakeable-sleep.ts';

const BATCH_SIZE = 500;
/** Fallback poll when nothing wakes us: a writer's transaction may hide newer events a while. */
const FIRST_RETRY_MS = 5;
const MAX_IDLE_WAIT_MS = 500;
/** After a failed read or batch (the database unreachable, say): 250 ms, doubling, at most 2 s. */
const FIRST_FAILURE_WAIT_MS = 250;
const MAX_FAILURE_WAIT_MS = 2000;

/**
 * Catch-up then live reading of the global log from a checkpoint, one batch at a time.
 * A wake-up (LISTEN/NOTIFY) ends the wait early; short retries with backoff cover events
 * that became visible without a notification (an older transaction finished).
 */
export class LogFollower {
  private running = false;
  private loop: Promise<void> | undefined;
  private readonly pause = new WakeableSleep();
  private woken = false;

  constructor(
    private readonly read: (options: ReadAllOptions) => Promise<RecordedEvent[]>,
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
      let events: RecordedEvent[];
      try {
        this.woken = false;
        events = await this.read({ after: this.position, limit: BATCH_SIZE });
        if (events.length > 0) {
          await this.handler.onEvents(events);
          this.position = events[events.length - 1]!.position;
          idleWait = FIRST_RETRY_MS;
          failures = 0;
          continue;
        }
        failures = 0;
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
      await this.pause.sleep(idleWait);
      idleWait = Math.min(idleWait * 2, MAX_IDLE_WAIT_MS);
    }
  }
}
