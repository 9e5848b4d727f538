import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_AMOUNT_CENTS } from '../../../services/templates/contract/payment-amount.ts';
import { registerSecrets } from '../../helpers/run-log.ts';
import { startTestService, type TestService } from '../../helpers/service.ts';
import { apiRequest, createTeamWithKey, createTemplate } from '../../helpers/tenant.ts';
import { createClient, createOnboarding, type Tenant } from '../portal-fixtures.ts';
import { Browser } from '../workspace-fixtures.ts';

/*
 * A payment field's amount is bounded in the builder as the send bounds it (issue 26,
 * finding 9; issue 28): one rule (services/templates/contract/payment-amount.ts), a whole number
 * of the currency's smallest unit from Stripe's minimum in that currency to 99,999,999, in a
 * currency Stripe charges in. The builder refuses 1e300, 2^31, 0.01 USD and XYZ in words beside
 * the field (steps[i].fields[j]) and creates nothing; the send refuses the same payments with
 * invalid_payment, its first check.
 */

let service: TestService;
let owner: Browser;

beforeAll(async () => {
  service = await startTestService({ RATE_LIMITS: 'off' });
  const email = `payment-builder-${randomUUID()}@example.com`;
  const password = `payment builder passphrase ${randomUUID()}`;
  registerSecrets(password);
  owner = new Browser(service);
  const signUp = await owner.call('POST', '/workspace/v1/sign-up', {
    team_name: 'Payments',
    name: 'Olive Owner',
    email,
    password,
  });
  expect(signUp.status).toBeLessThan(300);
  if (!owner.csrf)
    expect((await owner.call('POST', '/workspace/v1/sessions', { email, password })).status).toBe(200);
}, 60_000);

afterAll(async () => {
  await service?.stop();
});

const definition = (amount: unknown, currency = 'USD') => ({
  name: 'Retainer',
  steps: [
    {
      title: 'Pay',
      sort_order: 1,
      fields: [
        { type: 'short_text', label: 'Name', sort_order: 1 },
        {
          type: 'payment',
          label: 'Retainer fee',
          sort_order: 2,
          config: { amount_cents: amount, currency },
        },
      ],
    },
  ],
});

const RULE = 'config.amount_cents must be a whole number of cents from 1 to 99,999,999';

async function templateCount() {
  const result = await service.database.pool.query('select count(*)::int as n from templates');
  return result.rows[0].n as number;
}

describe('the builder bounds payment amounts as the send does', () => {
  it('refuses 1e300, 2^31, 0 and 1.5 in words beside the field and creates nothing', async () => {
    const before = await templateCount();
    for (const amount of [1e300, 2 ** 31, MAX_AMOUNT_CENTS + 1, 0, -5, 1.5, '100']) {
      const answer = await owner.call('POST', '/workspace/v1/templates', definition(amount));
      expect(answer.status, String(amount)).toBe(400);
      expect(answer.body.code).toBe('invalid_body');
      expect(answer.body.error).toBe(`steps[0].fields[1]: ${RULE}`);
      expect(answer.body.details.field_problems).toEqual([{ path: 'steps[0].fields[1]', message: RULE }]);
    }
    expect(await templateCount()).toBe(before);
  });

  it('accepts 0.50 USD, 50 JPY and 99,999,999 cents, refuses 0.01 USD and XYZ in words, and a save that raises it to 2^31', async () => {
    for (const [amount, currency, words] of [
      [1, 'USD', 'The smallest amount Stripe charges in USD is 0.50'],
      [49, 'jpy', 'The smallest amount Stripe charges in JPY is 50'],
      [5000, 'XYZ', 'Stripe cannot charge in XYZ'],
    ] as const) {
      const refused = await owner.call('POST', '/workspace/v1/templates', definition(amount, currency));
      expect(refused.status, currency).toBe(400);
      expect(refused.body.error).toBe(`steps[0].fields[1]: ${words}`);
    }
    const low = await owner.call('POST', '/workspace/v1/templates', definition(50));
    expect(low.status).toBe(201);
    const yen = await owner.call('POST', '/workspace/v1/templates', definition(50, 'jpy'));
    expect(yen.status).toBe(201);
    const high = await owner.call('POST', '/workspace/v1/templates', definition(MAX_AMOUNT_CENTS));
    expect(high.status).toBe(201);
    const save = await owner.call('PUT', `/workspace/v1/templates/${high.body.template.id}`, {
      ...definition(2 ** 31),
      version: 1,
    });
    expect(save.status).toBe(400);
    expect(save.body.error).toBe(`steps[0].fields[1]: ${RULE}`);
    const kept = await owner.call('GET', `/workspace/v1/templates/${high.body.template.id}`);
    expect(kept.body.template.version).toBe(1);
    expect(kept.body.template.steps[0].fields[1].config.amount_cents).toBe(MAX_AMOUNT_CENTS);
  });

  it('the send answers invalid_payment, its first check, for 2^31, 1e300, XYZ and 0.49 EUR (a template of the operator API)', async () => {
    for (const [amount, currency, words] of [
      [2 ** 31, 'USD', 'a whole number of cents from 1 to 99,999,999'],
      [1e300, 'USD', 'a whole number of cents from 1 to 99,999,999'],
      [5000, 'XYZ', 'Payment field "Retainer fee" cannot be collected: Stripe cannot charge in XYZ'],
      [49, 'eur', 'The smallest amount Stripe charges in EUR is 0.50'],
    ] as const) {
      // The trial plan without a connected account: payment_plan_required and payment_not_connected come later.
      const team = await createTeamWithKey(service, { plan: 'pro_trial', payments_connected: false });
      const template = await createTemplate(service, team.teamId, {
        name: 'Retainer',
        steps: [
          {
            title: 'Pay',
            sort_order: 1,
            fields: [
              {
                type: 'payment',
                label: 'Retainer fee',
                sort_order: 1,
                is_required: true,
                config: { amount_cents: amount, currency },
              },
            ],
          },
        ],
      });
      const tenant = { ...team, template, ids: {} as Tenant['ids'] };
      const client = await createClient(service, tenant);
      const onboarding = await createOnboarding(service, tenant, client.id);
      const sent = await apiRequest(service, tenant.apiKey, 'POST', `/onboardings/${onboarding.id}/send`, {
        body: {},
      });
      expect(sent.status, String(amount)).toBe(400);
      expect(sent.body.code).toBe('invalid_payment');
      expect(sent.body.error).toContain(words);
    }
  });
});
