/**
 * OpenTelemetry traces: the service's own entry point as a child process with
 * OTEL_EXPORTER_OTLP_ENDPOINT set, exporting to a real OTLP/HTTP receiver in this process.
 */
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../helpers/database.ts';
import { startOtlpReceiver, type OtlpReceiver, type ReceivedSpan } from '../../helpers/otlp-receiver.ts';
import { startServiceProcess, type ServiceProcess } from '../../helpers/service-process.ts';
import {
  selfSignedCertificate,
  startHttpsReceiver,
  type HttpsReceiver,
} from '../../helpers/https-receiver.ts';
import { ADMIN_TOKEN } from '../../helpers/service.ts';
import { apiRequest, createTeamWithKey, createTemplate } from '../../helpers/tenant.ts';

let database: TestDatabase;
let receiver: OtlpReceiver;
let service: ServiceProcess;
let hooks: HttpsReceiver;
let certDir: string;

beforeAll(async () => {
  [database, receiver, hooks] = await Promise.all([
    createTestDatabase(),
    startOtlpReceiver(),
    startHttpsReceiver(),
  ]);
  certDir = await mkdtemp(path.join(tmpdir(), 'tracing-ca-'));
  const caFile = path.join(certDir, 'receiver.pem');
  await writeFile(caFile, (await selfSignedCertificate()).cert);
  service = await startServiceProcess({
    DATABASE_URL: database.url,
    ADMIN_TOKEN,
    LOG_LEVEL: 'info',
    HOOK_TARGET_ALLOWLIST: '127.0.0.1',
    NODE_EXTRA_CA_CERTS: caFile,
    OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
    OTEL_BSP_SCHEDULE_DELAY: '100',
  });
}, 60_000);

afterAll(async () => {
  await service?.stop();
  await Promise.all([receiver?.close(), hooks?.close()]);
  await database?.drop();
  if (certDir) await rm(certDir, { recursive: true, force: true });
});

const SERVER = 2;

async function spansOf(traceId: string, until: (spans: ReceivedSpan[]) => boolean): Promise<ReceivedSpan[]> {
  for (const deadline = Date.now() + 10_000; ;) {
    const spans = receiver.spans.filter((span) => span.traceId === traceId);
    if (until(spans)) return spans;
    if (Date.now() > deadline) {
      throw new Error(
        `spans of ${traceId}: ${JSON.stringify(spans, null, 1)}\nall: ${JSON.stringify(receiver.spans.map((s) => [s.traceId, s.name, s.scope]))}\n${service.output()}`,
      );
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe('tracing with OTEL_EXPORTER_OTLP_ENDPOINT', () => {
  it('continues the caller trace: a server span named by the route pattern, holding no token, and a pg span under it', async () => {
    const traceId = randomBytes(16).toString('hex');
    const callerSpan = randomBytes(8).toString('hex');
    const token = randomBytes(32).toString('hex'); // well formed, so the route looks it up
    const answer = await fetch(`${service.url}/portal/v1/onboardings/${token}?secret=${token}`, {
      headers: { traceparent: `00-${traceId}-${callerSpan}-01` },
    });
    expect(answer.status).toBe(404);
    await answer.text();

    const spans = await spansOf(
      traceId,
      (found) =>
        found.some((span) => span.kind === SERVER) &&
        found.some((span) => 'db.system.name' in span.attributes || 'db.system' in span.attributes),
    );
    const server = spans.find((span) => span.kind === SERVER)!;
    expect(server.parentSpanId).toBe(callerSpan);
    expect(server.name).toBe('GET /portal/v1/onboardings/:token');
    expect(server.attributes['http.route']).toBe('/portal/v1/onboardings/:token');
    expect(server.attributes['url.path']).toBe('/portal/v1/onboardings/:token');
    expect(server.attributes['http.response.status_code']).toBe(404);

    const query = spans.find((span) => span.scope.includes('pg') && span.parentSpanId === server.spanId);
    expect(query, JSON.stringify(spans, null, 1)).toBeDefined();

    // Nowhere in what was exported: not in an attribute, a span name or a query.
    for (const body of receiver.bodies) expect(body).not.toContain(token);

    // The request's log lines carry the trace id.
    const completed = service
      .output()
      .split('\n')
      .filter((line) => line.includes(`"trace_id":"${traceId}"`));
    expect(
      completed.some((line) => line.includes('request completed')),
      service.output(),
    ).toBe(true);
  });

  it('a request no route matches keeps neither its path nor its query', async () => {
    const traceId = randomBytes(16).toString('hex');
    const secret = randomBytes(12).toString('hex');
    await (
      await fetch(`${service.url}/no-route/${secret}?k=${secret}`, {
        headers: { traceparent: `00-${traceId}-${randomBytes(8).toString('hex')}-01` },
      })
    ).text();
    const [server] = await spansOf(traceId, (found) => found.some((span) => span.kind === SERVER));
    expect(server!.attributes['url.path']).toBe('unmatched');
    expect(server!.attributes['url.query']).toBeUndefined();
    for (const body of receiver.bodies) expect(body).not.toContain(secret);
  });

  it('a hook delivery carries a traceparent header naming its exported client span', async () => {
    const team = await createTeamWithKey(service, { plan: 'pro' });
    const template = await createTemplate(service, team.teamId);
    const post = (route: string, body: unknown) => apiRequest(service, team.apiKey, 'POST', route, { body });
    const target = `${hooks.url}/hooks/${team.teamId}`;
    expect(
      (await post('/automation/subscribe', { event: 'onboarding.sent', target_url: target })).status,
    ).toBe(201);
    const client = await post('/clients', { name: 'Traced Client', email: 'traced@example.com' });
    expect(client.status).toBe(201);
    const onboarding = await post('/onboardings', {
      template_id: template.id,
      client_id: client.body.client.id,
    });
    expect(onboarding.status).toBe(201);
    expect((await post(`/onboardings/${onboarding.body.onboarding.id}/send`, {})).status).toBe(200);

    await expect.poll(() => hooks.requests.length, { timeout: 20_000 }).toBeGreaterThan(0);
    const traceparent = String(hooks.requests[0]!.headers.traceparent);
    const [, traceId, spanId] = /^00-([0-9a-f]{32})-([0-9a-f]{16})-01$/.exec(traceparent) ?? [];
    expect(traceId, traceparent).toBeDefined();
    const spans = await spansOf(traceId!, (found) => found.some((span) => span.spanId === spanId));
    const outgoing = spans.find((span) => span.spanId === spanId)!;
    expect(outgoing.kind).toBe(3); // client
    expect(outgoing.attributes['http.request.method']).toBe('POST');
    expect(outgoing.attributes['server.address']).toBe('127.0.0.1');
    expect(outgoing.attributes['url.full']).toBeUndefined(); // the target's path may hold a secret
    for (const body of receiver.bodies) expect(body).not.toContain(`/hooks/${team.teamId}`);
  });
});
