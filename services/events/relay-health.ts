/**
 * What the relay reports about itself: /readyz reads it (services/app/health-routes.ts),
 * and the operator's skip (relay-skip-routes.ts) checks against it.
 *
 * The relay is stalled once the same publish has failed `reportAfterRetries` times in a
 * row: Kafka refuses the event for a reason that does not pass (a message over the
 * topic's max.message.bytes, a topic the producer may not write) or the brokers are
 * unreachable. It keeps retrying with back-off; readiness says not ready until a publish
 * succeeds again (after a fix, or after the operator skipped the refused event).
 */
export interface StalledEvent {
  id: string;
  position: bigint;
  type: string;
}

export class RelayHealth {
  /** When the current run of failures began (undefined while publishing works). */
  failingSince: Date | undefined;
  /** Consecutive failed publishes. */
  retries = 0;
  /** The last failure, as the broker named it (no event data, no settings). */
  lastError: string | undefined;
  /** The event a failing publish was about (the relay sends one event at a time while failing). */
  failingEvent: StalledEvent | undefined;

  /**
   * Events by outcome since the start (services/events/relay-metrics.ts counts them): published
   * (acknowledged by Kafka), failed (in a send Kafka refused or that did not reach it; an event
   * retried three times counts three times), skipped (passed over after an operator's skip).
   */
  readonly outcomes = { published: 0, failed: 0, skipped: 0 };

  constructor(readonly reportAfterRetries = 5) {}

  get stalled(): boolean {
    return this.retries >= this.reportAfterRetries;
  }

  /** Records a failed publish; true when this failure makes the relay stalled. */
  failed(error: unknown, event: StalledEvent | undefined, now = new Date()): boolean {
    this.failingSince ??= now;
    this.retries++;
    this.lastError = describeKafkaError(error);
    this.failingEvent = event;
    return this.retries === this.reportAfterRetries;
  }

  succeeded(): void {
    this.failingSince = undefined;
    this.retries = 0;
    this.lastError = undefined;
    this.failingEvent = undefined;
  }

  /** The readiness view (snake_case, as the other /readyz fields). */
  report() {
    return {
      status: this.stalled ? ('stalled' as const) : ('ok' as const),
      ...(this.failingSince
        ? {
            failing_since: this.failingSince.toISOString(),
            retries: this.retries,
            last_error: this.lastError ?? null,
            event_id: this.failingEvent?.id ?? null,
            event_position: this.failingEvent ? String(this.failingEvent.position) : null,
            event_type: this.failingEvent?.type ?? null,
          }
        : {}),
    };
  }
}

/** `KafkaJSProtocolError MESSAGE_TOO_LARGE: <broker's text>`, at most 300 characters. */
export function describeKafkaError(error: unknown): string {
  const { name, type, message } = (error ?? {}) as { name?: unknown; type?: unknown; message?: unknown };
  const parts = [typeof name === 'string' ? name : 'Error', typeof type === 'string' ? type : undefined];
  const text = `${parts.filter(Boolean).join(' ')}: ${typeof message === 'string' ? message : String(error)}`;
  return text.length > 300 ? `${text.slice(0, 299)}…` : text;
}
