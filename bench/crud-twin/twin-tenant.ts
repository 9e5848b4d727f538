import { randomBytes, randomUUID } from 'node:crypto';
import pg from 'pg';
import { SCOPES } from '../../services/access/contract/scopes.ts';
import { hashApiKeySecret } from '../../services/access/api-key-secret.ts';
import { DEFAULT_REMINDER_SCHEDULE } from '../../services/onboardings/contract/reminder-schedule.ts';
import type { Tenant } from '../api/provision.ts';

/**
 * The twin's copy of the service's bench tenant: a Business team (unlimited onboardings),
 * a key with every scope, the very template snapshot the service stored, the same client.
 */
export async function provisionTwinTenant(
  databaseUrl: string,
  template: { name: string; snapshot: unknown },
): Promise<Tenant> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const teamId = randomUUID();
    const templateId = randomUUID();
    const clientId = randomUUID();
    const apiKey = `sk_twin_${randomBytes(24).toString('hex')}`;
    await client.query(
      `insert into teams (id, name, plan, timezone, reminder_schedule) values ($1, 'Bench team', 'business', 'UTC', $2)`,
      [teamId, JSON.stringify(DEFAULT_REMINDER_SCHEDULE)],
    );
    await client.query(`insert into api_keys (id, team_id, key_hash, scopes) values ($1, $2, $3, $4)`, [
      randomUUID(),
      teamId,
      hashApiKeySecret(apiKey),
      [...SCOPES],
    ]);
    await client.query(`insert into templates (id, team_id, snapshot) values ($1, $2, $3)`, [
      templateId,
      teamId,
      template.snapshot,
    ]);
    await client.query(
      `insert into clients (id, team_id, name, email, created_at) values ($1, $2, 'Ada Lovelace', 'ada@example.com', now())`,
      [clientId, teamId],
    );
    return { teamId, apiKey, templateId, clientId };
  } finally {
    await client.end();
  }
}
