import { z } from 'zod';
import type { Platform } from '../../../shared/app-deps.ts';
import { isSealed } from '../../../shared/privacy/personal-data-vault.ts';
import { onboardingStreamId } from '../onboarding-events.ts';
import { documentReady } from '../documents/document-store.ts';

/**
 * The files and signatures of an onboarding as the client's form page lists them
 * (GET /portal/v1/onboardings/:token).
 *
 * Files: the rows of onboarding_files (a deleted file has no row) with their names. A
 * file's name is personal data and exists only sealed in its file.uploaded event, so the
 * names are read from the onboarding's stream (the same read that folds the onboarding
 * for every portal request) and opened with the client's key (cached by the vault).
 * Signatures: the client's signature.signed events of the same stream (the newest per
 * field), without the signer's email; a draft drawing saved after signing cannot hide them.
 * `document_ready`: the signed PDF of the completion is stored (services/onboardings/documents/).
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

/** Files and the client's signatures, from one read of the onboarding's stream; whether the signed PDF is ready. */
export async function formAttachments(
  context: FormViewDeps,
  onboardingId: string,
): Promise<{ files: FormFile[]; signatures: FormSignature[]; document_ready: boolean }> {
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
  const uploads = new Map<string, { file_name: unknown; uploaded_at: string }>();
  const signed = new Map<string, { signature_id: string; signer_name: unknown; signed_at: string }>();
  for (const event of await context.eventStore.readStream(onboardingStreamId(onboardingId))) {
    if (event.type === 'file.uploaded') {
      const data = event.data as { file_id: string; file_name: unknown; uploaded_at: string };
      uploads.set(data.file_id.toLowerCase(), data);
    } else if (event.type === 'signature.signed') {
      const data = event.data as {
        field_id: string;
        signature_id: string;
        signer_name: unknown;
        signer_role: string;
        signed_at: string;
      };
      if (data.signer_role === 'client') signed.set(data.field_id, data);
    }
  }
  const open = async (value: unknown) => (isSealed(value) ? await context.vault.open(value) : null);
  const files: FormFile[] = [];
  for (const row of rows) {
    const upload = uploads.get(row.id.toLowerCase());
    files.push({
      id: row.id,
      field_id: row.field_id,
      file_name: (await open(upload?.file_name)) ?? 'file',
      content_type: row.content_type,
      size_bytes: row.size_bytes,
      uploaded_at: upload?.uploaded_at ?? row.created_at.toISOString(),
    });
  }
  const signatures: FormSignature[] = [];
  for (const [fieldId, signature] of signed) {
    const name = await open(signature.signer_name);
    // An erased client's name no longer opens: the signature is not shown.
    if (name === null) continue;
    signatures.push({
      id: signature.signature_id,
      field_id: fieldId,
      signer_name: name,
      signed_at: signature.signed_at,
    });
  }
  return { files, signatures, document_ready: await documentReady(context.pool, onboardingId) };
}
