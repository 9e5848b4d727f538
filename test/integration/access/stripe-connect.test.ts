import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import {
  recordStripeAccountUpdate,
  stripeAccountOfTeam,
  teamOfStripeAccount,
} from '../../../services/access/index.ts';
import { awaitReadModels } from '../../../shared/commands/read-your-writes.ts';
import { startTestService, type TestService } from '../../helpers/service.ts';
import { adminRequest, createTeam, updateTeam } from '../../helpers/tenant.ts';
import { addMember, signUp, type Browser } from '../workspace-fixtures.ts';

/*
 * The team's Stripe account (Stripe Connect) over real HTTP, PostgreSQL and stripe-mock:
 * the operator's stripe_account_id, the state account.updated records, payments_connected
 * following it.
 */

let service: TestService;
let owner: Browser;
let member: Browser;
let teamId: string;
const password = 'correct horse battery staple';

beforeAll(async () => {
  service = await startTestService({
    RATE_LIMITS: 'off',
    STRIPE_API_URL: inject('stripeApiUrl'),
    STRIPE_SECRET_KEY: 'sk_test_connect',
    STRIPE_WEBHOOK_SECRET: 'whsec_connect',
  });
  ({ owner, teamId } = await signUp(service, 'connect-owner@example.com', password, 'Connect Co'));
  ({ browser: member } = await addMember(service, owner, 'connect-member@example.com', 'member'));
}, 60_000);
afterAll(async () => {
  await service?.stop();
});

/** What Stripe says of an account, recorded as the account.updated handler does. */
async function accountUpdated(accountId: string, ready: boolean) {
  const recorded = await recordStripeAccountUpdate(service.context, {
    accountId,
    chargesEnabled: ready,
    detailsSubmitted: ready,
  });
  await awaitReadModels(service.context, recorded.position);
  return recorded;
}

const teamAnswer = async (teamId: string) =>
  (await adminRequest(service, 'PATCH', `/teams/${teamId}`, { unpaid: false })).body.team;

describe('operator: stripe_account_id', () => {
  it('setting one sets payments_connected and the state ready; null clears all; a malformed id is refused', async () => {
    const team = await createTeam(service);
    expect(team).toMatchObject({ stripe_account_id: null, payments_connected: false });
    const set = await adminRequest(service, 'PATCH', `/teams/${team.id}`, {
      stripe_account_id: 'acct_1Operator',
    });
    expect(set.status).toBe(200);
    expect(set.body.team).toMatchObject({ stripe_account_id: 'acct_1Operator', payments_connected: true });
    expect(await stripeAccountOfTeam(service.context.pool, team.id)).toEqual({
      stripe_account_id: 'acct_1Operator',
      stripe_account_state: 'ready',
    });
    expect(await teamOfStripeAccount(service.context.pool, 'acct_1Operator')).toBe(team.id);
    const bad = await adminRequest(service, 'PATCH', `/teams/${team.id}`, { stripe_account_id: 'cus_123' });
    expect([bad.status, bad.body.code]).toEqual([400, 'invalid_body']);
    const cleared = await adminRequest(service, 'PATCH', `/teams/${team.id}`, { stripe_account_id: null });
    expect(cleared.body.team).toMatchObject({ stripe_account_id: null, payments_connected: false });
    expect(await stripeAccountOfTeam(service.context.pool, team.id)).toEqual({
      stripe_account_id: null,
      stripe_account_state: 'not_connected',
    });
    expect(await teamOfStripeAccount(service.context.pool, 'acct_1Operator')).toBeNull();
  });

  it('payments_connected alone still works as before', async () => {
    const team = await createTeam(service, { payments_connected: true });
    expect(team.payments_connected).toBe(true);
    const off = await adminRequest(service, 'PATCH', `/teams/${team.id}`, { payments_connected: false });
    expect(off.body.team).toMatchObject({ payments_connected: false, stripe_account_id: null });
  });
});

describe('account.updated: recordStripeAccountUpdate', () => {
  it('moves the state with charges_enabled and details_submitted, and payments_connected with it', async () => {
    const team = await createTeam(service);
    await adminRequest(service, 'PATCH', `/teams/${team.id}`, { stripe_account_id: 'acct_1Follows' });
    expect((await accountUpdated('acct_1Follows', false)).teamId).toBe(team.id);
    expect(await stripeAccountOfTeam(service.context.pool, team.id)).toMatchObject({
      stripe_account_state: 'details_missing',
    });
    expect((await teamAnswer(team.id)).payments_connected).toBe(false);
    await accountUpdated('acct_1Follows', true);
    expect(await stripeAccountOfTeam(service.context.pool, team.id)).toMatchObject({
      stripe_account_state: 'ready',
    });
    expect((await teamAnswer(team.id)).payments_connected).toBe(true);
    // The same state again records nothing.
    expect((await accountUpdated('acct_1Follows', true)).position).toBeUndefined();
  });

  it('an account no team has changes nothing', async () => {
    expect(await accountUpdated('acct_1Nobody', true)).toEqual({ teamId: null, position: undefined });
  });
});

describe('workspace: the plan and payments in the team settings', () => {
  it('the trial includes no payments; a pro team may, and sees its account state', async () => {
    const trial = (await member.call('GET', '/workspace/v1/team')).body.team;
    expect(trial.plan_includes).toEqual({
      api_access: true,
      automations: true,
      payments: false,
      monthly_onboardings: 25,
    });
    expect(trial.payments).toEqual({
      plan_allows: false,
      online: true,
      account_state: 'not_connected',
      stripe_account_id: null,
      connected: false,
    });
    await updateTeam(service, teamId, { plan: 'pro' });
    const pro = (await owner.call('GET', '/workspace/v1/team')).body.team;
    expect(pro.plan_includes).toMatchObject({ payments: true, monthly_onboardings: 100 });
    expect(pro.payments).toMatchObject({ plan_allows: true, account_state: 'not_connected' });
  });
});
