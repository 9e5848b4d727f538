import type { AppendExpectedRevision, EventData } from '@eventstore/db-client';
import { allProjections } from '../../../services/app/projections.ts';
import { buildApp } from '../../../services/app/http-app.ts';
import { createContext, stopContext } from '../../../services/app/runtime.ts';
import type { ManualClock } from '../../../shared/clock.ts';
import { loadSettings } from '../../../shared/config/settings.ts';
import { EventStoreDBEventStore } from '../../../shared/event-store/eventstoredb-event-store.ts';
import { createLogger } from '../../../shared/logging/logger.ts';
import { ProjectionRunner } from '../../../shared/projections/runner.ts';
import { createTestDatabase } from '../../helpers/database.ts';
import { FakeEventStoreDBClient } from '../../helpers/fake-eventstoredb-client.ts';
import { ADMIN_TOKEN, TEST_PERSONAL_DATA_KEK, type TestService } from '../../helpers/service.ts';

/**
 * The service over the EventStoreDB adapter's contract double with one-shot crashes: around
 * the append (the client call throws like a lost connection) and after the commit (read your
 * writes throws, so the answer is lost). Used by the create and send fault tests.
 */

export type Fault = 'before-append' | 'after-append';

export class FaultyClient extends FakeEventStoreDBClient {
  fault: Fault | undefined;

  override async appendToStream(
    streamName: string,
    events: EventData[],
    options?: { expectedRevision?: AppendExpectedRevision },
  ) {
    const fault = this.fault;
    this.fault = undefined;
    if (fault === 'before-append') throw new Error('crash: before the append');
    const result = await super.appendToStream(streamName, events, options);
    if (fault === 'after-append') throw new Error('crash: after the append, before the commit');
    return result;
  }
}

export class FlakyProjections extends ProjectionRunner {
  failNext = false;

  override async waitForPosition(position: bigint, timeoutMs?: number): Promise<boolean> {
    if (this.failNext) {
      this.failNext = false;
      throw new Error('crash: after the commit, before the answer');
    }
    return super.waitForPosition(position, timeoutMs);
  }
}

export interface FaultyService {
  service: TestService;
  client: FaultyClient;
  projections: FlakyProjections;
}

/** A fresh database, the test clock, the faulty client and projections, real HTTP; `beforeStop` runs first on stop. */
export async function startFaultyEventStoreDBService(
  beforeStop: () => Promise<void> = async () => undefined,
): Promise<FaultyService> {
  const database = await createTestDatabase();
  const settings = loadSettings({
    PORT: '0',
    ADMIN_TOKEN,
    TEST_CLOCK: 'on',
    LOG_LEVEL: 'silent',
    DATABASE_URL: database.url,
    PERSONAL_DATA_KEK: TEST_PERSONAL_DATA_KEK,
  });
  const logger = createLogger(settings.LOG_LEVEL);
  const base = await createContext(settings, logger, database.pool, database.url);
  await base.eventStore.close();
  const client = new FaultyClient();
  const eventStore = new EventStoreDBEventStore(client.asClient());
  const projections = new FlakyProjections(database.pool, eventStore, allProjections, logger);
  const context = { ...base, eventStore, projections };
  await context.projections.start();
  const app = await buildApp(context);
  const url = await app.listen({ port: 0, host: '127.0.0.1' });
  const service: TestService = {
    url,
    app,
    context,
    clock: context.clock as ManualClock,
    database,
    async stop() {
      await beforeStop();
      await app.close();
      await stopContext(context);
      await database.drop();
    },
  };
  return { service, client, projections };
}
