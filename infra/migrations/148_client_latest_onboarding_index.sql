-- Each client's latest onboarding on the workspace's Clients list (projections/clients/latest-onboarding.ts):
-- one index probe per client of the page, newest first.
create index onboardings_team_client_newest on onboardings (team_id, client_id, created_at desc, position desc);
