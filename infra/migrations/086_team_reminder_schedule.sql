-- The team's default reminder schedule (team settings; services/onboardings/reminder-schedule.ts).
-- teams (read model, projections/team-projection.ts): a JSON array of rules
--   {"when": "after_send" | "before_due" | "after_due", "days": 1..365}, at most 5; null until
--   the team first changes it, which reads as the service default (3 and 7 days after send).
--   A new onboarding copies it into its onboarding_created event.
alter table teams add column reminder_schedule jsonb;
