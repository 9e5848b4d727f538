-- Whether a client chose its language and date format (docs/decisions/0078), or took the
-- team's when it was created. A client without a chosen language sees its form in the
-- browser's language when it is one of the nine (else in `locale`, the team's); without a
-- chosen date format, its dates follow the form's language. Clients created before this
-- migration keep what they had: chosen.
alter table clients
  add column locale_chosen boolean not null default true,
  add column date_format_chosen boolean not null default true;
