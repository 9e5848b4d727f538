import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest';
import { heldInvitesConsumer } from '../../../services/onboardings/held-invites-consumer.ts';
import { settleStalePendingAppends } from '../../../services/onboardings/pending-appends-pass.ts';
import { startLogConsumer } from '../../../shared/subscriptions/log-consumer.ts';
import type { RunningConsumer } from '../../../shared/subscriptions/event-consumer.ts';
import type { TestService } from '../../helpers/service.ts';
import {
  startFaultyEventStoreDBService,
  type FaultyClient,
  type FlakyProjections,
} from './eventstoredb-faults-fixtures.ts';
import {
  createOnboarding,
  createTenant,
  invites,
  onboardingRequest,
  streamEvents,
  timers,
  type Tenant,
} from '../onboardings-fixtures.ts';

/**
 * A send with EventStoreDB (over the adapter's contract double) crashed between every
 * pair of its writes, then retried with the same Idempotency-Key or left to the worker
 * (held-invites consumer, pending-appends pass): exactly one invite queued, the usage
 * counted once, the reminders scheduled, the retry's answer kept; a send whose append
 * never landed leaves nothing behind.
 */

let service: TestService;
let tenant: Tenant;
let client: FaultyClient;
let projections: FlakyProjections;
let consumer: RunningConsumer | undefined;
/** One-shot fault inside the consumer's transaction, after its release. */
let consumerFault = false;

const startConsumer = async () => {
  consumer = await startLogConsumer(
    {
      ...heldInvitesConsumer,
      async handle(event, tx) {
        await heldInvitesConsumer.handle(event, tx);
        if (consumerFault) {
          consumerFault = false;
          throw new Error('crash: during the consumer');
        }
      },
    },
    { pool: service.database.pool, eventStore: service.context.eventStore },
  );
};

beforeAll(async () => {
  ({ service, client, projections } = await startFaultyEventStoreDBService(async () => {
    await consumer?.stop();
  }));
  tenant = await createTenant(service);
});
afterAll(async () => service?.stop());
beforeEach(async () => {
  await consumer?.stop();
  consumer = undefined;
});

const send = (id: string, key: string) =>
  onboardingRequest(service, tenant, 'POST', `/${id}/send`, {
    body: {},
    headers: { 'idempotency-key': key },
  });

async function usageRows(id: string) {
  const { rows } = await service.database.pool.query(
    'select * from onboarding_send_usage where onboarding_id = $1',
    [id],
  );
  return rows;
}

async function pendingAppends() {
  const { rows } = await service.database.pool.query('select * from eventstoredb_pending_appends');
  return rows;
}

const sends = async (id: string) =>
  (await streamEvents(service, id)).filter((event) => event.type === 'onboarding.sent');

const settle = () => settleStalePendingAppends({ ...service.context, logger: service.context.logger }, 0);

/** Exactly one send in effect: one event, one queued invite (none held), usage once, reminders scheduled. */
async function expectOneSend(id: string) {
  const events = await sends(id);
  expect(events).toHaveLength(1);
  const mails = await invites(service, id);
  expect(mails.map((mail) => mail.status)).toEqual(['queued']);
  const { rows } = await service.database.pool.query(
    'select event_id from mail_outbox where onboarding_id = $1',
    [id],
  );
  expect(rows[0].event_id).toBe(events[0]!.id);
  expect(await usageRows(id)).toHaveLength(1);
  const reminders = (await timers(service, id)).filter(
    (timer) => timer.kind === 'reminder' && timer.status === 'scheduled',
  );
  expect(reminders.length).toBeGreaterThan(0);
  expect(await pendingAppends()).toEqual([]);
}

/** A later retry with the same key replays the answer the first completed attempt gave. */
async function expectReplay(id: string, key: string, answer: { status: number; body: unknown }) {
  const again = await send(id, key);
  expect(again.status).toBe(answer.status);
  expect(again.body).toEqual(answer.body);
  expect(again.headers.get('idempotent-replayed')).toBe('true');
}

it('no fault: the answer, one invite queued, nothing pending', async () => {
  const { id } = await createOnboarding(service, tenant);
  const answer = await send(id, 'faults-none');
  expect(answer.status).toBe(200);
  expect(answer.body).toMatchObject({ success: true, queued: true });
  await expectOneSend(id);
  await expectReplay(id, 'faults-none', answer);
});

it('crash before the park: nothing is written; the retry sends once', async () => {
  const { id } = await createOnboarding(service, tenant);
  await service.database.pool.query(`
    create function fail_park() returns trigger language plpgsql as $$
    begin raise exception 'crash: before the park'; end $$;
    create trigger fail_park before insert on eventstoredb_pending_appends
      for each row execute function fail_park();`);
  try {
    expect((await send(id, 'faults-park')).status).toBe(500);
  } finally {
    await service.database.pool.query(
      'drop trigger fail_park on eventstoredb_pending_appends; drop function fail_park();',
    );
  }
  expect(await sends(id)).toHaveLength(0);
  expect(await invites(service, id)).toHaveLength(0);
  expect(await usageRows(id)).toHaveLength(0);
  const answer = await send(id, 'faults-park');
  expect(answer.status).toBe(200);
  await expectOneSend(id);
  await expectReplay(id, 'faults-park', answer);
});

it('crash after the park, before the append: the retry undoes the parked rows and sends once', async () => {
  const { id } = await createOnboarding(service, tenant);
  client.fault = 'before-append';
  expect((await send(id, 'faults-before-append')).status).toBe(500);
  expect(await sends(id)).toHaveLength(0);
  // Parked, held, not sendable: the mailer only takes queued rows.
  expect((await invites(service, id)).map((mail) => mail.status)).toEqual(['held']);
  expect(await pendingAppends()).toHaveLength(1);
  const answer = await send(id, 'faults-before-append');
  expect(answer.status).toBe(200);
  await expectOneSend(id);
  await expectReplay(id, 'faults-before-append', answer);
});

it('crash after the park, before the append, never retried: the pass undoes it all', async () => {
  const { id } = await createOnboarding(service, tenant);
  client.fault = 'before-append';
  expect((await send(id, 'faults-abandoned')).status).toBe(500);
  expect(await usageRows(id)).toHaveLength(1);
  expect(await settle()).toBe(1);
  expect(await pendingAppends()).toEqual([]);
  expect(await invites(service, id)).toEqual([]);
  expect(await usageRows(id)).toEqual([]);
  expect((await timers(service, id)).filter((timer) => timer.status === 'scheduled')).toEqual([]);
  expect((await onboardingRequest(service, tenant, 'GET', `/${id}`)).body.onboarding.status).toBe('draft');
  // A later send with another key is the first one: counted, one invite.
  expect((await send(id, 'faults-abandoned-2')).status).toBe(200);
  await expectOneSend(id);
  expect((await sends(id))[0]!.data.counted).toBe(true);
});

it('crash after the append, before the commit: the retry completes the command, answers under its id', async () => {
  const { id } = await createOnboarding(service, tenant);
  client.fault = 'after-append';
  expect((await send(id, 'faults-after-append')).status).toBe(500);
  const [event] = await sends(id);
  expect(event).toBeDefined();
  expect((await invites(service, id)).map((mail) => mail.status)).toEqual(['held']);
  const answer = await send(id, 'faults-after-append');
  expect(answer.status).toBe(200);
  expect(answer.body).toEqual({ success: true, queued: true, command_id: event!.metadata.command_id });
  await expectOneSend(id);
  await expectReplay(id, 'faults-after-append', answer);
});

it('crash after the append, never retried: the consumer queues the invite, the pass settles', async () => {
  const { id } = await createOnboarding(service, tenant);
  client.fault = 'after-append';
  expect((await send(id, 'faults-consumer')).status).toBe(500);
  const [event] = await sends(id);
  await startConsumer();
  expect(await consumer!.caughtUp(event!.position, 10_000)).toBe(true);
  expect((await invites(service, id)).map((mail) => mail.status)).toEqual(['queued']);
  expect(await settle()).toBe(1);
  await expectOneSend(id);
  // A late retry still completes the same command.
  const answer = await send(id, 'faults-consumer');
  expect(answer.body).toEqual({ success: true, queued: true, command_id: event!.metadata.command_id });
  await expectOneSend(id);
});

it('crash inside the consumer: the event is offered again and the invite queued once', async () => {
  const { id } = await createOnboarding(service, tenant);
  client.fault = 'after-append';
  expect((await send(id, 'faults-consumer-crash')).status).toBe(500);
  const [event] = await sends(id);
  consumerFault = true;
  await startConsumer();
  expect(await consumer!.caughtUp(event!.position, 20_000)).toBe(true);
  expect(consumerFault).toBe(false);
  expect((await invites(service, id)).map((mail) => mail.status)).toEqual(['queued']);
  const { rows } = await service.database.pool.query(
    `select count(*)::int as count from processed_events where consumer = 'held-invites' and event_id = $1`,
    [event!.id],
  );
  expect(rows[0].count).toBe(1);
  expect((await send(id, 'faults-consumer-crash')).status).toBe(200);
  await expectOneSend(id);
}, 30_000);

it('crash after the commit, before the answer: the retry replays the kept answer', async () => {
  const { id } = await createOnboarding(service, tenant);
  projections.failNext = true;
  expect((await send(id, 'faults-after-commit')).status).toBe(500);
  await expectOneSend(id);
  const [event] = await sends(id);
  const answer = await send(id, 'faults-after-commit');
  expect(answer.status).toBe(200);
  expect(answer.headers.get('idempotent-replayed')).toBe('true');
  expect(answer.body).toEqual({ success: true, queued: true, command_id: event!.metadata.command_id });
  await expectOneSend(id);
});
