-- The team's review as the workspace lists it (projections/onboardings/fold.ts): the
-- answers the team sent back to the client, by field id, 'sent_back' until the client
-- submits that answer again, then 'resubmitted' until the team reviews it once more
-- (an approval removes it; another rejection makes it 'sent_back' again). The workspace
-- reads review_state from it: changes_requested (waits on the client) while any answer
-- is sent back, else awaiting_review while a resubmitted one waits for the team. The
-- public status does not change. Rows written before this column read '{}' until the
-- next rebuild of the onboardings read model.
alter table onboardings add column review_fields jsonb not null default '{}'::jsonb;
