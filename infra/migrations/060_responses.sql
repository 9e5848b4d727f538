-- Read model of responses, written only by projections/responses-projection.ts
-- from the onboarding streams (and client.erased). No foreign keys: a rebuild recreates
-- each table.
--
-- responses: one row per answered field of an onboarding (GET /api/v1/responses, the
--   portal's `responses`). kind: answer (an autosaved value), signature (the client's
--   signature: signature_id, signer_name, signer_email, signed_at) or file (file_id,
--   file_name, content_type, size_bytes). `id` is the response id of the first answer of
--   the field (answer_saved.response_id, or the signature or file id); a later answer of
--   the same field replaces the value and makes the response a draft again. status: draft
--   until the field's step is submitted, then submitted. `value` holds the opened personal
--   value (client-entered values are sealed with the client's key in events); it is null
--   once the client is erased, live and on rebuild alike. created_at is the first answer's
--   time (service clock); position orders equal times (oldest first).
-- response_onboardings: the team and client of every onboarding (to scope responses and
--   to null them when the client is erased).
create table responses (
  id uuid primary key,
  onboarding_id uuid not null,
  team_id uuid not null,
  client_id uuid not null,
  step_id text not null,
  field_id text not null,
  kind text not null,
  value jsonb,
  status text not null,
  rejection_reason text,
  created_at timestamptz not null,
  updated_at timestamptz not null,
  position bigint not null,
  unique (onboarding_id, field_id)
);
create index responses_onboarding_oldest on responses (onboarding_id, created_at, position);
create index responses_client on responses (client_id);

create table response_onboardings (
  onboarding_id uuid primary key,
  team_id uuid not null,
  client_id uuid not null
);
create index response_onboardings_client on response_onboardings (client_id);
