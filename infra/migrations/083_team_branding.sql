-- Branding of a team on the client's form page (PATCH /admin/v1/teams/:team_id).
-- teams (read model, projections/team-projection.ts): accent_color '#rrggbb' or null;
--   logo_sha256 and logo_content_type name the current logo, null when there is none.
-- team_logos: operational, not a read model (never rebuilt): the bytes of each logo a team
--   uploaded, under the SHA-256 its team.updated event names, written before that event is
--   appended. GET /brand/:team_id/logo serves the one the teams row names. At most 256 KiB
--   each (services/access/team-logo.ts).
alter table teams
  add column accent_color text,
  add column logo_sha256 text,
  add column logo_content_type text;

create table team_logos (
  team_id uuid not null,
  sha256 text not null,
  content_type text not null,
  content bytea not null,
  created_at timestamptz not null,
  primary key (team_id, sha256)
);
