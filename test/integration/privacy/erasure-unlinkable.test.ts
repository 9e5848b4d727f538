import { execFile } from 'node:child_process';
import { createHash, randomUUID } from 'node:crypto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { KafkaRelay } from '../../../services/events/kafka-relay.ts';
import { startKafkaRelay } from '../../../services/events/start-relay.ts';
import { createLogger } from '../../../shared/logging/logger.ts';
import { tablesHolding } from '../../helpers/personal-data.ts';
import { isolatedStream, readTopic, testBrokers, type ReceivedMessage } from '../../helpers/kafka-topic.ts';
import { startTestService, type TestService } from '../../helpers/service.ts';
import { Browser, signUp } from '../workspace-fixtures.ts';

/*
 * Issue 26, finding 6: nothing linkable after erasure. A client's email leaves no unkeyed
 * digest anywhere: not in `npm run events:export`, not in a Kafka message (key, value or
 * header), not in any table, not in a log line; not before its erasure and not after.
 * The digests looked for: sha256, sha1 and md5 of the address as typed, trimmed and
 * lower-cased, in hex (either case), base64 and base64url. Events of old logs (streams
 * `client_email-<team>-<sha256(email)>`, an email_hash field) leave the service without
 * the digest, though the stored log keeps it (docs/decisions/0016).
 */

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const TYPED = '  Zebulon.Unlinkable@Erasure.Example ';
const CHANGED = 'zeb.second@erasure.example';
const LEGACY = 'legacy.address@erasure.example';

/** Every obvious unkeyed digest of an address. */
function digestsOf(address: string): string[] {
  const variants = new Set([address, address.trim(), address.toLowerCase(), address.trim().toLowerCase()]);
  const found = new Set<string>();
  for (const variant of variants) {
    for (const algorithm of ['sha256', 'sha1', 'md5']) {
      const digest = createHash(algorithm).update(variant, 'utf8').digest();
      found.add(digest.toString('hex'));
      found.add(digest.toString('base64'));
      found.add(digest.toString('base64url'));
      found.add(digest.toString('base64').replace(/=+$/, ''));
    }
  }
  return [...found];
}

const holdsAny = (digests: string[], text: string) =>
  digests.filter((digest) => text.toLowerCase().includes(digest.toLowerCase()));

let service: TestService;
let owner: Browser;
let folder: string;
let logFile: string;
let relay: KafkaRelay;
const brokers = testBrokers();
const { topic } = isolatedStream();
const digests = [...digestsOf(TYPED), ...digestsOf(CHANGED)];
let clientId: string;

function exportCli(): Promise<string> {
  const { DATABASE_URL: _url, EVENTSTORE_URL: _es, DATA_DIR: _dir, ...inherited } = process.env;
  return new Promise((resolve, reject) => {
    execFile(
      path.join(ROOT, 'node_modules/.bin/tsx'),
      ['services/app/cli/export-cli.ts'],
      { cwd: ROOT, env: { ...inherited, DATABASE_URL: service.database.url }, maxBuffer: 64 * 1024 * 1024 },
      (error, stdout, stderr) => (error ? reject(new Error(`${error.message}\n${stderr}`)) : resolve(stdout)),
    );
  });
}

/** Every message of the topic once the relay has published the whole log, as text. */
async function kafkaText(): Promise<{ text: string; messages: ReceivedMessage[] }> {
  const head = await service.context.eventStore.headPosition();
  expect(await relay.waitForPosition(head, 30_000)).toBe(true);
  const count = (await service.context.eventStore.readAll({ after: 0n, limit: 100_000 })).length;
  const messages = await readTopic(brokers, topic, (received) => received.length >= count, 30_000);
  expect(messages.length).toBeGreaterThanOrEqual(count);
  const text = messages
    .map((message) => JSON.stringify([message.key, message.value, message.headers]))
    .join('\n');
  return { text, messages };
}

/** Where a digest of `needles` is found: export, Kafka, tables, the service's log. */
async function whereFound(needles: string[]) {
  const exported = await exportCli();
  const { text: kafka } = await kafkaText();
  return {
    exportLines: exported.split('\n').filter(Boolean).length,
    export: holdsAny(needles, exported),
    kafka: holdsAny(needles, kafka),
    tables: await tablesHolding(service.database.pool, needles),
    logLines: (await readFile(logFile, 'utf8')).split('\n').length,
    log: holdsAny(needles, await readFile(logFile, 'utf8')),
  };
}

beforeAll(async () => {
  folder = await mkdtemp(path.join(tmpdir(), 'unlinkable-'));
  logFile = path.join(folder, 'service.log');
  const logger = createLogger('debug', pino.destination({ dest: logFile, sync: true }));
  service = await startTestService({ RATE_LIMITS: 'off' }, { logger });
  // The relay as a worker runs it with KAFKA_BROKERS set, on this service's log.
  relay = startKafkaRelay(
    { ...service.context, settings: { ...service.context.settings, KAFKA_BROKERS: brokers } },
    { KAFKA_TOPIC: topic },
  )!;
  ({ owner } = await signUp(service, 'unlinkable-owner@example.com', 'a long unlinkable passphrase'));
  const created = await owner.call('POST', '/workspace/v1/clients', {
    name: 'Zebulon Unlinkable',
    email: TYPED,
    company: 'Quartermaine Holdings',
  });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  clientId = created.body.client.id;
  // The same address again (the uniqueness path), then a change of email.
  expect(
    (await owner.call('POST', '/workspace/v1/clients', { name: 'Other', email: TYPED.trim() })).status,
  ).toBe(409);
  const changed = await owner.call('PATCH', `/workspace/v1/clients/${clientId}`, { email: CHANGED });
  expect(changed.status, JSON.stringify(changed.body)).toBe(200);
  expect(
    (await owner.call('GET', `/workspace/v1/clients?q=${encodeURIComponent('zeb.second')}`)).body.data,
  ).toHaveLength(1);
}, 120_000);

afterAll(async () => {
  await relay?.stop();
  await service?.stop();
  await rm(folder, { recursive: true, force: true });
});

describe('an erased client leaves nothing linkable', { timeout: 180_000 }, () => {
  it('the checks find a digest where one is (so they can fail)', () => {
    const line = JSON.stringify({
      stream_id: `client_email-t-${createHash('sha256').update(CHANGED).digest('hex')}`,
    });
    expect(holdsAny(digests, line)).not.toEqual([]);
    const b64 = createHash('sha256').update(TYPED.trim().toLowerCase()).digest('base64url');
    expect(holdsAny(digests, `key=${b64}`)).not.toEqual([]);
  });

  it('before the erasure: no unkeyed digest of the email in the export, Kafka, any table or the log', async () => {
    const found = await whereFound(digests);
    expect(found.exportLines).toBeGreaterThan(3);
    expect(found.logLines).toBeGreaterThan(10);
    expect(found).toMatchObject({ export: [], kafka: [], tables: [], log: [] });
    // The email index and the search index hold keyed rows for the client now.
    const rows = await service.database.pool.query(
      `select (select count(*)::int from client_email_index where client_id = $1) as emails,
              (select count(*)::int from client_search_tokens where client_id = $1) as tokens`,
      [clientId],
    );
    expect(rows.rows[0]).toEqual({ emails: 1, tokens: expect.any(Number) });
    expect(rows.rows[0].tokens).toBeGreaterThan(5);
  });

  it('after the erasure: none either, and no keyed row of the client is left', async () => {
    const erased = await owner.call('POST', `/workspace/v1/clients/${clientId}/erase`);
    expect(erased.status, JSON.stringify(erased.body)).toBe(200);
    const found = await whereFound(digests);
    expect(found).toMatchObject({ export: [], kafka: [], tables: [], log: [] });
    const rows = await service.database.pool.query(
      `select (select count(*)::int from client_email_index where client_id = $1) as emails,
              (select count(*)::int from client_search_tokens where client_id = $1) as tokens,
              (select count(*)::int from client_search_documents where client_id = $1) as documents,
              (select count(*)::int from clients where id = $1 and email_hash is not null) as blind`,
      [clientId],
    );
    expect(rows.rows[0]).toEqual({ emails: 0, tokens: 0, documents: 0, blind: 0 });
    // The address is free again for a new client.
    const again = await owner.call('POST', '/workspace/v1/clients', { name: 'New', email: CHANGED });
    expect(again.status).toBe(201);
  });

  it('events of an old log go out without their digest; the stored log keeps it', async () => {
    const teamId = randomUUID();
    const legacyClient = randomUUID();
    const sha = createHash('sha256').update(LEGACY).digest('hex');
    await service.context.eventStore.append(
      `client_email-${teamId}-${sha}`,
      [
        {
          type: 'client_email.reserved',
          data: { team_id: teamId, email_hash: sha, client_id: legacyClient },
          metadata: { command_id: randomUUID() },
        },
      ],
      'no_stream',
    );
    const found = await whereFound(digestsOf(LEGACY));
    expect(found.export).toEqual([]);
    expect(found.kafka).toEqual([]);
    // What an operator with the database still has: the old stream id in the events table.
    expect(found.tables.length).toBeGreaterThan(0);
    const { messages } = await kafkaText();
    expect(messages.map((message) => message.key)).toContain(`client_email-${teamId}-${legacyClient}`);
  });
});
