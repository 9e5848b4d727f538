-- The mailer (services/mailer): sending state of mail_outbox rows. Additive: the
-- outbox's writers do not name these columns.
--   status (existing): queued until sent; sent after the SMTP server accepted it; failed
--     after a permanent refusal (5xx) or the last attempt. Without SMTP_URL nothing is
--     sent and rows stay queued (the outbox is the record).
--   attempts, last_error: the sending attempts so far and the latest error.
--   next_attempt_at: service clock; null = due now.
--   leased_until: database clock; a mailer holds the row while it talks to the server.
alter table mail_outbox
  add column attempts integer not null default 0,
  add column next_attempt_at timestamptz,
  add column last_error text,
  add column sent_at timestamptz,
  add column leased_until timestamptz;
