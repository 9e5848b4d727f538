import type { LoadInput, LoadOutput } from '../api/load-child.ts';
import { provisionTenant } from '../api/provision.ts';
import { runChild } from '../lib/child.ts';
import type { BenchConfig } from '../lib/config.ts';
import type { Figure } from '../lib/figures.ts';
import type { Progress } from '../lib/progress.ts';
import type { BenchServer } from '../lib/server.ts';
import { startBenchService } from '../lib/bench-service.ts';
import { profileWhile, summarize, type ProfileSummary } from './cpu-profile.ts';

export const PROFILE_PART = '8 CPU profile';
/** Fixed rates well below saturation, so the profile shows the work of a request, not queueing. */
const RATES = { create: 100, send: 40, get: 400 };
const STOP_TIMEOUT_MS = 30_000;

/**
 * Part 8: where the service's CPU goes on the create path (POST /api/v1/onboardings), on
 * send (POST /api/v1/onboardings/:id/send: the invitation rendered in text and HTML and
 * sealed, the link, the counters) and on GET by id, sampled by V8's profiler in the bench process (the service runs there; the
 * load generator runs in a child). Each figure is a share of the busy CPU time (idle left
 * out), by package or folder, and the top functions by self time.
 */
export async function runProfileBench(
  server: BenchServer,
  config: BenchConfig,
  progress: Progress,
): Promise<{ figures: Figure[]; note: string }> {
  const { service, adminToken } = await startBenchService(server, 'profile');
  try {
    const tenant = await provisionTenant(service.url, adminToken);
    const load = (input: Omit<LoadInput, 'url' | 'seconds' | 'connections'>, label: string) => {
      const phase = progress.phase(label, input.rate * config.apiSeconds, 'req');
      return runChild<LoadInput, number, LoadOutput>(
        new URL('../api/load-child.ts', import.meta.url),
        { ...input, url: service.url, seconds: config.apiSeconds, connections: 16 },
        (done) => phase.update(done),
      ).then((output) => {
        phase.done(`${Math.round(output.throughput)} req/s, p50 ${output.p50.toFixed(1)} ms`);
        return output;
      });
    };
    const json = { authorization: `Bearer ${tenant.apiKey}`, 'content-type': 'application/json' };
    const createInput = {
      method: 'POST' as const,
      paths: ['/api/v1/onboardings'],
      body: JSON.stringify({ template_id: tenant.templateId, client_id: tenant.clientId }),
      headers: json,
      rate: RATES.create,
      collectIds: true,
    };
    // Warm-up: JIT and pools, unmeasured.
    await load({ ...createInput, rate: 50 }, 'create warm-up');
    const create = await profileWhile(() => load(createInput, `create @${RATES.create}/s, profiled`));
    const ids = create.result.ids;
    // Each onboarding is sent once: a send of a sent onboarding is a resend, limited per day.
    const send = await profileWhile(() =>
      load(
        {
          method: 'POST',
          paths: ids.map((id) => `/api/v1/onboardings/${id}/send`),
          body: '{}',
          headers: json,
          rate: RATES.send,
        },
        `send @${RATES.send}/s, profiled`,
      ),
    );
    const get = await profileWhile(() =>
      load(
        {
          method: 'GET',
          paths: ids.map((id) => `/api/v1/onboardings/${id}`),
          headers: { authorization: json.authorization },
          rate: RATES.get,
        },
        `get by id @${RATES.get}/s, profiled`,
      ),
    );
    return {
      figures: [
        ...figuresOf('create', summarize(create.profile), create.result.requests),
        ...figuresOf('send', summarize(send.profile), send.result.requests),
        ...figuresOf('get by id', summarize(get.profile), get.result.requests),
      ],
      note:
        `Part 8: services/app/runtime.ts startService in the bench process; V8's sampling profiler (inspector, ` +
        `0.5 ms interval) over ${config.apiSeconds} s of create at ${RATES.create}/s, of send at ${RATES.send}/s and of get by id at ` +
        `${RATES.get}/s (16 connections, autocannon in a child). Shares are of busy CPU (idle left out); the ` +
        `service's event loop only: PostgreSQL's own CPU is not in it.`,
    };
  } finally {
    await Promise.race([
      service.stop(),
      new Promise((resolve) => setTimeout(resolve, STOP_TIMEOUT_MS).unref()),
    ]);
  }
}

function figuresOf(path: string, summary: ProfileSummary, requests: number): Figure[] {
  const perRequest = summary.busyMs / Math.max(1, requests);
  return [
    {
      part: PROFILE_PART,
      name: `${path}: busy CPU per request`,
      value: perRequest,
      unit: 'ms',
      digits: 2,
      note: `${summary.busyMs.toFixed(0)} ms busy of ${summary.totalMs.toFixed(0)} ms sampled, ${requests} requests`,
    },
    ...summary.groups.slice(0, 10).map((group) => ({
      part: PROFILE_PART,
      name: `${path}: ${group.name}`,
      value: group.share * 100,
      unit: '% busy',
      digits: 1,
    })),
    ...summary.functions.slice(0, 8).map((fn) => ({
      part: PROFILE_PART,
      name: `${path}: top function`,
      value: fn.share * 100,
      unit: '% busy',
      digits: 1,
      note: fn.name.replace(/\|/g, '/'),
    })),
  ];
}
