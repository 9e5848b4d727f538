import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../../helpers/service.ts';
import { signUp } from '../workspace-fixtures.ts';

/**
 * The check action of Integrations: the same Idempotency-Key sent twice at once creates
 * exactly one key; the other answer says already_created and carries no secret.
 */

let service: TestService;

beforeAll(async () => {
  service = await startTestService({ RATE_LIMITS: 'on' });
});

afterAll(async () => {
  await service?.stop();
});

const password = 'correct horse battery staple';

describe('workspace API keys', () => {
  it('creates one key for two concurrent requests with the same Idempotency-Key', async () => {
    const { owner, teamId } = await signUp(service, 'keys-owner@example.com', password, 'Keys');
    expect((await owner.call('POST', '/workspace/v1/sessions/current/reauth', { password })).status).toBe(
      200,
    );
    const body = { name: 'CRM sync', scopes: ['clients:read'] };

    for (let round = 1; round <= 3; round += 1) {
      const key = `concurrent-${round}`;
      const answers = await Promise.all([
        owner.call('POST', '/workspace/v1/api-keys', body, { 'idempotency-key': key }),
        owner.call('POST', '/workspace/v1/api-keys', body, { 'idempotency-key': key }),
      ]);
      const statuses = answers.map((answer) => answer.status).sort();
      expect(statuses, JSON.stringify(answers.map((answer) => answer.body))).toEqual([200, 201]);
      const created = answers.find((answer) => answer.status === 201)!;
      const check = answers.find((answer) => answer.status === 200)!;
      expect(created.body.status).toBe('created');
      expect(created.body.secret).toEqual(expect.any(String));
      expect(check.body.status).toBe('already_created');
      expect(check.body.secret).toBeUndefined();
      expect(check.body.api_key.id).toBe(created.body.api_key.id);
    }

    const keys = await service.context.pool.query('select id from api_keys where team_id = $1', [teamId]);
    expect(keys.rowCount).toBe(3);
    const listed = await owner.call('GET', '/workspace/v1/api-keys');
    expect(listed.body.data).toHaveLength(3);
  }, 60_000);
});
