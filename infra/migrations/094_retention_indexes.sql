-- Retention (services/app/retention-purges.ts): each purge finds the oldest finished rows of
-- its table by an index, so a batch reads only rows that go, however large the table grows.
create index idempotency_records_created on idempotency_records (created_at);
create index workspace_key_requests_created on workspace_key_requests (created_at);
create index processed_events_processed_at on processed_events (processed_at);
create index hook_deliveries_finished on hook_deliveries (updated_at) where state in ('delivered', 'failed');
create index automation_runs_finished on automation_runs (finished_at) where finished_at is not null;
create index onboarding_timers_finished on onboarding_timers (updated_at) where status in ('fired', 'cancelled');
create index mail_outbox_age on mail_outbox ((coalesce(sent_at, created_at)));
