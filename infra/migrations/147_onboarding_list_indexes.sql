-- The onboardings list's orders and filters at a few thousand onboardings per team
-- (docs/decisions/0086-list-search-sort-and-url.md): due first or last, status order, and
-- "waiting for review" (projections/onboardings/awaiting-review.ts), which asks per
-- onboarding whether a submitted answer exists: a partial index holds only those answers.
create index onboardings_team_due on onboardings (team_id, due_at);
create index onboardings_team_status on onboardings (team_id, status, created_at desc);
create index responses_submitted on responses (onboarding_id) where status = 'submitted';
