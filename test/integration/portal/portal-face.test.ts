import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../../helpers/service.ts';
import { adminRequest, apiRequest } from '../../helpers/tenant.ts';
import {
  advanceClock,
  completeForm,
  createTenant,
  operatorLink,
  portal,
  send,
  sentOnboarding,
  uploadFile,
  type Tenant,
} from '../portal-fixtures.ts';

/**
 * What the client's form page reads besides the form itself, over real HTTP and
 * PostgreSQL: GET /portal/v1/onboardings/:token/face (link state, team, client), the
 * form answer's team, client, files, signatures and submitted steps, a browser's 303 to
 * the page, and the team's branding (PATCH /admin/v1/teams/:team_id, GET /brand/:team_id/logo).
 * Rate limits are on: the wrong-PIN lockout is a face state.
 */

let service: TestService;
let tenant: Tenant;

// 1x1 PNG and GIF.
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  'base64',
);
const GIF = Buffer.from('R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7', 'base64');
const dataUrl = (type: string, content: Buffer) => `data:${type};base64,${content.toString('base64')}`;

beforeAll(async () => {
  service = await startTestService({ RATE_LIMITS: 'on' });
  tenant = await createTenant(service, {
    name: 'Northwind LLC',
    email_sender_name: 'Northwind Advisors',
    locale: 'de-DE',
  });
});

afterAll(async () => {
  await service?.stop();
});

async function streamTypes(onboardingId: string) {
  const events = await service.context.eventStore.readStream(`onboarding-${onboardingId}`);
  return events.map((event) => event.type);
}

const face = (token: string) => portal(service, token, 'GET', '/face');
const linkOf = async (token: string) => (await face(token)).body.link;

const northwind = { display_name: 'Northwind Advisors', logo_url: null, accent_color: null };

describe('GET /portal/v1/onboardings/:token/face', () => {
  it('an unknown or malformed token is inactive with team and client null, never 404', async () => {
    for (const token of [randomBytes(32).toString('hex'), 'not-a-token']) {
      const answer = await face(token);
      expect(answer.status).toBe(200);
      expect(answer.body).toEqual({
        link: { state: 'inactive', retry_after_seconds: null, session: false },
        team: null,
        client: null,
      });
      expect(answer.headers.get('referrer-policy')).toBe('no-referrer');
    }
  });

  it("a client created without a language or date format takes the team's, marked as not chosen", async () => {
    const { token } = await sentOnboarding(service, tenant);
    const answer = await face(token);
    expect(answer.body.client).toMatchObject({ locale_chosen: false, date_format_chosen: false });
  });

  it('an open link: the team as the page shows it and the client settings; nothing is recorded', async () => {
    const { onboardingId, token } = await sentOnboarding(service, tenant, {
      client: { locale: 'fr-FR', timezone: 'Europe/Paris', date_format: 'DD/MM/YYYY' } as never,
    });
    const before = await streamTypes(onboardingId);
    const answer = await face(token);
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({
      link: { state: 'open', retry_after_seconds: null, session: false },
      team: northwind,
      client: {
        locale: 'fr-FR',
        date_format: 'DD/MM/YYYY',
        timezone: 'Europe/Paris',
        locale_chosen: true,
        date_format_chosen: true,
      },
    });
    expect(await streamTypes(onboardingId)).toEqual(before);
    expect(before).not.toContain('onboarding.started');
    // The form answer has the same team and client.
    const form = await portal(service, token, 'GET');
    expect(form.body.team).toEqual(answer.body.team);
    expect(form.body.client).toEqual(answer.body.client);
  });

  it('a PIN link: pin_required, pin_locked after too many wrong PINs (with retry_after_seconds)', async () => {
    const { token } = await sentOnboarding(service, tenant, { send: { pin: '246810' } });
    expect(await linkOf(token)).toEqual({ state: 'pin_required', retry_after_seconds: null, session: false });
    for (let i = 0; i < 10; i++) {
      expect((await portal(service, token, 'GET', '', { pin: '000000' })).status).toBe(401);
    }
    const locked = await linkOf(token);
    expect(locked.state).toBe('pin_locked');
    expect(locked.retry_after_seconds).toBeGreaterThan(0);
    expect(locked.retry_after_seconds).toBeLessThanOrEqual(15 * 60);
  });

  it('completed, cancelled, expired; a replaced token and an archived onboarding are inactive', async () => {
    const done = await sentOnboarding(service, tenant);
    await completeForm(service, tenant, done.token, 'Ada Lovelace');
    expect((await linkOf(done.token)).state).toBe('completed');

    const cancelled = await sentOnboarding(service, tenant);
    const cancel = await apiRequest(
      service,
      tenant.apiKey,
      'PATCH',
      `/onboardings/${cancelled.onboardingId}`,
      {
        body: { status: 'cancelled' },
      },
    );
    expect(cancel.status).toBe(200);
    expect((await linkOf(cancelled.token)).state).toBe('cancelled');

    const resent = await sentOnboarding(service, tenant);
    await send(service, tenant, resent.onboardingId);
    const { body: newLink } = await operatorLink(service, resent.onboardingId);
    expect((await linkOf(resent.token)).state).toBe('inactive');
    expect((await face(resent.token)).body.team).toEqual(northwind);
    expect((await linkOf(newLink.token!)).state).toBe('open');

    const archived = await sentOnboarding(service, tenant);
    expect(
      (await adminRequest(service, 'POST', `/onboardings/${archived.onboardingId}/archive`)).status,
    ).toBe(200);
    expect((await linkOf(archived.token)).state).toBe('inactive');

    const expiring = await sentOnboarding(service, tenant, {
      create: { expires_at: new Date(service.clock.now().getTime() + 3600_000).toISOString() },
    });
    expect((await linkOf(expiring.token)).state).toBe('open');
    await advanceClock(service, 3601);
    expect((await linkOf(expiring.token)).state).toBe('expired');
  });
});

describe('GET /portal/v1/onboardings/:token: files, signatures, submitted steps', () => {
  it('lists what the client has given, names opened, without the signer email', async () => {
    const { token } = await sentOnboarding(service, tenant);
    const { fields, steps } = tenant.ids;
    expect(
      (await portal(service, token, 'PUT', `/answers/${fields.fullName}`, { body: { value: 'Ada' } })).status,
    ).toBe(200);
    expect((await portal(service, token, 'POST', `/steps/${steps.about}/submit`)).status).toBe(200);
    const upload = await uploadFile(service, token, fields.idDocument, {
      name: 'passport scan.pdf',
      content: '%PDF-1.4 x',
    });
    expect(upload.status).toBe(201);
    const signed = await portal(service, token, 'POST', `/fields/${fields.agreement}/signature`, {
      body: { signer_name: 'Ada Lovelace', signer_email: 'ada@example.com' },
    });
    expect(signed.status).toBe(201);

    const form = await portal(service, token, 'GET');
    expect(form.status).toBe(200);
    const { onboarding } = form.body;
    expect(onboarding.files).toEqual([
      {
        id: (upload.body as { file: { id: string } }).file.id,
        field_id: fields.idDocument,
        file_name: 'passport scan.pdf',
        content_type: (upload.body as { file: { content_type: string } }).file.content_type,
        size_bytes: '%PDF-1.4 x'.length,
        uploaded_at: (upload.body as { file: { uploaded_at: string } }).file.uploaded_at,
      },
    ]);
    expect(onboarding.signatures).toEqual([
      {
        id: signed.body.signature.id,
        field_id: fields.agreement,
        signer_name: 'Ada Lovelace',
        signed_at: signed.body.signature.signed_at,
      },
    ]);
    expect(JSON.stringify(onboarding.signatures)).not.toContain('ada@example.com');
    expect(onboarding.submitted_step_ids).toEqual([steps.about]);

    // A step submit answers the same form view.
    const submitted = await portal(service, token, 'POST', `/steps/${steps.documents}/submit`);
    expect(submitted.body.onboarding.submitted_step_ids).toEqual([steps.about, steps.documents]);
    expect(submitted.body.onboarding.files).toHaveLength(1);
  });
});

describe('a browser opening a portal URL', () => {
  const browserAccept = 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8';

  it('is sent to the form page with 303 and nothing is recorded', async () => {
    const { onboardingId, token } = await sentOnboarding(service, tenant);
    const before = await streamTypes(onboardingId);
    const response = await fetch(`${service.url}/portal/v1/onboardings/${token}`, {
      headers: { accept: browserAccept },
      redirect: 'manual',
    });
    expect(response.status).toBe(303);
    expect(response.headers.get('location')).toBe(`/f/${token}`);
    expect(response.headers.get('referrer-policy')).toBe('no-referrer');
    expect(await streamTypes(onboardingId)).toEqual(before);
  });

  it('JSON, */* or a PIN header keep the JSON answer', async () => {
    const { token } = await sentOnboarding(service, tenant, { send: { pin: '135790' } });
    for (const accept of ['application/json', '*/*']) {
      const answer = await portal(service, token, 'GET', '', { pin: '135790', headers: { accept } });
      expect(answer.status).toBe(200);
    }
    const withPin = await portal(service, token, 'GET', '', {
      pin: '135790',
      headers: { accept: browserAccept },
    });
    expect(withPin.status).toBe(200);
    expect(withPin.body.onboarding.status).toBe('in_progress');
    const noPin = await portal(service, token, 'GET', '', { headers: { accept: '*/*' } });
    expect(noPin.status).toBe(401);
    expect(noPin.headers.get('referrer-policy')).toBe('no-referrer');
  });
});

describe('branding: PATCH /admin/v1/teams/:team_id accent_color and logo', () => {
  const patch = (body: unknown) => adminRequest(service, 'PATCH', `/teams/${tenant.teamId}`, body);

  it('refuses an accent color below 4.5:1 against white, saying why', async () => {
    const answer = await patch({ accent_color: '#7a7a7a' });
    expect(answer.status).toBe(400);
    expect(answer.body.code).toBe('invalid_body');
    expect(answer.body.error).toMatch(
      /^accent_color #7a7a7a has a contrast ratio of 4\.\d\d:1 against white; at least 4\.5:1/,
    );
    expect((await patch({ accent_color: 'blue' })).status).toBe(400);
  });

  it('sets and clears the accent color and the logo; face and form show them', async () => {
    const { token } = await sentOnboarding(service, tenant);
    const colored = await patch({ accent_color: '#1D4ED8' });
    expect(colored.status).toBe(200);
    expect(colored.body.team).toMatchObject({ accent_color: '#1d4ed8', has_logo: false });

    const withLogo = await patch({ logo: dataUrl('image/png', PNG) });
    expect(withLogo.status).toBe(200);
    expect(withLogo.body.team).toMatchObject({ accent_color: '#1d4ed8', has_logo: true });
    const team = (await face(token)).body.team;
    expect(team).toEqual({
      display_name: 'Northwind Advisors',
      accent_color: '#1d4ed8',
      logo_url: expect.stringMatching(new RegExp(`^/brand/${tenant.teamId}/logo\\?v=[0-9a-f]{12}$`)),
    });
    expect((await portal(service, token, 'GET')).body.team).toEqual(team);

    const logo = await fetch(`${service.url}${team.logo_url}`);
    expect(logo.status).toBe(200);
    expect(logo.headers.get('content-type')).toBe('image/png');
    expect(logo.headers.get('x-content-type-options')).toBe('nosniff');
    expect(logo.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(Buffer.from(await logo.arrayBuffer())).toEqual(PNG);
    const etag = logo.headers.get('etag')!;
    expect(etag).toMatch(/^"[0-9a-f]{64}"$/);
    const again = await fetch(`${service.url}/brand/${tenant.teamId}/logo`, {
      headers: { 'if-none-match': etag },
    });
    expect(again.status).toBe(304);
    expect(again.headers.get('cache-control')).toBe('no-cache');

    const cleared = await patch({ logo: null, accent_color: null });
    expect(cleared.body.team).toMatchObject({ accent_color: null, has_logo: false });
    expect((await face(token)).body.team).toEqual(northwind);
    expect((await fetch(`${service.url}/brand/${tenant.teamId}/logo`)).status).toBe(404);
    expect((await fetch(`${service.url}/brand/not-a-team/logo`)).status).toBe(404);
  });

  it('refuses logos that are not PNG, JPEG or WebP by their bytes, or too large', async () => {
    const gif = await patch({ logo: dataUrl('image/png', GIF) });
    expect(gif.status).toBe(400);
    expect(gif.body).toMatchObject({ code: 'invalid_body', error: 'logo must be a PNG, JPEG or WebP image' });
    const big = await patch({ logo: dataUrl('image/png', Buffer.concat([PNG, Buffer.alloc(256 * 1024)])) });
    expect(big.status).toBe(400);
    expect(big.body.error).toBe('logo is larger than 256 KiB');
    expect((await patch({ logo: 'https://example.com/logo.png' })).status).toBe(400);
    const team = await adminRequest(service, 'PATCH', `/teams/${tenant.teamId}`, { name: 'Northwind LLC' });
    expect(team.body.team.has_logo).toBe(false);
  });
});

describe('the per-IP portal limit', () => {
  it('counts face requests too', async () => {
    await advanceClock(service, 60); // a fresh one-minute window
    const token = randomBytes(32).toString('hex');
    let limited: Awaited<ReturnType<typeof face>> | undefined;
    for (let i = 0; i < 301 && !limited; i++) {
      const answer = await face(token);
      if (answer.status === 429) limited = answer;
    }
    expect(limited?.body).toMatchObject({ code: 'rate_limited' });
    expect(Number(limited?.headers.get('retry-after'))).toBeGreaterThan(0);
    await advanceClock(service, 60);
  });
});
