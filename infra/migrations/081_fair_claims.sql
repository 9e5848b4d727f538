-- Fair claiming of outbound work (shared/work-queue/claim-strategies.ts): hook deliveries and Send
-- webhook runs are claimed round-robin by team and endpoint, with a cap on the requests in
-- flight per endpoint, so one team's slow or dead endpoint delays only its own work.
--
-- An endpoint is (team, target host): the host and port of the target URL, lowercased.
-- target_host / endpoint_host are derived from the stored URL (never written by the code).
--
-- hook_endpoint_backoffs: an endpoint that gave no answer (network, TLS, time-out) rests
--   until resting_until (service clock, like next_attempt_at): its deliveries are not
--   claimed meanwhile, so a dead host costs a few probes per rest instead of a connect
--   time-out per delivery. The rest doubles with each failure in a row (5 s up to 5 min)
--   and the row goes once a delivery to the endpoint gets an answer.

alter table hook_deliveries
  add column target_host text generated always as
    (lower(substring(target_url from '^[A-Za-z][A-Za-z0-9+.-]*://([^/?#]+)'))) stored;
create index hook_deliveries_fair_due on hook_deliveries (team_id, target_host, next_attempt_at, created_at)
  where state in ('pending', 'retrying');
create index hook_deliveries_in_flight on hook_deliveries (team_id, target_host)
  where leased_until is not null;

alter table automation_runs
  add column endpoint_host text generated always as
    (case when action ->> 'type' = 'send_webhook'
          then lower(substring(action ->> 'url' from '^[A-Za-z][A-Za-z0-9+.-]*://([^/?#]+)')) end) stored;
create index automation_runs_fair_due on automation_runs (team_id, endpoint_host, next_attempt_at, queued_at)
  where state in ('queued', 'failed') and next_attempt_at is not null;
create index automation_runs_in_flight on automation_runs (team_id, endpoint_host)
  where leased_until is not null;

create table hook_endpoint_backoffs (
  team_id uuid not null,
  target_host text not null,
  failures integer not null,
  resting_until timestamptz not null,
  primary key (team_id, target_host)
);
