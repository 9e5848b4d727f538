import type { PoolClient } from '../../shared/db/pool.ts';

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

/** Stores one file inside the caller's transaction. */
export async function saveOnboardingFile(tx: PoolClient, file: StoredFile): Promise<void> {
  await tx.query(
    `insert into onboarding_files
       (id, onboarding_id, team_id, client_id, field_id, content_type, size_bytes, content, created_at)
     values ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
    [
      file.id,
      file.onboarding_id,
      file.team_id,
      file.client_id,
      file.field_id,
      file.content_type,
      file.content.length,
      file.content,
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

/** Deletes every file of a client (erasure); returns how many were deleted. */
export async function deleteClientFiles(
  db: Pick<PoolClient, 'query'>,
  teamId: string,
  clientId: string,
): Promise<number> {
  const result = await db.query('delete from onboarding_files where team_id = $1 and client_id = $2', [
    teamId,
    clientId,
  ]);
  return result.rowCount ?? 0;
}

/**
 * The name a file is kept under: the last path segment the browser sent, without control
 * characters, at most MAX_FILE_NAME_CHARACTERS; `file` when nothing is left.
 */
export function cleanFileName(name: string | undefined): string {
  const base = (name ?? '').split(/[\\/]/).pop() ?? '';
  // eslint-disable-next-line no-control-regex
  const clean = base.replace(/[\u0000-\u001f\u007f]/g, '').trim();
  const cut = [...clean].slice(0, MAX_FILE_NAME_CHARACTERS).join('');
  return cut === '' ? 'file' : cut;
}
