/**
 * The onboardings read model is written inline, in each command's transaction, with the
 * PostgreSQL store (shared/projections/inline-projections.ts): an onboarding command answers
 * and the next GET sees it with no projection runner running at all. The events feed stays
 * asynchronous and its read waits for the events committed before it. The runner, started
 * later, skips what the commands applied, a row behind its stream catches up first, racing
 * commands keep the row in stream order, and the tables equal a rebuild.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { allProjections } from '../../../services/app/projections.ts';
import { onboardingStreamId } from '../../../services/onboardings/onboarding-events.ts';
import { rebuildProjections } from '../../../shared/projections/rebuild.ts';
import { readModelRows } from '../../helpers/read-models.ts';
import { startTestService, type TestService } from '../../helpers/service.ts';
import { apiRequest } from '../../helpers/tenant.ts';
import {
  createOnboarding,
  createTenant,
  getOnboarding,
  onboardingRequest,
  sendOnboarding,
  type Tenant,
} from '../onboardings-fixtures.ts';

let service: TestService;
let apiOnly: TestService;
let tenant: Tenant;

beforeAll(async () => {
  service = await startTestService();
  tenant = await createTenant(service);
  // An API-only instance runs no projections; with the worker's runner stopped, nothing
  // but the commands themselves writes a read model.
  apiOnly = await startTestService({}, { sharedWith: service });
  await service.context.projections.stop();
}, 60_000);

afterAll(async () => {
  await apiOnly?.stop();
  await service?.stop();
});

const onboardingsCheckpoint = async () =>
  BigInt(
    (
      await service.database.pool.query<{ position: string }>(
        "select position from checkpoints where name = 'onboardings'",
      )
    ).rows[0]!.position,
  );

/** Once the runner has the whole log, the live read models equal a rebuild of it. */
async function expectLiveTablesEqualRebuild() {
  const head = await service.context.eventStore.committedHeadPosition();
  expect(await service.context.projections.waitForPosition(head, 10_000)).toBe(true);
  const live = await readModelRows(service.database.pool);
  await rebuildProjections(service.database.pool, service.context.eventStore, allProjections);
  expect(await readModelRows(service.database.pool)).toEqual(live);
}

describe('inline onboardings read model (PostgreSQL store)', () => {
  let onboardingId: string;

  it('create, update and send answer and are read back with no runner running', async () => {
    const before = await onboardingsCheckpoint();
    const created = await createOnboarding(apiOnly, tenant);
    onboardingId = created.id;
    const patched = await onboardingRequest(apiOnly, tenant, 'PATCH', `/${onboardingId}`, {
      body: { due_date: '2031-05-01' },
    });
    expect(patched.status, JSON.stringify(patched.body)).toBe(200);
    const sent = await sendOnboarding(apiOnly, tenant, onboardingId);
    expect(sent.status, JSON.stringify(sent.body)).toBe(200);

    expect(await getOnboarding(apiOnly, tenant, onboardingId)).toMatchObject({
      id: onboardingId,
      status: 'sent',
      due_date: '2031-05-01T23:59:59.999Z',
    });
    const list = await onboardingRequest(apiOnly, tenant, 'GET', '?status=sent');
    expect(list.body.onboardings.map((item: { id: string }) => item.id)).toContain(onboardingId);
    // No runner moved: the rows came from the commands' own transactions.
    expect(await onboardingsCheckpoint()).toBe(before);
  });

  it('the events feed waits for the runner, then shows what the commands did', async () => {
    const feed = apiRequest(apiOnly, tenant.apiKey, 'GET', '/events?limit=10');
    let answered = false;
    void feed.then(() => (answered = true));
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(answered).toBe(false);
    await service.context.projections.start();
    const events = await feed;
    expect(events.status).toBe(200);
    const types = events.body.events
      .filter((event: { onboarding_id: string | null }) => event.onboarding_id === onboardingId)
      .map((event: { type: string }) => event.type);
    expect(types).toEqual(['onboarding.sent', 'onboarding_updated', 'onboarding_created']);
  });

  it('the runner skipped what the commands applied: the tables equal a rebuild', async () => {
    await expectLiveTablesEqualRebuild();
  });

  it('a row behind its stream catches up before a command applies inline', async () => {
    await service.context.projections.stop();
    const created = await createOnboarding(apiOnly, tenant);
    const streamId = onboardingStreamId(created.id);
    const [last] = (await service.context.eventStore.readStream(streamId)).slice(-1);
    // An event appended outside the command pipeline (as before an upgrade): no inline write.
    await service.context.eventStore.append(
      streamId,
      [
        {
          type: 'onboarding_updated',
          data: {
            onboarding_id: created.id,
            team_id: tenant.teamId,
            changes: { due_date: '2032-02-02', due_on: '2032-02-02', due_timezone: null },
            updated_at: '2030-01-01T00:00:00.000Z',
          },
          metadata: { command_id: 'outside-the-pipeline' },
        },
      ],
      last!.revision,
    );
    expect((await getOnboarding(apiOnly, tenant, created.id)).due_date).toBeNull();

    expect((await sendOnboarding(apiOnly, tenant, created.id)).status).toBe(200);
    expect(await getOnboarding(apiOnly, tenant, created.id)).toMatchObject({
      status: 'sent',
      due_date: '2032-02-02',
    });

    await service.context.projections.start();
    await expectLiveTablesEqualRebuild();
  });

  it('racing commands on one onboarding, through both instances and with the runner on, equal a rebuild', async () => {
    const created = await createOnboarding(service, tenant);
    const dates = Array.from({ length: 12 }, (_, index) => `2033-01-${String(index + 1).padStart(2, '0')}`);
    const answers = await Promise.all([
      ...dates.map((due_date, index) =>
        onboardingRequest(index % 2 ? service : apiOnly, tenant, 'PATCH', `/${created.id}`, {
          body: { due_date },
        }),
      ),
      sendOnboarding(apiOnly, tenant, created.id),
      sendOnboarding(service, tenant, created.id, { force: true }),
    ]);
    for (const answer of answers) expect([200, 409, 429]).toContain(answer.status);
    expect(answers.filter((answer) => answer.status === 200).length).toBeGreaterThan(0);

    const events = await service.context.eventStore.readStream(onboardingStreamId(created.id));
    const seen = await getOnboarding(apiOnly, tenant, created.id);
    const lastDue = events.findLast((event) => event.type === 'onboarding_updated');
    expect(seen.due_date).toBe((lastDue?.data as { changes: { due_date: string } }).changes.due_date);

    await expectLiveTablesEqualRebuild();
  });
});
