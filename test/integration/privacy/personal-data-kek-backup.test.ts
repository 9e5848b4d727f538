import { createDecipheriv } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  generateKeyEncryptionKey,
  KeyEncryptionKeyError,
  parseKeyRing,
  unwrapDataKey,
  type KeyRing,
} from '../../../shared/privacy/key-encryption-key.ts';
import { PersonalDataVault, type SealedValue } from '../../../shared/privacy/personal-data-vault.ts';
import { rewrapDataKeys } from '../../../shared/privacy/rewrap-data-keys.ts';
import { registerSecrets } from '../../helpers/run-log.ts';
import { startTestService, type TestService } from '../../helpers/service.ts';
import { adminRequest } from '../../helpers/tenant.ts';
import { createClient, createTenant, type Tenant } from '../portal-fixtures.ts';

/**
 * What the KEK does for a copy of the database (a dump, a backup): the personal-data keys
 * in it are sealed with PERSONAL_DATA_KEK, which the database never holds.
 *
 * Shown here: a dump taken before an erasure opens nothing without the KEK; with the KEK,
 * the erased client's data opens neither from the database after the erasure nor from a
 * dump taken after it. Not shown, because it does not hold: a dump taken BEFORE the erasure
 * still opens the erased client's data with the KEK that sealed it, for as long as that KEK
 * exists. What ends it is a rotation (`npm run kek:rotate`) followed by destroying the old
 * KEK: every dump sealed with it then opens nothing (last test).
 */

const KEY_1 = generateKeyEncryptionKey();
const KEY_2 = generateKeyEncryptionKey();
registerSecrets(KEY_1, KEY_2);
const NAME = 'Ottoline Vandersnatch';

interface Dump {
  keys: Array<{ subject_id: string; kek_id: string | null; key: Buffer | null }>;
  events: string[];
}

let service: TestService;
let tenant: Tenant;
let erasedId: string;
let keptId: string;
let before: Dump;
let after: Dump;
let erasedDataKey: Buffer;

/** The two tables as a backup copies them, row by row. */
async function dump(): Promise<Dump> {
  const pool = service.database.pool;
  const keys = await pool.query<Dump['keys'][number]>(
    'select subject_id, kek_id, key from personal_data_keys order by subject_id',
  );
  const events = await pool.query<{ data: string }>(
    'select data::text as data from events order by position',
  );
  return { keys: keys.rows, events: events.rows.map((row) => row.data) };
}

/** The sealed name of a client in the dump's events. */
function sealedName(from: Dump, clientId: string): SealedValue {
  for (const text of from.events) {
    const data = JSON.parse(text) as { client_id?: string; name?: SealedValue };
    if (data.client_id === clientId && data.name?.pd === 'v1') return data.name;
  }
  throw new Error(`no sealed name of ${clientId} in the dump`);
}

function decrypt(key: Buffer, value: SealedValue): string {
  const raw = Buffer.from(value.box, 'base64');
  const decipher = createDecipheriv('aes-256-gcm', key, raw.subarray(0, 12));
  decipher.setAuthTag(raw.subarray(12, 28));
  return Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString('utf8');
}

/** Opens a client's name from a dump alone, with the KEKs `ring` (or none): the text, or why not. */
function openFromDump(from: Dump, clientId: string, ring?: KeyRing): string {
  const row = from.keys.find((key) => key.subject_id === clientId);
  if (!row?.key) return 'no key in the dump';
  const sealed = sealedName(from, clientId);
  if (!ring) {
    // Without a KEK, the stored bytes are all there is.
    try {
      return decrypt(row.key.subarray(0, 32), sealed);
    } catch {
      return 'does not open';
    }
  }
  try {
    return decrypt(unwrapDataKey(ring, clientId, { key: row.key, kekId: row.kek_id }), sealed);
  } catch (error) {
    if (error instanceof KeyEncryptionKeyError) return error.message;
    throw error;
  }
}

beforeAll(async () => {
  service = await startTestService({ PERSONAL_DATA_KEK: `p1:${KEY_1}` });
  tenant = await createTenant(service);
  erasedId = (await createClient(service, tenant, { name: NAME })).id;
  keptId = (await createClient(service, tenant, { name: 'Kept Client' })).id;
  const vault = new PersonalDataVault(service.database.pool, { keyRing: parseKeyRing(`p1:${KEY_1}`) });
  expect(await vault.open(sealedName(await dump(), erasedId))).toBe(NAME);
  erasedDataKey = vault.peekCachedKey(erasedId)!;

  before = await dump();
  const erasure = await adminRequest(service, 'POST', `/teams/${tenant.teamId}/clients/${erasedId}/erase`);
  expect(erasure.status).toBe(202);
  after = await dump();
});
afterAll(async () => service?.stop());

describe('a dump taken before the erasure', () => {
  it('holds no data key in the clear: the plain key appears nowhere in it', () => {
    const text = JSON.stringify(before.keys.map((row) => ({ ...row, key: row.key?.toString('hex') })));
    expect(text).not.toContain(erasedDataKey.toString('hex'));
    expect(
      before.keys.every((row) => row.key === null || (row.key.length === 60 && row.kek_id === 'p1')),
    ).toBe(true);
    expect(before.events.join('\n')).not.toContain(NAME);
  });

  it('opens nothing without the KEK, nor with another KEK under the same id', () => {
    for (const client of [erasedId, keptId]) {
      expect(openFromDump(before, client)).toBe('does not open');
      expect(openFromDump(before, client, parseKeyRing(`p1:${generateKeyEncryptionKey()}`))).toContain(
        'does not open with the key-encryption key "p1"',
      );
    }
  });

  it('opens with the KEK that sealed it while that KEK exists (the known limit: it is a copy from before)', () => {
    expect(openFromDump(before, erasedId, parseKeyRing(`p1:${KEY_1}`))).toBe(NAME);
  });
});

describe('with the KEK, after the erasure', () => {
  it('the erased client opens neither from the database nor from a dump taken after the erasure; others do', async () => {
    const ring = parseKeyRing(`p1:${KEY_1}`);
    expect(openFromDump(after, erasedId, ring)).toBe('no key in the dump');
    expect(after.keys.find((row) => row.subject_id === erasedId)).toMatchObject({ key: null, kek_id: null });
    expect(openFromDump(after, keptId, ring)).toBe('Kept Client');
    const vault = new PersonalDataVault(service.database.pool, { keyRing: ring });
    expect(await vault.open(sealedName(after, erasedId))).toBeNull();
  });

  it('after a rotation and destroying the old KEK, the dump from before the erasure opens nothing', async () => {
    await rewrapDataKeys(service.database.pool, parseKeyRing(`p2:${KEY_2},p1:${KEY_1}`));
    const current = parseKeyRing(`p2:${KEY_2}`); // p1 destroyed
    // The live data of the kept client still opens with the current KEK alone.
    const live = await dump();
    expect(openFromDump(live, keptId, current)).toBe('Kept Client');
    // The old dump's keys are sealed by p1, which no longer exists.
    for (const client of [erasedId, keptId]) {
      expect(openFromDump(before, client, current)).toBe(
        `the personal-data key of ${client} is sealed by the key-encryption key "p1", which PERSONAL_DATA_KEK does not list`,
      );
    }
  });
});
