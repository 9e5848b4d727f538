-- The per-team email uniqueness of clients, without any stream named by the email
-- (docs/decisions/0016-nothing-linkable-after-erasure.md). One row per email a client of a
-- team holds; email_index is the email's blind index (HMAC-SHA256 under the team's index
-- key, shared/privacy/sealed-columns.ts emailBlindIndex), never an unkeyed hash. The
-- primary key decides which of two racing creates holds an email. Erasing the client
-- deletes its row, so nothing the service keeps maps the address to the client any more.
create table client_email_index (
  team_id uuid not null,
  email_index text not null,
  client_id uuid not null,
  reserved_at timestamptz not null default now(),
  primary key (team_id, email_index)
);
create index client_email_index_client on client_email_index (client_id);

-- The clients of an existing install hold their emails: the clients read model already
-- keeps the same blind index (email_hash) of every client not erased. Clients the read
-- model does not know yet are reserved lazily by the next create of their email
-- (services/clients/client-email-index.ts reads the read model too).
insert into client_email_index (team_id, email_index, client_id, reserved_at)
select distinct on (team_id, email_hash) team_id, email_hash, id, created_at
from clients
where email_hash is not null and not client_is_erased(erased_at, email)
order by team_id, email_hash, created_at, position
on conflict do nothing;
