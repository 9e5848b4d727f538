import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { onboardingDetail, onboardingListItem } from '../../../projections/onboardings/queries.ts';
import { startTestService, type TestService } from '../../helpers/service.ts';
import {
  archive,
  createClient,
  createOnboarding,
  createTenant,
  sendOnboarding,
  type Tenant,
} from '../onboardings-fixtures.ts';

/*
 * GET by id and the list write their 200 answers with JSON.stringify alone (no zod parse of
 * the answer, shared/http/trusted-success-serializer.ts). Their bytes must be exactly what
 * the zod serializer writes: JSON.stringify of the schema's parse of the same data.
 */

const detailAnswer = z.object({ onboarding: onboardingDetail });
const listAnswer = z.object({ onboardings: z.array(onboardingListItem), total: z.number().int() });

let service: TestService;
let tenant: Tenant;
const ids: string[] = [];

beforeAll(async () => {
  service = await startTestService();
  tenant = await createTenant(service);
  ids.push((await createOnboarding(service, tenant, { due_date: '2030-01-31T17:00:00+01:00' })).id);
  const second = await createClient(service, tenant, 'Grace Hopper');
  ids.push((await createOnboarding(service, { ...tenant, clientId: second.id })).id);
  await sendOnboarding(service, tenant, ids[1]!);
  ids.push((await createOnboarding(service, tenant)).id);
  await sendOnboarding(service, tenant, ids[2]!);
  await archive(service, ids[2]!);
});
afterAll(async () => service?.stop());

async function rawGet(path: string) {
  const response = await fetch(`${service.url}/api/v1${path}`, {
    headers: { authorization: `Bearer ${tenant.apiKey}` },
  });
  return { status: response.status, text: await response.text() };
}

describe('the answers of GET by id and list', () => {
  it('are byte for byte what the zod serializer writes, for each onboarding', async () => {
    for (const id of ids) {
      const answer = await rawGet(`/onboardings/${id}`);
      expect(answer.status).toBe(200);
      expect(answer.text).toBe(JSON.stringify(detailAnswer.parse(JSON.parse(answer.text))));
      expect(Object.keys(JSON.parse(answer.text).onboarding.template_snapshot).length).toBeGreaterThan(0);
    }
  });

  it('are byte for byte what the zod serializer writes, for every list filter', async () => {
    const queries = ['', '?archived=all', '?archived=only', '?status=sent', `?client_id=${tenant.clientId}`];
    for (const query of [...queries, '?archived=all&status=sent&limit=1&offset=1']) {
      const answer = await rawGet(`/onboardings${query}`);
      expect(answer.status).toBe(200);
      expect(answer.text).toBe(JSON.stringify(listAnswer.parse(JSON.parse(answer.text))));
    }
    const all = JSON.parse((await rawGet('/onboardings?archived=all')).text);
    expect(all.total).toBe(3);
    expect(all.onboardings.map((item: { clients: { name: string } }) => item.clients.name).sort()).toEqual([
      'Ada Lovelace',
      'Ada Lovelace',
      'Grace Hopper',
    ]);
  });

  it('keeps the error answers of the zod serializer (404 by id)', async () => {
    const answer = await rawGet('/onboardings/00000000-0000-4000-8000-000000000000');
    expect(answer.status).toBe(404);
    const body = JSON.parse(answer.text);
    expect(Object.keys(body)).toEqual(['error', 'code', 'message', 'retryable', 'request_id']);
    expect(body.code).toBe('target_unavailable');
  });
});
