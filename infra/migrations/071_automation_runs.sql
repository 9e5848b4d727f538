-- Automation rules: operational state of the automation-rules consumer and its
-- queue worker (services/automation). Not read models: never rebuilt. The rules themselves
-- are event streams automation_rule-<id> (shared/domain/automation-rule).
--
-- automation_rule_triggers: the consumer's view of every rule, written from the rule
--   events in log order, so a trigger event meets the rules as they were when it occurred.
-- automation_runs: one queued action run per (rule, trigger event), with a copy of the
--   rule's action taken when the event occurred (later edits do not change it). id is the
--   Send webhook body's `id` (also X-Service-Event-Id and Idempotency-Key); request_body is
--   that exact body, built from the event moment's values, sent unchanged on every retry
--   (it holds the client's name and email: cleared once the run is finished).
--   state / failure, the run states of the spec:
--     queued                          waiting for its first attempt
--     succeeded                       the action completed
--     failed + failure 'retrying'     a retryable failure, fewer than 10 attempts made
--     failed + failure 'stopped'      a non-retryable failure, or the 10th attempt failed
--     skipped                         the plan no longer includes automations when it was
--                                     due (not retried; the latest-run line is unchanged)
--   next_attempt_at: the 5-minute queue pass (service clock) that works it next; null once
--   finished. leased_until (database clock): a worker holds the run during its attempt.
--   created_onboarding_id: Create new onboarding, the onboarding it created (a retry after
--   a crash sends it instead of creating another).
-- automation_rule_latest_runs: the rule's latest-run line (only the latest run is kept):
--   outcome succeeded ("Last ran <ran_at>"), retrying ("Failed, trying again: <reason>")
--   or stopped ("Failed: <reason> (stopped)"); no row: "Has not run yet".
create table automation_rule_triggers (
  rule_id uuid primary key,
  team_id uuid not null,
  name text not null,
  trigger text not null,
  action jsonb not null,
  enabled boolean not null,
  deleted boolean not null default false,
  position bigint not null
);
create index automation_rule_triggers_team on automation_rule_triggers (team_id, trigger) where enabled and not deleted;

create table automation_runs (
  id uuid primary key,
  rule_id uuid not null,
  team_id uuid not null,
  rule_name text not null,
  trigger text not null,
  event_id uuid not null,
  onboarding_id uuid not null,
  action jsonb not null,
  request_body text,
  state text not null check (state in ('queued', 'succeeded', 'failed', 'skipped')),
  failure text check (failure in ('retrying', 'stopped')),
  attempts integer not null default 0,
  next_attempt_at timestamptz,
  last_status_code integer,
  last_error text,
  leased_until timestamptz,
  created_onboarding_id uuid,
  queued_at timestamptz not null,
  updated_at timestamptz not null,
  finished_at timestamptz,
  unique (rule_id, event_id)
);
create index automation_runs_due on automation_runs (next_attempt_at) where state in ('queued', 'failed') and next_attempt_at is not null;
create index automation_runs_rule on automation_runs (rule_id);

create table automation_rule_latest_runs (
  rule_id uuid primary key,
  team_id uuid not null,
  run_id uuid not null,
  outcome text not null check (outcome in ('succeeded', 'retrying', 'stopped')),
  reason text,
  ran_at timestamptz not null
);
