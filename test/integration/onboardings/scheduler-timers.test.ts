import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runDueTimers } from '../../../services/onboardings/onboarding-timers-pass.ts';
import { startScheduler } from '../../../shared/work-queue/scheduler-loop.ts';
import { startTestService, type TestService } from '../../helpers/service.ts';
import { adminRequest, apiRequest } from '../../helpers/tenant.ts';
import {
  advanceClock,
  completeForm,
  createTenant,
  drain,
  operatorLink,
  portal,
  send,
  sentOnboarding,
  type Tenant,
} from '../portal-fixtures.ts';

/**
 * The scheduler (services/scheduler): reminder, overdue and link-expiry timers due by the
 * service clock, run by POST /admin/v1/work/drain and by the scheduler loop, each once.
 */

const DAY = 24 * 3600;

let service: TestService;

beforeAll(async () => {
  service = await startTestService({ RATE_LIMITS: 'off' });
});

afterAll(async () => {
  await service?.stop();
});

/** Each test works on its own team so that emails and feeds do not mix. */
const freshTenant = () => createTenant(service, { email_sender_name: 'Acme Accounting' });

async function emails(tenant: Tenant, kind?: string) {
  const answer = await adminRequest(service, 'GET', `/teams/${tenant.teamId}/emails`);
  const all = answer.body.emails as {
    kind: string;
    to: string;
    text: string;
    subject: string;
    onboarding_id: string;
  }[];
  return kind ? all.filter((email) => email.kind === kind) : all;
}

async function feedTypes(tenant: Tenant, onboardingId: string) {
  const answer = await apiRequest(service, tenant.apiKey, 'GET', '/events?limit=100');
  return (answer.body.events as { type: string; onboarding_id: string }[])
    .filter((event) => event.onboarding_id === onboardingId)
    .map((event) => event.type)
    .reverse();
}

async function timerStatuses(onboardingId: string) {
  const { rows } = await service.database.pool.query<{ key: string; status: string }>(
    'select key, status from onboarding_timers where onboarding_id = $1 order by due_at, key',
    [onboardingId],
  );
  return Object.fromEntries(rows.map((row) => [row.key, row.status]));
}

describe('reminders', () => {
  it('3 and 7 days after a send, a reminder email with the link, each once', async () => {
    const tenant = await freshTenant();
    const { client, onboardingId, token } = await sentOnboarding(service, tenant, {
      client: { name: 'Rita Reminder' },
    });
    await drain(service);
    expect(await emails(tenant, 'reminder')).toHaveLength(0);

    await advanceClock(service, 3 * DAY);
    expect((await drain(service)).status).toBe(200);
    const first = await emails(tenant, 'reminder');
    expect(first).toHaveLength(1);
    expect(first[0]).toMatchObject({
      kind: 'reminder',
      to: client.email,
      onboarding_id: onboardingId,
      subject: 'Reminder: Client onboarding pack from Acme Accounting',
    });
    expect(first[0]!.text).toContain('Hello Rita Reminder');
    expect(first[0]!.text).toContain(`/f/${token}`);
    await drain(service);
    expect(await emails(tenant, 'reminder')).toHaveLength(1);

    await advanceClock(service, 4 * DAY);
    await drain(service);
    expect(await emails(tenant, 'reminder')).toHaveLength(2);
    expect(Object.values(await timerStatuses(onboardingId))).toEqual(['fired', 'fired']);
  });

  it('a resend replaces the schedule; cancelled and completed onboardings get none', async () => {
    const tenant = await freshTenant();
    const resent = await sentOnboarding(service, tenant);
    const cancelled = await sentOnboarding(service, tenant);
    const completed = await sentOnboarding(service, tenant);
    await advanceClock(service, 2 * DAY);
    await send(service, tenant, resent.onboardingId); // its reminders now fall 3 and 7 days from here
    await apiRequest(service, tenant.apiKey, 'PATCH', `/onboardings/${cancelled.onboardingId}`, {
      body: { status: 'cancelled' },
    });
    await completeForm(service, tenant, completed.token, 'Done Client');

    await advanceClock(service, 1 * DAY + 60); // 3 days after the first sends
    await drain(service);
    expect(await emails(tenant, 'reminder')).toEqual([]);
    expect(Object.values(await timerStatuses(cancelled.onboardingId))).toEqual(['cancelled', 'cancelled']);

    await advanceClock(service, 2 * DAY); // 3 days after the resend
    await drain(service);
    const reminders = await emails(tenant, 'reminder');
    expect(reminders.map((email) => email.onboarding_id)).toEqual([resent.onboardingId]);
    const { body: link } = await operatorLink(service, resent.onboardingId);
    expect(reminders[0]!.text).toContain(link.token);
  });

  it('two passes racing fire each timer once', async () => {
    const tenant = await freshTenant();
    const sent = await Promise.all([1, 2, 3, 4].map(() => sentOnboarding(service, tenant)));
    await advanceClock(service, 3 * DAY);
    const handled = await Promise.all([
      runDueTimers(service.context),
      runDueTimers(service.context),
      runDueTimers(service.context),
    ]);
    await drain(service);
    const reminders = await emails(tenant, 'reminder');
    expect(reminders).toHaveLength(4);
    expect(new Set(reminders.map((email) => email.onboarding_id))).toEqual(
      new Set(sent.map((item) => item.onboardingId)),
    );
    expect(handled.reduce((sum, count) => sum + count, 0)).toBeGreaterThanOrEqual(4);
  });
});

describe('overdue', () => {
  it('a sent onboarding past its due date: onboarding.overdue, once', async () => {
    const tenant = await freshTenant();
    const dueDate = new Date(service.clock.now().getTime() + DAY * 1000).toISOString();
    const { onboardingId } = await sentOnboarding(service, tenant, { create: { due_date: dueDate } });
    await advanceClock(service, DAY - 60);
    await drain(service);
    expect(await feedTypes(tenant, onboardingId)).not.toContain('onboarding.overdue');
    await advanceClock(service, 60);
    await drain(service);
    await advanceClock(service, DAY);
    await drain(service);
    expect(
      (await feedTypes(tenant, onboardingId)).filter((type) => type === 'onboarding.overdue'),
    ).toHaveLength(1);
    const overdue = await apiRequest(service, tenant.apiKey, 'GET', '/events?type=onboarding.overdue');
    expect(overdue.body.events[0].data).toMatchObject({ due_date: expect.any(String) });
  });
});

describe('link expiry', () => {
  it('at expires_at the onboarding becomes expired and its link stops working', async () => {
    const tenant = await freshTenant();
    const expiresAt = new Date(service.clock.now().getTime() + 2 * DAY * 1000).toISOString();
    const { onboardingId, token } = await sentOnboarding(service, tenant, {
      create: { expires_at: expiresAt },
    });
    await portal(service, token, 'GET');
    await advanceClock(service, 2 * DAY);
    await drain(service);
    const onboarding = await apiRequest(service, tenant.apiKey, 'GET', `/onboardings/${onboardingId}`);
    expect(onboarding.body.onboarding.status).toBe('expired');
    expect(await feedTypes(tenant, onboardingId)).toContain('onboarding_expired');
    expect((await portal(service, token, 'GET')).body.code).toBe('link_inactive');
    expect((await operatorLink(service, onboardingId)).body.token).toBeNull();
    // Closed: no reminders after expiry.
    await advanceClock(service, 7 * DAY);
    await drain(service);
    expect(await emails(tenant, 'reminder')).toEqual([]);
  });
});

describe('the scheduler loop', () => {
  it('runs due timers every interval without a drain', async () => {
    const tenant = await freshTenant();
    const { onboardingId } = await sentOnboarding(service, tenant);
    await advanceClock(service, 3 * DAY);
    const loop = startScheduler(service.context, 50);
    try {
      for (let waited = 0; waited < 5000; waited += 50) {
        if ((await emails(tenant, 'reminder')).length > 0) break;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    } finally {
      await loop.stop();
    }
    expect((await emails(tenant, 'reminder')).map((email) => email.onboarding_id)).toEqual([onboardingId]);
  });
});
