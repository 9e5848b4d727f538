import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { storedValue } from '../../../shared/privacy/sealed-columns.ts';
import type { TestService } from '../../helpers/service.ts';
import { startSmtpServer, type SmtpTestServer } from '../../helpers/smtp.ts';
import {
  advance,
  completeOnboarding,
  createRule,
  drain,
  latestRun,
  minutes,
  startOutboundService,
} from '../automation-fixtures.ts';
import { createTenant } from '../onboardings-fixtures.ts';

/*
 * Automation mail waits for the owner's verification (docs/decisions/0006-self-serve-abuse-limits.md):
 * a run that comes due while the team's self-serve owner has not verified their email stops
 * as "sending paused" and sends nothing; once verified, the next run sends. (A self-serve
 * team cannot send an onboarding before verification, so the test puts a team with a
 * queued run into the waiting state a sign-up starts in.)
 */

let smtp: SmtpTestServer;
let service: TestService;

beforeAll(async () => {
  smtp = await startSmtpServer();
  service = await startOutboundService({ SMTP_URL: smtp.url });
}, 60_000);
afterAll(async () => {
  await service?.stop();
  await smtp?.close();
});

const nextPass = () => advance(service, minutes(5));

describe('automation mail of a team waiting for its owner', () => {
  it('stops without sending, and sends once the owner has verified', async () => {
    const tenant = await createTenant(service);
    const rule = await createRule(service, tenant.teamId, {
      name: 'Thank you',
      trigger: 'onboarding.completed',
      action: { type: 'send_email', subject: 'Thanks', body: 'Thanks' },
    });
    const { rows } = await service.database.pool.query<{ email: string }>(
      'select email from clients where id = $1',
      [tenant.clientId],
    );
    const to = (await service.context.vault.open(storedValue(rows[0]!.email)))!;
    const mails = () =>
      smtp.messages.filter((mail) => mail.envelope.to.includes(to) && mail.subject === 'Thanks');

    await completeOnboarding(service, tenant);
    await drain(service);
    await service.database.pool.query(
      `insert into team_email_verifications (team_id, member_id, required_at) values ($1, gen_random_uuid(), now())`,
      [tenant.teamId],
    );
    await nextPass();
    expect(await latestRun(service, tenant.teamId, rule.id)).toBe(
      'Failed: sending paused (the owner has not verified their email) (stopped)',
    );
    const queued = await service.database.pool.query(
      `select 1 from mail_outbox where team_id = $1 and kind = 'automation'`,
      [tenant.teamId],
    );
    expect(queued.rowCount).toBe(0);

    await service.database.pool.query(
      'update team_email_verifications set verified_at = now() where team_id = $1',
      [tenant.teamId],
    );
    await completeOnboarding(service, tenant);
    await drain(service);
    await nextPass();
    await smtp.waitFor(1, 20_000);
    await expect.poll(() => mails().length, { timeout: 20_000 }).toBe(1);
    expect(await latestRun(service, tenant.teamId, rule.id)).toMatch(/^Last ran /);
  }, 120_000);
});
