import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../../helpers/service.ts';
import { addMember, adminHeaders, request, type HttpAnswer } from '../../helpers/tenant.ts';
import {
  createClient,
  createOnboarding,
  createTenant,
  portal,
  sentOnboarding,
  type Tenant,
} from '../portal-fixtures.ts';

/**
 * Hostile input for every write route: strings with NUL or unpaired surrogates, numbers
 * beyond int4 or not whole or not finite, and shapes (nesting deeper than the limit,
 * an array for the body) in the body, the path and the query. Whatever the route, the
 * answer is a 4xx and the event log does not move. Each route's valid request is
 * answered 2xx at the end, so the refusals come from the hostile part alone.
 */

const RUNS_PER_ROUTE = 25;

let service: TestService;
let tenant: Tenant;
let ids: {
  clientId: string;
  draftId: string;
  sentId: string;
  token: string;
  memberId: string;
  ruleId: string;
};

beforeAll(async () => {
  service = await startTestService({ RATE_LIMITS: 'off', HOOK_TARGET_ALLOWLIST: 'localhost' });
  tenant = await createTenant(service);
  const client = await createClient(service, tenant);
  const draft = await createOnboarding(service, tenant, client.id);
  const sent = await sentOnboarding(service, tenant);
  expect((await portal(service, sent.token, 'GET')).status).toBe(200); // in_progress: countersign applies
  const member = await addMember(service, tenant.teamId);
  const rule = await request(service, 'POST', `/admin/v1/teams/${tenant.teamId}/automation-rules`, {
    headers: adminHeaders,
    body: { name: 'Thanks', trigger: 'onboarding.completed', action: emailAction() },
  });
  expect(rule.status).toBe(201);
  ids = {
    clientId: client.id,
    draftId: draft.id,
    sentId: sent.onboardingId,
    token: sent.token,
    memberId: member.id,
    ruleId: rule.body.rule.id,
  };
});

afterAll(async () => {
  await service?.stop();
});

function emailAction() {
  return { type: 'send_email', subject: 'Thank you {{client_name}}', body: 'All done.' };
}

type Api = 'public' | 'admin' | 'portal';

interface WriteRoute {
  name: string;
  api: Api;
  method: string;
  /** The path after the API prefix, with valid ids. */
  path: () => string;
  /** A valid body. */
  body: () => Record<string, unknown>;
  /** Keys (dotted paths) holding numbers or typed scalars: hostile numbers go there. */
  typed?: string[];
  /** The status of the valid request. */
  ok: number;
}

const unique = () => Math.random().toString(36).slice(2, 10);

const ROUTES: WriteRoute[] = [
  {
    name: 'POST /api/v1/clients',
    api: 'public',
    method: 'POST',
    path: () => '/clients',
    body: () => ({
      name: 'Grace Hopper',
      email: `grace-${unique()}@example.com`,
      company: 'Navy',
      phone: '+1 555 0100',
      notes: 'COBOL',
      custom_fields: { ref: 'A-1', tags: ['x', 'y'], nested: { level: 'one' } },
    }),
    typed: ['name', 'email', 'company', 'timezone'],
    ok: 201,
  },
  {
    name: 'POST /api/v1/onboardings',
    api: 'public',
    method: 'POST',
    path: () => '/onboardings',
    body: () => ({ template_id: tenant.template.id, client_id: ids.clientId, due_date: '2030-01-31' }),
    typed: ['template_id', 'client_id', 'due_date', 'expires_at'],
    ok: 201,
  },
  {
    name: 'PATCH /api/v1/onboardings/:id',
    api: 'public',
    method: 'PATCH',
    path: () => `/onboardings/${ids.draftId}`,
    body: () => ({ due_date: '2031-02-28', assigned_to: ids.memberId }),
    typed: ['due_date', 'assigned_to', 'status'],
    ok: 200,
  },
  {
    name: 'POST /api/v1/onboardings/:id/send',
    api: 'public',
    method: 'POST',
    path: () => `/onboardings/${ids.draftId}/send`,
    body: () => ({ force: true, pin: null }),
    typed: ['force', 'pin'],
    ok: 200,
  },
  {
    name: 'POST /api/v1/automation/subscribe',
    api: 'public',
    method: 'POST',
    path: () => '/automation/subscribe',
    body: () => ({ event: 'onboarding.completed', target_url: 'https://localhost:9443/hook' }),
    typed: ['event', 'target_url'],
    ok: 201,
  },
  {
    name: 'PUT /portal/v1/onboardings/:token/answers/:field_id',
    api: 'portal',
    method: 'PUT',
    path: () => `/onboardings/${ids.token}/answers/${tenant.ids.fields.nickname}`,
    body: () => ({ value: 'Amazing Grace, 1, true' }),
    ok: 200,
  },
  {
    name: 'POST /portal/v1/onboardings/:token/fields/:field_id/signature',
    api: 'portal',
    method: 'POST',
    path: () => `/onboardings/${ids.token}/fields/${tenant.ids.fields.agreement}/signature`,
    body: () => ({ signer_name: 'Grace Hopper', signer_email: 'grace@example.com' }),
    typed: ['signer_name', 'signer_email'],
    ok: 201,
  },
  {
    name: 'POST /admin/v1/teams',
    api: 'admin',
    method: 'POST',
    path: () => '/teams',
    body: () => ({
      name: `Team ${unique()}`,
      plan: 'pro',
      monthly_onboarding_limit: 10,
      new_recipient_cap: 5,
    }),
    typed: ['name', 'plan', 'monthly_onboarding_limit', 'new_recipient_cap', 'sending_paused'],
    ok: 201,
  },
  {
    name: 'PATCH /admin/v1/teams/:team_id',
    api: 'admin',
    method: 'PATCH',
    path: () => `/teams/${tenant.teamId}`,
    body: () => ({ email_sender_name: 'Front desk', monthly_onboarding_limit: 500, new_recipient_cap: 50 }),
    typed: ['email_sender_name', 'monthly_onboarding_limit', 'new_recipient_cap', 'unpaid'],
    ok: 200,
  },
  {
    name: 'POST /admin/v1/teams/:team_id/members',
    api: 'admin',
    method: 'POST',
    path: () => `/teams/${tenant.teamId}/members`,
    body: () => ({ name: 'Ada', email: `ada-${unique()}@example.com`, role: 'admin' }),
    typed: ['name', 'email', 'role'],
    ok: 201,
  },
  {
    name: 'POST /admin/v1/teams/:team_id/api-keys',
    api: 'admin',
    method: 'POST',
    path: () => `/teams/${tenant.teamId}/api-keys`,
    body: () => ({ name: 'CI', scopes: ['clients:read'], expires_on: '2099-12-31' }),
    typed: ['name', 'expires_on'],
    ok: 201,
  },
  {
    name: 'POST /admin/v1/teams/:team_id/templates',
    api: 'admin',
    method: 'POST',
    path: () => `/teams/${tenant.teamId}/templates`,
    body: () => ({
      name: 'Intake',
      description: 'Basics',
      settings: { theme: 'plain' },
      steps: [
        {
          title: 'About',
          sort_order: 1,
          fields: [{ type: 'short_text', label: 'Name', sort_order: 2, config: { hint: 'full name' } }],
        },
      ],
    }),
    typed: ['name', 'steps.0.sort_order', 'steps.0.fields.0.sort_order', 'steps.0.fields.0.label'],
    ok: 201,
  },
  {
    name: 'POST /admin/v1/gallery-templates',
    api: 'admin',
    method: 'POST',
    path: () => '/gallery-templates',
    body: () => ({ name: 'Gallery intake', steps: [{ title: 'One', sort_order: 1, fields: [] }] }),
    typed: ['name', 'steps.0.sort_order'],
    ok: 201,
  },
  {
    name: 'POST /admin/v1/teams/:team_id/automation-rules',
    api: 'admin',
    method: 'POST',
    path: () => `/teams/${tenant.teamId}/automation-rules`,
    body: () => ({ name: 'Notify', trigger: 'signature.signed', action: emailAction(), enabled: true }),
    typed: ['name', 'trigger', 'enabled', 'action.subject'],
    ok: 201,
  },
  {
    name: 'PATCH /admin/v1/teams/:team_id/automation-rules/:rule_id',
    api: 'admin',
    method: 'PATCH',
    path: () => `/teams/${tenant.teamId}/automation-rules/${ids.ruleId}`,
    body: () => ({ name: 'Renamed', action: emailAction(), enabled: false }),
    typed: ['name', 'enabled', 'action.body'],
    ok: 200,
  },
  {
    name: 'POST /admin/v1/onboardings/:onboarding_id/payments',
    api: 'admin',
    method: 'POST',
    path: () => `/onboardings/${ids.sentId}/payments`,
    body: () => ({
      field_id: tenant.ids.fields.deposit,
      amount_cents: 5000,
      payment_intent_id: `pi_${unique()}`,
    }),
    typed: ['field_id', 'amount_cents', 'payment_intent_id'],
    ok: 201,
  },
  {
    name: 'POST /admin/v1/onboardings/:onboarding_id/countersign',
    api: 'admin',
    method: 'POST',
    path: () => `/onboardings/${ids.sentId}/countersign`,
    body: () => ({ field_id: tenant.ids.fields.agreement, member_id: ids.memberId }),
    typed: ['field_id', 'member_id'],
    ok: 201,
  },
];

const PREFIX: Record<Api, string> = { public: '/api/v1', admin: '/admin/v1', portal: '/portal/v1' };

function headersFor(api: Api): Record<string, string> {
  if (api === 'public')
    return { authorization: `Bearer ${tenant.apiKey}`, 'content-type': 'application/json' };
  if (api === 'admin') return adminHeaders;
  return { 'content-type': 'application/json' };
}

/** Sends a raw JSON text (so a number such as 1e400 reaches the server as written). */
function send(route: WriteRoute, path: string, rawBody: string): Promise<HttpAnswer> {
  return request(service, route.method, `${PREFIX[route.api]}${path}`, {
    headers: headersFor(route.api),
    body: rawBody,
  });
}

// ---- hostile values -------------------------------------------------------------

/** A string with a NUL or an unpaired surrogate that no neighbour can pair up. */
const hostileString = fc
  .tuple(
    fc.string({ maxLength: 8 }),
    fc.constantFrom('\u0000', '\ud800x', '\udbffx', 'x\udc00', 'x\udfff', '\u0000\ud83d'),
    fc.string({ maxLength: 8 }),
  )
  .map(([before, poison, after]) => `${before}${poison}${after}`);

/** Stands for a number JSON.stringify cannot write; replaced in the raw text. */
const INFINITE = '__non_finite_number__';

const hostileNumber = fc.oneof(
  fc.constantFrom(2147483648, -2147483649, 1e20, -1e20, Number.MAX_SAFE_INTEGER * 4, 1.5, -0.25, INFINITE),
  fc.double({ min: 2147483648, max: 1e300, noNaN: true }),
  fc.constantFrom('NaN', 'Infinity', '-1e999'),
);

function deeplyNested(depth: number, leaf: unknown): unknown {
  let value = leaf;
  for (let level = 0; level < depth; level++) value = level % 2 === 0 ? { next: value } : [value];
  return value;
}

type Mutation =
  | { kind: 'value'; at: number; value: unknown }
  | { kind: 'number'; at: number; value: unknown }
  | { kind: 'key'; at: number; key: string }
  | { kind: 'deep'; at: number; depth: number }
  | { kind: 'array-body' }
  | { kind: 'path'; segment: number; poison: string }
  | { kind: 'query'; poison: string };

const mutation: fc.Arbitrary<Mutation> = fc.oneof(
  fc.record({ kind: fc.constant('value' as const), at: fc.nat(), value: hostileString }),
  fc.record({ kind: fc.constant('number' as const), at: fc.nat(), value: hostileNumber }),
  fc.record({ kind: fc.constant('key' as const), at: fc.nat(), key: hostileString }),
  fc.record({ kind: fc.constant('deep' as const), at: fc.nat(), depth: fc.integer({ min: 40, max: 80 }) }),
  fc.constant({ kind: 'array-body' as const }),
  fc.record({
    kind: fc.constant('path' as const),
    segment: fc.nat(),
    poison: fc.constantFrom('%00', '%ED%A0%80', 'a%00b', '%F0%9F'),
  }),
  fc.record({ kind: fc.constant('query' as const), poison: fc.constantFrom('%00', 'x%00y', 'a%00') }),
);

/** Every path to a value inside `value` (objects and arrays included), as key lists. */
function pathsIn(value: unknown, prefix: (string | number)[] = []): (string | number)[][] {
  if (value === null || typeof value !== 'object') return [prefix];
  const entries = Array.isArray(value)
    ? value.map((item, index) => [index, item] as const)
    : Object.entries(value);
  return [prefix, ...entries.flatMap(([key, item]) => pathsIn(item, [...prefix, key]))];
}

function setAt(root: Record<string, unknown>, path: (string | number)[], value: unknown): void {
  let target = root as Record<string | number, unknown>;
  for (const key of path.slice(0, -1)) target = target[key] as Record<string | number, unknown>;
  target[path[path.length - 1]!] = value;
}

function objectsIn(value: unknown): Record<string, unknown>[] {
  return pathsIn(value)
    .map((path) => path.reduce<unknown>((at, key) => (at as Record<string | number, unknown>)[key], value))
    .filter(
      (at): at is Record<string, unknown> => at !== null && typeof at === 'object' && !Array.isArray(at),
    );
}

/** The hostile request: path and raw body text. */
function hostileRequest(route: WriteRoute, change: Mutation): { path: string; body: string } {
  const body = route.body();
  let path = route.path();
  const leaves = pathsIn(body).filter((at) => at.length > 0);
  switch (change.kind) {
    case 'value':
      setAt(body, leaves[change.at % leaves.length]!, change.value);
      break;
    case 'number': {
      const typed = (route.typed ?? []).map((dotted) =>
        dotted.split('.').map((part) => (/^\d+$/.test(part) ? Number(part) : part)),
      );
      // Free JSON (an answer value) takes any finite number: only a non-finite one is hostile there.
      if (typed.length === 0) setAt(body, leaves[change.at % leaves.length]!, INFINITE);
      else setAt(body, typed[change.at % typed.length]!, change.value);
      break;
    }
    case 'key': {
      const objects = objectsIn(body);
      objects[change.at % objects.length]![change.key] = 'value';
      break;
    }
    case 'deep':
      setAt(body, leaves[change.at % leaves.length]!, deeplyNested(change.depth, 'leaf'));
      break;
    case 'array-body':
      return { path, body: JSON.stringify([body]) };
    case 'path': {
      const segments = path.split('/');
      const index = 1 + (change.segment % (segments.length - 1));
      segments[index] = `${segments[index]}${change.poison}`;
      path = segments.join('/');
      break;
    }
    case 'query':
      path = `${path}?note=${change.poison}`;
      break;
  }
  return { path, body: JSON.stringify(body).replaceAll(`"${INFINITE}"`, '1e400') };
}

describe('hostile input on every write route', () => {
  it.each(ROUTES.map((route) => [route.name, route] as const))(
    '%s: every hostile request answers 4xx and appends nothing',
    async (_name, route) => {
      await fc.assert(
        fc.asyncProperty(mutation, async (change) => {
          const { path, body } = hostileRequest(route, change);
          const before = await service.context.eventStore.headPosition();
          const answer = await send(route, path, body);
          const after = await service.context.eventStore.headPosition();
          const what = `${route.method} ${path} ${body.slice(0, 300)} -> ${answer.status} ${JSON.stringify(answer.body)}`;
          expect(answer.status, what).toBeGreaterThanOrEqual(400);
          expect(answer.status, what).toBeLessThan(500);
          expect(after, what).toBe(before);
        }),
        { numRuns: RUNS_PER_ROUTE, seed: 20_261_123, endOnFailure: true },
      );
    },
  );

  it.each(ROUTES.map((route) => [route.name, route] as const))(
    '%s: the same request without the hostile part succeeds',
    async (_name, route) => {
      const answer = await send(route, route.path(), JSON.stringify(route.body()));
      expect(answer.status, JSON.stringify(answer.body)).toBe(route.ok);
    },
  );
});
