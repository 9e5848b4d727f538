import { Histogram, type Registry } from 'prom-client';
import type { EventStore } from '../event-store/event-store.ts';

/**
 * Times every append of `store` (in place: the store keeps its identity), by method:
 * `append` commits on its own, `appendWithin` joins the caller's transaction.
 */
export function measureAppends(store: EventStore, registry: Registry): void {
  const seconds = new Histogram({
    name: 'onboarding_event_store_append_duration_seconds',
    help: 'Time an event store append takes, by method (append, appendWithin), failures included',
    labelNames: ['method', 'store'] as const,
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
    registers: [registry],
  });
  const append = store.append.bind(store);
  const appendWithin = store.appendWithin.bind(store);
  store.append = async (...args) => {
    const end = seconds.startTimer({ method: 'append', store: store.kind });
    try {
      return await append(...args);
    } finally {
      end();
    }
  };
  store.appendWithin = async (...args) => {
    const end = seconds.startTimer({ method: 'appendWithin', store: store.kind });
    try {
      return await appendWithin(...args);
    } finally {
      end();
    }
  };
}
