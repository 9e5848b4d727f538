import { afterAll, beforeAll, expect, it } from 'vitest';
import { readOnboarding } from '../../../services/onboardings/onboarding-unit-of-work.ts';
import { onboardingDecider } from '../../../services/onboardings/decider/index.ts';
import type { OnboardingEvent } from '../../../services/onboardings/onboarding-events.ts';
import { fold } from '../../../shared/commands/decider.ts';
import { SNAPSHOT_EVERY } from '../../../shared/commands/stream-snapshots.ts';
import { toDomainEvent } from '../../../shared/commands/handle-command.ts';
import { startTestService, type TestService } from '../../helpers/service.ts';
import {
  adminRequest,
  apiRequest,
  createTeamWithKey,
  createTemplate,
  request,
} from '../../helpers/tenant.ts';

/**
 * Snapshots of long onboarding streams (shared/commands/stream-snapshots.ts): a client that
 * autosaves many times leaves a snapshot every SNAPSHOT_EVERY events; the state read from
 * the snapshot and the events after it equals the fold of the whole stream; a snapshot of
 * another decider version, or a lost one, changes nothing but the cost.
 */
let service: TestService;

beforeAll(async () => {
  service = await startTestService({ RATE_LIMITS: 'off' });
});

afterAll(async () => {
  await service?.stop();
});

it('keeps a snapshot of a long stream that folds to the same state as the whole stream', async () => {
  const team = await createTeamWithKey(service, { plan: 'pro' });
  const template = await createTemplate(service, team.teamId, {
    name: 'Intake',
    steps: [
      {
        title: 'About you',
        sort_order: 1,
        fields: [
          { type: 'short_text', label: 'Full name', sort_order: 1, is_required: true },
          { type: 'short_text', label: 'Company', sort_order: 2 },
        ],
      },
    ],
  });
  const fields: { id: string }[] = template.template_steps[0]!.template_fields;
  const nameField = fields[0]!.id;
  const companyField = fields[1]!.id;
  const api = (method: string, path: string, body?: unknown) =>
    apiRequest(service, team.apiKey, method, path, { body });
  const client = await api('POST', '/clients', { name: 'Sam Snapshot', email: 'sam.snapshot@example.com' });
  const created = await api('POST', '/onboardings', {
    template_id: template.id,
    client_id: client.body.client.id,
  });
  const onboardingId: string = created.body.onboarding.id;
  expect((await api('POST', `/onboardings/${onboardingId}/send`, {})).status).toBe(200);
  const { token } = (await adminRequest(service, 'GET', `/onboardings/${onboardingId}/link`)).body;
  const save = (field: string, value: string) =>
    request(service, 'PUT', `/portal/v1/onboardings/${token}/answers/${field}`, { body: { value } });

  const saves = SNAPSHOT_EVERY * 2 + 17;
  for (let index = 0; index < saves; index++) {
    const answer = await save(index % 3 === 0 ? companyField : nameField, `Draft ${index}`);
    expect(answer.status).toBe(200);
  }

  const streamId = `onboarding-${onboardingId}`;
  const { rows } = await service.context.pool.query<{ revision: string; version: string }>(
    'select revision::text as revision, version from stream_snapshots where stream_id = $1',
    [streamId],
  );
  expect(rows).toHaveLength(1);
  expect(rows[0]!.version).toBe(onboardingDecider.snapshot!.version);
  const whole = await service.context.eventStore.readStream(streamId);
  // Taken at most SNAPSHOT_EVERY events back from the head, and not at the start.
  expect(Number(rows[0]!.revision)).toBeGreaterThanOrEqual(whole.length - 1 - SNAPSHOT_EVERY);
  expect(Number(rows[0]!.revision)).toBeGreaterThanOrEqual(SNAPSHOT_EVERY);

  const folded = fold(onboardingDecider, whole.map(toDomainEvent<OnboardingEvent>));
  const fromSnapshot = await readOnboarding(service.context.eventStore, onboardingId);
  expect(fromSnapshot.state).toEqual(JSON.parse(JSON.stringify(folded)));
  expect(fromSnapshot.expected).toBe(whole.at(-1)!.revision);
  expect(fromSnapshot.replayed).toBeLessThanOrEqual(SNAPSHOT_EVERY);

  // The portal shows the latest answers, read through the snapshot.
  const form = await request(service, 'GET', `/portal/v1/onboardings/${token}`);
  const latest = new Map(
    (form.body.onboarding.responses as { field_id: string; value: string }[]).map((r) => [
      r.field_id,
      r.value,
    ]),
  );
  const lastNameSave = [...Array(saves).keys()].filter((index) => index % 3 !== 0).at(-1);
  expect(latest.get(nameField)).toBe(`Draft ${lastNameSave}`);

  // A snapshot of another version is ignored: the whole stream is read, the state is the same.
  await service.context.pool.query(`update stream_snapshots set version = 'older' where stream_id = $1`, [
    streamId,
  ]);
  const ignored = await readOnboarding(service.context.eventStore, onboardingId);
  expect(ignored.replayed).toBe(whole.length);
  expect(JSON.parse(JSON.stringify(ignored.state))).toEqual(JSON.parse(JSON.stringify(folded)));
  // The next command replaces it with one of the current version.
  expect((await save(nameField, 'Final name')).status).toBe(200);
  const replaced = await service.context.pool.query<{ version: string }>(
    'select version from stream_snapshots where stream_id = $1',
    [streamId],
  );
  expect(replaced.rows[0]!.version).toBe(onboardingDecider.snapshot!.version);

  // A lost snapshot costs a full read, never a wrong state.
  await service.context.pool.query('delete from stream_snapshots where stream_id = $1', [streamId]);
  const all = await service.context.eventStore.readStream(streamId);
  const lost = await readOnboarding(service.context.eventStore, onboardingId);
  expect(lost.replayed).toBe(all.length);
  expect(JSON.parse(JSON.stringify(lost.state))).toEqual(
    JSON.parse(JSON.stringify(fold(onboardingDecider, all.map(toDomainEvent<OnboardingEvent>)))),
  );
});
