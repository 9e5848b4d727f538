/**
 * `npm run demo`: makes a real form to open in a browser on a running service. It creates
 * a team, an API key, the sample template with every field type (services/templates/sample-form.ts),
 * a client and an onboarding through the operator and public APIs, sends it with a PIN, and
 * prints the client's link and PIN on stdout (never in the service's log).
 *
 *   ADMIN_TOKEN=dev npm start                      # in one terminal
 *   ADMIN_TOKEN=dev npm run demo -- --locale de-DE # in another
 *
 * Options: --url (default PUBLIC_URL or http://127.0.0.1:3000), --locale (default en-US),
 * --date-format (default the locale's usual one), --pin (default a random 6-digit PIN;
 * --pin none sends without one).
 */
import { randomInt } from 'node:crypto';
import { parseArgs } from 'node:util';
import { SAMPLE_FORM } from '../templates/sample-form.ts';

const USUAL_DATE_FORMAT: Record<string, string> = {
  'en-US': 'MM/DD/YYYY',
  'en-GB': 'DD/MM/YYYY',
  'es-ES': 'DD/MM/YYYY',
  'fr-FR': 'DD/MM/YYYY',
  'de-DE': 'DD.MM.YYYY',
  'pt-BR': 'DD/MM/YYYY',
  'it-IT': 'DD/MM/YYYY',
  'nl-NL': 'DD/MM/YYYY',
  'ja-JP': 'YYYY-MM-DD',
};

const { values } = parseArgs({
  options: {
    url: { type: 'string', default: process.env.PUBLIC_URL ?? 'http://127.0.0.1:3000' },
    locale: { type: 'string', default: 'en-US' },
    'date-format': { type: 'string' },
    pin: { type: 'string' },
  },
});

const base = values.url.replace(/\/$/, '');
const adminToken = process.env.ADMIN_TOKEN;
if (!adminToken) {
  process.stderr.write('Set ADMIN_TOKEN to the running service’s ADMIN_TOKEN (e.g. ADMIN_TOKEN=dev).\n');
  process.exit(2);
}

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

async function main() {
  const locale = values.locale;
  const pin = values.pin === 'none' ? null : (values.pin ?? String(randomInt(0, 1_000_000)).padStart(6, '0'));
  const { team } = await call<{ team: { id: string } }>('POST', '/admin/v1/teams', adminToken!, {
    name: 'Demo Accounting',
    plan: 'pro',
    email_sender_name: 'Demo Accounting',
    locale,
    timezone: 'Europe/Berlin',
    date_format: values['date-format'] ?? USUAL_DATE_FORMAT[locale] ?? 'MM/DD/YYYY',
  });
  const { secret } = await call<{ secret: string }>(
    'POST',
    `/admin/v1/teams/${team.id}/api-keys`,
    adminToken!,
    {
      name: 'demo',
      scopes: ['clients:write', 'onboardings:write', 'onboardings:read'],
    },
  );
  const { template } = await call<{ template: { id: string } }>(
    'POST',
    `/admin/v1/teams/${team.id}/templates`,
    adminToken!,
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
    adminToken!,
  );
  process.stdout.write(`Open the client's form: ${link.url}\n`);
  if (pin) process.stdout.write(`PIN: ${pin}\n`);
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
