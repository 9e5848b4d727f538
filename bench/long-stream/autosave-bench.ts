import { provisionTenant } from '../api/provision.ts';
import type { BenchConfig } from '../lib/config.ts';
import type { Figure } from '../lib/figures.ts';
import type { Progress } from '../lib/progress.ts';
import type { BenchServer } from '../lib/server.ts';
import { startBenchService } from '../lib/bench-service.ts';
import { median, percentile } from '../lib/stats.ts';
import type { RunningService } from '../../services/app/runtime.ts';

export const LONG_STREAM_PART = '7 long streams';
/** Events on the long onboarding's stream before the measurement (the figure). */
const LONG_STREAM_EVENTS = 3000;
const STOP_TIMEOUT_MS = 30_000;

interface Link {
  onboardingId: string;
  token: string;
  fieldId: string;
}

/**
 * Part 7: autosave (PUT /portal/v1/onboardings/:token/answers/:field_id, one answer_saved
 * event each) on an onboarding whose stream holds 3,000 events, against the same on a
 * fresh one, taken one save at a time and alternating between the two, in one run.
 */
export async function runLongStreamBench(
  server: BenchServer,
  config: BenchConfig,
  progress: Progress,
): Promise<{ figures: Figure[]; note: string }> {
  const { service, adminToken } = await startBenchService(server, 'long_stream');
  try {
    const tenant = await provisionTenant(service.url, adminToken);
    const api = apiCaller(service.url, tenant.apiKey);
    const admin = apiCaller(service.url, adminToken);
    const openLink = async (): Promise<Link> => {
      const { onboarding } = await api('POST', '/api/v1/onboardings', {
        template_id: tenant.templateId,
        client_id: tenant.clientId,
      });
      await api('POST', `/api/v1/onboardings/${onboarding.id}/send`, {});
      const { token } = await admin('GET', `/admin/v1/onboardings/${onboarding.id}/link`);
      const detail = await api('GET', `/api/v1/onboardings/${onboarding.id}`);
      const fieldId = detail.onboarding.template_snapshot.steps[0].fields[0].id as string;
      return { onboardingId: onboarding.id, token, fieldId };
    };
    const save = async (link: Link, value: string): Promise<number> => {
      const started = performance.now();
      const response = await fetch(
        `${service.url}/portal/v1/onboardings/${link.token}/answers/${link.fieldId}`,
        {
          method: 'PUT',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ value }),
        },
      );
      await response.arrayBuffer();
      if (response.status !== 200) throw new Error(`autosave answered ${response.status}`);
      return performance.now() - started;
    };

    const long = await openLink();
    await fillStream(service.context, long, (token) => save(long, token), progress);
    const fresh = await openLink();

    const samples = Math.max(60, Math.round(200 * config.scale));
    const times = { long: [] as number[], fresh: [] as number[] };
    const measure = progress.phase('autosave long vs fresh', samples * 2, 'saves');
    for (let index = 0; index < samples; index++) {
      // Alternating, and which one goes first alternates too.
      const order = index % 2 === 0 ? (['long', 'fresh'] as const) : (['fresh', 'long'] as const);
      for (const which of order) {
        times[which].push(await save(which === 'long' ? long : fresh, `Value ${index}`));
      }
      measure.update((index + 1) * 2);
    }
    const ratio = median(times.long) / median(times.fresh);
    measure.done(
      `median long ${median(times.long).toFixed(1)} ms, fresh ${median(times.fresh).toFixed(1)} ms`,
    );
    const figure = (name: string, values: number[]): Figure[] => [
      { part: LONG_STREAM_PART, name: `autosave p50, ${name}`, value: median(values), unit: 'ms', digits: 1 },
      {
        part: LONG_STREAM_PART,
        name: `autosave p99, ${name}`,
        value: percentile(values, 99),
        unit: 'ms',
        digits: 1,
      },
    ];
    return {
      figures: [
        ...figure(`onboarding with ${LONG_STREAM_EVENTS.toLocaleString('en-US')}+ events`, times.long),
        ...figure('fresh onboarding', times.fresh),
        {
          part: LONG_STREAM_PART,
          name: 'autosave p50, long / fresh',
          value: ratio,
          unit: '×',
          digits: 2,
          target: { op: '<=', value: 1.2 },
          note: `${samples} saves each, one at a time, alternating`,
        },
      ],
      note:
        `Part 7: services/app/runtime.ts startService in the bench process; one onboarding sent, one autosave through ` +
        `the portal, then its answer_saved event copied until the stream holds ${LONG_STREAM_EVENTS} events (appended ` +
        `through the service's store in batches of ${FILL_BATCH}); a second onboarding sent fresh; ` +
        `then ${samples} autosaves on each, one request at a time, alternating. Latency is the whole HTTP request.`,
    };
  } finally {
    await Promise.race([
      service.stop(),
      new Promise((resolve) => setTimeout(resolve, STOP_TIMEOUT_MS).unref()),
    ]);
  }
}

const FILL_BATCH = 100;

/**
 * Grows the long onboarding's stream to LONG_STREAM_EVENTS: one real autosave, then copies
 * of its answer_saved event (new ids, the same sealed value) appended in batches through
 * the service's own store, as a client saving 3,000 times would leave it, in seconds.
 */
async function fillStream(
  context: RunningService['context'],
  link: Link,
  saveOnce: (value: string) => Promise<number>,
  progress: Progress,
): Promise<void> {
  await saveOnce('Draft');
  const streamId = `onboarding-${link.onboardingId}`;
  const { rows } = await context.pool.query<{
    type: string;
    data: unknown;
    metadata: Record<string, unknown>;
  }>(`select type, data, metadata from events where stream_id = $1 order by revision desc limit 1`, [
    streamId,
  ]);
  const saved = rows[0]!;
  if (saved.type !== 'answer_saved') throw new Error(`the last event of ${streamId} is ${saved.type}`);
  const fill = progress.phase('long stream filled', LONG_STREAM_EVENTS, 'events');
  let events = Number((await context.eventStore.readStream(streamId)).length);
  while (events < LONG_STREAM_EVENTS) {
    const batch = Math.min(FILL_BATCH, LONG_STREAM_EVENTS - events);
    await context.eventStore.append(
      streamId,
      Array.from({ length: batch }, () => ({ type: saved.type, data: saved.data, metadata: saved.metadata })),
      'any',
    );
    events += batch;
    fill.update(events);
  }
  fill.done(`${events} events on one onboarding's stream`);
}

function apiCaller(url: string, token: string) {
  return async (method: string, route: string, body?: unknown): Promise<any> => {
    const response = await fetch(`${url}${route}`, {
      method,
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    if (response.status >= 300) throw new Error(`${method} ${route}: ${response.status} ${text}`);
    return JSON.parse(text);
  };
}
