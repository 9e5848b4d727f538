import { createHash, randomUUID } from 'node:crypto';
import type { Platform } from '../../../shared/app-deps.ts';
import { inCommandTransaction } from '../../../shared/commands/handle-command.ts';
import type { DuePass } from '../../../shared/work-queue/due-pass.ts';
import { queueClientEmail } from '../client-email.ts';
import { clearTokenFromInvites } from '../client-link.ts';
import { activeTokenHash } from '../decider/index.ts';
import { runOnboardingCommand } from '../onboarding-unit-of-work.ts';
import { hasDocument, saveDocument } from './document-store.ts';
import { renderSubmissionPdf } from './render-pdf.ts';
import { submissionRecord, type SubmissionRecord } from './submission-record.ts';

/**
 * The signed PDF of each completion, made off the request path: the pass finds completed
 * onboardings without a document for their current send, renders each PDF outside any
 * transaction, then in one transaction (under a per-onboarding advisory lock, the document
 * checked again) records onboarding_document_rendered with the PDF's SHA-256, stores the
 * sealed PDF and queues the `completed` email with the copy of the answers. Two passes at
 * once render twice at worst and store once (the lock, then the unique send number).
 */

export type DocumentsDeps = Pick<Platform, 'pool' | 'eventStore' | 'vault' | 'clock' | 'logger' | 'settings'>;

/** Most documents made in one pass (the next pass goes on). */
const PASS_LIMIT = 20;

export const onboardingDocumentsPass: DuePass<DocumentsDeps> = {
  name: 'onboarding-documents',
  runDue: (context, signal) => runDueDocuments(context, PASS_LIMIT, signal),
};

/**
 * The completions without a document, oldest first, $1 at most. The read model's
 * documented_send finds them through a partial index that holds only those (migration 158),
 * so a pass over a long history with every document made reads nothing; makeDocument checks
 * the document itself in its transaction.
 */
export const DUE_DOCUMENTS = `select o.id, o.send_count from onboardings o
   where o.status = 'completed' and o.client_erased_at is null
     and o.documented_send is distinct from o.send_count
   order by o.updated_at, o.id limit $1`;

/** Makes the documents due now; resolves to how many were stored. */
export async function runDueDocuments(
  context: DocumentsDeps,
  limit = PASS_LIMIT,
  signal?: AbortSignal,
): Promise<number> {
  const { rows } = await context.pool.query<{ id: string; send_count: number }>(DUE_DOCUMENTS, [limit]);
  let stored = 0;
  for (const row of rows) {
    if (signal?.aborted) break;
    try {
      if (await makeDocument(context, row.id)) stored++;
    } catch (error) {
      context.logger.error({ err: error, onboardingId: row.id }, 'the signed PDF of an onboarding failed');
    }
  }
  return stored;
}

/** Renders, records and stores one onboarding's document; false when nothing was due after all. */
export async function makeDocument(context: DocumentsDeps, onboardingId: string): Promise<boolean> {
  const record = await submissionRecord(context, onboardingId);
  if (!record) return false;
  const pdf = await renderSubmissionPdf(record);
  const sha256 = createHash('sha256').update(pdf).digest('hex');
  return inCommandTransaction(context, async (tx) => {
    const locked = await tx.query<{ ok: boolean }>(
      'select pg_try_advisory_xact_lock(hashtextextended($1, 0)) as ok',
      [`onboarding-documents:${onboardingId}`],
    );
    const sendNumber = record.onboarding.send_count;
    if (!locked.rows[0]?.ok || (await hasDocument(tx, onboardingId, sendNumber))) return false;
    const now = context.clock.now();
    const documentId = randomUUID();
    let stored = false;
    await runOnboardingCommand(
      context,
      tx,
      onboardingId,
      () => ({
        type: 'RecordDocument',
        data: { document_id: documentId, completed_at: record.completed_at, sha256, size_bytes: pdf.length },
        metadata: { now },
      }),
      { command_id: randomUUID(), causation_id: null, correlation_id: documentId },
      {
        effects: async (decided, effectTx, held) => {
          if (decided.events.length === 0) return;
          const { onboarding } = record;
          await saveDocument(effectTx, {
            id: documentId,
            onboarding_id: onboardingId,
            team_id: onboarding.team_id,
            client_id: onboarding.client_id,
            send_number: sendNumber,
            completed_at: record.completed_at,
            sha256,
            content: pdf,
            created_at: now,
          });
          await queueConfirmation(context, effectTx, record, now, held);
          stored = true;
        },
      },
    );
    return stored;
  });
}

/** The `completed` email: the copy of the answers and the link (while it still works). */
async function queueConfirmation(
  context: DocumentsDeps,
  tx: Parameters<typeof queueClientEmail>[0],
  record: SubmissionRecord,
  now: Date,
  held: boolean,
) {
  const { onboarding, client } = record;
  if (!client.email) return;
  const tokenHash = activeTokenHash(onboarding, now);
  await queueClientEmail(tx, {
    kind: 'completed',
    extra: {
      token: tokenHash ? await clearTokenFromInvites(tx, context.vault, onboarding.id, tokenHash) : undefined,
      steps: record.steps,
    },
    publicUrl: context.settings.PUBLIC_URL,
    team: record.team,
    recipient: { name: client.name, email: client.email },
    onboarding,
    at: now,
    held,
  });
}
