import type { PoolClient } from '../../../shared/db/pool.ts';
import type { PersonalDataVault } from '../../../shared/privacy/personal-data-vault.ts';
import { sealBytesIn } from '../../../shared/privacy/sealed-columns.ts';

/**
 * The signed PDFs (table onboarding_documents, infra/migrations/140_onboarding_documents.sql):
 * like uploaded files, in PostgreSQL, sealed with the client's key, written in the
 * transaction of their event, deleted when the client is erased.
 */

export interface StoredDocument {
  id: string;
  onboarding_id: string;
  team_id: string;
  client_id: string;
  send_number: number;
  completed_at: string;
  sha256: string;
  content: Buffer;
  created_at: Date;
}

/** Stores one document inside the caller's transaction (its bytes sealed with the client's key). */
export async function saveDocument(tx: PoolClient, document: StoredDocument): Promise<void> {
  const sealed = await sealBytesIn(tx, document.client_id, document.content);
  if (!sealed) throw new Error(`Personal data of ${document.client_id} was erased`);
  await tx.query(
    `insert into onboarding_documents
       (id, onboarding_id, team_id, client_id, send_number, completed_at, sha256, size_bytes, content, created_at)
     values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`,
    [
      document.id,
      document.onboarding_id,
      document.team_id,
      document.client_id,
      document.send_number,
      document.completed_at,
      document.sha256,
      document.content.length,
      sealed,
      document.created_at,
    ],
  );
}

/** Whether the onboarding has a document for the send `sendNumber`. */
export async function hasDocument(
  db: Pick<PoolClient, 'query'>,
  onboardingId: string,
  sendNumber: number,
): Promise<boolean> {
  const { rowCount } = await db.query(
    'select 1 from onboarding_documents where onboarding_id = $1 and send_number = $2',
    [onboardingId, sendNumber],
  );
  return (rowCount ?? 0) > 0;
}

/** Whether the onboarding has any document (the portal's `document_ready`). */
export async function documentReady(db: Pick<PoolClient, 'query'>, onboardingId: string): Promise<boolean> {
  const { rowCount } = await db.query('select 1 from onboarding_documents where onboarding_id = $1 limit 1', [
    onboardingId,
  ]);
  return (rowCount ?? 0) > 0;
}

/** The onboarding's newest document, opened; undefined when there is none or it no longer opens. */
export async function latestDocument(
  db: Pick<PoolClient, 'query'>,
  vault: Pick<PersonalDataVault, 'openBytes'>,
  onboardingId: string,
): Promise<{ content: Buffer; sha256: string; completed_at: Date } | undefined> {
  const { rows } = await db.query<{ content: Buffer; client_id: string; sha256: string; completed_at: Date }>(
    `select content, client_id, sha256, completed_at from onboarding_documents
     where onboarding_id = $1 order by send_number desc limit 1`,
    [onboardingId],
  );
  const row = rows[0];
  if (!row) return undefined;
  const content = await vault.openBytes(row.client_id, row.content);
  return content ? { content, sha256: row.sha256, completed_at: row.completed_at } : undefined;
}

/** Deletes every document of a client (erasure, with its uploaded files). */
export async function deleteClientDocuments(
  db: Pick<PoolClient, 'query'>,
  teamId: string,
  clientId: string,
): Promise<number> {
  const result = await db.query('delete from onboarding_documents where team_id = $1 and client_id = $2', [
    teamId,
    clientId,
  ]);
  return result.rowCount ?? 0;
}
