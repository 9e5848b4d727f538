-- A team with a large history (bench part 12: 100,000 onboardings, 50,000 clients): the
-- workspace's list totals, Home's sections, the clients list and the search count and order a
-- team's rows by index (docs/decisions/0099-a-workspace-fast-with-a-large-history.md).

-- Every list total and Home section reads the team's onboardings from this index alone (an
-- index-only scan; a heap row also carries the template snapshot, about 1.2 KB), in client
-- order, so the join with the visible clients below is a merge of two index scans. It
-- replaces the narrower (team_id, client_id) index of migration 030.
create index onboardings_team_listing on onboardings (team_id, client_id)
  include (status, archived_at, client_erased_at, assigned_to, due_at, updated_at, created_at, position,
           id, template_id, template_name, review_fields);
drop index onboardings_team_client;

-- A team's visible clients (client_is_erased false) by id: the other side of every list's
-- join, the clients list's total and the search's matches, without the heap.
create index clients_team_visible on clients (team_id, id) where erased_at is null and email is not null;

-- The list's orders that newest first cannot give: due date (none last) either way, and status
-- in lifecycle order (the array of projections/onboardings/workspace-queries.ts) either way.
create index onboardings_team_due_first on onboardings (team_id, due_at asc nulls last, created_at desc, position desc)
  where archived_at is null;
create index onboardings_team_due_last on onboardings (team_id, due_at desc nulls last, created_at desc, position desc)
  where archived_at is null;
create index onboardings_team_status_first on onboardings
  (team_id, array_position('{draft,sent,in_progress,completed,expired,cancelled}'::text[], status),
   created_at desc, position desc)
  where archived_at is null;
create index onboardings_team_status_last on onboardings
  (team_id, array_position('{draft,sent,in_progress,completed,expired,cancelled}'::text[], status) desc,
   created_at desc, position desc)
  where archived_at is null;
