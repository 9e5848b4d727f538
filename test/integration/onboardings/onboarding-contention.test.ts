import { afterAll, beforeAll, expect, it } from 'vitest';
import { startTestService, type TestService } from '../../helpers/service.ts';
import { apiRequest } from '../../helpers/tenant.ts';
import { createTenant, portal, sentOnboarding, type Tenant } from '../portal-fixtures.ts';

/*
 * Many writes on ONE onboarding at once, over real HTTP: every one conflicts with the
 * others on the onboarding's stream, and every one must still land (the command pipeline
 * retries conflicts with a jittered backoff inside its time budget).
 */

const RACERS = 30;

let service: TestService;
let tenant: Tenant;

beforeAll(async () => {
  service = await startTestService({ RATE_LIMITS: 'off' });
  tenant = await createTenant(service, { plan: 'business' });
});
afterAll(async () => service?.stop());

/** A sent onboarding the client has opened once (so the racers only save, sign or patch). */
async function openedOnboarding() {
  const sent = await sentOnboarding(service, tenant);
  expect((await portal(service, sent.token, 'GET')).status).toBe(200);
  return sent;
}

async function countEvents(onboardingId: string, type: string): Promise<number> {
  const events = await service.context.eventStore.readStream(`onboarding-${onboardingId}`);
  return events.filter((event) => event.type === type).length;
}

const autosave = (token: string, index: number) =>
  portal(service, token, 'PUT', `/answers/${tenant.ids.fields.fullName}`, {
    body: { value: `Ada Lovelace ${index}` },
  });

const sign = (token: string, index: number) =>
  portal(service, token, 'POST', `/fields/${tenant.ids.fields.agreement}/signature`, {
    body: { signer_name: `Signer ${index}`, signer_email: `signer${index}@example.com` },
  });

/** A distinct due date per racer, so every PATCH decides a change. */
const patchDueDate = (onboardingId: string, index: number) =>
  apiRequest(service, tenant.apiKey, 'PATCH', `/onboardings/${onboardingId}`, {
    body: { due_date: new Date(Date.UTC(2031, 0, 1 + index)).toISOString().slice(0, 10) },
  });

const statuses = (answers: { status: number }[]) => answers.map((answer) => answer.status);
const range = (count: number) => Array.from({ length: count }, (_, index) => index);

it(`${RACERS} concurrent autosaves of one onboarding all answer 200 and are all recorded`, async () => {
  const { onboardingId, token } = await openedOnboarding();
  const answers = await Promise.all(range(RACERS).map((index) => autosave(token, index)));
  expect(statuses(answers)).toEqual(Array(RACERS).fill(200));
  expect(await countEvents(onboardingId, 'answer_saved')).toBe(RACERS);
});

it(`${RACERS} concurrent signatures of one onboarding all answer 201 and are all recorded`, async () => {
  const { onboardingId, token } = await openedOnboarding();
  const answers = await Promise.all(range(RACERS).map((index) => sign(token, index)));
  expect(statuses(answers)).toEqual(Array(RACERS).fill(201));
  expect(await countEvents(onboardingId, 'signature.signed')).toBe(RACERS);
});

it(`${RACERS} concurrent PATCHes of one onboarding all answer 200 and are all recorded`, async () => {
  const { onboardingId } = await openedOnboarding();
  const before = await countEvents(onboardingId, 'onboarding_updated');
  const answers = await Promise.all(range(RACERS).map((index) => patchDueDate(onboardingId, index)));
  expect(statuses(answers)).toEqual(Array(RACERS).fill(200));
  expect((await countEvents(onboardingId, 'onboarding_updated')) - before).toBe(RACERS);
});

it('8 autosaves, 8 signatures and 8 PATCHes racing together on one onboarding all succeed', async () => {
  const { onboardingId, token } = await openedOnboarding();
  const [saves, signatures, patches] = await Promise.all([
    Promise.all(range(8).map((index) => autosave(token, index))),
    Promise.all(range(8).map((index) => sign(token, index))),
    Promise.all(range(8).map((index) => patchDueDate(onboardingId, index))),
  ]);
  expect(statuses(saves)).toEqual(Array(8).fill(200));
  expect(statuses(signatures)).toEqual(Array(8).fill(201));
  expect(statuses(patches)).toEqual(Array(8).fill(200));
  expect(await countEvents(onboardingId, 'answer_saved')).toBe(8);
  expect(await countEvents(onboardingId, 'signature.signed')).toBe(8);
});

it('8 autosaves and 8 PATCHes racing together on one onboarding: no 5xx, every write recorded', async () => {
  const { onboardingId, token } = await openedOnboarding();
  const updatedBefore = await countEvents(onboardingId, 'onboarding_updated');
  const [saves, patches] = await Promise.all([
    Promise.all(range(8).map((index) => autosave(token, index))),
    Promise.all(range(8).map((index) => patchDueDate(onboardingId, index))),
  ]);
  expect([...statuses(saves), ...statuses(patches)].filter((status) => status >= 500)).toEqual([]);
  expect(statuses(saves)).toEqual(Array(8).fill(200));
  expect(statuses(patches)).toEqual(Array(8).fill(200));
  expect(await countEvents(onboardingId, 'answer_saved')).toBe(8);
  expect((await countEvents(onboardingId, 'onboarding_updated')) - updatedBefore).toBe(8);
});
