import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditEventsProjection } from '../../../projections/audit-events/projection.ts';
import { clientsProjection } from '../../../projections/clients/projection.ts';
import { hookSubscriptionsProjection } from '../../../projections/hook-subscriptions/projection.ts';
import { rebuildProjections } from '../../../shared/projections/rebuild.ts';
import { startTestService, type TestService } from '../../helpers/service.ts';
import { apiRequest, createTeamWithKey } from '../../helpers/tenant.ts';

/** A rebuild of the clients, hook_subscriptions and audit_events read models equals the live tables. */

let service: TestService;

beforeAll(async () => {
  service = await startTestService({ RATE_LIMITS: 'off', HOOK_TARGET_ALLOWLIST: 'localhost' });
});

afterAll(async () => {
  await service?.stop();
});

const dump = async (table: string) =>
  (await service.database.pool.query(`select * from ${table} order by id`)).rows;

describe('rebuild', () => {
  it('gives the same rows as the live projections', async () => {
    const team = await createTeamWithKey(service);
    for (let i = 0; i < 5; i++) {
      service.clock.advance(30);
      await apiRequest(service, team.apiKey, 'POST', '/clients', {
        body: { name: `Client ${i}`, email: `c${i}@example.com`, custom_fields: { i }, notes: ` n${i} ` },
      });
      const subscription = await apiRequest(service, team.apiKey, 'POST', '/automation/subscribe', {
        body: { event: 'onboarding.sent', target_url: `https://localhost/${i}` },
      });
      if (i % 2) {
        await apiRequest(service, team.apiKey, 'DELETE', '/automation/subscribe', {
          body: { id: subscription.body.id },
        });
      }
    }
    const tables = ['clients', 'hook_subscriptions', 'audit_events'];
    const before = await Promise.all(tables.map(dump));
    expect(before.map((rows) => rows.length)).toEqual([5, 5, 2 + 5 + 5 + 2]);
    await rebuildProjections(service.database.pool, service.context.eventStore, [
      clientsProjection,
      hookSubscriptionsProjection,
      auditEventsProjection,
    ]);
    expect(await Promise.all(tables.map(dump))).toEqual(before);
  });
});
