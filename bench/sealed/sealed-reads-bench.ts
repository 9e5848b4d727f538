import { provisionTenant } from '../api/provision.ts';
import type { BenchConfig } from '../lib/config.ts';
import type { Figure } from '../lib/figures.ts';
import type { Progress } from '../lib/progress.ts';
import type { BenchServer } from '../lib/server.ts';
import { startBenchService } from '../lib/bench-service.ts';
import { percentile } from '../lib/stats.ts';
import { PersonalDataVault } from '../../shared/privacy/personal-data-vault.ts';
import { openJsonValues, openTextColumns } from '../../shared/privacy/sealed-columns.ts';

export const SEALED_PART = '10 sealed reads';

const CLIENTS = 200;
const PAGE = 50;
const ROUNDS = 1000;

const COLUMNS = 'id, name, email, company, phone, notes, custom_fields, created_at';

interface Row {
  id: string;
  name: string | null;
  email: string | null;
  company: string | null;
  phone: string | null;
  notes: string | null;
  custom_fields: unknown;
  created_at: Date;
}

/**
 * Part 10: what sealing the clients read model costs a read. The same rows twice on one
 * database: `clients` as the service keeps it (personal fields sealed with each client's key)
 * and a plain twin table holding the opened values. A page of 50 (the list) and one row by
 * id (the get) are read alternately, ROUNDS times each: the sealed reads open their fields as
 * the routes do (sealed-columns.ts, one key read for the page's missing keys, one AES-GCM
 * decryption per field), the plain reads only query. Warm: the service's key cache holds the
 * keys; cold: a vault with an empty cache for every read (one indexed key query per read).
 */
export async function runSealedReadsBench(
  server: BenchServer,
  _config: BenchConfig,
  progress: Progress,
): Promise<{ figures: Figure[]; note: string }> {
  const { service, adminToken } = await startBenchService(server, 'sealed');
  try {
    const tenant = await provisionTenant(service.url, adminToken);
    for (let index = 0; index < CLIENTS; index++) {
      const response = await fetch(`${service.url}/api/v1/clients`, {
        method: 'POST',
        headers: { authorization: `Bearer ${tenant.apiKey}`, 'content-type': 'application/json' },
        body: JSON.stringify({
          name: `Client ${index} Example`,
          email: `client-${index}@bench.example`,
          company: `Company ${index}`,
          phone: '+44 20 7946 0000',
          notes: 'Prefers email; onboarding for the new tax year.',
          custom_fields: { segment: 'smb', referral: `partner-${index % 7}` },
        }),
      });
      if (response.status !== 201) throw new Error(`client ${index}: ${response.status}`);
    }
    const { pool, vault } = service.context;
    await pool.query(`create table bench_plain_clients (like clients including all)`);
    const sealedRows = (
      await pool.query<Row>(`select ${COLUMNS} from clients where team_id = $1`, [tenant.teamId])
    ).rows;
    const opened = await openRows(vault, sealedRows);
    await pool.query(
      `insert into bench_plain_clients (id, team_id, name, email, company, phone, notes, custom_fields,
         locale, date_format, timezone, created_at, position)
       select r.id, $1, r.name, r.email, r.company, r.phone, r.notes, r.custom_fields, c.locale, c.date_format,
              c.timezone, c.created_at, c.position
       from jsonb_to_recordset($2::jsonb) as r(id uuid, name text, email text, company text, phone text,
         notes text, custom_fields jsonb)
       join clients c on c.id = r.id`,
      [tenant.teamId, JSON.stringify(opened)],
    );
    await pool.query('analyze clients; analyze bench_plain_clients');
    const ids = sealedRows.map((row) => row.id);

    const listQuery = (table: string) =>
      pool.query<Row>(
        `select ${COLUMNS} from ${table} where team_id = $1 order by created_at desc, position desc limit ${PAGE}`,
        [tenant.teamId],
      );
    const getQuery = (table: string, id: string) =>
      pool.query<Row>(`select ${COLUMNS} from ${table} where id = $1 and team_id = $2`, [id, tenant.teamId]);
    const coldVault = () => new PersonalDataVault(pool);

    const timings: Record<string, number[]> = {};
    const time = async (name: string, work: () => Promise<unknown>) => {
      const started = performance.now();
      await work();
      (timings[name] ??= []).push(performance.now() - started);
    };
    const phase = progress.phase(`sealed vs plain reads, ${ROUNDS} rounds`, ROUNDS);
    for (let round = 0; round < ROUNDS; round++) {
      const id = ids[round % ids.length]!;
      const reads: Array<[string, () => Promise<unknown>]> = [
        ['list plain', () => listQuery('bench_plain_clients')],
        ['list sealed warm', async () => openRows(vault, (await listQuery('clients')).rows)],
        ['list sealed cold', async () => openRows(coldVault(), (await listQuery('clients')).rows)],
        ['get plain', () => getQuery('bench_plain_clients', id)],
        ['get sealed warm', async () => openRows(vault, (await getQuery('clients', id)).rows)],
        ['get sealed cold', async () => openRows(coldVault(), (await getQuery('clients', id)).rows)],
      ];
      // A new order every round: no read always follows the same one (caches, GC).
      for (const [name, read] of shuffled(reads, round)) await time(name, read);
      phase.update(round + 1);
    }
    const p50 = (name: string) => percentile(timings[name]!, 50);
    phase.done(
      `list p50 plain ${p50('list plain').toFixed(3)} ms, sealed ${p50('list sealed warm').toFixed(3)} ms; ` +
        `get p50 plain ${p50('get plain').toFixed(3)} ms, sealed ${p50('get sealed warm').toFixed(3)} ms`,
    );
    const figure = (name: string, key: string): Figure => ({
      part: SEALED_PART,
      name,
      value: p50(key),
      unit: 'ms',
      digits: 3,
      note: `p50 of ${ROUNDS}; p99 ${percentile(timings[key]!, 99).toFixed(3)} ms`,
    });
    const ratio = (name: string, sealed: string, plain: string): Figure => ({
      part: SEALED_PART,
      name,
      value: p50(sealed) / p50(plain),
      unit: '×',
      digits: 2,
      note: 'same run, p50 / p50',
    });
    const figures: Figure[] = [
      figure(`list of ${PAGE} clients, plain columns`, 'list plain'),
      figure(`list of ${PAGE} clients, sealed (keys cached)`, 'list sealed warm'),
      figure(`list of ${PAGE} clients, sealed (empty key cache)`, 'list sealed cold'),
      figure('client by id, plain columns', 'get plain'),
      figure('client by id, sealed (key cached)', 'get sealed warm'),
      figure('client by id, sealed (empty key cache)', 'get sealed cold'),
      ratio('list sealed / plain (keys cached)', 'list sealed warm', 'list plain'),
      {
        part: SEALED_PART,
        name: 'opening added per client row (keys cached)',
        value: ((p50('list sealed warm') - p50('list plain')) / PAGE) * 1000,
        unit: 'µs',
        digits: 1,
        note: `six fields, one AES-256-GCM decryption each; (list sealed − list plain) / ${PAGE}`,
      },
      ratio('list sealed / plain (empty key cache)', 'list sealed cold', 'list plain'),
      ratio('get sealed / plain (key cached)', 'get sealed warm', 'get plain'),
      ratio('get sealed / plain (empty key cache)', 'get sealed cold', 'get plain'),
    ];
    const note =
      `Part 10: ${CLIENTS} clients created through POST /api/v1/clients (six personal fields each, sealed with ` +
      `the client's key by the projection copying the event's envelopes), and a plain twin table of the opened ` +
      `values on the same database. In the bench process, ${ROUNDS} rounds, each in a new order: a page of ${PAGE} ` +
      `(newest first) and one row by id, from each table; the sealed reads open every field as the routes do ` +
      `(shared/privacy/sealed-columns.ts: one key query for the keys missing from the cache, one AES-256-GCM ` +
      `decryption per field). "Keys cached": the service's vault; "empty key cache": a new vault per read. ` +
      `Query plus opening, without HTTP and JSON, so the ratio is the read model's own cost.`;
    return { figures, note };
  } finally {
    await service.stop();
  }
}

async function openRows(vault: Pick<PersonalDataVault, 'openAll'>, rows: Row[]) {
  const [texts, custom] = await Promise.all([
    openTextColumns(vault, rows, ['name', 'email', 'company', 'phone', 'notes']),
    openJsonValues(
      vault,
      rows.map((row) => row.custom_fields),
    ),
  ]);
  return texts.map((row, index) => ({ ...row, custom_fields: custom[index] }));
}

/** The reads in an order of the round (a fixed pseudo-random permutation, the same every run). */
function shuffled<T>(items: T[], round: number): T[] {
  const result = [...items];
  let seed = round * 2654435761 + 1;
  for (let index = result.length - 1; index > 0; index--) {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    const other = seed % (index + 1);
    [result[index], result[other]] = [result[other]!, result[index]!];
  }
  return result;
}
