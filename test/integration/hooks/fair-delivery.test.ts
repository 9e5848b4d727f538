import https from 'node:https';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { HOOK_ENDPOINT_LANES } from '../../../services/hooks/hook-deliveries.ts';
import { WEBHOOK_ENDPOINT_LANES } from '../../../services/automation/automation-queue.ts';
import {
  selfSignedCertificate,
  startHttpsReceiver,
  type HttpsReceiver,
} from '../../helpers/https-receiver.ts';
import type { TestService } from '../../helpers/service.ts';
import { adminRequest, apiRequest } from '../../helpers/tenant.ts';
import {
  advance,
  completeOnboarding,
  createRule,
  drain,
  minutes,
  START,
  startOutboundService,
} from '../automation-fixtures.ts';
import { createOnboarding, createTenant, sendOnboarding, type Tenant } from '../onboardings-fixtures.ts';

/*
 * Fair delivery: one team's dead endpoint (a host that accepts connections and never
 * answers, so every request waits for the outbound time-out) delays only its own work.
 * Another team's hook deliveries and Send webhook runs go out within a few seconds, while
 * the dead endpoint never has more than its few requests in flight.
 */

const BACKLOG = 300;
const FEW_SECONDS_MS = 3_000;

/** A TCP endpoint that accepts connections and never says a word (no TLS handshake, no answer). */
interface DeadEndpoint {
  url: string;
  connections: number;
  mostAtOnce: number;
  close(): Promise<void>;
}

async function startDeadEndpoint(): Promise<DeadEndpoint> {
  const sockets = new Set<net.Socket>();
  const endpoint: DeadEndpoint = { url: '', connections: 0, mostAtOnce: 0, close: async () => undefined };
  const server = net.createServer((socket) => {
    sockets.add(socket);
    endpoint.connections++;
    endpoint.mostAtOnce = Math.max(endpoint.mostAtOnce, sockets.size);
    socket.on('error', () => undefined);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  endpoint.url = `https://127.0.0.1:${(server.address() as AddressInfo).port}`;
  endpoint.close = () =>
    new Promise((resolve) => {
      for (const socket of sockets) socket.destroy();
      server.close(() => resolve());
    });
  return endpoint;
}

async function within<T>(ms: number, look: () => T | undefined): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const found = look();
    if (found !== undefined) return found;
    if (Date.now() > deadline) throw new Error(`nothing within ${ms} ms`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

let service: TestService | undefined;
let dead: DeadEndpoint | undefined;
let receiver: HttpsReceiver | undefined;
let draining: Promise<void> | undefined;

afterEach(async () => {
  // Closing the dead endpoint ends its hanging requests, so the drain in flight settles.
  await dead?.close();
  await draining;
  await receiver?.close();
  await service?.stop();
  service = dead = receiver = draining = undefined;
});

async function subscribe(tenant: Tenant, url: string): Promise<string> {
  const answer = await apiRequest(service!, tenant.apiKey, 'POST', '/automation/subscribe', {
    body: { event: 'onboarding.sent', target_url: url },
  });
  expect(answer.status, JSON.stringify(answer.body)).toBe(201);
  return answer.body.id;
}

describe('fair delivery', () => {
  it(`a team's ${BACKLOG} hook deliveries to a dead endpoint do not hold up another team's: they arrive within seconds`, async () => {
    service = await startOutboundService();
    dead = await startDeadEndpoint();
    receiver = await startHttpsReceiver();

    const slow = await createTenant(service);
    const slowSubscription = await subscribe(slow, `${dead.url}/hooks`);
    // The backlog, queued as the hook-deliveries consumer queues deliveries.
    await service.database.pool.query(
      `insert into hook_deliveries
         (id, subscription_id, team_id, event_id, event_type, target_url, body, state,
          next_attempt_at, created_at, updated_at)
       select gen_random_uuid(), $1, $2, gen_random_uuid(), 'onboarding.sent', $3, '{}', 'pending', $4, $4, $4
       from generate_series(1, $5)`,
      [slowSubscription, slow.teamId, `${dead.url}/hooks`, START, BACKLOG],
    );
    const other = await createTenant(service);
    await subscribe(other, `${receiver.url}/other`);

    draining = drain(service);
    await within(5_000, () => (dead!.connections > 0 ? true : undefined));
    const started = Date.now();
    const { id } = await createOnboarding(service, other);
    expect((await sendOnboarding(service, other, id)).status).toBe(200);
    const delivered = await within(FEW_SECONDS_MS, () =>
      receiver!.requests.find((request) => request.path === '/other'),
    );
    expect(Date.now() - started).toBeLessThan(FEW_SECONDS_MS);
    expect(delivered.json()).toMatchObject({ event: 'onboarding.sent', data: { onboarding_id: id } });
    expect(dead.mostAtOnce).toBeLessThanOrEqual(HOOK_ENDPOINT_LANES);

    // The dead endpoint's probes time out and it rests: the drain ends without working
    // through the backlog, which keeps its place for later passes.
    await draining;
    const { rows } = await service.database.pool.query<{ state: string; attempts: number; n: number }>(
      `select state, attempts, count(*)::int as n from hook_deliveries where team_id = $1
       group by state, attempts order by attempts`,
      [slow.teamId],
    );
    expect(rows).toEqual([
      { state: 'pending', attempts: 0, n: BACKLOG - dead.connections },
      { state: 'retrying', attempts: 1, n: dead.connections },
    ]);
    expect(dead.connections).toBeLessThanOrEqual(HOOK_ENDPOINT_LANES);
    const rest = await service.database.pool.query(
      'select failures, resting_until from hook_endpoint_backoffs where team_id = $1',
      [slow.teamId],
    );
    expect(rest.rows).toEqual([{ failures: 1, resting_until: new Date(START.getTime() + 5_000) }]);
  }, 60_000);

  it(`a team's ${BACKLOG} Send webhook runs to a dead endpoint do not hold up another team's run of the same pass`, async () => {
    service = await startOutboundService();
    dead = await startDeadEndpoint();
    receiver = await startHttpsReceiver();

    const slow = await createTenant(service);
    await createRule(service, slow.teamId, {
      name: 'Tell the dead CRM',
      trigger: 'onboarding.completed',
      action: { type: 'send_webhook', url: `${dead.url}/crm` },
    });
    await completeOnboarding(service, slow);
    await drain(service);
    // The backlog: copies of the queued run for other trigger events, queued before the other team's.
    await service.database.pool.query(
      `insert into automation_runs
         (id, rule_id, team_id, rule_name, trigger, event_id, onboarding_id, action, request_body,
          state, attempts, next_attempt_at, queued_at, updated_at)
       select gen_random_uuid(), rule_id, team_id, rule_name, trigger, gen_random_uuid(), onboarding_id,
              action, request_body, state, attempts, next_attempt_at, queued_at, updated_at
       from automation_runs, generate_series(2, $2)
       where team_id = $1`,
      [slow.teamId, BACKLOG],
    );
    const other = await createTenant(service);
    await createRule(service, other.teamId, {
      name: 'Tell the CRM',
      trigger: 'onboarding.completed',
      action: { type: 'send_webhook', url: `${receiver.url}/crm` },
    });
    await completeOnboarding(service, other);
    await drain(service);
    expect(receiver.requests).toHaveLength(0);

    expect((await adminRequest(service, 'POST', '/clock/advance', { seconds: minutes(5) })).status).toBe(200);
    const started = Date.now();
    draining = drain(service);
    await within(FEW_SECONDS_MS, () => receiver!.requests.find((request) => request.path === '/crm'));
    expect(Date.now() - started).toBeLessThan(FEW_SECONDS_MS);
    expect(dead.connections).toBeGreaterThan(0);
    expect(dead.mostAtOnce).toBeLessThanOrEqual(WEBHOOK_ENDPOINT_LANES);
  }, 60_000);
  it('a refusing endpoint rests between rounds of probes; once it answers, its backlog flows again', async () => {
    service = await startOutboundService();
    const port = await freePort();
    const url = `https://127.0.0.1:${port}/hooks`;
    const tenant = await createTenant(service);
    const subscription = await subscribe(tenant, url);
    await service.database.pool.query(
      `insert into hook_deliveries
         (id, subscription_id, team_id, event_id, event_type, target_url, body, state,
          next_attempt_at, created_at, updated_at)
       select gen_random_uuid(), $1, $2, gen_random_uuid(), 'onboarding.sent', $3, '{}', 'pending', $4, $4, $4
       from generate_series(1, 20)`,
      [subscription, tenant.teamId, url, START],
    );
    const attempted = async () =>
      (
        await service!.database.pool.query<{ n: number }>(
          'select count(*)::int as n from hook_delivery_attempts a join hook_deliveries d on d.id = a.delivery_id where d.team_id = $1',
          [tenant.teamId],
        )
      ).rows[0]!.n;
    const rest = async () =>
      (
        await service!.database.pool.query(
          'select failures, resting_until from hook_endpoint_backoffs where team_id = $1',
          [tenant.teamId],
        )
      ).rows;

    await drain(service);
    expect(await attempted()).toBe(HOOK_ENDPOINT_LANES);
    expect(await rest()).toEqual([{ failures: 1, resting_until: new Date(START.getTime() + 5_000) }]);
    await advance(service, 4);
    expect(await attempted()).toBe(HOOK_ENDPOINT_LANES);
    await advance(service, 1);
    expect(await attempted()).toBe(2 * HOOK_ENDPOINT_LANES);
    expect(await rest()).toEqual([{ failures: 2, resting_until: new Date(START.getTime() + 15_000) }]);

    const answering = await answerOn(port);
    try {
      await advance(service, 10);
      expect(await rest()).toEqual([]);
      const { rows } = await service.database.pool.query(
        'select state, count(*)::int as n from hook_deliveries where team_id = $1 group by state',
        [tenant.teamId],
      );
      expect(rows).toEqual([{ state: 'delivered', n: 20 }]);
      expect(answering.received).toBe(20);
    } finally {
      await answering.close();
    }
  });
});

async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** An HTTPS endpoint on `port` that answers 200 to everything. */
async function answerOn(port: number) {
  const { key, cert } = await selfSignedCertificate();
  const answering = { received: 0, close: async () => undefined as void };
  const server = https.createServer({ key, cert }, (request, response) => {
    answering.received++;
    request.resume();
    response.end();
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  answering.close = () =>
    new Promise((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return answering;
}
