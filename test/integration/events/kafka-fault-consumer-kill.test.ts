import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { KafkaRelay } from '../../../services/events/kafka-relay.ts';
import { createKafka } from '../../../shared/subscriptions/kafka.ts';
import { startHttpsReceiver, type HttpsReceiver } from '../../helpers/https-receiver.ts';
import { isolatedStream, testBrokers } from '../../helpers/kafka-topic.ts';
import { startKafkaWorker, type KafkaWorker } from '../../helpers/kafka-worker.ts';
import type { TestService } from '../../helpers/service.ts';
import { startSmtpServer, type SmtpTestServer } from '../../helpers/smtp.ts';
import { apiRequest } from '../../helpers/tenant.ts';
import {
  advance,
  completeOnboarding,
  createRule,
  minutes,
  startOutboundService,
} from '../automation-fixtures.ts';
import { createTenant } from '../onboardings-fixtures.ts';

/*
 * Two instances of the service's consumers (hook deliveries, automation rules) share each
 * Kafka consumer group, each in a process of its own; one is killed with SIGKILL while
 * events stream in. The survivor takes over its partitions after the session timeout and
 * starts from the last committed offsets, so it sees some events again: the dedupe rows
 * (processed_events, written in the same transaction as the effect) make each one count
 * once. This process runs the API, the relay and the due passes (the HTTP and mail work).
 */

const brokers = testBrokers();
const ONBOARDINGS = 24;
let smtp: SmtpTestServer;
let receiver: HttpsReceiver;
let service: TestService;
let relay: KafkaRelay;
const workers: KafkaWorker[] = [];
let workerEnv: Record<string, string>;

beforeAll(async () => {
  const stream = isolatedStream();
  [smtp, receiver] = await Promise.all([startSmtpServer(), startHttpsReceiver()]);
  service = await startOutboundService({ SMTP_URL: smtp.url });
  // The consumers of this process stop: only the two worker processes handle events.
  await service.context.consumers.stop();
  relay = new KafkaRelay(
    service.database.pool,
    service.context.eventStore,
    createKafka(brokers, 'test-relay'),
    {
      topic: stream.topic,
      partitions: 6,
    },
  );
  relay.start();
  await relay.started; // the topic exists (6 partitions) before the groups subscribe
  workerEnv = {
    DATABASE_URL: service.database.url,
    KAFKA_BROKERS: brokers.join(','),
    KAFKA_TOPIC: stream.topic,
    KAFKA_GROUP_PREFIX: stream.groupPrefix,
    KAFKA_SESSION_TIMEOUT_MS: '6000',
    HOOK_TARGET_ALLOWLIST: '127.0.0.1,localhost',
    PUBLIC_URL: 'https://forms.example.com',
  };
  workers.push(...(await Promise.all([0, 1].map(() => startKafkaWorker('consumers', workerEnv)))));
});

afterAll(async () => {
  await Promise.all(workers.map((worker) => worker.kill()));
  await relay?.stop();
  await service?.stop();
  await Promise.all([smtp?.close(), receiver?.close()]);
});

const count = async (sql: string) =>
  Number((await service.database.pool.query<{ n: string }>(sql)).rows[0]!.n);

describe('a consumer instance killed mid-stream (SIGKILL, Apache Kafka broker)', { timeout: 110_000 }, () => {
  test('every hook delivery and automation run happens once, none is lost, no email is doubled', async () => {
    const tenant = await createTenant(service);
    const subscribed = await apiRequest(service, tenant.apiKey, 'POST', '/automation/subscribe', {
      body: { event: 'onboarding.sent', target_url: `${receiver.url}/hook` },
    });
    expect(subscribed.status, JSON.stringify(subscribed.body)).toBe(201);
    await createRule(service, tenant.teamId, {
      name: 'Thank',
      trigger: 'onboarding.completed',
      action: { type: 'send_email', subject: 'Done', body: 'Thank you' },
    });
    await createRule(service, tenant.teamId, {
      name: 'Tell the CRM',
      trigger: 'onboarding.completed',
      action: { type: 'send_webhook', url: `${receiver.url}/rule` },
    });

    // Load; the first worker dies as soon as a third of the hook deliveries are queued.
    let killedAt: number | undefined;
    let loadFailed = false;
    const killer = (async () => {
      for (let waited = 0; waited < 60_000 && killedAt === undefined && !loadFailed; waited += 50) {
        const queued = await count('select count(*) as n from hook_deliveries');
        if (queued >= ONBOARDINGS / 3) {
          await workers[0]!.kill();
          killedAt = queued;
        }
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    })();
    const onboardingIds: string[] = [];
    try {
      for (let index = 0; index < ONBOARDINGS; index++) {
        onboardingIds.push((await completeOnboarding(service, tenant)).onboardingId);
      }
    } catch (error) {
      loadFailed = true;
      throw error;
    }
    await killer;
    expect(killedAt, 'killed mid-stream').toBeLessThan(ONBOARDINGS);

    // The survivor takes over: every event gets its delivery and its runs, once (unique keys hold that too).
    await expect
      .poll(
        async () => [
          await count('select count(*) as n from hook_deliveries'),
          await count('select count(*) as n from automation_runs'),
        ],
        { timeout: 45_000, interval: 200 },
      )
      .toEqual([ONBOARDINGS, 2 * ONBOARDINGS]);

    // The HTTP and mail work runs here, on the passes due by the service clock (the workers
    // queued by the system clock: this one is moved past it).
    service.clock.set(new Date(Date.now() + minutes(1) * 1000));
    await expect
      .poll(
        async () => {
          await advance(service, minutes(5));
          return [
            receiver.requests.filter((request) => request.path === '/hook').length,
            receiver.requests.filter((request) => request.path === '/rule').length,
            smtp.messages.filter((mail) => mail.subject === 'Done').length,
          ];
        },
        { timeout: 30_000, interval: 200 },
      )
      .toEqual([ONBOARDINGS, ONBOARDINGS, ONBOARDINGS]);
    await advance(service, minutes(5));

    const hooks = receiver.requests.filter((request) => request.path === '/hook');
    const rules = receiver.requests.filter((request) => request.path === '/rule');
    expect(hooks).toHaveLength(ONBOARDINGS);
    expect(rules).toHaveLength(ONBOARDINGS);
    expect(new Set(hooks.map((request) => request.headers['webhook-id'])).size).toBe(ONBOARDINGS);
    expect(new Set(rules.map((request) => request.headers['idempotency-key'])).size).toBe(ONBOARDINGS);
    expect(new Set(hooks.map((request) => request.json().data.onboarding_id))).toEqual(
      new Set(onboardingIds),
    );
    expect(smtp.messages.filter((mail) => mail.subject === 'Done')).toHaveLength(ONBOARDINGS);
    // Each event handled once per consumer, whichever instance handled it.
    const handled = await service.database.pool.query<{ consumer: string; n: string }>(
      `select consumer, count(*) as n from processed_events
       where consumer in ('hook-deliveries', 'automation-rules') group by consumer order by consumer`,
    );
    expect(handled.rows.map((row) => row.consumer)).toEqual(['automation-rules', 'hook-deliveries']);
  });
});
