import { createHash, randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { MIGRATIONS_DIR } from '../../shared/db/migrate.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../test/helpers/database.ts';
import { generateKeyEncryptionKey, parseKeyRing } from '../../shared/privacy/key-encryption-key.ts';
import { PersonalDataVault } from '../../shared/privacy/personal-data-vault.ts';
import { installProcessKeyRing } from '../../shared/privacy/process-key-ring.ts';
import { emailIndexOf, releaseEmails, reserveEmail } from './client-email-index.ts';
import { outwardEvent } from '../events/outward-event.ts';
import type { RecordedEvent } from '../../shared/event-store/event-store.ts';

installProcessKeyRing(parseKeyRing(generateKeyEncryptionKey()));
let database: TestDatabase;
let vault: PersonalDataVault;
beforeAll(async () => {
  database = await createTestDatabase();
  vault = new PersonalDataVault(database.pool);
});
afterAll(async () => database?.drop());

const deps = () => ({ pool: database.pool, vault });

describe('client email index', () => {
  it('60 racing reservations of one address: one holder, every racer is told the same one', async () => {
    const team = randomUUID();
    const racers = Array.from({ length: 60 }, () => randomUUID());
    const holders = await Promise.all(racers.map((id) => reserveEmail(deps(), team, 'Ada@Example.com ', id)));
    expect(new Set(holders).size).toBe(1);
    expect(racers).toContain(holders[0]);
    const { rows } = await database.pool.query('select * from client_email_index where team_id = $1', [team]);
    expect(rows).toHaveLength(1);
  });

  it('the row holds a keyed blind index, never the address or its sha256; teams differ', async () => {
    const [a, b] = [randomUUID(), randomUUID()];
    const email = 'grace@example.com';
    await reserveEmail(deps(), a, email, randomUUID());
    await reserveEmail(deps(), b, email, randomUUID());
    const { rows } = await database.pool.query<{ email_index: string }>(
      'select email_index from client_email_index where team_id = any($1::uuid[])',
      [[a, b]],
    );
    const sha = createHash('sha256').update(email).digest();
    for (const { email_index } of rows) {
      expect(email_index).not.toContain('grace');
      expect([sha.toString('hex'), sha.toString('base64'), sha.toString('base64url')]).not.toContain(
        email_index,
      );
    }
    expect(rows[0]!.email_index).not.toBe(rows[1]!.email_index);
    expect(await emailIndexOf(deps(), a, ' GRACE@example.com')).toBe(await emailIndexOf(deps(), a, email));
  });

  it('a released address can be reserved by another client; release keeps the address named to keep', async () => {
    const team = randomUUID();
    const [first, second] = [randomUUID(), randomUUID()];
    expect(await reserveEmail(deps(), team, 'x@example.com', first)).toBe(first);
    expect(await reserveEmail(deps(), team, 'y@example.com', first)).toBe(first);
    await releaseEmails(database.pool, team, first, await emailIndexOf(deps(), team, 'y@example.com'));
    expect(await reserveEmail(deps(), team, 'x@example.com', second)).toBe(second);
    expect(await reserveEmail(deps(), team, 'y@example.com', second)).toBe(first);
    await releaseEmails(database.pool, team, first);
    expect(await reserveEmail(deps(), team, 'y@example.com', second)).toBe(second);
  });

  it('a client of the read model from before the table holds its address; an erased one does not', async () => {
    const team = randomUUID();
    const [old, erased, fresh] = [randomUUID(), randomUUID(), randomUUID()];
    for (const [id, email] of [
      [old, 'old@example.com'],
      [erased, 'gone@example.com'],
    ] as const) {
      await vault.seal(team, id, email);
      await database.pool.query(
        `insert into clients (id, team_id, name, email, email_hash, locale, date_format, timezone, created_at, position)
         values ($1, $2, 'n', 'sealed', $3, 'en-US', 'MM/DD/YYYY', 'UTC', now(), 1)`,
        [id, team, await emailIndexOf(deps(), team, email)],
      );
    }
    await vault.erase(erased);
    expect(await reserveEmail(deps(), team, 'old@example.com', fresh)).toBe(old);
    expect(await reserveEmail(deps(), team, 'gone@example.com', fresh)).toBe(fresh);
  });
});

describe('migration 134 on an install from before the table', () => {
  it('every client of the read model not erased holds its address; erased ones hold none', async () => {
    const team = randomUUID();
    const [kept, erased] = [randomUUID(), randomUUID()];
    for (const [id, email, erasedAt] of [
      [kept, 'kept@example.com', null],
      [erased, 'erased@example.com', new Date()],
    ] as const) {
      await database.pool.query(
        `insert into clients (id, team_id, name, email, email_hash, locale, date_format, timezone, created_at, erased_at, position)
         values ($1, $2, 'n', 'sealed', $3, 'en-US', 'MM/DD/YYYY', 'UTC', now(), $4, 1)`,
        [id, team, await emailIndexOf(deps(), team, email), erasedAt],
      );
    }
    const migration = await readFile(path.join(MIGRATIONS_DIR, '134_client_email_index.sql'), 'utf8');
    const backfill = migration.slice(migration.indexOf('insert into client_email_index'));
    await database.pool.query(backfill);
    const { rows } = await database.pool.query<{ client_id: string; email_index: string }>(
      'select client_id::text, email_index from client_email_index where team_id = $1',
      [team],
    );
    expect(rows).toEqual([
      { client_id: kept, email_index: await emailIndexOf(deps(), team, 'kept@example.com') },
    ]);
    expect(await reserveEmail(deps(), team, 'kept@example.com', randomUUID())).toBe(kept);
  });
});

describe('events leaving the service (outwardEvent)', () => {
  const team = randomUUID();
  const client = randomUUID();
  const sha = createHash('sha256').update('ada@example.com').digest('hex');
  const event = (streamId: string, type: string, data: Record<string, unknown>): RecordedEvent => ({
    id: randomUUID(),
    streamId,
    revision: 0n,
    position: 1n,
    type,
    data,
    metadata: {},
    recordedAt: new Date(),
  });

  it('an old reservation stream goes out keyed by its client, without the digest', () => {
    const out = outwardEvent(
      event(`client_email-${team}-${sha}`, 'client_email.reserved', {
        team_id: team,
        email_hash: sha,
        client_id: client,
      }),
    );
    expect(out.streamId).toBe(`client_email-${team}-${client}`);
    expect(out.data).toEqual({ team_id: team, client_id: client });
  });

  it('an old client.created loses its email_hash; a new event passes as it is', () => {
    const old = outwardEvent(
      event(`client-${client}`, 'client.created', { client_id: client, email_hash: sha }),
    );
    expect(JSON.stringify(old.data)).not.toContain(sha);
    expect(old.data).toEqual({ client_id: client });
    const fresh = event(`client-${client}`, 'client.created', { client_id: client });
    expect(outwardEvent(fresh)).toBe(fresh);
  });
});
