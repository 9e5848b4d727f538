import { Counter, Gauge, type Registry } from 'prom-client';
import type { RelayHealth } from './relay-health.ts';

const OUTCOMES = ['published', 'failed', 'skipped'] as const;

/**
 * The Kafka relay's metrics, read from its health at each scrape: events by publish outcome
 * since the start, and whether it is stalled (the condition /readyz reports). An instance that
 * does not own the relay shows zeros.
 */
export function registerRelayMetrics(registry: Registry, health: RelayHealth): void {
  new Counter({
    name: 'onboarding_relay_events_total',
    help: 'Events the Kafka relay handled since the start, by outcome: published, failed (each failed send of it), skipped (by an operator)',
    labelNames: ['outcome'] as const,
    registers: [registry],
    collect() {
      this.reset();
      for (const outcome of OUTCOMES) this.inc({ outcome }, health.outcomes[outcome]);
    },
  });
  new Gauge({
    name: 'onboarding_relay_stalled',
    help: '1 while the Kafka relay is stalled (Kafka keeps refusing an event; see /readyz), else 0',
    registers: [registry],
    collect() {
      this.set(health.stalled ? 1 : 0);
    },
  });
}
