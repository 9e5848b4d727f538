import { randomUUID } from 'node:crypto';
import type { RunningService } from '../../services/app/runtime.ts';
import { runChild } from '../lib/child.ts';
import type { BenchConfig } from '../lib/config.ts';
import type { Figure, Target } from '../lib/figures.ts';
import type { Progress } from '../lib/progress.ts';
import type { BenchServer } from '../lib/server.ts';
import { startBenchService } from '../lib/bench-service.ts';
import type { LoadInput, LoadOutput } from './load-child.ts';
import { listOnboardingIds, provisionTenant } from './provision.ts';

const PART = '3 API';
/**
 * Connections of the command scenarios: at most this many commands in flight. Kept below
 * the service's pool (20 connections, services/app/runtime.ts): a command holds its
 * transaction's connection while it reads the stream through a second one (see
 * bench/analysis.md), so 20 concurrent commands deadlock the pool.
 */
const COMMAND_CONNECTIONS = 16;
const QUERY_CONNECTIONS = 64;
const STOP_TIMEOUT_MS = 30_000;

/** The routes part 3 drives; while one is missing the part reports "not available yet". */
const ROUTES: { method: 'GET' | 'POST'; url: string }[] = [
  { method: 'POST', url: '/admin/v1/teams' },
  { method: 'POST', url: `/admin/v1/teams/${randomUUID()}/api-keys` },
  { method: 'POST', url: `/admin/v1/teams/${randomUUID()}/templates` },
  { method: 'POST', url: '/api/v1/clients' },
  { method: 'POST', url: '/api/v1/onboardings' },
  { method: 'POST', url: `/api/v1/onboardings/${randomUUID()}/send` },
  { method: 'GET', url: '/api/v1/onboardings' },
  { method: 'GET', url: `/api/v1/onboardings/${randomUUID()}` },
];

/** A route exists when the service answers anything but its generic 404 (code not_found). */
async function missingRoutes(service: RunningService): Promise<string[]> {
  const missing: string[] = [];
  for (const route of ROUTES) {
    const answer = await service.app.inject({ method: route.method, url: route.url });
    const code = (() => {
      try {
        return (answer.json() as { code?: string }).code;
      } catch {
        return undefined;
      }
    })();
    if (answer.statusCode === 404 && code === 'not_found') missing.push(`${route.method} ${route.url}`);
  }
  return missing;
}

interface Scenario {
  key: string;
  label: string;
  method: 'GET' | 'POST';
  paths: string[];
  body?: string;
  rate: number;
  connections: number;
  collectIds?: boolean;
  p99Target?: Target;
  errorTarget?: boolean;
}

/**
 * Part 3: the service started in-process (services/app/runtime.ts startService) on a database
 * of the bench's server with RATE_LIMITS=off, a tenant provisioned through the operator
 * API, then autocannon (in a child process) at fixed rates: create, send, list, get.
 */
export async function runApiBench(
  server: BenchServer,
  config: BenchConfig,
  progress: Progress,
): Promise<{ figures: Figure[]; available: boolean; note?: string }> {
  const { service, adminToken } = await startBenchService(server, 'api');
  try {
    const missing = await missingRoutes(service);
    if (missing.length > 0) {
      const note = `not available yet: ${missing.join(', ')} missing`;
      progress.log(`part 3 skipped, ${note}`);
      return { figures: notAvailable(note), available: false, note };
    }
    const base = service.url;
    const tenant = await provisionTenant(base, adminToken);
    progress.log(`  service at ${base}, tenant provisioned through the operator API`);
    const headers = { authorization: `Bearer ${tenant.apiKey}`, 'content-type': 'application/json' };
    const load = async (scenario: Scenario): Promise<LoadOutput> => {
      const total = scenario.rate * config.apiSeconds;
      const phase = progress.phase(`API ${scenario.label}`, total, 'req');
      const result = await runChild<LoadInput, number, LoadOutput>(
        new URL('./load-child.ts', import.meta.url),
        {
          url: base,
          method: scenario.method,
          paths: scenario.paths,
          body: scenario.body,
          headers: scenario.method === 'GET' ? { authorization: headers.authorization } : headers,
          rate: scenario.rate,
          seconds: config.apiSeconds,
          connections: scenario.connections,
          collectIds: scenario.collectIds,
        },
        (done) => phase.update(done),
      );
      phase.done(
        `p50 ${result.p50.toFixed(1)} ms, p99 ${result.p99.toFixed(1)} ms, ${Math.round(result.throughput)} req/s, ` +
          `errors ${result.non2xx + result.errors + result.timeouts} ${JSON.stringify(result.statusCodes)}`,
      );
      return result;
    };

    const rates = config.apiRates;
    const figures: Figure[] = [];
    const create: Scenario = {
      key: 'create',
      label: `POST onboardings @${rates.create}/s`,
      method: 'POST',
      paths: ['/api/v1/onboardings'],
      body: JSON.stringify({ template_id: tenant.templateId, client_id: tenant.clientId }),
      rate: rates.create,
      connections: COMMAND_CONNECTIONS,
      collectIds: true,
      p99Target: { op: '<=', value: 30 },
      errorTarget: true,
    };
    const created = await load(create);
    figures.push(...scenarioFigures(create, created));
    const ids = created.ids.length > 0 ? created.ids : await listOnboardingIds(base, tenant.apiKey);
    if (ids.length === 0) throw new Error('No onboarding was created; the other scenarios need some');

    const scenarios: Scenario[] = [
      {
        key: 'send',
        label: `POST send @${rates.send}/s`,
        method: 'POST',
        paths: ids.map((id) => `/api/v1/onboardings/${id}/send`),
        body: '{}',
        rate: rates.send,
        connections: COMMAND_CONNECTIONS,
      },
      {
        key: 'list',
        label: `GET list @${rates.list}/s`,
        method: 'GET',
        paths: ['/api/v1/onboardings?limit=50'],
        rate: rates.list,
        connections: QUERY_CONNECTIONS,
      },
      {
        key: 'get',
        label: `GET by id @${rates.get}/s`,
        method: 'GET',
        paths: ids.map((id) => `/api/v1/onboardings/${id}`),
        rate: rates.get,
        connections: QUERY_CONNECTIONS,
        p99Target: { op: '<=', value: 10 },
      },
    ];
    for (const scenario of scenarios) figures.push(...scenarioFigures(scenario, await load(scenario)));
    return { figures, available: true };
  } finally {
    const stopped = await Promise.race([
      service.stop().then(() => true),
      new Promise<false>((resolve) => setTimeout(() => resolve(false), STOP_TIMEOUT_MS).unref()),
    ]);
    if (!stopped)
      progress.log(`  the service did not stop within ${STOP_TIMEOUT_MS / 1000} s (requests stuck)`);
  }
}

function scenarioFigures(scenario: Scenario, result: LoadOutput): Figure[] {
  const name = scenario.label;
  const errors = result.non2xx + result.errors + result.timeouts;
  const codes = Object.entries(result.statusCodes)
    .map(([code, count]) => `${code}×${count}`)
    .join(' ');
  return [
    { part: PART, name: `${name} p50`, value: result.p50, unit: 'ms', digits: 1 },
    { part: PART, name: `${name} p99`, value: result.p99, unit: 'ms', digits: 1, target: scenario.p99Target },
    {
      part: PART,
      name: `${name} throughput`,
      value: result.throughput,
      unit: 'req/s',
      // The targets hold "at" the rate: the rate must be reached (5% slack for ramp-up).
      target: scenario.p99Target ? { op: '>=', value: Math.round(scenario.rate * 0.95) } : undefined,
      note: `${result.requests.toLocaleString('en-US')} requests; ${codes}`,
    },
    {
      part: PART,
      name: `${name} errors`,
      value: errors,
      unit: '',
      target: scenario.errorTarget ? { op: '==', value: 0 } : undefined,
      note: `non-2xx ${result.non2xx}, socket errors ${result.errors}, timeouts ${result.timeouts}`,
    },
  ];
}

function notAvailable(note: string): Figure[] {
  return [
    {
      part: PART,
      name: 'POST onboardings p99',
      value: null,
      unit: 'ms',
      target: { op: '<=', value: 30 },
      note,
    },
    {
      part: PART,
      name: 'POST onboardings errors',
      value: null,
      unit: '',
      target: { op: '==', value: 0 },
      note,
    },
    { part: PART, name: 'GET by id p99', value: null, unit: 'ms', target: { op: '<=', value: 10 }, note },
  ];
}
