import { z } from 'zod';
import type { Platform } from '../../../shared/app-deps.ts';
import { isSealed } from '../../../shared/privacy/personal-data-vault.ts';
import { onboardingStreamId } from '../onboarding-events.ts';

/**
 * The files and signatures of an onboarding as the client's form page lists them
 * (GET /portal/v1/onboardings/:token).
 *
 * Files: the rows of onboarding_files (a deleted file has no row) with their names. A
 * file's name is personal data and exists only sealed in its file.uploaded event, so the
 * names are read from the onboarding's stream (the same read that folds the onboarding
 * for every portal request) and opened with the client's key (cached by the vault).
 * Signatures: the client's signatures in the responses read model (the newest per
 * field), without the signer's email.
 */

export type FormViewDeps = Pick<Platform, 'pool' | 'eventStore' | 'vault'>;

export const formFileSchema = z.object({
  id: z.string().uuid(),
  field_id: z.string(),
  file_name: z.string(),
  content_type: z.string(),
  size_bytes: z.number().int(),
  uploaded_at: z.string(),
});

export const formSignatureSchema = z.object({
  id: z.string().uuid(),
  field_id: z.string(),
  signer_name: z.string(),
  signed_at: z.string(),
});

export type FormFile = z.infer<typeof formFileSchema>;
export type FormSignature = z.infer<typeof formSignatureSchema>;

export async function formFiles(context: FormViewDeps, onboardingId: string): Promise<FormFile[]> {
  const { rows } = await context.pool.query<{
    id: string;
    field_id: string;
    content_type: string;
    size_bytes: number;
    created_at: Date;
  }>(
    `select id, field_id, content_type, size_bytes, created_at from onboarding_files
     where onboarding_id = $1 order by created_at, id`,
    [onboardingId],
  );
  if (rows.length === 0) return [];
  const uploads = new Map<string, { file_name: unknown; uploaded_at: string }>();
  for (const event of await context.eventStore.readStream(onboardingStreamId(onboardingId))) {
    if (event.type !== 'file.uploaded') continue;
    const data = event.data as { file_id: string; file_name: unknown; uploaded_at: string };
    uploads.set(data.file_id.toLowerCase(), data);
  }
  const files: FormFile[] = [];
  for (const row of rows) {
    const upload = uploads.get(row.id.toLowerCase());
    const name = isSealed(upload?.file_name) ? await context.vault.open(upload.file_name) : null;
    files.push({
      id: row.id,
      field_id: row.field_id,
      file_name: name ?? 'file',
      content_type: row.content_type,
      size_bytes: row.size_bytes,
      uploaded_at: upload?.uploaded_at ?? row.created_at.toISOString(),
    });
  }
  return files;
}

export async function formSignatures(
  context: Pick<Platform, 'pool'>,
  onboardingId: string,
): Promise<FormSignature[]> {
  const { rows } = await context.pool.query<{
    field_id: string;
    value: { signature_id: string; signer_name: string | null; signed_at: string } | null;
  }>(
    `select field_id, value from responses
     where onboarding_id = $1 and kind = 'signature' and value is not null
     order by created_at, position, id`,
    [onboardingId],
  );
  return rows.flatMap(({ field_id, value }) =>
    value && value.signer_name !== null
      ? [{ id: value.signature_id, field_id, signer_name: value.signer_name, signed_at: value.signed_at }]
      : [],
  );
}
