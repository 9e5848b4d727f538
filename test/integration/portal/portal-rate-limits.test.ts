import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest';
import {
  PIN_CHECKS_PER_LINK_LIMIT,
  PORTAL_PER_IP_LIMIT,
  TOO_MANY_PIN_CHECKS,
  TOO_MANY_PORTAL_REQUESTS,
} from '../../../services/onboardings/portal/portal-rate-limits.ts';
import { startTestService, type TestService } from '../../helpers/service.ts';
import { advanceClock, createTenant, portal, sentOnboarding, type Tenant } from '../portal-fixtures.ts';

/*
 * The portal's rate limits with RATE_LIMITS on (the default): per link for PIN checks,
 * correct PINs included, and per IP over every portal route. The test clock stands still,
 * so each test starts a new one-minute window by moving it.
 */

let service: TestService;
let tenant: Tenant;

beforeAll(async () => {
  service = await startTestService();
  tenant = await createTenant(service);
});
afterAll(async () => service?.stop());
beforeEach(async () => {
  await advanceClock(service, 60);
});

const PIN = '735190';

async function inBatches<T>(count: number, size: number, run: (index: number) => Promise<T>): Promise<T[]> {
  const results: T[] = [];
  for (let start = 0; start < count; start += size) {
    const batch = Array.from({ length: Math.min(size, count - start) }, (_, offset) => run(start + offset));
    results.push(...(await Promise.all(batch)));
  }
  return results;
}

it(`a PIN link answers ${PIN_CHECKS_PER_LINK_LIMIT} checks a minute with the correct PIN, then 429 with Retry-After`, async () => {
  const { token } = await sentOnboarding(service, tenant, { send: { pin: PIN } });
  const other = await sentOnboarding(service, tenant, { send: { pin: PIN } });
  await advanceClock(service, 60);

  const allowed = await inBatches(PIN_CHECKS_PER_LINK_LIMIT, 10, () =>
    portal(service, token, 'GET', '', { pin: PIN }),
  );
  expect(allowed.map((answer) => answer.status)).toEqual(Array(PIN_CHECKS_PER_LINK_LIMIT).fill(200));

  const limited = await portal(service, token, 'GET', '', { pin: PIN });
  expect(limited.status).toBe(429);
  expect(limited.body).toEqual({ error: TOO_MANY_PIN_CHECKS, code: 'rate_limited' });
  const retryAfter = Number(limited.headers.get('retry-after'));
  expect(retryAfter).toBeGreaterThanOrEqual(1);
  expect(retryAfter).toBeLessThanOrEqual(60);
  // A wrong PIN is refused the same way, before it is hashed or counted as a failure.
  expect(
    (
      await portal(service, token, 'PUT', `/answers/${tenant.ids.fields.fullName}`, {
        pin: '000000',
        body: { value: 'x' },
      })
    ).status,
  ).toBe(429);

  // The limit is the link's own: another link of the same client answers.
  expect((await portal(service, other.token, 'GET', '', { pin: PIN })).status).toBe(200);

  await advanceClock(service, retryAfter);
  expect((await portal(service, token, 'GET', '', { pin: PIN })).status).toBe(200);
});

it(`one IP address gets ${PORTAL_PER_IP_LIMIT} portal requests a minute, then 429 on every portal route`, async () => {
  const { token } = await sentOnboarding(service, tenant);
  await advanceClock(service, 60);

  // Unknown links are the cheapest requests; they count like any other.
  const unknown = '0'.repeat(64);
  const allowed = await inBatches(PORTAL_PER_IP_LIMIT - 1, 20, () => portal(service, unknown, 'GET'));
  expect(new Set(allowed.map((answer) => answer.status))).toEqual(new Set([404]));
  expect((await portal(service, token, 'GET')).status).toBe(200);

  const limited = await portal(service, token, 'GET');
  expect(limited.status).toBe(429);
  expect(limited.body).toEqual({ error: TOO_MANY_PORTAL_REQUESTS, code: 'rate_limited' });
  expect(Number(limited.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
  const save = await portal(service, token, 'PUT', `/answers/${tenant.ids.fields.fullName}`, {
    body: { value: 'Ada' },
  });
  expect(save.status).toBe(429);

  await advanceClock(service, 60);
  expect((await portal(service, token, 'GET')).status).toBe(200);
});
