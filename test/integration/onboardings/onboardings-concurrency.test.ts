import { afterAll, beforeAll, expect, it } from 'vitest';
import { startTestService, type TestService } from '../../helpers/service.ts';
import {
  createOnboarding,
  createTenant,
  onboardingRequest,
  sendOnboarding,
  type Tenant,
} from '../onboardings-fixtures.ts';

// More requests at once than the service has database connections (20): a command must
// never wait for a second connection while it holds one, or the pool deadlocks.
const CONCURRENT = 60;

let service: TestService;
let tenant: Tenant;

beforeAll(async () => {
  service = await startTestService({ RATE_LIMITS: 'off' });
  tenant = await createTenant(service, { plan: 'business' });
});
afterAll(async () => service?.stop());

it(`${CONCURRENT} concurrent creates, then ${CONCURRENT} concurrent sends, all answer`, async () => {
  const created = await Promise.all(
    Array.from({ length: CONCURRENT }, () =>
      onboardingRequest(service, tenant, 'POST', '', {
        body: { template_id: tenant.templateId, client_id: tenant.clientId },
      }),
    ),
  );
  expect(created.map((answer) => answer.status)).toEqual(Array(CONCURRENT).fill(201));

  const ids = created.map((answer) => (answer.body.onboarding as { id: string }).id);
  const sent = await Promise.all(ids.map((id) => sendOnboarding(service, tenant, id)));
  expect(sent.map((answer) => answer.status)).toEqual(Array(CONCURRENT).fill(200));

  const list = await onboardingRequest(service, tenant, 'GET', '?status=sent&limit=100');
  expect(list.body.total).toBe(CONCURRENT);
});

it('concurrent resends of one onboarding all answer and each issues its own link', async () => {
  const { id } = await createOnboarding(service, tenant);
  const answers = await Promise.all(Array.from({ length: 25 }, () => sendOnboarding(service, tenant, id)));
  expect(answers.map((answer) => answer.status)).toEqual(Array(25).fill(200));
  const links = await service.database.pool.query(
    'select count(*)::int as n from onboarding_links where onboarding_id = $1',
    [id],
  );
  // The creation token plus one link per send.
  expect(links.rows[0].n).toBe(26);
});
