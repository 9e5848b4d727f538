/**
 * GET /metrics (Prometheus text format, parsed here with a real parser) after some API
 * traffic, who may read it, and /readyz when a projection is stuck.
 */
import parsePrometheusTextFormat from 'parse-prometheus-text-format';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../../helpers/service.ts';
import { request } from '../../helpers/tenant.ts';
import { createTenant, drain, portal, sentOnboarding, type Tenant } from '../portal-fixtures.ts';

interface Sample {
  labels?: Record<string, string>;
  value?: string;
  count?: string;
  sum?: string;
  buckets?: Record<string, string>;
}
interface Family {
  name: string;
  type: string;
  metrics: Sample[];
}

const METRICS_TOKEN = 'metrics-token-for-tests';

let service: TestService;
let tenant: Tenant;
let token: string;

async function scrapeText(
  target: TestService = service,
  headers: Record<string, string> = {},
): Promise<string> {
  const answer = await fetch(`${target.url}/metrics`, { headers });
  expect(answer.status).toBe(200);
  expect(answer.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
  return answer.text();
}

async function scrape(
  target: TestService = service,
  headers: Record<string, string> = {},
): Promise<Family[]> {
  return parsePrometheusTextFormat(await scrapeText(target, headers)) as Family[];
}

/**
 * The series of a labelled histogram: the parser merges a histogram's label sets into one
 * sample, so the family is parsed once more as untyped, where `<name>_count`, `_sum` and
 * `_bucket` keep their labels.
 */
function histogramSeries(text: string, name: string): { count: Family; sum: Family; bucket: Family } {
  const untyped = parsePrometheusTextFormat(
    text.replace(`# TYPE ${name} histogram`, `# TYPE ${name} untyped`),
  ) as Family[];
  // Label sets alternate (buckets, sum, count of one, then the next): gather each part.
  const part = (suffix: string): Family => ({
    name: `${name}_${suffix}`,
    type: 'UNTYPED',
    metrics: untyped
      .filter((candidate) => candidate.name === `${name}_${suffix}`)
      .flatMap((candidate) => candidate.metrics),
  });
  return { count: part('count'), sum: part('sum'), bucket: part('bucket') };
}

function family(families: Family[], name: string, type: string): Family {
  const found = families.find((candidate) => candidate.name === name);
  expect(found, name).toBeDefined();
  expect(found!.type).toBe(type);
  return found!;
}

const value = (sample: Sample | undefined) => Number(sample?.value ?? 0);
const find = (found: Family, labels: Record<string, string>) =>
  found.metrics.find((sample) =>
    Object.entries(labels).every(([key, want]) => sample.labels?.[key] === want),
  );

beforeAll(async () => {
  service = await startTestService({ RATE_LIMITS: 'off', TRUST_PROXY: 'on' });
  tenant = await createTenant(service);
  const sent = await sentOnboarding(service, tenant);
  token = sent.token;
  expect((await portal(service, token, 'GET', '')).status).toBe(200);
  expect((await request(service, 'GET', '/api/v1/no-such-route')).status).toBe(404);
  await drain(service);
});

afterAll(async () => {
  await service?.stop();
});

describe('GET /metrics', () => {
  it('counts requests by route pattern and status, with latency histograms; a URL token is never a label', async () => {
    const text = await scrapeText();
    const families = parsePrometheusTextFormat(text) as Family[];
    const requests = family(families, 'http_requests_total', 'COUNTER');
    const portalRoute = { method: 'GET', route: '/portal/v1/onboardings/:token', status_code: '200' };
    const portalCount = value(find(requests, portalRoute));
    expect(portalCount).toBeGreaterThanOrEqual(1);
    expect(value(find(requests, { route: 'unmatched', status_code: '404' }))).toBeGreaterThanOrEqual(1);
    family(families, 'http_request_duration_seconds', 'HISTOGRAM');
    const latency = histogramSeries(text, 'http_request_duration_seconds');
    expect(value(find(latency.count, portalRoute))).toBe(portalCount);
    expect(value(find(latency.sum, portalRoute))).toBeGreaterThan(0);
    expect(value(find(latency.bucket, { ...portalRoute, le: '+Inf' }))).toBe(portalCount);
    expect(text).not.toContain(token);
    expect(text).not.toContain('no-such-route');
  });

  it('times event store appends', async () => {
    const text = await scrapeText();
    const name = 'onboarding_event_store_append_duration_seconds';
    family(parsePrometheusTextFormat(text) as Family[], name, 'HISTOGRAM');
    const appends = histogramSeries(text, name);
    const total = appends.count.metrics.reduce((sum, sample) => sum + value(sample), 0);
    expect(total).toBeGreaterThanOrEqual(3); // team, template, client, onboarding, send, ...
    for (const sample of appends.count.metrics) expect(sample.labels?.store).toBe('postgres');
    expect(appends.sum.metrics.reduce((sum, sample) => sum + value(sample), 0)).toBeGreaterThan(0);
  });

  it('shows every projection, log consumer and their lag in events and seconds (caught up after a drain)', async () => {
    const families = await scrape();
    for (const name of ['onboarding_checkpoint_lag_events', 'onboarding_checkpoint_lag_seconds']) {
      const lags = family(families, name, 'GAUGE');
      for (const projection of service.context.projections.projectionNames) {
        expect(value(find(lags, { checkpoint: projection, kind: 'projection' })), projection).toBe(0);
      }
      const consumers = lags.metrics.filter((sample) => sample.labels?.kind === 'consumer');
      expect(consumers.length).toBeGreaterThanOrEqual(1);
      for (const consumer of consumers) expect(value(consumer)).toBe(0);
    }
  });

  it('shows depth and oldest age of every work queue, and delivery outcomes', async () => {
    const families = await scrape();
    const depth = family(families, 'onboarding_queue_depth', 'GAUGE');
    const age = family(families, 'onboarding_queue_oldest_age_seconds', 'GAUGE');
    for (const queue of ['hooks', 'webhooks', 'automation', 'mail', 'timers']) {
      expect(value(find(depth, { queue })), queue).toBeGreaterThanOrEqual(0);
      expect(value(find(age, { queue })), queue).toBeGreaterThanOrEqual(0);
    }
    const outcomes = family(families, 'onboarding_deliveries', 'GAUGE');
    // The invitation was sent, or waits in the mail queue.
    const mails =
      value(find(depth, { queue: 'mail' })) + value(find(outcomes, { queue: 'mail', outcome: 'sent' }) ?? {});
    expect(mails).toBeGreaterThanOrEqual(1);
  });

  it('a waiting mail ages on the service clock', async () => {
    await service.database.pool.query(
      `insert into mail_outbox (id, team_id, kind, "to", from_name, subject, text, created_at, status)
       values (gen_random_uuid(), $1, 'test', 'x@example.com', 'x', 's', 't', $2, 'queued')`,
      [tenant.teamId, new Date(service.clock.now().getTime() - 90_000)],
    );
    const families = await scrape();
    expect(
      value(find(family(families, 'onboarding_queue_depth', 'GAUGE'), { queue: 'mail' })),
    ).toBeGreaterThanOrEqual(1);
    expect(
      value(find(family(families, 'onboarding_queue_oldest_age_seconds', 'GAUGE'), { queue: 'mail' })),
    ).toBeGreaterThanOrEqual(90);
  });

  it('without METRICS_TOKEN answers loopback clients only (404 to others)', async () => {
    const remote = await fetch(`${service.url}/metrics`, { headers: { 'x-forwarded-for': '203.0.113.9' } });
    expect(remote.status).toBe(404);
  });
});

describe('with METRICS_TOKEN and a readiness lag limit of 1 second', () => {
  let guarded: TestService;
  beforeAll(async () => {
    guarded = await startTestService({ METRICS_TOKEN, READY_MAX_LAG_SECONDS: '1' });
  });
  afterAll(async () => {
    await guarded?.stop();
  });

  it('/metrics needs the bearer token', async () => {
    const missing = await fetch(`${guarded.url}/metrics`);
    expect(missing.status).toBe(401);
    expect(await missing.json()).toMatchObject({ code: 'metrics_token_invalid' });
    const wrong = await fetch(`${guarded.url}/metrics`, {
      headers: { authorization: 'Bearer wrong-token-value' },
    });
    expect(wrong.status).toBe(401);
    await scrape(guarded, { authorization: `Bearer ${METRICS_TOKEN}` });
  });

  it('/readyz answers 503 with the reason while a projection is stuck, and 200 once it moves again', async () => {
    expect((await fetch(`${guarded.url}/readyz`)).status).toBe(200);
    // The projection's checkpoint row stays locked: its runner waits on it, as on a hung batch.
    const blocker = await guarded.database.pool.connect();
    try {
      await blocker.query('begin');
      await blocker.query(`select 1 from checkpoints where name = 'clients' for update`);
      // An event no projection reads still moves every checkpoint, once the batch can commit.
      await guarded.context.eventStore.append(
        `test-${Date.now()}`,
        [{ type: 'test.ticked', data: {} }],
        'any',
      );
      await new Promise((resolve) => setTimeout(resolve, 2200));
      const stuck = await fetch(`${guarded.url}/readyz`);
      expect(stuck.status).toBe(503);
      const body = (await stuck.json()) as { status: string; stuck: unknown[]; reason: string };
      expect(body.status).toBe('not_ready');
      expect(body.stuck).toContainEqual(
        expect.objectContaining({
          checkpoint: 'clients',
          kind: 'projection',
          behind_events: expect.any(Number),
        }),
      );
      expect(body.reason).toMatch(/projection clients is \d+ s behind the event log/);
      const metrics = await scrape(guarded, { authorization: `Bearer ${METRICS_TOKEN}` });
      const lag = find(family(metrics, 'onboarding_checkpoint_lag_seconds', 'GAUGE'), {
        checkpoint: 'clients',
      });
      expect(value(lag)).toBeGreaterThan(1);
    } finally {
      await blocker.query('rollback');
      blocker.release();
    }
    await guarded.context.projections.waitForPosition(await guarded.context.eventStore.headPosition());
    expect((await fetch(`${guarded.url}/readyz`)).status).toBe(200);
  });
});
