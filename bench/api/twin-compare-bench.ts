import { runChild } from '../lib/child.ts';
import type { BenchConfig } from '../lib/config.ts';
import type { Figure, Target } from '../lib/figures.ts';
import type { Progress } from '../lib/progress.ts';
import type { BenchServer } from '../lib/server.ts';
import { startBenchService } from '../lib/bench-service.ts';
import { median, runConcurrently } from '../lib/stats.ts';
import { createTwinSchema, startTwinService } from '../crud-twin/twin-service.ts';
import { provisionTwinTenant } from '../crud-twin/twin-tenant.ts';
import type { LoadInput, LoadOutput } from './load-child.ts';
import { provisionTenant, type Tenant } from './provision.ts';

const PART = '3 API vs CRUD twin';
/** Commands in flight: below both pools (20 connections) as in the service's own part 3 before. */
const COMMAND_CONNECTIONS = 16;
const QUERY_CONNECTIONS = 64;
/** Saturation rounds per side; sides alternate, the first side changes every round. */
const ROUNDS = 2;
/** Latency is taken at this share of the twin's highest sustained rate. */
const LOAD_SHARE = 0.7;

type Side = 'ours' | 'twin';
type Kind = 'create' | 'send' | 'get' | 'list';

interface Target_ {
  side: Side;
  url: string;
  tenant: Tenant;
  ids: string[];
}

/** Targets of the ratios (issue "Performance: event sourcing at the price of plain CRUD"). */
const RATE_TARGET: Record<Kind, number> = { create: 0.6, send: 0.5, get: 0.9, list: 0.9 };
const P99_TARGET: Partial<Record<Kind, number>> = { create: 1.5, send: 1.5 };

/**
 * Part 3: the service (services/app/runtime.ts, in this process) beside its CRUD twin
 * (bench/crud-twin, in this process too), each on its own database of the bench's server
 * with the same tenant. For create, send, get by id and list: the highest rate each side
 * sustains with zero errors (closed loop: every connection sends its next request when the
 * answer comes), sides alternating round by round; then p50/p99 of both at 70% of the
 * twin's highest rate (open loop, fixed rate). Ratios are ours / twin.
 */
export async function runTwinCompareBench(
  server: BenchServer,
  config: BenchConfig,
  progress: Progress,
): Promise<{ figures: Figure[] }> {
  const { service, adminToken } = await startBenchService(server, 'api');
  const twinUrl = await server.createDatabase('bench_twin');
  await createTwinSchema(twinUrl);
  const twin = await startTwinService(twinUrl);
  try {
    const oursTenant = await provisionTenant(service.url, adminToken);
    const { rows } = await service.context.pool.query<{ snapshot: { name: string } }>(
      'select snapshot from templates where id = $1',
      [oursTenant.templateId],
    );
    const snapshot = rows[0]!.snapshot;
    const twinTenant = await provisionTwinTenant(twinUrl, { name: snapshot.name, snapshot });
    const sides: Record<Side, Target_> = {
      ours: { side: 'ours', url: service.url, tenant: oursTenant, ids: [] },
      twin: { side: 'twin', url: twin.url, tenant: twinTenant, ids: [] },
    };
    progress.log(`  service at ${service.url}, twin at ${twin.url}, same tenant on both`);
    await sameAnswers(sides.ours, sides.twin);

    const load = async (target: Target_, kind: Kind, rate: number): Promise<LoadOutput> => {
      const input = scenario(target, kind, rate, config.apiSeconds);
      const phase = progress.phase(
        `${target.side} ${kind} ${rate === 0 ? 'saturated' : `@${rate}/s`}`,
        // Saturated: the bar's length is a guess; the figures come from the answers.
        (rate === 0 ? 500 : rate) * config.apiSeconds,
        'req',
      );
      const result = await runChild<LoadInput, number, LoadOutput>(
        new URL('./load-child.ts', import.meta.url),
        input,
        (done) => phase.update(done),
      );
      phase.done(
        `${Math.round(result.throughput)} req/s, p50 ${result.p50.toFixed(1)} ms, p99 ${result.p99.toFixed(1)} ms, ` +
          `errors ${errorsOf(result)}`,
      );
      if (kind === 'create') target.ids.push(...result.ids);
      return result;
    };

    const figures: Figure[] = [];
    const highest: Record<Side, Partial<Record<Kind, number>>> = { ours: {}, twin: {} };
    for (const kind of ['create', 'send', 'get', 'list'] as const) {
      if (kind === 'send') await equalize(sides, progress);
      const rates: Record<Side, number[]> = { ours: [], twin: [] };
      const failed: Record<Side, number> = { ours: 0, twin: 0 };
      for (let round = 0; round < ROUNDS; round++) {
        const order: Side[] = round % 2 === 0 ? ['ours', 'twin'] : ['twin', 'ours'];
        for (const side of order) {
          const result = await load(sides[side], kind, 0);
          if (errorsOf(result) === 0) rates[side].push(result.throughput);
          else failed[side]++;
        }
      }
      for (const side of ['ours', 'twin'] as const) {
        highest[side][kind] = rates[side].length > 0 ? Math.max(...rates[side]) : Number.NaN;
        figures.push({
          part: PART,
          name: `${kind} highest rate, ${side}`,
          value: highest[side][kind]!,
          unit: 'req/s',
          note: `best of ${ROUNDS} closed-loop rounds with zero errors (${failed[side]} rounds had errors); ${connectionsOf(kind)} connections`,
        });
      }
      figures.push({
        part: PART,
        name: `${kind} highest rate, ours / twin`,
        value: highest.ours[kind]! / highest.twin[kind]!,
        unit: '×',
        digits: 2,
        target: { op: '>=', value: RATE_TARGET[kind] },
      });
    }

    for (const kind of ['create', 'send', 'get', 'list'] as const) {
      const rate = Math.max(1, Math.round(highest.twin[kind]! * LOAD_SHARE));
      if (!Number.isFinite(rate)) continue;
      const p99: Record<Side, number[]> = { ours: [], twin: [] };
      const p50: Record<Side, number[]> = { ours: [], twin: [] };
      const errors: Record<Side, number> = { ours: 0, twin: 0 };
      for (const side of kind === 'create' || kind === 'get'
        ? (['ours', 'twin'] as const)
        : (['twin', 'ours'] as const)) {
        const result = await load(sides[side], kind, rate);
        p50[side].push(result.p50);
        p99[side].push(result.p99);
        errors[side] += errorsOf(result);
      }
      for (const side of ['ours', 'twin'] as const) {
        figures.push(
          {
            part: PART,
            name: `${kind} @${rate}/s p50, ${side}`,
            value: median(p50[side]),
            unit: 'ms',
            digits: 1,
          },
          {
            part: PART,
            name: `${kind} @${rate}/s p99, ${side}`,
            value: median(p99[side]),
            unit: 'ms',
            digits: 1,
            note: `errors ${errors[side]}`,
          },
        );
      }
      const target: Target | undefined = P99_TARGET[kind]
        ? { op: '<=', value: P99_TARGET[kind]! }
        : undefined;
      figures.push({
        part: PART,
        name: `${kind} p99 at 70% of the twin's highest rate, ours / twin`,
        value: median(p99.ours) / median(p99.twin),
        unit: '×',
        digits: 2,
        target,
      });
    }
    return { figures };
  } finally {
    await Promise.race([service.stop(), new Promise((resolve) => setTimeout(resolve, 30_000).unref())]);
    await twin.stop();
  }
}

const errorsOf = (result: LoadOutput) => result.non2xx + result.errors + result.timeouts;
const connectionsOf = (kind: Kind) =>
  kind === 'create' || kind === 'send' ? COMMAND_CONNECTIONS : QUERY_CONNECTIONS;

function scenario(target: Target_, kind: Kind, rate: number, seconds: number): LoadInput {
  const auth = { authorization: `Bearer ${target.tenant.apiKey}` };
  const json = { ...auth, 'content-type': 'application/json' };
  const common = { url: target.url, rate, seconds, connections: connectionsOf(kind) };
  switch (kind) {
    case 'create':
      return {
        ...common,
        method: 'POST',
        paths: ['/api/v1/onboardings'],
        body: JSON.stringify({ template_id: target.tenant.templateId, client_id: target.tenant.clientId }),
        headers: json,
        collectIds: true,
      };
    case 'send':
      return { ...common, method: 'POST', paths: sendPaths(target), body: '{}', headers: json };
    case 'get':
      return {
        ...common,
        method: 'GET',
        paths: target.ids.map((id) => `/api/v1/onboardings/${id}`),
        headers: auth,
      };
    case 'list':
      return { ...common, method: 'GET', paths: ['/api/v1/onboardings?limit=50'], headers: auth };
  }
}

const sendPaths = (target: Target_) => target.ids.map((id) => `/api/v1/onboardings/${id}/send`);

/**
 * Both sides list and get over the same number of onboardings: the side that created fewer
 * under load gets the difference created now, unmeasured.
 */
async function equalize(sides: Record<Side, Target_>, progress: Progress): Promise<void> {
  const [fewer, more] =
    sides.ours.ids.length < sides.twin.ids.length ? [sides.ours, sides.twin] : [sides.twin, sides.ours];
  const missing = more.ids.length - fewer.ids.length;
  if (missing <= 0) return;
  progress.log(
    `  ${fewer.side}: ${missing} more onboardings created (unmeasured) so both sides hold ${more.ids.length}`,
  );
  await runConcurrently(missing, COMMAND_CONNECTIONS, async () => {
    const response = await fetch(`${fewer.url}/api/v1/onboardings`, {
      method: 'POST',
      headers: { authorization: `Bearer ${fewer.tenant.apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ template_id: fewer.tenant.templateId, client_id: fewer.tenant.clientId }),
    });
    const body = (await response.json()) as { onboarding?: { id: string } };
    if (response.status !== 201 || !body.onboarding) throw new Error(`create answered ${response.status}`);
    fewer.ids.push(body.onboarding.id);
  });
}

async function call(target: Target_, method: string, path: string, body?: unknown) {
  const response = await fetch(`${target.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${target.tenant.apiKey}`, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

/** The shape of an answer: its keys, recursively (values differ: ids, times, tokens). */
function shape(value: unknown): unknown {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return typeof value;
  return Object.fromEntries(
    Object.keys(value)
      .sort()
      .map((key) => [
        key,
        key === 'template_snapshot' ? 'object' : shape((value as Record<string, unknown>)[key]),
      ]),
  );
}

/** Before any load: create, send and get answer with the same statuses and shapes on both sides. */
async function sameAnswers(ours: Target_, twin: Target_): Promise<void> {
  const answers = await Promise.all(
    [ours, twin].map(async (target) => {
      const body = { template_id: target.tenant.templateId, client_id: target.tenant.clientId };
      const created = await call(target, 'POST', '/api/v1/onboardings', body);
      const id = (created.body.onboarding as { id: string }).id;
      const sent = await call(target, 'POST', `/api/v1/onboardings/${id}/send`, {});
      const got = await call(target, 'GET', `/api/v1/onboardings/${id}`);
      const listed = await call(target, 'GET', '/api/v1/onboardings?limit=50');
      return JSON.stringify(
        [created, sent, got, listed].map((answer) => [answer.status, shape(answer.body)]),
      );
    }),
  );
  if (answers[0] !== answers[1])
    throw new Error(`the twin answers differently: ours ${answers[0]}, twin ${answers[1]}`);
}
