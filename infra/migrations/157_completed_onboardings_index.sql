-- A team's completed onboardings by when they completed (the fold sets updated_at to the
-- completion's time): Home's "recently completed" section and the month's completions per
-- template find them by range instead of reading every onboarding of the team (bench part 12).
create index onboardings_team_completed on onboardings (team_id, updated_at) where status = 'completed';
