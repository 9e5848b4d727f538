-- Read model of templates, written only by projections/template-projection.ts
-- from the streams template-<id>. No foreign keys: a rebuild recreates each table.
--
-- templates: team templates (team_id set, gallery false) and gallery templates (team_id
--   null, gallery true). deleted_at is set once deleted: such a template is "not found"
--   for the API and cannot start onboardings, but its row stays (rule edit shows
--   "Deleted template"). Lists: where team_id = $team and deleted_at is null, newest
--   first (created_at desc, id desc).
--   snapshot (jsonb): the whole form as the spec's Onboarding.template_snapshot gives it:
--   { name, description, vertical, settings, translations, steps: [{ id, title,
--   sort_order, is_optional, conditional_rules, translations, fields: [{ id, type, label,
--   is_required, sort_order, config, conditional_rules, translations }] }] }; copy it
--   as is into an onboarding.
-- template_steps / template_fields: the same steps and fields as rows, for
--   GET /api/v1/templates/:id (template_steps with template_fields). `position` keeps the
--   order in which they were given (the API does not sort by sort_order).
--   conditional_rules and translations are SQL null when none were given.
create table templates (
  id uuid primary key,
  team_id uuid,
  gallery boolean not null,
  name text not null,
  description text,
  vertical text,
  settings jsonb not null,
  translations jsonb,
  snapshot jsonb not null,
  created_at timestamptz not null,
  deleted_at timestamptz
);
create index templates_team_idx on templates (team_id, created_at desc, id desc);

create table template_steps (
  id uuid primary key,
  template_id uuid not null,
  position integer not null,
  title text not null,
  sort_order integer not null,
  is_optional boolean not null,
  conditional_rules jsonb,
  translations jsonb
);
create index template_steps_template_idx on template_steps (template_id, position);

create table template_fields (
  id uuid primary key,
  template_id uuid not null,
  step_id uuid not null,
  position integer not null,
  type text not null,
  label text not null,
  sort_order integer not null,
  is_required boolean not null,
  config jsonb not null,
  conditional_rules jsonb,
  translations jsonb
);
create index template_fields_template_idx on template_fields (template_id, step_id, position);
