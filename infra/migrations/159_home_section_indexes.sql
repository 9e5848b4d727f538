-- Home's sections "changes requested" and "overdue" / "due this week" (services/home/home-queries.ts)
-- read only the onboardings each can show: the conditions below are theirs, word for word, so
-- the planner proves each section's rows are in its index. Without them both read every entry
-- of the team's covering index and tested each (bench part 12: 30 ms each for 100,000). The open
-- ones by due date carry the section's columns, so the thousands overdue are read off the index.
create index onboardings_team_sent_back on onboardings (team_id, updated_at)
  where status in ('in_progress', 'completed') and review_fields @? '$.* ? (@ == "sent_back")'
    and archived_at is null and client_erased_at is null;
create index onboardings_team_open_due on onboardings (team_id, due_at)
  include (id, status, client_id, template_id, template_name, updated_at, created_at, position, assigned_to)
  where status in ('draft', 'sent', 'in_progress') and due_at is not null
    and archived_at is null and client_erased_at is null;
