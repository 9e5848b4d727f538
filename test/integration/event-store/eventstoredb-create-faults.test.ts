import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest';
import { settleStalePendingAppends } from '../../../services/onboardings/pending-appends-pass.ts';
import type { TestService } from '../../helpers/service.ts';
import {
  startFaultyEventStoreDBService,
  type FaultyClient,
  type FlakyProjections,
} from './eventstoredb-faults-fixtures.ts';
import { hashClientToken } from '../../../services/onboardings/link-secrets.ts';
import { createTenant, onboardingRequest, streamEvents, type Tenant } from '../onboardings-fixtures.ts';

/**
 * A create with EventStoreDB (over the adapter's contract double) crashed before its
 * append, between its append and its commit, and between its commit and its answer,
 * then retried with the same Idempotency-Key: the retry answers the one onboarding the
 * first attempt planned (201, same id, the body a replay gives), and the team has exactly
 * one onboarding in the read model and one in the event store.
 */

let service: TestService;
let tenant: Tenant;
let client: FaultyClient;
let projections: FlakyProjections;
beforeAll(async () => {
  ({ service, client, projections } = await startFaultyEventStoreDBService());
});
afterAll(async () => service?.stop());
// A team of its own per test, so its onboardings are those of the test.
beforeEach(async () => {
  tenant = await createTenant(service);
});

const settle = () => settleStalePendingAppends({ ...service.context, logger: service.context.logger }, 0);

const create = (key: string, body: Record<string, unknown> = {}) =>
  onboardingRequest(service, tenant, 'POST', '', {
    body: { template_id: tenant.templateId, client_id: tenant.clientId, ...body },
    headers: { 'idempotency-key': key },
  });

/** The team's onboarding_created events in the whole event store. */
async function createdEvents() {
  const all = await service.context.eventStore.readAll({ after: 0n, limit: 100_000 });
  return all.filter(
    (event) =>
      event.streamId.startsWith('onboarding-') &&
      event.type.includes('created') &&
      (event.data as { team_id?: string }).team_id === tenant.teamId,
  );
}

/** The team's onboardings in the read model (the API's list). */
async function listed() {
  const answer = await onboardingRequest(service, tenant, 'GET', '');
  expect(answer.status).toBe(200);
  return answer.body.onboardings as { id: string }[];
}

/** Exactly one onboarding, `id`, in the read model and in the event store; nothing pending. */
async function expectOneOnboarding(id: string) {
  expect((await listed()).map((onboarding) => onboarding.id)).toEqual([id]);
  const events = await createdEvents();
  expect(events).toHaveLength(1);
  expect(events[0]!.streamId).toBe(`onboarding-${id}`);
  expect(await streamEvents(service, id)).toHaveLength(1);
  const { rows } = await service.database.pool.query('select 1 from eventstoredb_pending_appends');
  expect(rows).toEqual([]);
}

/** The answer is the onboarding's: its token is the one whose hash the event holds. */
async function expectAnswerOf(answer: { status: number; body: any }, id: string) {
  expect(answer.status).toBe(201);
  expect(answer.body.onboarding.id).toBe(id);
  const [created] = await streamEvents(service, id);
  expect(hashClientToken(answer.body.onboarding.token)).toBe(
    (created!.data as { token_hash: string }).token_hash,
  );
}

/** A later retry with the same key replays the answer: same status and body. */
async function expectReplay(key: string, answer: { status: number; body: unknown }) {
  const again = await create(key);
  expect(again.status).toBe(answer.status);
  expect(again.body).toEqual(answer.body);
  expect(again.headers.get('idempotent-replayed')).toBe('true');
}

/** The plan of a create whose answer is kept is gone: the idempotency record answers now. */
async function expectNoPlan(key: string) {
  const { rows } = await service.database.pool.query(
    'select 1 from eventstoredb_create_intents where key = $1',
    [key],
  );
  expect(rows).toEqual([]);
}

async function plannedId(key: string): Promise<string> {
  const { rows } = await service.database.pool.query(
    'select onboarding_id from eventstoredb_create_intents where key = $1',
    [key],
  );
  expect(rows).toHaveLength(1);
  return rows[0].onboarding_id;
}

it('no fault: 201, one onboarding, a replay gives the same body', async () => {
  const answer = await create('create-none');
  const id = answer.body.onboarding.id;
  await expectAnswerOf(answer, id);
  await expectOneOnboarding(id);
  await expectNoPlan('create-none');
  await expectReplay('create-none', answer);
  await expectOneOnboarding(id);
});

it('crash before the append: the retry creates the planned onboarding, once', async () => {
  client.fault = 'before-append';
  expect((await create('create-before-append')).status).toBe(500);
  const id = await plannedId('create-before-append');
  expect(await streamEvents(service, id)).toHaveLength(0);
  expect(await createdEvents()).toHaveLength(0);
  const answer = await create('create-before-append');
  await expectAnswerOf(answer, id);
  expect(answer.headers.get('idempotent-replayed')).toBeNull();
  await expectOneOnboarding(id);
  await expectNoPlan('create-before-append');
  await expectReplay('create-before-append', answer);
});

it('crash after the append, before the commit: the retry answers the same onboarding, once', async () => {
  client.fault = 'after-append';
  expect((await create('create-after-append')).status).toBe(500);
  const [landed] = await createdEvents();
  const id = (landed!.data as { onboarding_id: string }).onboarding_id;
  expect(await plannedId('create-after-append')).toBe(id);
  const answer = await create('create-after-append');
  await expectAnswerOf(answer, id);
  // Answered for the command whose events landed, without appending again.
  expect(answer.body.onboarding.created_at).toBe((landed!.data as { created_at: string }).created_at);
  await expectOneOnboarding(id);
  await expectNoPlan('create-after-append');
  await expectReplay('create-after-append', answer);
  await expectOneOnboarding(id);
});

it('crash after the append, settled by the pass before the retry: the retry still answers it', async () => {
  client.fault = 'after-append';
  expect((await create('create-after-append-pass')).status).toBe(500);
  await settle();
  const [landed] = await createdEvents();
  const id = (landed!.data as { onboarding_id: string }).onboarding_id;
  const answer = await create('create-after-append-pass');
  await expectAnswerOf(answer, id);
  await expectOneOnboarding(id);
  await expectReplay('create-after-append-pass', answer);
});

it('crash after the append: the same key with another body is a 409 and creates nothing', async () => {
  client.fault = 'after-append';
  expect((await create('create-other-body')).status).toBe(500);
  const [landed] = await createdEvents();
  const id = (landed!.data as { onboarding_id: string }).onboarding_id;
  const other = await create('create-other-body', { due_date: '2030-01-31' });
  expect(other.status).toBe(409);
  expect(other.body.error.code ?? other.body.code).toBe('external_command_conflict');
  // The refusal is not kept: the original body still gets its onboarding.
  const answer = await create('create-other-body');
  await expectAnswerOf(answer, id);
  await expectOneOnboarding(id);
});

it('crash after the commit, before the answer: the retry replays the kept answer', async () => {
  projections.failNext = true;
  expect((await create('create-after-commit')).status).toBe(500);
  const [landed] = await createdEvents();
  const id = (landed!.data as { onboarding_id: string }).onboarding_id;
  const answer = await create('create-after-commit');
  await expectAnswerOf(answer, id);
  expect(answer.headers.get('idempotent-replayed')).toBe('true');
  await expectOneOnboarding(id);
  await expectReplay('create-after-commit', answer);
});
