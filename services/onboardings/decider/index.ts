import { type Decider } from '../../../shared/commands/decider.ts';
import { assertStorable, assertStorableInstant } from '../../../shared/validation/safe-text.ts';
import type { OnboardingEvent } from '../onboarding-events.ts';
import { archive, eraseClient, unarchive } from './archive-erase.ts';
import { openLink, saveAnswer, submitStep } from './answers.ts';
import type { OnboardingCommand } from './commands.ts';
import { create, update } from './create-update.ts';
import { evolve, initialState } from './evolve.ts';
import { removeFile, uploadFile } from './files.ts';
import { review, sendBack } from './review.ts';
import { remindClient } from './remind.ts';
import { reopen, send } from './send-reopen.ts';
import {
  markPaid,
  recordPayment,
  recordPaymentFailure,
  recordRefund,
  recordSubscriptionEnd,
  recordSubscriptionRenewal,
  refreshTemplate,
} from './payments.ts';
import { signField } from './signing.ts';
import { recordDocument } from './documents.ts';
import type { OnboardingState } from './state.ts';
import { expire, markOverdue } from './timers.ts';

export * from './commands.ts';
export * from './state.ts';
export { activeTokenHash, ERROR_TEXTS } from './rules.ts';
export { clientActive } from './send-reopen.ts';
export { sizeText } from './files.ts';
export { reviewStatus } from './review.ts';
export { recordKey } from './payments.ts';
export { nextReminderAt, REMINDER_LIMIT, REMINDER_WINDOW_HOURS } from './remind.ts';

/**
 * The onboarding aggregate (spec: States and transitions). One function per command, each
 * returning events or throwing a DomainError whose `code` is the API's error code; the
 * current time arrives in `metadata.now`. Status moves are exactly the rows of the
 * transition table plus the moves the spec leaves to the portal (docs/decisions/0028-onboardings.md):
 *
 *   draft       --PATCH cancelled-->      cancelled
 *   sent        --PATCH cancelled-->      cancelled
 *   in_progress --PATCH cancelled-->      cancelled
 *   sent        --PATCH in_progress-->    in_progress
 *   draft       --send-->                 sent         (counts once against the monthly limit)
 *   sent        --send-->                 sent         (resend)
 *   in_progress --send-->                 in_progress  (resend; force when the client is active)
 *   sent        --first open after send-> in_progress  (onboarding.started)
 *   in_progress --last required step-->   completed    (onboarding.completed)
 *   sent, in_progress --expires_at passed--> expired
 *
 * The command functions live by command group: create-update, send-reopen, answers, files,
 * signing, payments, review, archive-erase, timers (rules.ts holds the checks they share);
 * `decide` below is the one switch; `evolve` and `initialState` sit together in evolve.ts.
 */
function decide(command: OnboardingCommand, state: OnboardingState): OnboardingEvent[] {
  assertStorable(command.data);
  assertStorableDeadlines(command);
  switch (command.type) {
    case 'CreateOnboarding':
      return create(command, state);
    case 'UpdateOnboarding':
      return update(command, state);
    case 'SendOnboarding':
      return send(command, state);
    case 'OpenLink':
      return openLink(command, state);
    case 'SaveAnswer':
      return saveAnswer(command, state);
    case 'SubmitStep':
      return submitStep(command, state);
    case 'SignField':
      return signField(command, state);
    case 'UploadFile':
      return uploadFile(command, state);
    case 'RemoveFile':
      return removeFile(command, state);
    case 'RecordPayment':
      return recordPayment(command, state);
    case 'RecordPaymentFailure':
      return recordPaymentFailure(command, state);
    case 'RecordSubscriptionRenewal':
      return recordSubscriptionRenewal(command, state);
    case 'RecordSubscriptionEnd':
      return recordSubscriptionEnd(command, state);
    case 'RecordRefund':
      return recordRefund(command, state);
    case 'MarkPaid':
      return markPaid(command, state);
    case 'RefreshTemplate':
      return refreshTemplate(command, state);
    case 'ApproveAnswer':
    case 'RejectAnswer':
    case 'RequestChanges':
      return review(command, state);
    case 'SendBackAnswers':
      return sendBack(command, state);
    case 'ArchiveOnboarding':
      return archive(command, state);
    case 'UnarchiveOnboarding':
      return unarchive(command, state);
    case 'ReopenOnboarding':
      return reopen(command, state);
    case 'EraseClient':
      return eraseClient(command, state);
    case 'MarkOverdue':
      return markOverdue(command, state);
    case 'ExpireOnboarding':
      return expire(command, state);
    case 'RemindClient':
      return remindClient(command, state);
    case 'RecordDocument':
      return recordDocument(command, state);
    default: {
      const unknown: never = command;
      throw new Error(`Unknown onboarding command ${JSON.stringify(unknown)}`);
    }
  }
}

/** Deadlines become timestamptz columns: years 1 to 9999 only (400 invalid_deadline). */
function assertStorableDeadlines(command: OnboardingCommand): void {
  if (command.type !== 'CreateOnboarding' && command.type !== 'UpdateOnboarding') return;
  assertStorableInstant(command.data.due?.due_date, 'due_date', 'invalid_deadline');
  if (command.type === 'CreateOnboarding') {
    assertStorableInstant(command.data.expires_at, 'expires_at', 'invalid_deadline');
  }
}

export const onboardingDecider: Decider<OnboardingState, OnboardingCommand, OnboardingEvent> = {
  initialState,
  evolve,
  decide,
  // An autosaving client makes streams of thousands of events: keep snapshots. Bump the
  // version whenever evolve or the Onboarding state's shape changes.
  snapshot: { version: 'onboarding-4' },
};
