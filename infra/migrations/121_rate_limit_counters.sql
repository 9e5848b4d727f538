-- Rate-limit and attempt counters when REDIS_URL is unset (shared/rate-limit/postgres-store.ts,
-- docs/decisions/0001-attempt-limits-and-trusted-proxies.md): one row per limiter key and
-- fixed window, counted by one INSERT ... ON CONFLICT DO UPDATE ... RETURNING, so concurrent
-- requests on every instance get distinct counts and a restart forgets nothing. Times are
-- milliseconds of the service clock (the window a count belongs to is part of the key);
-- a row is of no use after expires_at and is deleted in small batches as windows pass.
create table rate_limit_counters (
  key text not null,
  window_start bigint not null,
  count integer not null,
  expires_at bigint not null,
  primary key (key, window_start)
) with (fillfactor = 70);

create index rate_limit_counters_expiry on rate_limit_counters (expires_at);
