import type { Clock } from './clock.ts';
import type { Settings } from './config/settings.ts';
import type { Pool } from './db/pool.ts';
import type { EventStore } from './event-store/event-store.ts';
import type { Logger } from './logging/logger.ts';
import type { PersonalDataVault } from './privacy/personal-data-vault.ts';
import type { RateLimitStores } from './rate-limit/redis-store.ts';
import type { ProjectionRunner } from './projections/runner.ts';
import type { EventConsumers } from './subscriptions/consumers.ts';
import type { Stripe } from './stripe/stripe-client.ts';

/**
 * The platform's parts, one name each. A route plugin, consumer or due pass states the
 * few it uses as `Pick<Platform, ...>` and the composition (services/app/) hands them
 * over; no feature code asks for all of them.
 */
export interface Platform {
  settings: Settings;
  logger: Logger;
  clock: Clock;
  /** pg pool: event store, projections, operational tables, command-side reads. */
  pool: Pool;
  /**
   * pg pool of the query side: every read of a read model outside a command, through one
   * client (projections/read-client.ts). The public API's hot reads (key lookup, onboarding
   * by id and list) are static, named statements, so PostgreSQL plans each once per connection.
   */
  readPool: Pool;
  eventStore: EventStore;
  projections: ProjectionRunner;
  /** Keys for personal data in events (crypto-shredding on erasure). */
  vault: PersonalDataVault;
  /** The running event consumers (POST /admin/v1/work/drain waits for them). */
  consumers: EventConsumers;
  /** Rate-limit counters: in Redis when REDIS_URL is set, shared by every API instance. */
  rateLimitStores: RateLimitStores;
  /** The Stripe client (shared/stripe/stripe-client.ts); null when STRIPE_SECRET_KEY is unset. */
  stripe: Stripe | null;
}
