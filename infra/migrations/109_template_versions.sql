-- The template builder saves whole definitions (event template.updated): each save names
-- the version it opened, so two saves racing cannot silently overwrite each other.
-- version: 1 when created, one more per update. updated_at: the last save, null before.
alter table templates add column version integer not null default 1;
alter table templates add column updated_at timestamptz;
