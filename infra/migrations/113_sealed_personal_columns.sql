-- Personal data at rest is sealed with the client's data key (shared/privacy/sealed-columns.ts):
-- erasing the key makes live rows, dead tuples, WAL and backups unreadable alike.

-- clients: name, email, company, phone, notes and custom_fields hold the sealed envelopes of
-- the events; the email filter uses a blind index (HMAC under the team's index key).
alter table clients add column email_hash text;
drop index if exists clients_team_email;
create index clients_team_email_hash on clients (team_id, email_hash);

-- The client a mail is about: its "to", subject and text are sealed with that client's key.
alter table mail_outbox add column client_id uuid;
create index mail_outbox_client on mail_outbox (client_id) where client_id is not null;

-- Uploaded files' bytes sealed with the client's key (rows written before stay readable).
alter table onboarding_files add column sealed boolean not null default false;

-- The read models that held opened personal values are replayed from the log, sealed.
truncate clients, responses, response_onboardings;
delete from checkpoints where name in ('clients', 'responses');
