import type { LoadInput, LoadOutput } from '../api/load-child.ts';
import { provisionTenant } from '../api/provision.ts';
import { runChild } from '../lib/child.ts';
import type { BenchConfig } from '../lib/config.ts';
import type { Figure } from '../lib/figures.ts';
import type { Progress } from '../lib/progress.ts';
import type { BenchServer } from '../lib/server.ts';
import { startBenchService } from '../lib/bench-service.ts';
import type { SamplerInput, SamplerOutput } from './healthz-sampler-child.ts';

export const PIN_PART = '6 PIN link';
/** Clients hammering one PIN link, each with one request in flight. */
export const PIN_CLIENTS = 10;
const PIN = '482915';
const SAMPLE_INTERVAL_MS = 10;
const WARM_UP_MS = 1000;
const STOP_TIMEOUT_MS = 30_000;

async function call(url: string, token: string, method: string, route: string, body?: unknown) {
  const response = await fetch(`${url}${route}`, {
    method,
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  if (response.status >= 300) throw new Error(`${method} ${route}: ${response.status} ${text}`);
  return JSON.parse(text) as any;
}

/**
 * Part 6: does a busy PIN link slow everyone else? The service runs in the bench process
 * (RATE_LIMITS=off, so every request really hashes its PIN: the worst case the limits
 * bound); one onboarding is sent with a PIN; /healthz is sampled one request at a time,
 * first with no load, then while PIN_CLIENTS keep-alive clients request the form with the
 * correct PIN as fast as it answers. The figure is /healthz p99 under that load, and its
 * ratio to the idle p99 of the same run.
 */
export async function runPinBench(
  server: BenchServer,
  config: BenchConfig,
  progress: Progress,
): Promise<{ figures: Figure[]; note: string }> {
  const { service, adminToken } = await startBenchService(server, 'pin');
  try {
    const base = service.url;
    const tenant = await provisionTenant(base, adminToken);
    const { onboarding } = await call(base, tenant.apiKey, 'POST', '/api/v1/onboardings', {
      template_id: tenant.templateId,
      client_id: tenant.clientId,
    });
    await call(base, tenant.apiKey, 'POST', `/api/v1/onboardings/${onboarding.id}/send`, { pin: PIN });
    const link = await call(base, adminToken, 'GET', `/admin/v1/onboardings/${onboarding.id}/link`);
    const formPath = `/portal/v1/onboardings/${link.token as string}`;
    const seconds = config.apiSeconds;

    const sample = (label: string, delayMs: number) => {
      const phase = progress.phase(label, Math.round((seconds * 1000) / (SAMPLE_INTERVAL_MS + 1)), 'req');
      return runChild<SamplerInput, number, SamplerOutput>(
        new URL('./healthz-sampler-child.ts', import.meta.url),
        { url: base, delayMs, seconds, intervalMs: SAMPLE_INTERVAL_MS },
        (done) => phase.update(done),
      ).then((result) => {
        phase.done(
          `/healthz p50 ${result.p50.toFixed(2)} ms, p99 ${result.p99.toFixed(2)} ms, ${result.samples} samples`,
        );
        return result;
      });
    };

    const idle = await sample('/healthz, no PIN load', 0);
    const [loaded, pinLoad] = await Promise.all([
      sample(`/healthz, ${PIN_CLIENTS} PIN clients`, WARM_UP_MS),
      runChild<LoadInput, number, LoadOutput>(new URL('../api/load-child.ts', import.meta.url), {
        url: base,
        method: 'GET',
        paths: [formPath],
        headers: { 'x-onboarding-pin': PIN },
        rate: 0, // as fast as the service answers
        seconds: seconds + Math.ceil(WARM_UP_MS / 1000) + 1,
        connections: PIN_CLIENTS,
      }),
    ]);
    const codes = Object.entries(pinLoad.statusCodes)
      .map(([code, count]) => `${code}×${count}`)
      .join(' ');
    progress.log(
      `  PIN link: ${Math.round(pinLoad.throughput)} req/s, p99 ${pinLoad.p99.toFixed(1)} ms, ${codes}`,
    );
    const figures: Figure[] = [
      { part: PIN_PART, name: '/healthz p50, no PIN load', value: idle.p50, unit: 'ms', digits: 2 },
      {
        part: PIN_PART,
        name: '/healthz p99, no PIN load',
        value: idle.p99,
        unit: 'ms',
        digits: 2,
        note: `${idle.samples} samples`,
      },
      {
        part: PIN_PART,
        name: `/healthz p50, ${PIN_CLIENTS} clients on a PIN link`,
        value: loaded.p50,
        unit: 'ms',
        digits: 2,
      },
      {
        part: PIN_PART,
        name: `/healthz p99, ${PIN_CLIENTS} clients on a PIN link`,
        value: loaded.p99,
        unit: 'ms',
        digits: 2,
        target: { op: '<', value: 20 },
        note: `${loaded.samples} samples, max ${loaded.max.toFixed(1)} ms, ${loaded.failures} failed`,
      },
      {
        part: PIN_PART,
        name: '/healthz p99 under PIN load / without',
        value: loaded.p99 / idle.p99,
        unit: '×',
        digits: 2,
        note: 'same run',
      },
      {
        part: PIN_PART,
        name: 'PIN link (GET form, correct PIN) throughput',
        value: pinLoad.throughput,
        unit: 'req/s',
        note: `${pinLoad.requests.toLocaleString('en-US')} requests; ${codes}; p50 ${pinLoad.p50.toFixed(1)} ms, p99 ${pinLoad.p99.toFixed(1)} ms`,
      },
    ];
    const note =
      `Part 6: services/app/runtime.ts startService in the bench process (RATE_LIMITS=off, so every request hashes its PIN), ` +
      `one onboarding sent with a PIN through the public API; GET /healthz sampled one request at a time every ` +
      `${SAMPLE_INTERVAL_MS} ms for ${seconds} s by a child process, first alone, then while ${PIN_CLIENTS} keep-alive ` +
      `clients (autocannon, another child) request the form with the correct PIN as fast as it answers ` +
      `(sampling starts ${WARM_UP_MS} ms into the load). The PIN hash is async scrypt (N=16384, r=8) in libuv's thread pool.`;
    return { figures, note };
  } finally {
    const stopped = await Promise.race([
      service.stop().then(() => true),
      new Promise<false>((resolve) => setTimeout(() => resolve(false), STOP_TIMEOUT_MS).unref()),
    ]);
    if (!stopped) progress.log(`  the service did not stop within ${STOP_TIMEOUT_MS / 1000} s`);
  }
}
