import { afterAll, beforeAll, expect, it } from 'vitest';
import { allProjections } from '../../../services/app/projections.ts';
import { ProjectionRunner } from '../../../shared/projections/runner.ts';
import { buildApp } from '../../../services/app/http-app.ts';
import { createContext, stopContext } from '../../../services/app/runtime.ts';
import type { ManualClock } from '../../../shared/clock.ts';
import { loadSettings } from '../../../shared/config/settings.ts';
import { EventStoreDBEventStore } from '../../../shared/event-store/eventstoredb-event-store.ts';
import { createLogger } from '../../../shared/logging/logger.ts';
import { createTestDatabase } from '../../helpers/database.ts';
import { FakeEventStoreDBClient } from '../../helpers/fake-eventstoredb-client.ts';
import { ADMIN_TOKEN, TEST_PERSONAL_DATA_KEK, type TestService } from '../../helpers/service.ts';
import {
  createOnboarding,
  createTenant,
  invites,
  onboardingRequest,
  streamEvents,
  type Tenant,
} from '../onboardings-fixtures.ts';

/**
 * The onboarding commands with the EventStoreDB adapter (over its in-memory client): the
 * append goes through the port instead of the PostgreSQL transaction, and a GET right
 * after each write still sees it.
 */
let service: TestService;
let tenant: Tenant;

beforeAll(async () => {
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
  const eventStore = new EventStoreDBEventStore(new FakeEventStoreDBClient().asClient());
  const context = {
    ...base,
    eventStore,
    projections: new ProjectionRunner(database.pool, eventStore, allProjections, logger),
  };
  await context.projections.start();
  const app = await buildApp(context);
  const url = await app.listen({ port: 0, host: '127.0.0.1' });
  service = {
    url,
    app,
    context,
    clock: context.clock as ManualClock,
    database,
    async stop() {
      await app.close();
      await stopContext(context);
      await database.drop();
    },
  };
  tenant = await createTenant(service);
});
afterAll(async () => service?.stop());

it('create, update, send: each answer is followed by a GET that sees it', async () => {
  expect(service.context.eventStore.kind).toBe('eventstoredb');
  const { id } = await createOnboarding(service, tenant);
  expect((await onboardingRequest(service, tenant, 'GET', `/${id}`)).body.onboarding.status).toBe('draft');
  const patched = await onboardingRequest(service, tenant, 'PATCH', `/${id}`, {
    body: { due_date: '2025-09-01' },
  });
  expect(patched.status).toBe(200);
  expect((await onboardingRequest(service, tenant, 'GET', `/${id}`)).body.onboarding.due_on).toBe(
    '2025-09-01',
  );
  const sent = await onboardingRequest(service, tenant, 'POST', `/${id}/send`, {
    body: {},
    headers: { 'idempotency-key': 'esdb-send-1' },
  });
  expect(sent.status).toBe(200);
  expect((await onboardingRequest(service, tenant, 'GET', `/${id}`)).body.onboarding.status).toBe('sent');
  const again = await onboardingRequest(service, tenant, 'POST', `/${id}/send`, {
    body: {},
    headers: { 'idempotency-key': 'esdb-send-1' },
  });
  expect(again.body).toEqual(sent.body);
  expect(await invites(service, id)).toHaveLength(1);
  expect((await streamEvents(service, id)).map((event) => event.type)).toEqual([
    'onboarding_created',
    'onboarding_updated',
    'onboarding.sent',
  ]);
});

it('concurrent sends of one draft count it once', async () => {
  const { id } = await createOnboarding(service, tenant);
  const answers = await Promise.all(
    Array.from({ length: 4 }, () => onboardingRequest(service, tenant, 'POST', `/${id}/send`, { body: {} })),
  );
  expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200, 200]);
  const sends = (await streamEvents(service, id)).filter((event) => event.type === 'onboarding.sent');
  expect(sends.map((event) => event.data.counted)).toEqual([true, false, false, false]);
  expect(await invites(service, id)).toHaveLength(4);
});
