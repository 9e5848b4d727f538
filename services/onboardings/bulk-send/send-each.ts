import { createHash } from 'node:crypto';
import { inCommandTransaction, type CommandMetadata } from '../../../shared/commands/handle-command.ts';
import { ApiError } from '../../../shared/http/api-error.ts';
import { answeringRefusals } from '../../../shared/http/domain-errors.ts';
import { DomainError } from '../../../shared/commands/decider.ts';
import { explainUnverified } from '../../access/index.ts';
import { issueClientToken } from '../link-secrets.ts';
import { createOnboarding, sendOnboarding, type CommandDeps } from '../onboarding-commands.ts';
import { onboardingErrors } from '../onboarding-errors.ts';
import { readOnboarding } from '../onboarding-unit-of-work.ts';

/*
 * One template sent to many clients (docs/decisions/0088-bulk-send.md): for each client, in
 * one transaction, the manual create (createOnboarding) then the manual send (sendOnboarding,
 * without force), so every check of a manual send holds and is the same code: the plan's
 * monthly limit, the new-recipient cap, payment readiness, a paused team, an erased client.
 * A refused send rolls its draft back with it (no stray drafts); each refusal is kept with
 * its code and words and the next client goes on. Sends counted in the month's usage are
 * the manual ones, so each counts.
 *
 * The onboarding's id is derived from the action's idempotency key and the client, so a
 * retry of an action stopped part-way (a crash) finds what it already sent and sends only
 * the rest.
 */

export interface SendResult {
  client_id: string;
  onboarding_id: string | null;
  outcome: 'sent' | 'refused';
  code: string | null;
  error: string | null;
}

/** A uuid (version 4 layout) from the action's key and the client: the same on a retry. */
export function plannedOnboardingId(teamId: string, key: string, clientId: string): string {
  const hex = createHash('sha256').update(`bulk-send\0${teamId}\0${key}\0${clientId}`).digest('hex');
  const variant = ((parseInt(hex[16]!, 16) & 0x3) | 0x8).toString(16);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

export interface BulkSendInput {
  teamId: string;
  key: string;
  templateId: string;
  dueOn?: string;
}

/** Creates and sends to one client; a refusal is answered in words, never thrown. */
export async function sendToOne(
  deps: CommandDeps & { pool: Parameters<typeof explainUnverified>[0] },
  input: BulkSendInput,
  clientId: string,
  now: Date,
  metadata: () => CommandMetadata,
): Promise<SendResult & { position?: bigint }> {
  const onboardingId = plannedOnboardingId(input.teamId, input.key, clientId);
  try {
    const outcome = await answeringRefusals(onboardingErrors, () =>
      inCommandTransaction(deps, async (tx) => {
        const { state } = await readOnboarding(deps.eventStore, onboardingId, tx);
        // A retry of an action that stopped part-way: this one went already.
        if (state.status !== 'absent' && state.status !== 'draft') return { position: undefined };
        if (state.status === 'absent') {
          const token = issueClientToken().token;
          await createOnboarding(
            deps,
            tx,
            {
              team_id: input.teamId,
              template_id: input.templateId,
              client_id: clientId,
              due_date: input.dueOn,
            },
            now,
            metadata(),
            { planned: { onboardingId, token } },
          );
        }
        return sendOnboarding(
          deps,
          tx,
          { team_id: input.teamId, onboarding_id: onboardingId, force: false },
          now,
          metadata(),
        );
      }),
    ).catch((error: unknown) => explainUnverified(deps.pool, input.teamId, error));
    return {
      client_id: clientId,
      onboarding_id: onboardingId,
      outcome: 'sent',
      code: null,
      error: null,
      position: outcome.position,
    };
  } catch (thrown) {
    const error = thrown instanceof DomainError ? (onboardingErrors.answer(thrown) ?? thrown) : thrown;
    if (!(error instanceof ApiError) || error.status >= 500) throw error;
    return {
      client_id: clientId,
      onboarding_id: null,
      outcome: 'refused',
      code: error.options.code ?? 'refused',
      error: error.text,
    };
  }
}
