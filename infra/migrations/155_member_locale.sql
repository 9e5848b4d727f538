-- The language a member chose for their workspace and the emails it sends them
-- (team.member_locale_chosen); null: the team's language.
alter table team_members add column locale text;
