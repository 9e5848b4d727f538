-- A reopened onboarding counts once more against its team's monthly limit: one
--   onboarding_send_usage row per count (the first send, then each reopen), told apart by
--   the time it was counted.
alter table onboarding_send_usage drop constraint onboarding_send_usage_pkey;
alter table onboarding_send_usage add primary key (onboarding_id, counted_at);
