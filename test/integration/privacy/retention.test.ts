import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../../../shared/clock.ts';
import { loadSettings, type Settings } from '../../../shared/config/settings.ts';
import { createLogger } from '../../../shared/logging/logger.ts';
import { PURGE_BATCH } from '../../../shared/retention/batched-purge.ts';
import { purgeExpired } from '../../../services/app/retention-pass.ts';
import { createTestDatabase, type TestDatabase } from '../../helpers/database.ts';
import { startTestService } from '../../helpers/service.ts';
import { adminRequest } from '../../helpers/tenant.ts';
import { createTenant, sentOnboarding } from '../portal-fixtures.ts';

/*
 * Each purge removes exactly what is past its period: for every table a row just inside
 * its period stays, a row just past it goes, and rows that are not finished (queued,
 * retrying, scheduled, of an onboarding still sent) stay however old. Purges run in
 * batches, by the service clock, and skip rows another transaction holds.
 */

let database: TestDatabase;
const NOW = new Date('2031-03-01T12:00:00Z');
const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;
const clock = new ManualClock(NOW);
const logger = createLogger('silent');
const team = randomUUID();

/** A moment `ms` before the service clock's now. */
const ago = (ms: number) => new Date(NOW.getTime() - ms);
/** Just inside and just past a period of `days` days. */
const inside = (days: number) => ago(days * DAY - MINUTE);
const past = (days: number) => ago(days * DAY + MINUTE);

function settings(env: Record<string, string> = {}): Settings {
  return loadSettings({
    DELIVERY_LOG_RETENTION_DAYS: '30',
    PROCESSED_EVENTS_RETENTION_DAYS: '20',
    AUTOMATION_RUN_RETENTION_DAYS: '15',
    TIMER_RETENTION_DAYS: '10',
    MAIL_RETENTION_DAYS: '40',
    ...env,
  });
}

const purge = (env: Record<string, string> = {}) =>
  purgeExpired({ clock, logger, pool: database.pool, settings: settings(env) });

async function ids(table: string, column = 'id'): Promise<string[]> {
  const { rows } = await database.pool.query<{ id: string }>(`select ${column}::text as id from ${table}`);
  return rows.map((row) => row.id).sort();
}

const sorted = (...values: string[]) => [...values].sort();

beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(async () => database?.drop());
beforeEach(async () => {
  await database.pool.query(`truncate idempotency_records, workspace_key_requests, processed_events,
    hook_deliveries, hook_delivery_attempts, automation_runs, onboarding_timers, mail_outbox, onboardings`);
});

async function onboarding(status: string): Promise<string> {
  const id = randomUUID();
  await database.pool.query(
    `insert into onboardings (id, team_id, client_id, template_id, template_source, template_name,
       template_snapshot, status, progress_pct, created_at, send_count, updated_at, position)
     values ($1, $2, $3, $4, 'team', 'T', '{}', $5, 0, $6, 1, $6, 1)`,
    [id, team, randomUUID(), randomUUID(), status, NOW],
  );
  return id;
}

describe('retention', () => {
  it('drops idempotency records after their 24 hours, and the workspace key checks', async () => {
    const keep = randomUUID();
    const drop = randomUUID();
    for (const [key, at] of [
      [keep, ago(24 * 60 * MINUTE - MINUTE)],
      [drop, ago(24 * 60 * MINUTE + MINUTE)],
    ] as const) {
      await database.pool.query(
        `insert into idempotency_records (api_key_id, operation, key, fingerprint, created_at)
         values ($1, 'create', $2, 'f', $3)`,
        [randomUUID(), key, at],
      );
      await database.pool.query(
        `insert into workspace_key_requests (team_id, action, idempotency_key, api_key_id, created_at)
         values ($1, 'create', $2, $3, $4)`,
        [team, key, randomUUID(), at],
      );
    }
    await purge();
    expect(await ids('idempotency_records', 'key')).toEqual([keep]);
    expect(await ids('workspace_key_requests', 'idempotency_key')).toEqual([keep]);
  });

  it('drops processed-event rows after PROCESSED_EVENTS_RETENTION_DAYS', async () => {
    const [keep, drop] = [randomUUID(), randomUUID()];
    await database.pool.query(
      `insert into processed_events (consumer, event_id, position, processed_at)
       values ('c', $1, 1, $2), ('c', $3, 2, $4)`,
      [keep, inside(20), drop, past(20)],
    );
    await purge();
    expect(await ids('processed_events', 'event_id')).toEqual([keep]);
  });

  it('drops finished hook and webhook deliveries with their attempts after DELIVERY_LOG_RETENTION_DAYS', async () => {
    const delivery = async (state: string, updatedAt: Date, kind = 'hook') => {
      const id = randomUUID();
      await database.pool.query(
        `insert into hook_deliveries (id, subscription_id, team_id, event_id, event_type, target_url, body,
           state, created_at, updated_at, target_kind)
         values ($1, $2, $3, $4, 'onboarding.sent', 'https://hooks.test/x', '{"secret":"body"}', $5, $6, $6, $7)`,
        [id, randomUUID(), team, randomUUID(), state, updatedAt, kind],
      );
      for (const attempt of [1, 2]) {
        await database.pool.query(
          `insert into hook_delivery_attempts (delivery_id, attempt, attempted_at, duration_ms) values ($1, $2, $3, 5)`,
          [id, attempt, updatedAt],
        );
      }
      return id;
    };
    const kept = [
      await delivery('delivered', inside(30)),
      await delivery('failed', inside(30), 'endpoint'),
      await delivery('retrying', past(300)),
      await delivery('pending', past(300), 'endpoint'),
    ];
    await delivery('delivered', past(30));
    await delivery('failed', past(30), 'endpoint');
    await purge();
    expect(await ids('hook_deliveries')).toEqual(sorted(...kept));
    expect(await ids('hook_delivery_attempts', 'distinct delivery_id')).toEqual(sorted(...kept));
  });

  it('drops finished automation runs after AUTOMATION_RUN_RETENTION_DAYS', async () => {
    const run = async (state: string, finishedAt: Date | null, nextAttemptAt: Date | null = null) => {
      const id = randomUUID();
      await database.pool.query(
        `insert into automation_runs (id, rule_id, team_id, rule_name, trigger, event_id, onboarding_id, action,
           request_body, state, failure, next_attempt_at, queued_at, updated_at, finished_at)
         values ($1, $2, $3, 'r', 'onboarding.completed', $4, $5, '{}', $6, $7, $8, $9, $10, $10, $11)`,
        [
          id,
          randomUUID(),
          team,
          randomUUID(),
          randomUUID(),
          finishedAt ? null : '{"email":"a@b.test"}',
          state,
          state === 'failed' ? (nextAttemptAt ? 'retrying' : 'stopped') : null,
          nextAttemptAt,
          past(300),
          finishedAt,
        ],
      );
      return id;
    };
    const kept = [
      await run('succeeded', inside(15)),
      await run('queued', null, past(300)),
      await run('failed', null, past(300)),
    ];
    await run('succeeded', past(15));
    await run('skipped', past(15));
    await run('failed', past(15));
    await purge();
    expect(await ids('automation_runs')).toEqual(sorted(...kept));
  });

  it('drops fired and cancelled timers after TIMER_RETENTION_DAYS, unless their onboarding is still sent', async () => {
    const [done, live] = [await onboarding('completed'), await onboarding('in_progress')];
    const timer = async (onboardingId: string, status: string, updatedAt: Date) => {
      const id = randomUUID();
      await database.pool.query(
        `insert into onboarding_timers (id, onboarding_id, team_id, kind, key, due_at, status, created_at, updated_at)
         values ($1, $2, $3, 'reminder', $6, $4, $5, $4, $4)`,
        [id, onboardingId, team, updatedAt, status, `reminder:${id}`],
      );
      return id;
    };
    const kept = [
      await timer(done, 'fired', inside(10)),
      await timer(done, 'scheduled', past(300)),
      await timer(live, 'fired', past(300)),
    ];
    await timer(done, 'fired', past(10));
    await timer(done, 'cancelled', past(10));
    await purge();
    expect(await ids('onboarding_timers')).toEqual(sorted(...kept));
  });

  it('drops sent mail after MAIL_RETENTION_DAYS; queued mail only without SMTP, where the outbox is the record', async () => {
    const [done, live] = [await onboarding('cancelled'), await onboarding('sent')];
    const mail = async (status: string, at: Date, onboardingId: string | null = null) => {
      const id = randomUUID();
      await database.pool.query(
        `insert into mail_outbox (id, team_id, kind, "to", from_name, subject, text, onboarding_id, created_at, status, sent_at)
         values ($1, $2, 'invite', 'a@b.test', 'T', 's', 't', $3, $4, $5, $6)`,
        [id, team, onboardingId, at, status, status === 'sent' ? at : null],
      );
      return id;
    };
    const withSmtp = { SMTP_URL: 'smtp://127.0.0.1:2525' };
    const kept = [
      await mail('sent', inside(40), done),
      await mail('sent', past(300), live),
      await mail('failed', inside(40)),
    ];
    const queued = await mail('queued', past(40));
    await mail('sent', past(40), done);
    await mail('failed', past(40));
    await purge(withSmtp);
    expect(await ids('mail_outbox')).toEqual(sorted(...kept, queued));
    await purge();
    expect(await ids('mail_outbox')).toEqual(sorted(...kept));
  });

  it('deletes in batches until nothing past the period is left, leaving what is inside', async () => {
    const count = PURGE_BATCH * 2 + 7;
    await database.pool.query(
      `insert into processed_events (consumer, event_id, position, processed_at)
       select 'bulk', gen_random_uuid(), n, $1 from generate_series(1, $2) n`,
      [past(20), count],
    );
    await database.pool.query(
      `insert into processed_events (consumer, event_id, position, processed_at) values ('bulk', $1, 0, $2)`,
      [randomUUID(), inside(20)],
    );
    await purge();
    expect(await ids('processed_events', 'position')).toEqual(['0']);
  });

  it('moves with the service clock and never waits on a row another transaction holds', async () => {
    const [held, free] = [randomUUID(), randomUUID()];
    await database.pool.query(
      `insert into processed_events (consumer, event_id, position, processed_at) values ('c', $1, 1, $3), ('c', $2, 2, $3)`,
      [held, free, inside(20)],
    );
    await purge();
    expect(await ids('processed_events', 'event_id')).toEqual(sorted(held, free));

    const holder = await database.pool.connect();
    try {
      await holder.query('begin');
      await holder.query('select 1 from processed_events where event_id = $1 for update', [held]);
      clock.advance(2 * 60);
      await purge();
      expect(await ids('processed_events', 'event_id')).toEqual([held]);
      await holder.query('commit');
    } finally {
      holder.release();
      clock.set(NOW);
    }
  });
});

describe('processed-event rows', () => {
  it('carry the service clock, so their period counts by it', async () => {
    const service = await startTestService();
    try {
      const at = new Date('2032-05-01T00:00:00.000Z');
      service.clock.set(at);
      await sentOnboarding(service, await createTenant(service));
      expect((await adminRequest(service, 'POST', '/work/drain')).status).toBe(200);
      const { rows } = await service.database.pool.query<{ at: Date }>(
        'select min(processed_at) as at from processed_events',
      );
      expect(rows[0]?.at).toEqual(at);
    } finally {
      await service.stop();
    }
  });
});
