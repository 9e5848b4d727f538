import { SCOPES } from '../../services/access/contract/scopes.ts';

export interface Tenant {
  teamId: string;
  apiKey: string;
  templateId: string;
  clientId: string;
}

async function call(url: string, token: string, method: string, path: string, body?: unknown) {
  const response = await fetch(`${url}${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  if (response.status >= 300) throw new Error(`${method} ${path}: ${response.status} ${text}`);
  return JSON.parse(text) as any;
}

/**
 * A tenant for the load test, made as an operator would (operator-and-portal-api.md): a
 * Business team (unlimited onboardings), an API key with every scope, a template of one
 * step with three fields, and one client made through the public API.
 */
export async function provisionTenant(url: string, adminToken: string): Promise<Tenant> {
  const { team } = await call(url, adminToken, 'POST', '/admin/v1/teams', {
    name: 'Bench team',
    plan: 'business',
  });
  const key = await call(url, adminToken, 'POST', `/admin/v1/teams/${team.id}/api-keys`, {
    name: 'bench',
    scopes: [...SCOPES],
  });
  const { template } = await call(url, adminToken, 'POST', `/admin/v1/teams/${team.id}/templates`, {
    name: 'Client intake',
    vertical: 'accounting',
    steps: [
      {
        title: 'About you',
        sort_order: 1,
        fields: [
          { type: 'short_text', label: 'Legal name', sort_order: 1, is_required: true },
          { type: 'short_text', label: 'Tax number', sort_order: 2, is_required: true },
          { type: 'short_text', label: 'Preferred contact time', sort_order: 3 },
        ],
      },
    ],
  });
  const { client } = await call(url, key.secret, 'POST', '/api/v1/clients', {
    name: 'Ada Lovelace',
    email: 'ada@example.com',
  });
  return { teamId: team.id, apiKey: key.secret, templateId: template.id, clientId: client.id };
}
