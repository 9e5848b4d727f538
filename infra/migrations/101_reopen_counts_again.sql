-- A reopened onboarding counts once more against its team's monthly limit: one
--   onboarding_send_usage row per count (the first send, then each reopen), told apart by
--   the send number of the link it issued (a reopen issues the next one). Rows from before
--   were all first sends.
alter table onboarding_send_usage add column send_number integer not null default 1;
alter table onboarding_send_usage drop constraint onboarding_send_usage_pkey;
alter table onboarding_send_usage add primary key (onboarding_id, send_number);
