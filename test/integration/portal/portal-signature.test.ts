import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SignatureSigned } from '../../../services/onboardings/onboarding-events.ts';
import { signedAnswersSha256 } from '../../../services/onboardings/signed-answers.ts';
import { startTestService, type TestService } from '../../helpers/service.ts';
import { apiRequest } from '../../helpers/tenant.ts';
import { createTenant, portal, sentOnboarding, type Tenant } from '../portal-fixtures.ts';

/**
 * A client's signature over real HTTP and PostgreSQL (operator-and-portal-api.md, Client
 * portal API; docs/decisions/0079): the invitee signs whatever email is typed, each
 * signature keeps its evidence, the public bodies stay as the spec shows them.
 */

let service: TestService;
let tenant: Tenant;

beforeAll(async () => {
  service = await startTestService({ RATE_LIMITS: 'off' });
  tenant = await createTenant(service);
});

afterAll(async () => {
  await service?.stop();
});

describe('POST /portal/v1/onboardings/:token/fields/:field_id/signature', () => {
  it('a drawing autosaved after signing leaves the signature listed for the page', async () => {
    const { token } = await sentOnboarding(service, tenant);
    const field = tenant.ids.fields.agreement;
    const drawing = { body: { value: { drawing: 'M10 10L20 20' } } };
    expect((await portal(service, token, 'PUT', `/answers/${field}`, drawing)).status).toBe(200);
    const signer = { body: { signer_name: 'Ada Client', signer_email: 'ada@example.com' } };
    expect((await portal(service, token, 'POST', `/fields/${field}/signature`, signer)).status).toBe(201);
    expect((await portal(service, token, 'PUT', `/answers/${field}`, drawing)).status).toBe(200);
    const form = await portal(service, token, 'GET');
    expect(form.body.onboarding.signatures).toEqual([
      { id: expect.any(String), field_id: field, signer_name: 'Ada Client', signed_at: expect.any(String) },
    ]);
  });

  it("Signing records the invitee's email whatever is typed, with the signature's evidence", async () => {
    const invitee = `alan-${randomBytes(4).toString('hex')}@example.com`;
    const { onboardingId, token } = await sentOnboarding(service, tenant, { client: { email: invitee } });
    expect((await portal(service, token, 'GET')).body.onboarding.signer_email).toBe(invitee);
    const name = { body: { value: 'Alan Turing' } };
    expect((await portal(service, token, 'PUT', `/answers/${tenant.ids.fields.fullName}`, name)).status).toBe(
      200,
    );
    const answer = await portal(service, token, 'POST', `/fields/${tenant.ids.fields.agreement}/signature`, {
      body: { signer_name: 'Alan Turing', signer_email: 'wrong@example.com' },
      headers: { 'user-agent': 'Evidence-Browser/1.0' },
    });
    expect(answer.status).toBe(201);
    expect(answer.body.signature.signer_email).toBe(invitee);
    const [event] = (await service.context.eventStore.readStream(`onboarding-${onboardingId}`)).filter(
      (one) => one.type === 'signature.signed',
    );
    const data = event!.data as SignatureSigned['data'];
    expect(await service.context.vault.open(data.signer_email as never)).toBe(invitee);
    expect(JSON.stringify(data)).not.toContain('wrong@example.com');
    const evidence = data.evidence!;
    expect(await service.context.vault.open(evidence.user_agent as never)).toBe('Evidence-Browser/1.0');
    expect(await service.context.vault.open(evidence.ip as never)).toMatch(/^(::ffff:)?127\.0\.0\.1$|^::1$/);
    expect(evidence.consent_text).toBe('I agree to the engagement terms.');
    expect(evidence.answers_sha256).toBe(
      signedAnswersSha256({
        onboarding_id: onboardingId,
        answers: { [tenant.ids.fields.fullName]: 'Alan Turing' },
        files: {},
      }),
    );
    // The public bodies stay as the spec shows them: no evidence in the events feed.
    const feed = await apiRequest(service, tenant.apiKey, 'GET', '/events?type=signature.signed');
    const item = feed.body.events.find(
      (one: { onboarding_id: string }) => one.onboarding_id === onboardingId,
    );
    expect(Object.keys(item.data)).not.toContain('evidence');
  });

  it('201 with the signature; signature.signed with signer_role client; name and email sealed', async () => {
    const { onboardingId, token } = await sentOnboarding(service, tenant, {
      client: { email: `katherine-${randomBytes(4).toString('hex')}@example.com` },
    });
    const answer = await portal(service, token, 'POST', `/fields/${tenant.ids.fields.agreement}/signature`, {
      body: { signer_name: '  Katherine Johnson ', signer_email: 'Katherine@Example.com' },
    });
    expect(answer.status).toBe(201);
    expect(answer.body).toEqual({
      signature: {
        id: expect.stringMatching(/^[0-9a-f-]{36}$/),
        field_id: tenant.ids.fields.agreement,
        signer_name: 'Katherine Johnson',
        signer_email: expect.stringMatching(/^katherine-[0-9a-f]{8}@example\.com$/),
        signer_role: 'client',
        signed_at: service.clock.now().toISOString(),
      },
    });
    const feed = await apiRequest(service, tenant.apiKey, 'GET', '/events?type=signature.signed');
    const event = feed.body.events.find(
      (item: { onboarding_id: string }) => item.onboarding_id === onboardingId,
    );
    expect(event.data).toMatchObject({ signer_role: 'client', field_id: tenant.ids.fields.agreement });
    const { rows } = await service.database.pool.query(
      `select data::text as data from events where stream_id = $1 and type = 'signature.signed'`,
      [`onboarding-${onboardingId}`],
    );
    expect(rows[0].data).not.toContain('Katherine');
    expect(rows[0].data).not.toContain(answer.body.signature.signer_email);
    const view = await portal(service, token, 'GET');
    expect(view.body.onboarding.responses).toEqual([
      expect.objectContaining({
        id: answer.body.signature.id,
        field_id: tenant.ids.fields.agreement,
        status: 'draft',
        value: expect.objectContaining({
          signer_name: 'Katherine Johnson',
          signer_email: answer.body.signature.signer_email,
        }),
      }),
    ]);
  });

  it('400 invalid_body for a missing name or a bad email; 404 field_not_found for a field that is not a signature', async () => {
    const { token } = await sentOnboarding(service, tenant);
    for (const body of [
      {},
      { signer_name: '', signer_email: 'a@example.com' },
      { signer_name: 'A', signer_email: 'not-an-email' },
    ]) {
      const answer = await portal(
        service,
        token,
        'POST',
        `/fields/${tenant.ids.fields.agreement}/signature`,
        {
          body,
        },
      );
      expect(answer.status, JSON.stringify(body)).toBe(400);
      expect(answer.body.code).toBe('invalid_body');
    }
    const notSignature = await portal(
      service,
      token,
      'POST',
      `/fields/${tenant.ids.fields.fullName}/signature`,
      {
        body: { signer_name: 'A', signer_email: 'a@example.com' },
      },
    );
    expect(notSignature.status).toBe(404);
    expect(notSignature.body.code).toBe('field_not_found');
  });
});
