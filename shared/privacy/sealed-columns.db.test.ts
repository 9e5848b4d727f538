import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../test/helpers/database.ts';
import { generateKeyEncryptionKey, parseKeyRing } from './key-encryption-key.ts';
import { PersonalDataVault } from './personal-data-vault.ts';
import { installProcessKeyRing } from './process-key-ring.ts';
import {
  emailBlindIndex,
  openJsonValues,
  openTextColumns,
  sealBytesIn,
  sealedText,
  sealTextsIn,
  storedValue,
  teamIndexKeyIn,
} from './sealed-columns.ts';

let database: TestDatabase;
const TEAM = randomUUID();
installProcessKeyRing(parseKeyRing(generateKeyEncryptionKey()));

beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(async () => database?.drop());

/** Counts the pool's queries, to see how many key reads a page costs. */
function countingVault() {
  const counter = { queries: 0 };
  const pool = {
    query: ((...args: Parameters<TestDatabase['pool']['query']>) => {
      counter.queries++;
      return (database.pool.query as (...a: unknown[]) => unknown)(...args);
    }) as TestDatabase['pool']['query'],
  };
  return { vault: new PersonalDataVault(pool), counter };
}

describe('sealed columns', () => {
  it('a text column keeps the envelope as JSON text, never the value; it reads back as the value', async () => {
    const vault = new PersonalDataVault(database.pool);
    const client = randomUUID();
    const stored = sealedText(await vault.seal(TEAM, client, 'Ada Lovelace'));
    expect(stored).not.toContain('Ada');
    expect(storedValue(stored)).toMatchObject({ pd: 'v1', subject: client });
    const [row] = await openTextColumns(vault, [{ id: 1, name: stored, plain: 'kept' }], ['name']);
    expect(row).toEqual({ id: 1, name: 'Ada Lovelace', plain: 'kept' });
  });

  it('a value that is no envelope reads as it is (rows written before sealing), null stays null', async () => {
    const vault = new PersonalDataVault(database.pool);
    expect(storedValue('{"pd": "not v1"}')).toBe('{"pd": "not v1"}');
    const [row] = await openTextColumns(vault, [{ a: 'plain', b: null }], ['a', 'b']);
    expect(row).toEqual({ a: 'plain', b: null });
  });

  it('jsonb: an envelope at the top holds JSON, nested ones hold strings; jsonb text (spaced keys) is read too', async () => {
    const vault = new PersonalDataVault(database.pool);
    const client = randomUUID();
    const top = await vault.seal(TEAM, client, JSON.stringify({ plan: 'gold', n: 2 }));
    const nested = { signature_id: 's1', signer_name: await vault.seal(TEAM, client, 'Ada'), signed_at: 't' };
    expect(await openJsonValues(vault, [top, nested, { plain: 1 }, null])).toEqual([
      { plan: 'gold', n: 2 },
      { signature_id: 's1', signer_name: 'Ada', signed_at: 't' },
      { plain: 1 },
      null,
    ]);
    const jsonbText = `{"box": "${top!.box}", "pd": "v1", "subject": "${client}"}`;
    expect(storedValue(jsonbText)).toEqual(top);
  });

  it('a page of rows costs one key query for the keys missing from the cache, none once cached', async () => {
    const { vault, counter } = countingVault();
    const sealer = new PersonalDataVault(database.pool);
    const rows = await Promise.all(
      Array.from({ length: 20 }, async (_, index) => {
        const client = randomUUID();
        return {
          name: sealedText(await sealer.seal(TEAM, client, `Client ${index}`)),
          email: sealedText(await sealer.seal(TEAM, client, `c${index}@example.com`)),
        };
      }),
    );
    const opened = await openTextColumns(vault, rows, ['name', 'email']);
    expect(opened[7]).toEqual({ name: 'Client 7', email: 'c7@example.com' });
    expect(counter.queries).toBe(1);
    await openTextColumns(vault, rows, ['name', 'email']);
    expect(counter.queries).toBe(1);
  });

  it('once the key is erased every sealed column of the client reads null', async () => {
    const vault = new PersonalDataVault(database.pool);
    const client = randomUUID();
    const name = sealedText(await vault.seal(TEAM, client, 'Grace'));
    const custom = await vault.seal(TEAM, client, '{"a":1}');
    const [sealedMail] = [await sealTextsIn(database.pool, client, ['grace@example.com'])];
    const bytes = await sealBytesIn(database.pool, client, Buffer.from('scan of a passport'));
    expect(bytes!.includes(Buffer.from('passport'))).toBe(false);
    expect((await vault.openBytes(client, bytes!))!.toString()).toBe('scan of a passport');
    await vault.erase(client);
    const fresh = new PersonalDataVault(database.pool);
    expect(await openTextColumns(fresh, [{ name, to: sealedMail![0] }], ['name', 'to'])).toEqual([
      { name: null, to: null },
    ]);
    expect(await openJsonValues(fresh, [custom])).toEqual([null]);
    expect(await fresh.openBytes(client, bytes!)).toBeNull();
    expect(await sealTextsIn(database.pool, client, ['x'])).toBeUndefined();
    expect(await sealBytesIn(database.pool, client, Buffer.from('x'))).toBeUndefined();
  });

  it('the email blind index: equal per team and address, different across teams, never the address', async () => {
    const vault = new PersonalDataVault(database.pool);
    const otherTeam = randomUUID();
    const key = await vault.teamIndexKey(TEAM);
    const sameKeyInTransaction = await teamIndexKeyIn(database.pool, TEAM);
    expect(sameKeyInTransaction.equals(key)).toBe(true);
    const index = emailBlindIndex(key, 'ada@example.com');
    expect(index).toBe(emailBlindIndex(sameKeyInTransaction, 'ada@example.com'));
    expect(index).not.toContain('ada');
    expect(emailBlindIndex(await vault.teamIndexKey(otherTeam), 'ada@example.com')).not.toBe(index);
    expect(emailBlindIndex(key, 'bob@example.com')).not.toBe(index);
  });
});
