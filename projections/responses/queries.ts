import type { PersonalDataVault } from '../../shared/privacy/personal-data-vault.ts';
import { openJsonValues } from '../../shared/privacy/sealed-columns.ts';
import { z } from 'zod';
import { countOf, parsedRow, parsedRows, type ReadClient } from '../read-client.ts';

/**
 * Reads of the responses read model (projection.ts), shared by
 * GET /api/v1/responses and the client portal. Oldest first (first answer's time, then
 * log position). GET /api/v1/responses lists every response, the reviewed versions the
 * client has since changed included (each its own id, status rejected or
 * changes_requested, and rejection_reason); the portal lists the current ones.
 */

export const RESPONSE_STATUSES = [
  'draft',
  'pending',
  'submitted',
  'approved',
  'rejected',
  'changes_requested',
] as const;

export const responseSchema = z.object({
  id: z.string().uuid(),
  field_id: z.string().describe('the field answered'),
  value: z.unknown().describe('depends on the field; null once the client was erased'),
  status: z.enum(RESPONSE_STATUSES),
  rejection_reason: z.string().nullable(),
  created_at: z.string().describe('ISO 8601'),
});

export type ResponseResource = z.infer<typeof responseSchema>;

const responseRow = z.object({
  id: z.string(),
  field_id: z.string(),
  value: z.unknown(),
  status: z.enum(RESPONSE_STATUSES),
  rejection_reason: z.string().nullable(),
  created_at: z.date(),
});

const toResource = (row: z.infer<typeof responseRow>): ResponseResource => ({
  id: row.id,
  field_id: row.field_id,
  value: row.value ?? null,
  status: row.status,
  rejection_reason: row.rejection_reason,
  created_at: row.created_at.toISOString(),
});

const COLUMNS = 'id, field_id, value, status, rejection_reason, created_at';

/** Values keep the client's sealed envelopes at rest (sealed-columns.ts): opened here, one key read per page. */
export type ResponseOpener = Pick<PersonalDataVault, 'openAll'>;

async function toResources(vault: ResponseOpener, rows: ReadonlyArray<z.infer<typeof responseRow>>) {
  const values = await openJsonValues(
    vault,
    rows.map((row) => row.value),
  );
  return rows.map((row, index) => toResource({ ...row, value: values[index] }));
}

/** One page of an onboarding's responses, oldest first, with the total. */
export async function listResponses(
  db: ReadClient,
  vault: ResponseOpener,
  onboardingId: string,
  { page, limit }: { page: number; limit: number },
): Promise<{ responses: ResponseResource[]; total: number }> {
  const [rows, total] = await Promise.all([
    parsedRows(
      db,
      responseRow,
      `select ${COLUMNS} from responses where onboarding_id = $1
       order by created_at, position, id
       limit $2 offset $3`,
      [onboardingId, limit, (page - 1) * limit],
    ),
    countOf(db, 'select count(*)::int as count from responses where onboarding_id = $1', [onboardingId]),
  ]);
  return { responses: await toResources(vault, rows), total };
}

/**
 * The current response of every answered field, oldest first (the portal shows them all;
 * reviewed versions the client has since changed are left out).
 */
export async function allResponses(
  db: ReadClient,
  vault: ResponseOpener,
  onboardingId: string,
): Promise<ResponseResource[]> {
  const rows = await parsedRows(
    db,
    responseRow,
    `select ${COLUMNS} from responses where onboarding_id = $1 and current
     order by created_at, position, id`,
    [onboardingId],
  );
  return toResources(vault, rows);
}

/** One response by id, within its onboarding. */
export async function findResponse(
  db: ReadClient,
  vault: ResponseOpener,
  onboardingId: string,
  responseId: string,
): Promise<ResponseResource | undefined> {
  const row = await parsedRow(
    db,
    responseRow,
    `select ${COLUMNS} from responses where onboarding_id = $1 and id = $2`,
    [onboardingId, responseId],
  );
  return row ? (await toResources(vault, [row]))[0] : undefined;
}
