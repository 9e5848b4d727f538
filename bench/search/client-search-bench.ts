import { randomBytes } from 'node:crypto';
import { SCOPES } from '../../services/access/contract/scopes.ts';
import type { BenchConfig } from '../lib/config.ts';
import type { Figure } from '../lib/figures.ts';
import type { Progress } from '../lib/progress.ts';
import type { BenchServer } from '../lib/server.ts';
import { startBenchService } from '../lib/bench-service.ts';
import { percentile, runConcurrently } from '../lib/stats.ts';

export const SEARCH_PART = '11 client search';

/** Clients of the team at BENCH_SCALE=1 (the 10,000), searchers at once, seconds per phase. */
const CLIENTS = 10_000;
const SEARCHERS = 12;
const PHASE_SECONDS = 10;
const HEALTH_POLL_MS = 10;

const FIRST = ['Ada', 'Grace', 'Alan', 'Zoë', 'Émile', 'Katherine', 'Linus', 'Margaret', 'Dennis', 'Barbara'];
const LAST = [
  'Lovelace',
  'Hopper',
  'Turing',
  'Ångström',
  'Zola',
  'Johnson',
  'Torvalds',
  'Hamilton',
  'Ritchie',
];
const COMPANY = ['Analytical', 'Navy', 'Bletchley', 'Nordic', 'Café', 'Langley', 'Kernel', 'Apollo', 'Bell'];

/** The queries the searchers cycle through: whole words, word starts, two words, an email. */
const QUERIES = [
  'lovelace',
  'hop',
  'turing bletchley',
  'angstr',
  'cafe',
  'client-42',
  'ham apollo',
  'zola',
  'ritch',
];

/**
 * Part 11: the workspace's client search (GET /workspace/v1/clients?q=, the blind index of
 * words, services/clients/client-search-index.ts) over one team of CLIENTS clients created
 * through POST /api/v1/clients. Three phases of PHASE_SECONDS each, one after the other, with
 * /healthz polled every HEALTH_POLL_MS throughout: /healthz alone; SEARCHERS searches at once in
 * closed loops (the 12); the same SEARCHERS loops on the list without a search (the
 * peer). Figures: search p50/p99, /healthz p99 while searching, and the ratios against the
 * peers of the same run (/healthz alone, the list without search).
 */
export async function runClientSearchBench(
  server: BenchServer,
  config: BenchConfig,
  progress: Progress,
): Promise<{ figures: Figure[]; note: string }> {
  const clients = Math.max(200, Math.round(CLIENTS * config.scale));
  const seconds = Math.max(2, Math.round(PHASE_SECONDS * Math.min(1, config.scale * 2)));
  const { service, adminToken } = await startBenchService(server, 'search');
  try {
    const url = service.url;
    const email = `search-owner-${randomBytes(4).toString('hex')}@bench.example`;
    const password = `bench ${randomBytes(12).toString('hex')} passphrase`;
    await send(url, 'POST', '/workspace/v1/sign-up', {
      body: { team_name: 'Search bench', name: 'Olive Owner', email, password },
    });
    const session = await fetch(`${url}/workspace/v1/sessions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email, password }),
    });
    if (session.status !== 200) throw new Error(`sign-in: ${session.status} ${await session.text()}`);
    const cookie = session.headers.get('set-cookie')!.split(';')[0]!;
    const teamId = ((await session.json()) as { team: { id: string } }).team.id;
    const key = await send(url, 'POST', `/admin/v1/teams/${teamId}/api-keys`, {
      token: adminToken,
      body: { name: 'search bench', scopes: [...SCOPES] },
    });

    const filling = progress.phase(`${clients} clients`, clients);
    await runConcurrently(
      clients,
      16,
      async (index) => {
        await send(url, 'POST', '/api/v1/clients', {
          token: key.secret,
          body: {
            name: `${FIRST[index % FIRST.length]} ${LAST[(index * 7) % LAST.length]} ${index}`,
            email: `client-${index}@bench.example`,
            company: `${COMPANY[(index * 3) % COMPANY.length]} Ltd`,
          },
        });
      },
      (done) => filling.update(done),
    );
    filling.done(`${clients} clients created`);
    // Steady state: statistics and the visibility map as autovacuum would leave them.
    await service.context.pool.query('vacuum analyze client_search_tokens, clients');

    const get = async (path: string) => {
      const started = performance.now();
      const response = await fetch(`${url}${path}`, { headers: { cookie } });
      await response.arrayBuffer();
      if (response.status !== 200) throw new Error(`GET ${path}: ${response.status}`);
      return performance.now() - started;
    };

    /** /healthz polled while `load` runs (or for `seconds` alone); both latencies kept. */
    const phase = async (name: string, load: ((until: number) => Promise<number[]>) | undefined) => {
      const bar = progress.phase(name, seconds);
      const until = performance.now() + seconds * 1000;
      const health: number[] = [];
      const poll = (async () => {
        while (performance.now() < until) {
          health.push(await get('/healthz'));
          bar.update(Math.min(seconds, seconds - (until - performance.now()) / 1000));
          await new Promise((resolve) => setTimeout(resolve, HEALTH_POLL_MS));
        }
      })();
      const [requests] = await Promise.all([load ? load(until) : Promise.resolve([]), poll]);
      bar.done(
        `${name}: /healthz p99 ${percentile(health, 99).toFixed(1)} ms` +
          (requests.length
            ? `, requests p99 ${percentile(requests, 99).toFixed(1)} ms (${requests.length})`
            : ''),
      );
      return { health, requests };
    };
    const loops = (path: (turn: number) => string) => async (until: number) => {
      const times: number[] = [];
      await Promise.all(
        Array.from({ length: SEARCHERS }, async (_, searcher) => {
          for (let turn = searcher; performance.now() < until; turn += SEARCHERS)
            times.push(await get(path(turn)));
        }),
      );
      return times;
    };

    // Warm-up (unmeasured): the key cache, the plans.
    for (const query of QUERIES) await get(`/workspace/v1/clients?q=${encodeURIComponent(query)}&limit=20`);
    const alone = await phase('/healthz alone', undefined);
    const searching = await phase(
      `${SEARCHERS} searches at once`,
      loops(
        (turn) => `/workspace/v1/clients?q=${encodeURIComponent(QUERIES[turn % QUERIES.length]!)}&limit=20`,
      ),
    );
    const listing = await phase(
      `${SEARCHERS} lists at once (no search)`,
      loops((turn) => `/workspace/v1/clients?limit=20&offset=${(turn * 20) % 200}`),
    );

    const p = (values: number[], at: number) => percentile(values, at);
    const figure = (name: string, value: number, note: string, extra: Partial<Figure> = {}): Figure => ({
      part: SEARCH_PART,
      name,
      value,
      unit: 'ms',
      digits: 1,
      note,
      ...extra,
    });
    const figures: Figure[] = [
      figure(
        'search p50',
        p(searching.requests, 50),
        `${searching.requests.length} searches, ${SEARCHERS} at once`,
      ),
      figure(
        'search p99',
        p(searching.requests, 99),
        `${clients.toLocaleString('en-US')} clients in the team`,
      ),
      figure('/healthz p99 while searching', p(searching.health, 99), `${searching.health.length} polls`),
      figure('/healthz p99 alone', p(alone.health, 99), `${alone.health.length} polls`),
      figure('/healthz p99 while listing', p(listing.health, 99), `${listing.health.length} polls`),
      figure(
        'list (no search) p99',
        p(listing.requests, 99),
        `${listing.requests.length} lists, ${SEARCHERS} at once`,
      ),
      {
        part: SEARCH_PART,
        name: '/healthz p99 while searching / alone',
        value: p(searching.health, 99) / p(alone.health, 99),
        unit: '×',
        digits: 2,
        note: 'same run',
      },
      {
        part: SEARCH_PART,
        name: 'search p99 / list p99',
        value: p(searching.requests, 99) / p(listing.requests, 99),
        unit: '×',
        digits: 2,
        note: 'same run, same concurrency, page of 20',
      },
    ];
    const note =
      `Part 11: one team of ${clients.toLocaleString('en-US')} clients made through POST /api/v1/clients ` +
      `(name, email and company; accents in some). Three phases of ${seconds} s, /healthz polled every ` +
      `${HEALTH_POLL_MS} ms in each: alone; ${SEARCHERS} workspace searches at once in closed loops ` +
      `(GET /workspace/v1/clients?q=…&limit=20 cycling ${QUERIES.length} queries: words, word starts, two words); ` +
      `${SEARCHERS} lists without a search at once (the peer). The search reads the blind index of words and opens ` +
      `only the page it answers.`;
    return { figures, note };
  } finally {
    await service.stop();
  }
}

async function send(
  url: string,
  method: string,
  path: string,
  { token, body }: { token?: string; body?: unknown } = {},
): Promise<any> {
  const response = await fetch(`${url}${path}`, {
    method,
    headers: {
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  if (response.status >= 300) throw new Error(`${method} ${path}: ${response.status} ${text}`);
  return text ? JSON.parse(text) : undefined;
}
