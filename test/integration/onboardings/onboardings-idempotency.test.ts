import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../../helpers/service.ts';
import { createApiKey, updateTeam } from '../../helpers/tenant.ts';
import {
  createOnboarding,
  createTenant,
  invites,
  onboardingRequest,
  streamEvents,
  type Tenant,
} from '../onboardings-fixtures.ts';

let service: TestService;
let tenant: Tenant;

beforeAll(async () => {
  service = await startTestService();
  service.clock.set(new Date('2025-03-10T15:00:00.000Z'));
  tenant = await createTenant(service);
});
afterAll(async () => service?.stop());

const key = () => `key-${randomUUID()}`;
const withKey = (value: string) => ({ 'idempotency-key': value });

const create = (idempotencyKey?: string, body: Record<string, unknown> = {}, apiKey = tenant.apiKey) =>
  onboardingRequest(service, { apiKey }, 'POST', '', {
    body: { template_id: tenant.templateId, client_id: tenant.clientId, ...body },
    headers: idempotencyKey === undefined ? {} : withKey(idempotencyKey),
  });
const update = (id: string, idempotencyKey: string, body: unknown) =>
  onboardingRequest(service, tenant, 'PATCH', `/${id}`, { body, headers: withKey(idempotencyKey) });
const send = (id: string, idempotencyKey?: string, body: unknown = {}) =>
  onboardingRequest(service, tenant, 'POST', `/${id}/send`, {
    body,
    headers: idempotencyKey === undefined ? {} : withKey(idempotencyKey),
  });

const total = async () =>
  (await onboardingRequest(service, tenant, 'GET', '?archived=all')).body.total as number;

describe('Idempotency-Key format', () => {
  const invalid: [string, string][] = [
    ['empty', ''],
    ['129 characters', 'a'.repeat(129)],
    ['a space', 'has space'],
    ['a non-ASCII character', 'caf\u00e9'],
    ['a tab', 'a\tb'],
  ];

  it.each(invalid)(
    '%s: 400 invalid_idempotency_key on create, update and send; nothing runs',
    async (_name, value) => {
      const { id } = await createOnboarding(service, tenant);
      const before = await total();
      const answers = [
        await create(value),
        await update(id, value, { status: 'cancelled' }),
        await send(id, value),
      ];
      for (const answer of answers) {
        expect(answer.status).toBe(400);
        expect(answer.body).toEqual({
          error: 'Idempotency-Key must be 1 to 128 visible ASCII characters without spaces',
          code: 'invalid_idempotency_key',
          message: 'Idempotency-Key must be 1 to 128 visible ASCII characters without spaces',
          retryable: false,
          request_id: expect.any(String),
        });
      }
      expect(await total()).toBe(before);
      expect((await streamEvents(service, id)).map((event) => event.type)).toEqual(['onboarding_created']);
    },
  );

  it('1 and 128 visible ASCII characters are accepted', async () => {
    expect((await create('!')).status).toBe(201);
    expect((await create('~'.repeat(128))).status).toBe(201);
    expect((await create(`${key()}!"#$%&'()*+,-./:;<=>?@[\\]^_\`{|}~`)).status).toBe(201);
  });
});

describe('create', () => {
  it('same key and body within 24 hours: the original status and body (token included), without running again', async () => {
    const value = key();
    const before = await total();
    const first = await create(value, { due_date: '2025-04-01' });
    expect(first.status).toBe(201);
    service.clock.advance(23 * 3600 + 59 * 60);
    // Same body with its keys in another order.
    const again = await onboardingRequest(service, tenant, 'POST', '', {
      body: { due_date: '2025-04-01', client_id: tenant.clientId, template_id: tenant.templateId },
      headers: withKey(value),
    });
    expect(again.status).toBe(201);
    expect(again.body).toEqual(first.body);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(first.headers.get('idempotent-replayed')).toBeNull();
    expect(await total()).toBe(before + 1);
    const [event] = await streamEvents(service, first.body.onboarding.id);
    expect(event!.metadata).toMatchObject({ idempotency_key: value, api_key_id: tenant.apiKeyId });
  });

  it('the kept answer is encrypted: the token is not in the database in the clear', async () => {
    const value = key();
    const first = await create(value);
    const { rows } = await service.database.pool.query('select * from idempotency_records where key = $1', [
      value,
    ]);
    expect(rows).toHaveLength(1);
    expect(JSON.stringify(rows)).not.toContain(first.body.onboarding.token);
    expect(Buffer.from(rows[0].response).toString('utf8')).not.toContain(first.body.onboarding.token);
  });

  it('same key, different body: 409 external_command_conflict', async () => {
    const value = key();
    expect((await create(value)).status).toBe(201);
    const conflict = await create(value, { due_date: '2025-04-01' });
    expect(conflict.status).toBe(409);
    expect(conflict.body).toEqual({
      error: 'This Idempotency-Key was already used with a different request',
      code: 'external_command_conflict',
      message: 'This Idempotency-Key was already used with a different request',
      retryable: false,
      request_id: expect.any(String),
    });
  });

  it('after 24 hours by the service clock the same key runs as a new command', async () => {
    const value = key();
    const first = await create(value);
    service.clock.advance(24 * 3600);
    const second = await create(value);
    expect(second.status).toBe(201);
    expect(second.body.onboarding.id).not.toBe(first.body.onboarding.id);
    expect(second.headers.get('idempotent-replayed')).toBeNull();
    // ... and from then on it replays the new answer.
    expect((await create(value)).body).toEqual(second.body);
    // After 24 hours a different body is no conflict either.
    service.clock.advance(24 * 3600 + 1);
    expect((await create(value, { due_date: '2025-05-01' })).status).toBe(201);
  });

  it('a value belongs to one API key: another key of the team runs its own command', async () => {
    const value = key();
    const other = await createApiKey(service, tenant.teamId);
    const first = await create(value);
    const second = await create(value, {}, other.apiKey);
    expect(second.status).toBe(201);
    expect(second.body.onboarding.id).not.toBe(first.body.onboarding.id);
  });

  it('a request refused by validation keeps nothing: the value then runs', async () => {
    const value = key();
    expect((await create(value, { template_id: 'nope' })).status).toBe(400);
    expect((await create(value)).status).toBe(201);
  });

  it('a refusal of a command that ran is kept and replayed too', async () => {
    const value = key();
    const body = { template_id: randomUUID() };
    const refused = await create(value, body);
    expect(refused.status).toBe(404);
    expect(refused.body.code).toBe('template_missing');
    const again = await create(value, body);
    expect(again.status).toBe(404);
    expect(again.body).toEqual(refused.body);
  });

  it('without the header every request runs as a new command', async () => {
    const before = await total();
    await create();
    await create();
    expect(await total()).toBe(before + 2);
  });

  it('concurrent requests with the same key run the command once and all get the original answer', async () => {
    const value = key();
    const before = await total();
    const answers = await Promise.all(Array.from({ length: 10 }, () => create(value)));
    expect(answers.map((answer) => answer.status)).toEqual(Array(10).fill(201));
    for (const answer of answers) expect(answer.body).toEqual(answers[0]!.body);
    expect(answers.filter((answer) => answer.headers.get('idempotent-replayed') === 'true')).toHaveLength(9);
    expect(await total()).toBe(before + 1);
  });
});

describe('update', () => {
  it('same key and body: replayed, no second event; another onboarding with the key: 409', async () => {
    const value = key();
    const { id } = await createOnboarding(service, tenant);
    const first = await update(id, value, { due_date: '2025-06-01' });
    expect(first.status).toBe(200);
    const second = await update(id, value, { due_date: '2025-06-01' });
    expect(second.status).toBe(200);
    expect(second.body).toEqual(first.body);
    expect((await streamEvents(service, id)).map((event) => event.type)).toEqual([
      'onboarding_created',
      'onboarding_updated',
    ]);
    const other = await createOnboarding(service, tenant);
    const conflict = await update(other.id, value, { due_date: '2025-06-01' });
    expect(conflict.status).toBe(409);
    expect(conflict.body.code).toBe('external_command_conflict');
    expect((await update(id, value, { due_date: '2025-06-02' })).body.code).toBe('external_command_conflict');
  });

  it('a refused move is replayed as refused, even after the onboarding changed', async () => {
    const value = key();
    const { id } = await createOnboarding(service, tenant);
    const refused = await update(id, value, { status: 'in_progress' });
    expect(refused.status).toBe(409);
    expect(refused.body.code).toBe('invalid_state');
    await send(id);
    const replay = await update(id, value, { status: 'in_progress' });
    expect(replay.status).toBe(409);
    expect(replay.body).toEqual(refused.body);
    expect((await onboardingRequest(service, tenant, 'GET', `/${id}`)).body.onboarding.status).toBe('sent');
  });

  it('one value per operation: the same value on update and send are separate', async () => {
    const value = key();
    const { id } = await createOnboarding(service, tenant);
    expect((await update(id, value, { due_date: '2025-06-01' })).status).toBe(200);
    expect((await send(id, value)).status).toBe(200);
    expect((await create(value)).status).toBe(201);
  });
});

describe('send', () => {
  it('same key and body: the original answer (same command_id), one invite, one onboarding.sent', async () => {
    const value = key();
    const { id } = await createOnboarding(service, tenant);
    const first = await send(id, value, { pin: '123456' });
    expect(first.status).toBe(200);
    const second = await send(id, value, { pin: '123456' });
    expect(second.status).toBe(200);
    expect(second.body).toEqual(first.body);
    expect(await invites(service, id)).toHaveLength(1);
    const sends = (await streamEvents(service, id)).filter((event) => event.type === 'onboarding.sent');
    expect(sends).toHaveLength(1);
    expect(sends[0]!.metadata).toMatchObject({ command_id: first.body.command_id, idempotency_key: value });
  });

  it('one value covers every onboarding id of the operation: another onboarding is 409', async () => {
    const value = key();
    const a = await createOnboarding(service, tenant);
    const b = await createOnboarding(service, tenant);
    expect((await send(a.id, value)).status).toBe(200);
    const conflict = await send(b.id, value);
    expect(conflict.status).toBe(409);
    expect(conflict.body.code).toBe('external_command_conflict');
    expect(await invites(service, b.id)).toEqual([]);
    expect((await send(a.id, value, { force: true })).body.code).toBe('external_command_conflict');
  });

  it('a limit_reached refusal is replayed within 24 hours; after 24 hours the value runs again', async () => {
    const limited = await createTenant(service, { monthly_onboarding_limit: 0 });
    const value = key();
    const { id } = await createOnboarding(service, limited);
    const request = () =>
      onboardingRequest(service, limited, 'POST', `/${id}/send`, { body: {}, headers: withKey(value) });
    expect((await request()).body.code).toBe('limit_reached');
    await updateTeam(service, limited.teamId, { monthly_onboarding_limit: 5 });
    expect((await request()).body.code).toBe('limit_reached');
    service.clock.advance(24 * 3600);
    expect((await request()).status).toBe(200);
  });

  it('without the header two sends are two sends', async () => {
    const { id } = await createOnboarding(service, tenant);
    await send(id);
    await send(id);
    expect(await invites(service, id)).toHaveLength(2);
  });

  it('concurrent sends with the same key: one send, one invite, every answer the same', async () => {
    const value = key();
    const { id } = await createOnboarding(service, tenant);
    const answers = await Promise.all(Array.from({ length: 8 }, () => send(id, value)));
    expect(answers.map((answer) => answer.status)).toEqual(Array(8).fill(200));
    for (const answer of answers) expect(answer.body).toEqual(answers[0]!.body);
    expect(await invites(service, id)).toHaveLength(1);
    expect(
      (await streamEvents(service, id)).filter((event) => event.type === 'onboarding.sent'),
    ).toHaveLength(1);
  });
});
