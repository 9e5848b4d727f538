-- onboardings.stream_revision: the revision of the onboarding's stream the row has applied.
-- The onboardings read model is written inline, in each command's transaction, and by the
-- projection runner; the runner skips the events a row already has
-- (shared/projections/inline-projections.ts). Rows written before this column start at -1:
-- the first command on such an onboarding catches its row up from the stream before it
-- applies its own events, and the runner applies whatever it has not seen.
alter table onboardings add column stream_revision bigint not null default -1;
