import autocannon from 'autocannon';
import { serveChild } from '../lib/child.ts';
import { percentile } from '../lib/stats.ts';

export interface LoadInput {
  url: string;
  method: 'GET' | 'POST';
  /** Paths used in turn, one per request. */
  paths: string[];
  body?: string;
  headers: Record<string, string>;
  /** Requests per second over all connections; 0: as fast as the service answers. */
  rate: number;
  seconds: number;
  connections: number;
  /** Collect `onboarding.id` from 201 answers (to send and get them afterwards). */
  collectIds?: boolean;
}

export interface LoadOutput {
  requests: number;
  ok: number;
  non2xx: number;
  errors: number;
  timeouts: number;
  statusCodes: Record<string, number>;
  /** Latencies in ms, of every answered request (2xx or not), measured with hrtime. */
  p50: number;
  p99: number;
  max: number;
  /** Answered requests per second. */
  throughput: number;
  ids: string[];
}

/**
 * The load generator: autocannon at a fixed overall rate, in a process of its own so that
 * it does not share the service's event loop. Latencies are taken from autocannon's
 * per-response events (sub-millisecond) rather than its whole-millisecond histogram.
 */
serveChild<LoadInput, number, LoadOutput>(async (input, progress) => {
  let next = 0;
  const ids: string[] = [];
  const latencies: number[] = [];
  const statusCodes: Record<string, number> = {};
  let instance!: autocannon.Instance;
  const finished = new Promise<autocannon.Result>((resolve, reject) => {
    instance = autocannon(
      {
        url: input.url,
        connections: input.connections,
        ...(input.rate > 0 ? { overallRate: input.rate } : {}),
        duration: input.seconds,
        timeout: 10,
        requests: [
          {
            method: input.method,
            headers: input.headers,
            ...(input.body === undefined ? {} : { body: input.body }),
            setupRequest: (request) => ({ ...request, path: input.paths[next++ % input.paths.length]! }),
            ...(input.collectIds
              ? {
                  onResponse: (status: number, body: string) => {
                    if (status !== 201) return;
                    const id = (JSON.parse(body) as { onboarding?: { id?: string } }).onboarding?.id;
                    if (id) ids.push(id);
                  },
                }
              : {}),
          },
        ],
      },
      (error, result) => (error ? reject(error) : resolve(result)),
    );
  });
  instance.on('response', (_client: unknown, statusCode: number, _bytes: number, responseTime: number) => {
    latencies.push(responseTime);
    statusCodes[statusCode] = (statusCodes[statusCode] ?? 0) + 1;
    if (latencies.length % 100 === 0) progress(latencies.length);
  });
  const result = await finished;
  const answered = latencies.length;
  return {
    requests: answered + result.errors,
    ok: result['2xx'],
    non2xx: result.non2xx,
    errors: result.errors,
    timeouts: result.timeouts,
    statusCodes,
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
    max: latencies.length > 0 ? Math.max(...latencies) : Number.NaN,
    throughput: answered / result.duration,
    ids,
  };
});
