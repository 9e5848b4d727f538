-- Reviewed versions of an answer (projections/responses-fold.ts). When the team rejects an
-- answer or asks for changes and the client then changes it, the reviewed version stays a
-- response of its own (its id, value, status rejected or changes_requested and
-- rejection_reason) with current false, and the changed answer is a new response of the
-- same field. One current response per field.
alter table responses add column current boolean not null default true;
alter table responses drop constraint responses_onboarding_id_field_id_key;
create unique index responses_current_field on responses (onboarding_id, field_id) where current;
