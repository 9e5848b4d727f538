import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { Writable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { allProjections } from '../../../services/app/projections.ts';
import type { Projection } from '../../../shared/projections/projection.ts';
import { ProjectionRunner } from '../../../shared/projections/runner.ts';
import { clientStream } from '../../../services/clients/client-events.ts';
import type { Logger } from '../../../shared/logging/logger.ts';
import { tablesHolding } from '../../helpers/personal-data.ts';
import { startTestService, TEST_PERSONAL_DATA_KEK, type TestService } from '../../helpers/service.ts';
import {
  adminRequest,
  apiRequest,
  createTeamWithKey,
  request,
  type TeamWithKey,
} from '../../helpers/tenant.ts';

/**
 * The whole service with an event no projection code can apply in the log: a client whose
 * (sealed) name holds a NUL character and whose custom fields are not JSON (the clients
 * projection stores them as jsonb), appended straight through the event store port as
 * an older version of the service could have accepted it, and a test projection with a
 * bug for one event type. Both are parked; every team's writes and reads go on; /readyz,
 * the operator routes and `npm run rebuild` report them; nothing of the name reaches a
 * table or a log line; a retry after the fix applies the event and clears it.
 */

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

let service: TestService;
let teamA: TeamWithKey;
let teamB: TeamWithKey;
const logLines: string[] = [];
const needle = `Hopper${randomUUID().slice(0, 6)}`;
const buggy = { fixed: false, name: `buggy_${randomUUID().slice(0, 8)}` };
let poisonClient: { id: string; eventId: string; position: bigint };
let poisonTest: { eventId: string; position: bigint };

/** Fails on every `test.poison` event until fixed: a bug in a projection's code. */
const buggyProjection: Projection = {
  name: buggy.name,
  tables: [],
  async apply(_client, events) {
    if (!buggy.fixed && events.some((event) => event.type === 'test.poison')) {
      throw new Error('projection bug: cannot read the test event');
    }
  },
};

function capturingLogger(): Logger {
  const stream = new Writable({
    write(chunk, _encoding, done) {
      logLines.push(String(chunk));
      done();
    },
  });
  return pino({ level: 'debug' }, stream) as unknown as Logger;
}

/**
 * A client.created whose name, once opened, holds a NUL character and whose custom fields
 * are not JSON, appended as a command would.
 */
async function appendPoisonClient(teamId: string) {
  const clientId = randomUUID();
  const vault = service.context.vault;
  const seal = (value: string | null) => vault.seal(teamId, clientId, value);
  const email = `grace.${needle.toLowerCase()}@example.com`;
  const appended = await service.context.eventStore.append(
    clientStream(clientId),
    [
      {
        type: 'client.created',
        data: {
          client_id: clientId,
          team_id: teamId,
          name: await seal(`Grace ${needle}\u0000Hopper`),
          email: await seal(email),
          company: null,
          phone: null,
          notes: null,
          // Read models keep sealed values as they are (the NUL stays sealed), so what the
          // clients projection cannot store is custom fields that are not JSON, written plain
          // as a buggy older writer could have left them.
          custom_fields: '{"note": "unfinished',
          locale: 'en-US',
          date_format: 'MM/DD/YYYY',
          timezone: 'UTC',
          created_at: service.clock.now().toISOString(),
        },
      },
    ],
    'no_stream',
  );
  const [event] = await service.context.eventStore.readStream(clientStream(clientId));
  return { id: clientId, eventId: event!.id, position: appended.position };
}

const createClient = (team: TeamWithKey, name: string) =>
  apiRequest(service, team.apiKey, 'POST', '/clients', {
    body: { name, email: `${randomUUID().slice(0, 8)}@example.com` },
  });

function runRebuildCli() {
  const { DATABASE_URL: _url, EVENTSTORE_URL: _es, DATA_DIR: _dir, ...inherited } = process.env;
  return new Promise<{ code: number; stderr: string }>((resolve) => {
    execFile(
      path.join(ROOT, 'node_modules/.bin/tsx'),
      ['services/app/cli/rebuild-cli.ts'],
      {
        cwd: ROOT,
        env: { ...inherited, DATABASE_URL: service.database.url, PERSONAL_DATA_KEK: TEST_PERSONAL_DATA_KEK },
        maxBuffer: 10 * 1024 * 1024,
      },
      (error, _stdout, stderr) => resolve({ code: error ? Number(error.code ?? 1) : 0, stderr }),
    );
  });
}

beforeAll(async () => {
  service = await startTestService({ RATE_LIMITS: 'off' });
  // The same runner as the service's, with the buggy test projection and a log to read.
  await service.context.projections.stop();
  service.context.projections = new ProjectionRunner(
    service.database.pool,
    service.context.eventStore,
    [...allProjections, buggyProjection],
    capturingLogger(),
  );
  await service.context.projections.start();
  teamA = await createTeamWithKey(service);
  teamB = await createTeamWithKey(service);
  expect((await createClient(teamA, 'Before The Poison')).status).toBe(201);

  poisonClient = await appendPoisonClient(teamA.teamId);
  const appended = await service.context.eventStore.append(
    `test-${randomUUID()}`,
    [{ type: 'test.poison', data: { note: 'no personal data' } }],
    'no_stream',
  );
  // The global log shows an event once every earlier transaction has committed: wait for it.
  let eventId: string | undefined;
  for (let tries = 0; eventId === undefined && tries < 200; tries++) {
    if (tries > 0) await new Promise((resolve) => setTimeout(resolve, 25));
    const [event] = await service.context.eventStore.readAll({ after: appended.position - 1n, limit: 1 });
    eventId = event?.id;
  }
  expect(eventId).toBeDefined();
  poisonTest = { eventId: eventId!, position: appended.position };
});
afterAll(async () => {
  await service?.stop();
});

describe('an event a projection cannot apply', () => {
  it('is parked without holding read-your-writes: the checkpoint passes it at once', async () => {
    const startedAt = performance.now();
    expect(await service.context.projections.waitForPosition(poisonTest.position, 4000)).toBe(true);
    expect(service.context.projections.checkpoint >= poisonClient.position).toBe(true);
    expect(performance.now() - startedAt).toBeLessThan(4000);
  });

  it("holds no team's writes: both teams create and read clients at once, the clients projection included", async () => {
    for (const team of [teamB, teamA]) {
      const startedAt = performance.now();
      const created = await createClient(team, 'After The Poison');
      expect(created.status).toBe(201);
      expect(performance.now() - startedAt).toBeLessThan(2000);
      const read = await apiRequest(service, team.apiKey, 'GET', `/clients/${created.body.client.id}`);
      expect(read.status).toBe(200);
      expect(read.body.client.name).toBe('After The Poison');
    }
    const listed = await apiRequest(service, teamA.apiKey, 'GET', '/clients');
    expect(listed.body.clients.map((client: { name: string }) => client.name).sort()).toEqual([
      'After The Poison',
      'Before The Poison',
    ]);
  });

  it('is listed by the operator route with projection, event and error, and no personal data', async () => {
    const answer = await adminRequest(service, 'GET', '/parked-events');
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({
      parked_events: [
        {
          projection: 'clients',
          event_id: poisonClient.eventId,
          position: String(poisonClient.position),
          event_type: 'client.created',
          error_code: '22P02',
          error_message: 'invalid input syntax for type json',
          attempts: 1,
          parked_at: expect.any(String),
          last_attempt_at: expect.any(String),
        },
        {
          projection: buggy.name,
          event_id: poisonTest.eventId,
          position: String(poisonTest.position),
          event_type: 'test.poison',
          error_code: null,
          error_message: 'projection bug: cannot read the test event',
          attempts: 1,
          parked_at: expect.any(String),
          last_attempt_at: expect.any(String),
        },
      ],
      total: 2,
    });
    const clientsOnly = await adminRequest(service, 'GET', '/parked-events?projection=clients&limit=5');
    expect(clientsOnly.body.parked_events.map((event: { event_id: string }) => event.event_id)).toEqual([
      poisonClient.eventId,
    ]);
    expect(clientsOnly.body.total).toBe(1);

    const unknown = await adminRequest(service, 'GET', '/parked-events?projection=nope');
    expect(unknown.status).toBe(400);
    expect(unknown.body).toMatchObject({ code: 'invalid_body', retryable: false });
    const withoutToken = await request(service, 'GET', '/admin/v1/parked-events');
    expect(withoutToken.status).toBe(401);
    expect(withoutToken.body.code).toBe('admin_token_invalid');
  });

  it('reaches no table and no log line with its personal data; the log warns of each parked event', async () => {
    expect(await tablesHolding(service.database.pool, [needle])).toEqual([]);
    const log = logLines.join('');
    expect(log).not.toContain(needle);
    const warnings = logLines.map((line) => JSON.parse(line)).filter((line) => line.level === 40);
    expect(warnings.map((line) => [line.projection, line.event_id, line.error_code])).toEqual([
      ['clients', poisonClient.eventId, '22P02'],
      [buggy.name, poisonTest.eventId, undefined],
    ]);
  });

  it('is counted by /readyz, which stays ready', async () => {
    const answer = await request(service, 'GET', '/readyz');
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({
      status: 'ready',
      database: 'ok',
      event_store: 'ok',
      parked_events: 2,
      parked_by_projection: { clients: 1, [buggy.name]: 1 },
    });
  });

  it('npm run rebuild finishes past it and reports it', async () => {
    const rebuilt = await runRebuildCli();
    expect(rebuilt.stderr).toContain('the new tables are live');
    expect(rebuilt.stderr).toContain('parked events: 1 (clients 1)');
    expect(rebuilt.stderr).toContain(
      `clients position ${poisonClient.position} event ${poisonClient.eventId} (client.created): 22P02 invalid input syntax for type json`,
    );
    expect(rebuilt.stderr).not.toContain(needle);
    expect(rebuilt.code).toBe(0);
    // The rebuilt tables serve as before, and the parked list is the rebuild's.
    const listed = await apiRequest(service, teamA.apiKey, 'GET', '/clients');
    expect(listed.body.clients).toHaveLength(2);
    const parked = await adminRequest(service, 'GET', '/parked-events?projection=clients');
    expect(parked.body.parked_events.map((event: { event_id: string }) => event.event_id)).toEqual([
      poisonClient.eventId,
    ]);
  });

  it('is applied by a retry after the fix and leaves the list; one still failing stays with one more attempt', async () => {
    buggy.fixed = true;
    const fixed = await adminRequest(service, 'POST', '/parked-events/retry', { projection: buggy.name });
    expect(fixed.status).toBe(200);
    expect(fixed.body).toMatchObject({ applied: 1, still_failing: 0, remaining: 1 });
    expect(fixed.body.results).toEqual([
      expect.objectContaining({ projection: buggy.name, event_id: poisonTest.eventId, outcome: 'applied' }),
    ]);

    const again = await adminRequest(service, 'POST', '/parked-events/retry');
    expect(again.status).toBe(200);
    expect(again.body).toMatchObject({ applied: 0, still_failing: 1, remaining: 1 });
    expect(again.body.results).toEqual([
      expect.objectContaining({
        projection: 'clients',
        event_id: poisonClient.eventId,
        outcome: 'still_failing',
        error_code: '22P02',
        attempts: 2,
      }),
    ]);
    expect(JSON.stringify(again.body)).not.toContain(needle);

    const left = await adminRequest(service, 'GET', '/parked-events');
    expect(left.body.parked_events.map((event: { event_id: string }) => event.event_id)).toEqual([
      poisonClient.eventId,
    ]);
    expect((await request(service, 'GET', '/readyz')).body).toMatchObject({
      parked_events: 1,
      parked_by_projection: { clients: 1 },
    });
    const unknown = await adminRequest(service, 'POST', '/parked-events/retry', { projection: 'nope' });
    expect(unknown.status).toBe(400);
    expect(unknown.body.code).toBe('invalid_body');
  });
});
