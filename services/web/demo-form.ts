/**
 * A real form to open in a browser on a running service (`npm run demo`, tests): a team,
 * an API key, the sample template with every field type (services/templates/sample-form.ts),
 * a client and an onboarding due in 14 days, made through the operator and public APIs and
 * sent, by default with a random PIN. Answers the client's link and the PIN.
 */
import { randomInt } from 'node:crypto';
import { SAMPLE_FORM } from '../templates/sample-form.ts';
import { DEFAULT_DATE_FORMAT, isLocale, USUAL_DATE_FORMAT } from '../../shared/i18n/locales.ts';

export interface DemoOptions {
  /** Base URL of the running service. */
  url: string;
  adminToken: string;
  locale: string;
  /** Default: the locale's usual format. */
  dateFormat?: string;
  /** Six digits, null for a link without PIN; default a random PIN. */
  pin?: string | null;
}

export interface DemoForm {
  link: string;
  pin: string | null;
  teamId: string;
  onboardingId: string;
}

export async function createDemoForm(options: DemoOptions): Promise<DemoForm> {
  const base = options.url.replace(/\/$/, '');
  async function call<T>(method: string, path: string, token: string, body?: unknown): Promise<T> {
    const response = await fetch(`${base}${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${text}`);
    return JSON.parse(text) as T;
  }
  const { locale, adminToken } = options;
  const pin = options.pin === undefined ? String(randomInt(0, 1_000_000)).padStart(6, '0') : options.pin;
  const { team } = await call<{ team: { id: string } }>('POST', '/admin/v1/teams', adminToken, {
    name: 'Demo Accounting',
    plan: 'pro',
    email_sender_name: 'Demo Accounting',
    locale,
    timezone: 'Europe/Berlin',
    date_format: options.dateFormat ?? (isLocale(locale) ? USUAL_DATE_FORMAT[locale] : DEFAULT_DATE_FORMAT),
  });
  const { secret } = await call<{ secret: string }>(
    'POST',
    `/admin/v1/teams/${team.id}/api-keys`,
    adminToken,
    {
      name: 'demo',
      scopes: ['clients:write', 'onboardings:write', 'onboardings:read'],
    },
  );
  const { template } = await call<{ template: { id: string } }>(
    'POST',
    `/admin/v1/teams/${team.id}/templates`,
    adminToken,
    SAMPLE_FORM,
  );
  const { client } = await call<{ client: { id: string } }>('POST', '/api/v1/clients', secret, {
    name: 'Sam Client',
    email: `sam.client+${Date.now()}@example.com`,
    locale,
  });
  const dueOn = new Date(Date.now() + 14 * 86_400_000).toISOString().slice(0, 10);
  const { onboarding } = await call<{ onboarding: { id: string } }>('POST', '/api/v1/onboardings', secret, {
    template_id: template.id,
    client_id: client.id,
    due_date: dueOn,
  });
  await call('POST', `/api/v1/onboardings/${onboarding.id}/send`, secret, pin ? { pin } : {});
  const link = await call<{ url: string | null }>(
    'GET',
    `/admin/v1/onboardings/${onboarding.id}/link`,
    adminToken,
  );
  if (!link.url) throw new Error('the service gave no link for the sent onboarding');
  return { link: link.url, pin, teamId: team.id, onboardingId: onboarding.id };
}
