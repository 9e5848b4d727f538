import { setTimeout as sleep } from 'node:timers/promises';
import { serveChild } from '../lib/child.ts';
import { percentile } from '../lib/stats.ts';

export interface SamplerInput {
  url: string;
  /** Sampling starts after this many ms (lets a load started at the same time ramp up). */
  delayMs: number;
  seconds: number;
  /** Pause between one answer and the next request. */
  intervalMs: number;
}

export interface SamplerOutput {
  samples: number;
  failures: number;
  p50: number;
  p99: number;
  max: number;
}

/**
 * Samples GET /healthz one request at a time (keep-alive) for a fixed time, in a process
 * of its own so that neither the service nor the load generator delays the measurement.
 * A latency is send → whole answer read, in ms.
 */
serveChild<SamplerInput, number, SamplerOutput>(async (input, progress) => {
  await sleep(input.delayMs);
  const latencies: number[] = [];
  let failures = 0;
  const until = performance.now() + input.seconds * 1000;
  while (performance.now() < until) {
    const started = performance.now();
    try {
      const response = await fetch(`${input.url}/healthz`);
      await response.text();
      if (response.status === 200) latencies.push(performance.now() - started);
      else failures++;
    } catch {
      failures++;
    }
    if (latencies.length % 50 === 0) progress(latencies.length);
    await sleep(input.intervalMs);
  }
  return {
    samples: latencies.length,
    failures,
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
    max: latencies.length > 0 ? Math.max(...latencies) : Number.NaN,
  };
});
