import { randomBytes } from 'node:crypto';
import { mkdtemp, readdir, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { trustCertificatesForTests } from '../../../shared/net/outbound.ts';
import { startEmbeddedPostgres, type EmbeddedDatabase } from '../../../shared/db/embedded-postgres.ts';
import { migrate } from '../../../shared/db/migrate.ts';
import { createPool, withDatabase, type Pool } from '../../../shared/db/pool.ts';
import {
  generateKeyEncryptionKey,
  parseKeyRing,
  unwrapDataKey,
} from '../../../shared/privacy/key-encryption-key.ts';
import { isSealed, openSealed, type SealedValue } from '../../../shared/privacy/personal-data-vault.ts';
import {
  startHttpsReceiver,
  selfSignedCertificate,
  type HttpsReceiver,
} from '../../helpers/https-receiver.ts';
import { startTestService, TEST_PERSONAL_DATA_KEK, type TestService } from '../../helpers/service.ts';
import { adminRequest, apiRequest } from '../../helpers/tenant.ts';
import { advance, createRule, drain, minutes, START } from '../automation-fixtures.ts';
import { createTenant, portal, sentOnboarding, uploadFile, type Tenant } from '../portal-fixtures.ts';

/*
 * Erasure reaches the disk: a client's journey through the real HTTP API and portal with a
 * canary string (unique to this run) in each personal value, on a PostgreSQL cluster of this
 * test alone, so every file of its data directory and WAL is this journey's. Personal data is
 * sealed with the client's key in every table (shared/privacy/sealed-columns.ts), so after
 * the erasure and a CHECKPOINT, without any VACUUM, no file holds a canary: not the live
 * rows, not the dead tuples, not the WAL. A dump taken before the erasure holds none either,
 * and its data keys open nothing without the KEK; with the KEK, the database after the
 * erasure opens none of the erased client's values (its key is gone).
 */

const RUN = randomBytes(5).toString('hex');
const CANARIES = {
  name: `Canaryname${RUN}`,
  email: `canary.${RUN}@disk-scan.example`,
  notes: `Canarynotes${RUN}`,
  custom: `Canarycustom${RUN}`,
  answer: `Canaryanswer${RUN}`,
  fileName: `Canaryfile${RUN}.pdf`,
  fileBytes: `Canarybytes${RUN}`,
  signer: `Canarysigner${RUN}`,
};
/** The needles as bytes: each canary as written and in lower case (emails are kept lower-cased). */
const NEEDLES = [...new Set(Object.values(CANARIES).flatMap((canary) => [canary, canary.toLowerCase()]))].map(
  (text) => Buffer.from(text, 'utf8'),
);

let dataDir: string;
let clusterDir: string;
let server: EmbeddedDatabase;
let pool: Pool;
let service: TestService;
let receiver: HttpsReceiver;
let tenant: Tenant;
let clientId: string;
/** Every table of the database, row by row, as a logical dump copies it (before the erasure). */
let dumpBefore: Map<string, string[]>;
let erasure: Awaited<ReturnType<typeof adminRequest>>;

/** Every regular file under a folder. */
async function filesUnder(folder: string): Promise<string[]> {
  const found: string[] = [];
  for (const entry of await readdir(folder, { withFileTypes: true })) {
    const full = path.join(folder, entry.name);
    if (entry.isDirectory()) found.push(...(await filesUnder(full)));
    else if (entry.isFile()) found.push(full);
  }
  return found;
}

/** The files under the cluster's folder (pg_wal included) holding any of the needles, with which. */
async function filesHolding(needles: Buffer[]): Promise<string[]> {
  const hits: string[] = [];
  for (const file of await filesUnder(clusterDir)) {
    if (!(await stat(file).catch(() => undefined))) continue; // removed meanwhile (a WAL segment recycled)
    const bytes = await readFile(file).catch(() => undefined);
    if (!bytes) continue;
    for (const needle of needles) {
      if (bytes.includes(needle)) hits.push(`${path.relative(clusterDir, file)}: ${needle.toString('utf8')}`);
    }
  }
  return hits;
}

/** A logical dump: every table's rows as JSON text (bytea as hex), as pg_dump would copy them. */
async function logicalDump(): Promise<Map<string, string[]>> {
  const { rows: tables } = await pool.query<{ table_name: string }>(
    `select table_name from information_schema.tables
     where table_schema = 'public' and table_type = 'BASE TABLE' order by table_name`,
  );
  const dump = new Map<string, string[]>();
  for (const { table_name: table } of tables) {
    const { rows } = await pool.query<{ row: string }>(`select to_jsonb(t)::text as row from "${table}" t`);
    dump.set(
      table,
      rows.map((row) => row.row),
    );
  }
  return dump;
}

function dumpHolds(dump: Map<string, string[]>): string[] {
  const hits: string[] = [];
  for (const [table, rows] of dump) {
    const text = rows.join('\n');
    for (const needle of NEEDLES) {
      const plain = needle.toString('utf8');
      if (text.includes(plain) || text.includes(needle.toString('hex'))) hits.push(`${table}: ${plain}`);
    }
  }
  return hits;
}

/** The sealed envelopes of the client in the dump's events table. */
function sealedValuesOf(dump: Map<string, string[]>, subject: string): SealedValue[] {
  const found: SealedValue[] = [];
  const collect = (value: unknown): void => {
    if (isSealed(value)) {
      if (value.subject === subject) found.push(value);
    } else if (typeof value === 'object' && value !== null) Object.values(value).forEach(collect);
  };
  for (const row of dump.get('events') ?? []) collect(JSON.parse(row));
  return found;
}

beforeAll(async () => {
  dataDir = await mkdtemp(path.join(tmpdir(), 'erasure-disk-'));
  clusterDir = path.join(dataDir, 'postgres');
  server = await startEmbeddedPostgres({
    dataDir,
    persistent: false,
    fast: true,
    onClusterFolderChosen: (folder) => (clusterDir = folder),
  });
  const admin = createPool(server.url, 1);
  await admin.query('create database journey');
  await admin.end();
  const url = withDatabase(server.url, 'journey');
  pool = createPool(url, 20);
  await migrate(pool);
  service = await startTestService(
    {
      RATE_LIMITS: 'off',
      HOOK_TARGET_ALLOWLIST: '127.0.0.1,localhost',
      PUBLIC_URL: 'https://forms.example.com',
    },
    { database: { url, pool, drop: async () => undefined } },
  );
  service.clock.set(START);
  trustCertificatesForTests(service.context, (await selfSignedCertificate()).cert);
  receiver = await startHttpsReceiver();

  tenant = await createTenant(service);
  await createRule(service, tenant.teamId, {
    name: 'Signature to the CRM',
    trigger: 'signature.signed',
    action: { type: 'send_webhook', url: `${receiver.url}/signed` },
  });
  await createRule(service, tenant.teamId, {
    name: 'Thank the client',
    trigger: 'signature.signed',
    action: {
      type: 'send_email',
      subject: 'Thanks {{client_name}}',
      body: 'Dear {{client_name}} ({{client_email}})',
    },
  });
  const subscribed = await apiRequest(service, tenant.apiKey, 'POST', '/automation/subscribe', {
    body: { event: 'signature.signed', target_url: `${receiver.url}/hooks` },
  });
  expect(subscribed.status, JSON.stringify(subscribed.body)).toBe(201);

  const sent = await sentOnboarding(service, tenant, {
    client: {
      name: CANARIES.name,
      email: CANARIES.email,
      notes: CANARIES.notes,
      custom_fields: { favourite: CANARIES.custom },
    } as never,
  });
  clientId = sent.client.id;
  const { fields, steps } = tenant.ids;
  const ok = async (answer: Promise<{ status: number; body: unknown }>, status = 200) => {
    const { status: actual, body } = await answer;
    expect(actual, JSON.stringify(body)).toBe(status);
  };
  await ok(
    portal(service, sent.token, 'PUT', `/answers/${fields.fullName}`, { body: { value: CANARIES.answer } }),
  );
  await ok(portal(service, sent.token, 'POST', `/steps/${steps.about}/submit`));
  await ok(
    uploadFile(service, sent.token, fields.idDocument, {
      name: CANARIES.fileName,
      content: CANARIES.fileBytes,
    }),
    201,
  );
  await ok(
    portal(service, sent.token, 'POST', `/fields/${fields.agreement}/signature`, {
      body: { signer_name: CANARIES.signer, signer_email: CANARIES.email },
    }),
    201,
  );
  await drain(service);
  await advance(service, minutes(5)); // the automation pass: webhook sent, email queued
  await advance(service, 3 * 24 * 3600); // a reminder of the onboarding

  // The journey carried the canaries where they belong (so the checks below can fail).
  const client = await apiRequest(service, tenant.apiKey, 'GET', `/clients/${clientId}`);
  expect(client.body.client).toMatchObject({
    name: CANARIES.name,
    email: CANARIES.email,
    notes: CANARIES.notes,
    custom_fields: { favourite: CANARIES.custom },
  });
  const responses = await apiRequest(
    service,
    tenant.apiKey,
    'GET',
    `/responses?onboarding_id=${sent.onboardingId}`,
  );
  expect(JSON.stringify(responses.body)).toContain(CANARIES.answer);
  expect(JSON.stringify(responses.body)).toContain(CANARIES.signer);
  expect(JSON.stringify(responses.body)).toContain(CANARIES.fileName);
  const emails = await adminRequest(service, 'GET', `/teams/${tenant.teamId}/emails`);
  const kinds = emails.body.emails.map((email: { kind: string }) => email.kind);
  expect(kinds).toEqual(expect.arrayContaining(['invite', 'reminder', 'automation']));
  expect(JSON.stringify(emails.body)).toContain(CANARIES.name);
  const webhook = receiver.requests.find((request) => request.path === '/signed');
  expect(webhook?.body).toContain(CANARIES.signer);
  expect(webhook?.body).toContain(CANARIES.name);
  expect(receiver.requests.some((request) => request.path === '/hooks')).toBe(true);
  const runs = await pool.query('select 1 from automation_runs where team_id = $1', [tenant.teamId]);
  expect(runs.rowCount).toBeGreaterThan(0);

  dumpBefore = await logicalDump();
  erasure = await adminRequest(service, 'POST', `/teams/${tenant.teamId}/clients/${clientId}/erase`);
  await drain(service);
  await pool.query('checkpoint');
}, 120_000);

afterAll(async () => {
  await receiver?.close();
  await service?.stop();
  if (pool && !pool.ending) await pool.end();
  await server?.stop();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

describe('erasure reaches the disk', () => {
  it('answers 202; the client is gone from the API', async () => {
    expect(erasure.status, JSON.stringify(erasure.body)).toBe(202);
    expect((await apiRequest(service, tenant.apiKey, 'GET', `/clients/${clientId}`)).status).toBe(404);
  });

  it('the scan finds what is on disk in plain text (a control row, so the scan below can fail)', async () => {
    const control = Buffer.from(`Controlrow${RUN}`, 'utf8');
    await pool.query('create table scan_control (t text)');
    await pool.query('insert into scan_control values ($1)', [control.toString('utf8')]);
    await pool.query('checkpoint');
    expect((await filesHolding([control])).length).toBeGreaterThan(0);
  });

  it('after CHECKPOINT, without VACUUM, no file of the data directory or WAL holds a canary', async () => {
    const files = await filesUnder(clusterDir);
    expect(files.some((file) => file.includes(`${path.sep}pg_wal${path.sep}`))).toBe(true);
    expect(await filesHolding(NEEDLES)).toEqual([]);
  });

  it('the dump taken before the erasure holds no canary; its data keys open nothing without the KEK', () => {
    expect(dumpHolds(dumpBefore)).toEqual([]);
    const keyRow = (dumpBefore.get('personal_data_keys') ?? [])
      .map((row) => JSON.parse(row) as { subject_id: string; key: string | null; kek_id: string | null })
      .find((row) => row.subject_id === clientId);
    expect(keyRow?.key).toEqual(expect.any(String));
    const wrapped = { key: Buffer.from(keyRow!.key!.slice(2), 'hex'), kekId: keyRow!.kek_id };
    const otherKek = parseKeyRing(generateKeyEncryptionKey());
    expect(() => unwrapDataKey(otherKek, clientId, { ...wrapped, kekId: otherKek.current.id })).toThrow();
    // Known limit (README, "What a backup does and does not protect"): with the KEK that
    // sealed it, this dump's key still opens, until that KEK is rotated out and destroyed.
    const ring = parseKeyRing(TEST_PERSONAL_DATA_KEK);
    expect(unwrapDataKey(ring, clientId, wrapped)).toHaveLength(32);
  });

  it('with the KEK, the database after the erasure opens none of the erased client’s values', async () => {
    const ring = parseKeyRing(TEST_PERSONAL_DATA_KEK);
    const sealed = sealedValuesOf(dumpBefore, clientId);
    expect(await openSealed(pool, sealed, ring)).toEqual(sealed.map(() => null));
    const key = await pool.query('select key from personal_data_keys where subject_id = $1', [clientId]);
    expect(key.rows[0]?.key ?? null).toBeNull();
    const dumpAfter = await logicalDump();
    expect(dumpHolds(dumpAfter)).toEqual([]);
  });
});
