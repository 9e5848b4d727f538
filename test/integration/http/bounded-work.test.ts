import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_BODY_LIMIT, PUBLIC_API_BODY_LIMIT } from '../../../shared/http/body-limits.ts';
import { registeredRoutes, type RegisteredRoute } from '../../../shared/http/route-registry.ts';
import { TEMPLATE_BODY_LIMIT, TEMPLATE_LIMITS } from '../../../services/templates/template-limits.ts';
import { MAX_FILE_BYTES } from '../../../services/onboardings/onboarding-files.ts';
import { registerSecrets } from '../../helpers/run-log.ts';
import { ADMIN_TOKEN, startTestService, type TestService } from '../../helpers/service.ts';
import { createTenant, sentOnboarding, type Tenant } from '../portal-fixtures.ts';
import { Browser } from '../workspace-fixtures.ts';

/*
 * Bounded work per request (issue 26, point 1): for every write route of the service,
 * enumerated from the route table at run time (a new route is covered without a change
 * here), the largest refused body answers 4xx within a second and the largest accepted
 * body is read, while /healthz is polled every 10 ms and answers each poll within 100 ms,
 * and the event loop (perf_hooks, the service runs in this process) is never held for
 * 100 ms. The 20,000-field template save of the probe answers 400 within a second.
 */

let service: TestService;
let tenant: Tenant;
let portalToken: string;
let workspace: Browser;
const execFileAsync = promisify(execFile);

/** Signs a new owner up and in (whether sign-up itself opens a session or not). */
async function ownerBrowser(): Promise<Browser> {
  const email = `bounded-${randomUUID()}@example.com`;
  const password = `bounded work passphrase ${randomUUID()}`;
  registerSecrets(password);
  const browser = new Browser(service);
  const signUp = await browser.call('POST', '/workspace/v1/sign-up', {
    team_name: 'Bounded',
    name: 'Olive Owner',
    email,
    password,
  });
  expect(signUp.status).toBeLessThan(300);
  if (!browser.csrf) {
    const signIn = await browser.call('POST', '/workspace/v1/sessions', { email, password });
    expect(signIn.status).toBe(200);
  }
  expect(browser.csrf).not.toBe('');
  return browser;
}

beforeAll(async () => {
  bodyFiles = await mkdtemp(join(tmpdir(), 'bounded-work-'));
  service = await startTestService({ RATE_LIMITS: 'off' });
  tenant = await createTenant(service);
  ({ token: portalToken } = await sentOnboarding(service, tenant));
  workspace = await ownerBrowser();
}, 120_000);

afterAll(async () => {
  // What each request did to /healthz and the event loop (ms), for the record.
  console.table(measurements);
  await service?.stop();
  if (bodyFiles) await rm(bodyFiles, { recursive: true, force: true });
});

// ---------------------------------------------------------------------------------------
// Watching the event loop while a request runs
// ---------------------------------------------------------------------------------------

interface Watched<T> {
  result: T;
  /** Round trip of each /healthz poll, ms. */
  polls: number[];
  /** Longest event-loop delay seen, ms. */
  loopMaxMs: number;
}

/** Runs `work` while /healthz is polled every 10 ms and the event loop's delay is sampled. */
async function watched<T>(work: () => Promise<T>): Promise<Watched<T>> {
  const histogram = monitorEventLoopDelay({ resolution: 10 });
  const polls: number[] = [];
  let polling = true;
  histogram.enable();
  const poller = (async () => {
    while (polling) {
      const started = performance.now();
      const answer = await fetch(`${service.url}/healthz`);
      await answer.arrayBuffer();
      expect(answer.status).toBe(200);
      polls.push(performance.now() - started);
      await sleep(10);
    }
  })();
  try {
    await sleep(40); // a few polls before the work starts
    const result = await work();
    await sleep(40);
    return { result, polls, loopMaxMs: histogram.max / 1e6 };
  } finally {
    polling = false;
    await poller;
    histogram.disable();
  }
}

const ATTEMPTS = 4;
const measurements: Array<{ what: string; pollMs: number; loopMs: number; attempts: number }> = [];

/**
 * Runs `attempt` while /healthz is polled (./watched) until no poll took 100 ms and the
 * event loop was never held for 100 ms, at most ATTEMPTS times, and expects one such run.
 * Work that holds the loop does so on every run; a machine busy with other processes
 * delays a run now and then: a slow run is tried again, never a slow route excused.
 */
async function responsive<T>(what: string, attempt: (n: number) => Promise<T>): Promise<Watched<T>> {
  let watch: Watched<T> | undefined;
  for (let n = 1; n <= ATTEMPTS; n++) {
    watch = await watched(() => attempt(n));
    const [pollMs, loopMs] = [Math.max(...watch.polls), watch.loopMaxMs];
    if ((pollMs < 100 && loopMs < 100) || n === ATTEMPTS) {
      measurements.push({ what, pollMs: Math.round(pollMs), loopMs: Math.round(loopMs), attempts: n });
      break;
    }
  }
  expect(watch!.polls.length, `${what}: /healthz was polled`).toBeGreaterThanOrEqual(3);
  expect(Math.max(...watch!.polls), `${what}: slowest /healthz poll (ms)`).toBeLessThan(100);
  expect(watch!.loopMaxMs, `${what}: longest event-loop delay (ms)`).toBeLessThan(100);
  return watch!;
}

interface Sent {
  status: number;
  ms: number;
  body: unknown;
}

let bodyFiles: string;
let fileCount = 0;

/** Writes `content` to a file of its own (curl sends it from there). */
async function bodyFile(content: string | Buffer): Promise<string> {
  const path = join(bodyFiles, `body-${++fileCount}`);
  await writeFile(path, content);
  return path;
}

/**
 * One request sent by curl, in a process of its own: the bytes of a large body are then
 * neither built nor written by the process whose event loop is watched. `body` is a file
 * of JSON, or `{ upload }` a file sent as the multipart part `file`.
 */
async function send(
  method: string,
  path: string,
  body: string | { upload: string },
  headers: Record<string, string>,
): Promise<Sent> {
  const out = join(bodyFiles, `answer-${++fileCount}`);
  const args = ['-s', '-o', out, '-w', '%{http_code} %{time_total}', '-X', method];
  for (const [name, value] of Object.entries(headers)) args.push('-H', `${name}: ${value}`);
  if (typeof body === 'string') args.push('--data-binary', `@${body}`);
  else args.push('-F', `file=@${body.upload};type=text/plain;filename=scan.txt`);
  args.push(`${service.url}${path}`);
  const { stdout } = await execFileAsync('curl', args);
  const [status, seconds] = stdout.trim().split(' ');
  const text = await readFile(out, 'utf8').catch(() => '');
  let parsed: unknown = text;
  try {
    parsed = JSON.parse(text);
  } catch {
    // not JSON
  }
  return { status: Number(status), ms: Number(seconds) * 1000, body: parsed };
}

// ---------------------------------------------------------------------------------------
// Every write route
// ---------------------------------------------------------------------------------------

const WRITE_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

const writeRoutes = () =>
  registeredRoutes(service.app).filter(
    (route) => WRITE_METHODS.has(route.method) && !route.url.includes('/__test/'),
  );

const isUpload = (route: RegisteredRoute) => route.method === 'POST' && route.url.endsWith('/files');

/** The route's URL with its parameters filled in: the team, the portal link, else a new id. */
function pathOf(route: RegisteredRoute): string {
  return route.url.replace(/:([a-z_]+)/g, (_match, name: string) => {
    if (name === 'team_id') return tenant.teamId;
    if (name === 'token' && route.url.startsWith('/portal/')) return portalToken;
    if (name === 'field_id' && route.url.startsWith('/portal/')) return tenant.ids.fields.idDocument;
    return randomUUID();
  });
}

function headersOf(route: RegisteredRoute): Record<string, string> {
  const json = { 'content-type': 'application/json' };
  if (route.url.startsWith('/api/v1')) return { ...json, authorization: `Bearer ${tenant.apiKey}` };
  if (route.url.startsWith('/admin/v1')) return { ...json, authorization: `Bearer ${ADMIN_TOKEN}` };
  if (route.url.startsWith('/workspace/v1')) {
    return { ...json, cookie: workspace.cookie, 'x-csrf-token': workspace.csrf };
  }
  return json;
}

/**
 * A JSON object of exactly `bytes` bytes, of as many values as fit, in objects of 100 keys
 * (the most work per byte a body under the key limit gives the parser and the validators):
 * {"pad":[{"k0":0,...,"k99":0},...],"x":"xxx"}.
 */
function jsonOfSize(bytes: number): string {
  const object = `{${Array.from({ length: 100 }, (_, n) => `"k${n}":0`).join(',')}}`;
  const objects: string[] = [];
  let size = '{"pad":[],"x":""}'.length;
  while (size + object.length + 1 < bytes) {
    objects.push(object);
    size += object.length + 1;
  }
  const head = `{"pad":[${objects.join(',')}],"x":"`;
  const text = `${head}${'x'.repeat(bytes - head.length - 2)}"}`;
  expect(Buffer.byteLength(text)).toBe(bytes);
  return text;
}

/** Routes that end the session the other requests use: their accepted bodies go last. */
const endsSession = (route: RegisteredRoute) =>
  route.url.startsWith('/workspace/v1/sessions') || route.url === '/workspace/v1/me/totp';

describe('every write route', () => {
  it('has a body limit of at most 1 MiB (uploads keep their file cap)', () => {
    const routes = writeRoutes();
    expect(routes.length).toBeGreaterThan(80);
    for (const route of routes) {
      expect(route.bodyLimit, `${route.method} ${route.url}`).toBeGreaterThan(0);
      expect(route.bodyLimit, `${route.method} ${route.url}`).toBeLessThanOrEqual(PUBLIC_API_BODY_LIMIT);
    }
    const limitOf = (method: string, url: string) =>
      routes.find((route) => route.method === method && route.url === url)?.bodyLimit;
    expect(limitOf('POST', '/api/v1/clients')).toBe(PUBLIC_API_BODY_LIMIT);
    expect(limitOf('POST', '/workspace/v1/templates')).toBe(TEMPLATE_BODY_LIMIT);
    expect(limitOf('POST', '/admin/v1/teams/:team_id/templates')).toBe(TEMPLATE_BODY_LIMIT);
    expect(limitOf('POST', '/workspace/v1/clients')).toBe(DEFAULT_BODY_LIMIT);
    expect(limitOf('POST', '/portal/v1/onboardings/:token/steps/:step_id/submit')).toBe(DEFAULT_BODY_LIMIT);
  });

  it('refuses its largest refused body with 4xx within a second while /healthz answers every poll', async () => {
    const routes = writeRoutes().filter((route) => !isUpload(route));
    const refused = new Map<number, string>();
    const answers: Array<{ route: string; sent: Sent }> = [];
    for (const route of routes) {
      const limit = route.bodyLimit!;
      if (!refused.has(limit)) refused.set(limit, await bodyFile(jsonOfSize(limit + 1)));
      const name = `${route.method} ${route.url}`;
      const watch = await responsive(`refused: ${name}`, () =>
        send(route.method, pathOf(route), refused.get(limit)!, headersOf(route)),
      );
      expect(watch.result.ms, name).toBeLessThan(1000);
      // 413, or a refusal before the body is read: a route that needs a fresh password
      // confirmation answers 403 reauthentication_required from its onRequest check.
      const code = (watch.result.body as { code?: string }).code;
      if (watch.result.status === 403) expect(code, name).toBe('reauthentication_required');
      else {
        expect(watch.result.status, name).toBe(413);
        expect(code, name).toBe('payload_too_large');
      }
      answers.push({ route: name, sent: watch.result });
    }
    expect(answers.length).toBe(routes.length);
  }, 300_000);

  it('reads its largest accepted body while /healthz answers every poll', async () => {
    const routes = writeRoutes()
      .filter((route) => !isUpload(route))
      .sort((a, b) => Number(endsSession(a)) - Number(endsSession(b)));
    const accepted = new Map<number, string>();
    for (const route of routes) {
      const limit = route.bodyLimit!;
      if (!accepted.has(limit)) accepted.set(limit, await bodyFile(jsonOfSize(limit)));
      const name = `${route.method} ${route.url}`;
      const watch = await responsive(`accepted: ${name}`, () =>
        send(route.method, pathOf(route), accepted.get(limit)!, headersOf(route)),
      );
      expect(watch.result.status, name).not.toBe(413);
      expect(watch.result.status, `${name}: ${JSON.stringify(watch.result.body)}`).toBeLessThan(500);
      expect(watch.result.ms, name).toBeLessThan(2000);
    }
    workspace = await ownerBrowser(); // the session routes above ended the session
  }, 300_000);

  it('uploads: the largest refused file answers 413, the largest accepted one is stored', async () => {
    const path = `/portal/v1/onboardings/${portalToken}/fields/${tenant.ids.fields.idDocument}/files`;
    const over = { upload: await bodyFile(Buffer.alloc(MAX_FILE_BYTES + 1, 'a')) };
    const at = { upload: await bodyFile(Buffer.alloc(MAX_FILE_BYTES, 'a')) };
    const tooBig = await responsive('upload over the cap', () => send('POST', path, over, {}));
    expect(tooBig.result.status).toBe(413);
    expect(tooBig.result.ms).toBeLessThan(1000);
    const largest = await responsive('upload at the cap', () => send('POST', path, at, {}));
    expect(largest.result.status).toBe(201);
  }, 60_000);
});

// ---------------------------------------------------------------------------------------
// Templates: the probe's 20,000 fields, and the largest template accepted
// ---------------------------------------------------------------------------------------

/** `count` short text fields in steps of `perStep`: about 40 bytes a field. */
function manyFields(count: number, perStep: number) {
  const steps = [];
  for (let s = 0; s * perStep < count; s++) {
    const fields = Array.from({ length: Math.min(perStep, count - s * perStep) }, () => ({
      type: 'short_text',
      label: '',
      sort_order: 0,
    }));
    steps.push({ title: `Step ${s}`, sort_order: s, fields });
  }
  return { name: 'Probe', steps };
}

/** A template at the caps: 50 steps, 1,000 fields (choices, rules, translations), near 512 KiB. */
function largestTemplate(withIds: boolean) {
  const ids: string[] = [];
  const steps = Array.from({ length: TEMPLATE_LIMITS.steps }, (_, s) => ({
    ...(withIds ? { id: randomUUID() } : {}),
    title: `Step ${s + 1}`,
    sort_order: s,
    translations: { 'de-DE': { title: `Schritt ${s + 1}` }, 'fr-FR': { title: `Étape ${s + 1}` } },
    fields: Array.from({ length: TEMPLATE_LIMITS.fields / TEMPLATE_LIMITS.steps }, (_, n) => {
      const id = randomUUID();
      const previous = ids.at(-1);
      ids.push(id);
      return {
        ...(withIds ? { id } : {}),
        type: 'dropdown',
        label: `Question ${s}.${n} ${'q'.repeat(8)}`,
        sort_order: n,
        is_required: n % 2 === 0,
        config: {
          help_text: 'h'.repeat(12),
          options: Array.from({ length: 4 }, (_, o) => ({ value: `o${o}`, label: `Option ${o}` })),
        },
        ...(withIds && previous
          ? { conditional_rules: { show_when: { field_id: previous, operator: 'is_not_empty' } } }
          : {}),
        translations: { 'de-DE': { label: `Frage ${n}` }, 'fr-FR': { label: `Question ${n}` } },
      };
    }),
  }));
  return { name: 'Largest accepted', description: 'd'.repeat(5000), steps };
}

describe('template saves', () => {
  const templateRoutes = () => [
    {
      method: 'POST',
      path: '/workspace/v1/templates',
      headers: headersOf({ url: '/workspace/v1' } as never),
    },
    {
      method: 'POST',
      path: `/admin/v1/teams/${tenant.teamId}/templates`,
      headers: headersOf({ url: '/admin/v1' } as never),
    },
    {
      method: 'POST',
      path: '/admin/v1/gallery-templates',
      headers: headersOf({ url: '/admin/v1' } as never),
    },
  ];

  it("the probe's 20,000-field save answers 4xx within a second, and creates nothing", async () => {
    const probeText = JSON.stringify(manyFields(20_000, 20_000));
    expect(Buffer.byteLength(probeText)).toBeLessThan(1024 * 1024); // the probe's body: under 1 MiB
    // The most fields the body limit lets through (about 11,000): the caps stop them.
    const most = Math.floor(TEMPLATE_BODY_LIMIT / (probeText.length / 20_000)) - 100;
    const underLimitText = JSON.stringify(manyFields(most, 200));
    expect(Buffer.byteLength(underLimitText)).toBeLessThan(TEMPLATE_BODY_LIMIT);
    expect(most).toBeGreaterThan(10 * TEMPLATE_LIMITS.fields);
    const oneStepText = JSON.stringify(manyFields(most, most));
    const [probe, underLimit, oneStep] = [
      await bodyFile(probeText),
      await bodyFile(underLimitText),
      await bodyFile(oneStepText),
    ];
    const before = await service.database.pool.query('select count(*)::int as n from templates');
    for (const route of templateRoutes()) {
      const name = `${route.method} ${route.path}`;
      for (const [body, status, words] of [
        [probe, 413, /too large/],
        [underLimit, 400, /A template holds at most 50 steps \(this one has \d+\)/],
        [oneStep, 400, /A step holds at most 200 fields \(step 1 has [\d,]+\)/],
      ] as const) {
        const watch = await responsive(`${name} ${status}`, () =>
          send(route.method, route.path, body, route.headers),
        );
        expect(watch.result.status, name).toBe(status);
        expect(watch.result.ms, name).toBeLessThan(1000);
        expect(JSON.stringify(watch.result.body), name).toMatch(words);
        expect(watch.result.body).toMatchObject({
          code: status === 413 ? 'payload_too_large' : 'invalid_body',
        });
      }
    }
    const created = await workspace.call('POST', '/workspace/v1/templates', manyFields(1001, 200));
    expect(created.status).toBe(400);
    expect(created.body.error).toBe('A template holds at most 1,000 fields in all (this one has 1,001)');
    const after = await service.database.pool.query('select count(*)::int as n from templates');
    expect(after.rows[0].n).toBe(before.rows[0].n);
  }, 60_000);

  it('a save over 512 KiB answers 413 within a second', async () => {
    const big = await bodyFile(JSON.stringify({ name: 'Big', description: 'd'.repeat(TEMPLATE_BODY_LIMIT) }));
    for (const route of templateRoutes()) {
      const watch = await responsive(`${route.path} over 512 KiB`, () =>
        send(route.method, route.path, big, route.headers),
      );
      expect(watch.result.status).toBe(413);
      expect(watch.result.ms).toBeLessThan(1000);
    }
  }, 60_000);

  it('the largest accepted template (every cap, near 512 KiB) is created and saved while /healthz answers', async () => {
    const definition = largestTemplate(true);
    const json = JSON.stringify(definition);
    expect(Buffer.byteLength(json)).toBeGreaterThan(0.75 * TEMPLATE_BODY_LIMIT);
    expect(Buffer.byteLength(json)).toBeLessThanOrEqual(TEMPLATE_BODY_LIMIT - 100);
    const [builder, operator] = templateRoutes();
    const text = await bodyFile(json);
    const created = await responsive('largest builder create', () =>
      send(builder!.method, builder!.path, text, builder!.headers),
    );
    expect(created.result.status, JSON.stringify(created.result.body).slice(0, 500)).toBe(201);
    const template = (created.result.body as { template: { id: string } }).template;
    // Each attempt saves the version the one before made.
    const saves = [
      await bodyFile(JSON.stringify({ ...definition, version: 1 })),
      await bodyFile(JSON.stringify({ ...definition, version: 2 })),
      await bodyFile(JSON.stringify({ ...definition, version: 3 })),
    ];
    const saved = await responsive('largest builder save', (n) =>
      send('PUT', `/workspace/v1/templates/${template.id}`, saves[n - 1]!, builder!.headers),
    );
    expect(saved.result.status).toBe(200);
    const plain = await bodyFile(JSON.stringify(largestTemplate(false)));
    const byOperator = await responsive('largest operator create', () =>
      send(operator!.method, operator!.path, plain, operator!.headers),
    );
    expect(byOperator.result.status).toBe(201);
  }, 120_000);
});
