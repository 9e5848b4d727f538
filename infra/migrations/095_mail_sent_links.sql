-- Sent mail keeps no usable link token (services/mail/sent-mail.ts). Once the SMTP server
-- accepted a message, the mailer replaces every link token in its stored text with a
-- reference (`sent:` and the first 8 hex characters of the token's SHA-256, which names
-- the link without opening it). An invite's client token is still needed while its link
-- works (the reminders carry the same link; GET /admin/v1/onboardings/:id/link answers
-- it), so it is kept in link_token, sealed with the client's personal data key: erasing
-- the client makes it unreadable. Without SMTP_URL nothing is sent and the text stays as
-- written (the outbox is the record a local user reads).
alter table mail_outbox add column link_token jsonb;
