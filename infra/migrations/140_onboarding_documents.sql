-- The signed PDF of each completion of an onboarding (services/onboardings/documents/).
-- Operational state, not a read model: written by the documents pass in the transaction of
-- its onboarding_document_rendered event (which carries the same sha256) and of the
-- confirmation email, never rebuilt. One document per send of the link (send_number: the
-- onboarding's send count when it completed), so a reopened onboarding that completes again
-- gets a new one; the newest is the one downloaded. The content is sealed with the client's
-- key like uploaded files and deleted with them when the client is erased.
create table onboarding_documents (
  id uuid primary key,
  onboarding_id uuid not null,
  team_id uuid not null,
  client_id uuid not null,
  send_number integer not null,
  completed_at timestamptz not null,
  sha256 text not null,
  size_bytes integer not null,
  content bytea not null,
  created_at timestamptz not null,
  unique (onboarding_id, send_number)
);
create index onboarding_documents_client on onboarding_documents (client_id);
