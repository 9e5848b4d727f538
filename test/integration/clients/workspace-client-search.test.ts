import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { indexMissingClients } from '../../../services/clients/client-search-job.ts';
import { tablesHolding } from '../../helpers/personal-data.ts';
import { startTestService, type TestService } from '../../helpers/service.ts';
import { Browser, signUp } from '../workspace-fixtures.ts';

/*
 * Issue 26, finding 8: the workspace's client search reads a blind index of words
 * (services/clients/client-search-index.ts), never every client of the team. Over real HTTP
 * and PostgreSQL: what matches (words and word starts of the name, email and company,
 * accents and case ignored), teams apart, changes and erasure kept in step, no plain word in
 * the index, the index job for clients without tokens, and a page opens only its clients.
 */

let service: TestService;
let owner: Browser;
let teamId: string;
let other: Browser;
const ids: Record<string, string> = {};

async function create(who: Browser, body: Record<string, unknown>) {
  const answer = await who.call('POST', '/workspace/v1/clients', body);
  expect(answer.status, JSON.stringify(answer.body)).toBe(201);
  return answer.body.client.id as string;
}

async function search(who: Browser, q: string, extra = ''): Promise<string[]> {
  const answer = await who.call('GET', `/workspace/v1/clients?q=${encodeURIComponent(q)}${extra}`);
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  return answer.body.data.map((client: { name: string }) => client.name).sort();
}

beforeAll(async () => {
  service = await startTestService({ RATE_LIMITS: 'off' });
  ({ owner, teamId } = await signUp(service, 'search-owner@example.com', 'a long search passphrase'));
  ({ owner: other } = await signUp(service, 'search-other@example.com', 'another search passphrase'));
  ids.ada = await create(owner, {
    name: 'Ada Lovelace',
    email: 'ada@analytical.example',
    company: 'Analytical Engines',
  });
  ids.zoe = await create(owner, {
    name: 'Zoë Ångström',
    email: 'zoe.a@nordic.example',
    company: 'Café Müller',
  });
  ids.al = await create(owner, { name: 'Al Jolson', email: 'al@singers.example', company: null });
  ids.alice = await create(owner, {
    name: 'Alice Liddell',
    email: 'alice@wonder.example',
    company: 'Looking Glass',
  });
  await create(other, { name: 'Ada Other', email: 'ada@analytical.example', company: 'Analytical Engines' });
}, 120_000);
afterAll(async () => {
  await service?.stop();
});

describe('workspace client search (blind index of words)', () => {
  it('finds by words and word starts of the name, email and company; accents and case ignored', async () => {
    expect(await search(owner, 'lovelace')).toEqual(['Ada Lovelace']);
    expect(await search(owner, 'LOVEL')).toEqual(['Ada Lovelace']);
    expect(await search(owner, 'analyt')).toEqual(['Ada Lovelace']); // email and company
    expect(await search(owner, 'ada@analytical.example')).toEqual(['Ada Lovelace']);
    expect(await search(owner, 'zoe')).toEqual(['Zoë Ångström']);
    expect(await search(owner, 'angstr')).toEqual(['Zoë Ångström']);
    expect(await search(owner, 'cafe MULLER')).toEqual(['Zoë Ångström']);
    expect(await search(owner, 'nordic')).toEqual(['Zoë Ångström']);
    expect(await search(owner, 'glass')).toEqual(['Alice Liddell']);
  });

  it('every word must match; the middle of a word does not; 1-2 letters match a whole word only', async () => {
    expect(await search(owner, 'ada glass')).toEqual([]);
    expect(await search(owner, 'ada engines')).toEqual(['Ada Lovelace']);
    expect(await search(owner, 'velace')).toEqual([]);
    expect(await search(owner, 'al')).toEqual(['Al Jolson']);
    expect(await search(owner, 'ali')).toEqual(['Alice Liddell']);
    expect(await search(owner, '@@@')).toEqual([]);
    expect(await search(owner, 'nobody')).toEqual([]);
  });

  it('answers pages and the total of the matches', async () => {
    const first = await owner.call('GET', `/workspace/v1/clients?q=example&limit=2&offset=0`);
    const second = await owner.call('GET', `/workspace/v1/clients?q=example&limit=2&offset=2`);
    expect(first.body.total).toBe(4);
    expect(second.body.total).toBe(4);
    const names = [...first.body.data, ...second.body.data].map((client: { name: string }) => client.name);
    expect(new Set(names).size).toBe(4);
  });

  it('teams are apart: the same words of another team find only its own clients, under other tokens', async () => {
    expect(await search(other, 'ada analytical')).toEqual(['Ada Other']);
    expect(await search(other, 'lovelace')).toEqual([]);
    const { rows } = await service.database.pool.query<{ shared: number }>(
      `select count(*)::int as shared from client_search_tokens a join client_search_tokens b
         on a.token = b.token and a.team_id <> b.team_id`,
    );
    expect(rows[0]!.shared).toBe(0);
  });

  it('a change of name, email or company is searchable at once; the old words are not', async () => {
    const changed = await owner.call('PATCH', `/workspace/v1/clients/${ids.alice}`, {
      name: 'Alice Pleasance',
      company: 'Christ Church',
    });
    expect(changed.status).toBe(200);
    expect(await search(owner, 'pleas')).toEqual(['Alice Pleasance']);
    expect(await search(owner, 'liddell')).toEqual([]);
    expect(await search(owner, 'glass')).toEqual([]);
    expect(await search(owner, 'wonder')).toEqual(['Alice Pleasance']); // the email stayed
  });

  it('the index table holds no plain word (nor its hex), only 16-byte tokens', async () => {
    const words = ['lovelace', 'analytical', 'angstrom', 'muller', 'jolson', 'wonder', 'ada@analytical'];
    const needles = [...words, ...words.map((word) => Buffer.from(word).toString('hex'))];
    const holding = await tablesHolding(service.database.pool, needles);
    expect(holding).not.toContain('client_search_tokens');
    expect(holding).not.toContain('client_search_documents');
    expect(holding).not.toContain('client_email_index');
    const { rows } = await service.database.pool.query<{ lengths: number[] }>(
      'select array_agg(distinct length(token)) as lengths from client_search_tokens',
    );
    expect(rows[0]!.lengths).toEqual([16]);
  });

  it('erasure removes the client from the index: no row left, its words find nothing', async () => {
    expect(await search(owner, 'zoe')).toEqual(['Zoë Ångström']);
    const erased = await owner.call('POST', `/workspace/v1/clients/${ids.zoe}/erase`);
    expect(erased.status).toBe(200);
    const { rows } = await service.database.pool.query<{ tokens: number; documents: number }>(
      `select (select count(*)::int from client_search_tokens where client_id = $1) as tokens,
              (select count(*)::int from client_search_documents where client_id = $1) as documents`,
      [ids.zoe],
    );
    expect(rows[0]).toEqual({ tokens: 0, documents: 0 });
    for (const words of ['zoe', 'angstrom', 'cafe', 'nordic']) expect(await search(owner, words)).toEqual([]);
    // The index job does not bring an erased client back.
    await indexMissingClients(service.context);
    expect(await search(owner, 'zoe')).toEqual([]);
  });

  it('the index job indexes clients without tokens (an install from before the index), once', async () => {
    await service.database.pool.query(
      `delete from client_search_tokens where team_id = $1;
       delete from client_search_documents where team_id = $1`.replaceAll('$1', `'${teamId}'`),
    );
    expect(await search(owner, 'lovelace')).toEqual([]);
    const [first, second] = await Promise.all([
      indexMissingClients(service.context),
      indexMissingClients(service.context),
    ]);
    expect(first + second).toBe(3); // Ada, Al, Alice (Zoë is erased)
    expect(await search(owner, 'lovelace')).toEqual(['Ada Lovelace']);
    expect(await search(owner, 'pleas')).toEqual(['Alice Pleasance']);
    expect(await indexMissingClients(service.context)).toBe(0);
  });

  it('60 concurrent creates, then a search opens only the page it answers, never the whole team', async () => {
    await Promise.all(
      Array.from({ length: 60 }, (_, index) =>
        create(owner, {
          name: `Bulk Person ${index}`,
          email: `bulk${index}@bulk.example`,
          company: 'Bulkco',
        }),
      ),
    );
    const openAll = vi.spyOn(service.context.vault, 'openAll');
    const answer = await owner.call('GET', '/workspace/v1/clients?q=bulkco&limit=5');
    expect(answer.body.total).toBe(60);
    expect(answer.body.data).toHaveLength(5);
    const opened = openAll.mock.calls.reduce((sum, [values]) => sum + values.length, 0);
    openAll.mockRestore();
    expect(opened).toBeLessThanOrEqual(5 * 6);
  });
});
