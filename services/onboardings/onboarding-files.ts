import type { PoolClient } from '../../shared/db/pool.ts';
import { sealBytesIn } from '../../shared/privacy/sealed-columns.ts';
import type { PersonalDataVault } from '../../shared/privacy/personal-data-vault.ts';
import { deleteClientDocuments } from './documents/document-store.ts';

/**
 * Files clients upload to a file field of an onboarding (table onboarding_files,
 * infra/migrations/061_onboarding_files.sql). They live in PostgreSQL rather than on disk:
 * the row is written in the transaction of its file.uploaded event (no orphan files, no
 * event without its file), backups and erasure cover them with the rest of the data, and
 * several service processes share them without a shared disk.
 */

/** Largest file accepted: 10 MiB. A larger upload answers 413 payload_too_large. */
export const MAX_FILE_BYTES = 10 * 1024 * 1024;

/** Longest file name kept (characters); longer names are cut. */
export const MAX_FILE_NAME_CHARACTERS = 255;

export interface StoredFile {
  id: string;
  onboarding_id: string;
  team_id: string;
  client_id: string;
  field_id: string;
  content_type: string;
  content: Buffer;
  created_at: Date;
}

/**
 * Stores one file inside the caller's transaction, its bytes sealed with the client's key
 * (vault.openBytes opens them; once the client is erased they open nothing).
 */
export async function saveOnboardingFile(tx: PoolClient, file: StoredFile): Promise<void> {
  const sealed = await sealBytesIn(tx, file.client_id, file.content);
  if (!sealed) throw new Error(`Personal data of ${file.client_id} was erased`);
  await tx.query(
    `insert into onboarding_files
       (id, onboarding_id, team_id, client_id, field_id, content_type, size_bytes, content, created_at, sealed)
     values ($1, $2, $3, $4, $5, $6, $7, $8, $9, true)`,
    [
      file.id,
      file.onboarding_id,
      file.team_id,
      file.client_id,
      file.field_id,
      file.content_type,
      file.content.length,
      sealed,
      file.created_at,
    ],
  );
}

/** Deletes one file of an onboarding inside the caller's transaction (the client removed it). */
export async function deleteOnboardingFile(
  tx: PoolClient,
  onboardingId: string,
  fileId: string,
): Promise<void> {
  await tx.query('delete from onboarding_files where id = $1 and onboarding_id = $2', [fileId, onboardingId]);
}

/**
 * Deletes every file of a client (erasure), the signed PDFs of its onboardings with them;
 * returns how many uploaded files were deleted.
 */
export async function deleteClientFiles(
  db: Pick<PoolClient, 'query'>,
  teamId: string,
  clientId: string,
): Promise<number> {
  await deleteClientDocuments(db, teamId, clientId);
  const result = await db.query('delete from onboarding_files where team_id = $1 and client_id = $2', [
    teamId,
    clientId,
  ]);
  return result.rowCount ?? 0;
}

/**
 * Characters a file name loses: C0 and C1 controls (and DEL), and the bidirectional marks,
 * embeddings, overrides and isolates (U+061C, U+200E/U+200F, U+202A-U+202E, U+2066-U+2069)
 * that make `invoice\u202Efdp.exe` show as `invoiceexe.pdf`.
 */
// eslint-disable-next-line no-control-regex
const UNSAFE_NAME_CHARACTERS = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

/** The name given to a file whose name has nothing left once cleaned. */
export const FALLBACK_FILE_NAME = 'file';

/**
 * The name a file is kept under: the last path segment the browser sent, without control
 * and bidirectional formatting characters, trimmed, at most MAX_FILE_NAME_CHARACTERS;
 * FALLBACK_FILE_NAME when nothing is left (or only dots, which name no file).
 */
export function cleanFileName(name: string | undefined): string {
  const base = (name ?? '').split(/[\\/]/).pop() ?? '';
  const clean = base.normalize('NFC').replace(UNSAFE_NAME_CHARACTERS, '').trim();
  const cut = [...clean].slice(0, MAX_FILE_NAME_CHARACTERS).join('').trim();
  return /^\.*$/.test(cut) ? FALLBACK_FILE_NAME : cut;
}

/**
 * One stored file's bytes (opened with the client's key) and type, when it belongs to the
 * onboarding and can still be read.
 */
export async function readOnboardingFile(
  db: Pick<PoolClient, 'query'>,
  vault: Pick<PersonalDataVault, 'openBytes'>,
  onboardingId: string,
  fileId: string,
): Promise<{ content_type: string; content: Buffer } | undefined> {
  const { rows } = await db.query<{
    content_type: string;
    content: Buffer;
    client_id: string;
    sealed: boolean;
  }>(
    'select content_type, content, client_id, sealed from onboarding_files where id::text = $1 and onboarding_id = $2',
    [fileId.toLowerCase(), onboardingId],
  );
  const row = rows[0];
  if (!row) return undefined;
  const content = row.sealed ? await vault.openBytes(row.client_id, row.content) : row.content;
  return content ? { content_type: row.content_type, content } : undefined;
}
