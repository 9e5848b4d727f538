import { useId, useState } from 'preact/hooks';
import { call } from '../../../../shared/api/client.ts';
import { api } from '../../api.ts';
import { t } from '../../i18n.ts';
import { problemMessage } from '../../problems.ts';
import { Dialog, ErrorMessage, NoteField, Select } from '../../ui/index.ts';
import type { ReviewedAnswer } from './review-types.ts';

const REASON_MAX = 2000;
type Decision = 'reject' | 'request_changes';

/** Several answers back to the client in one send: each with its decision and its reason. */
export const sendBackAnswers = (
  onboardingId: string,
  answers: { field_id: string; decision: Decision; reason: string }[],
) =>
  call(
    api.POST('/workspace/v1/onboardings/{onboarding_id}/answers/send-back', {
      params: { path: { onboarding_id: onboardingId } },
      body: { answers },
    }),
  );

/**
 * Sends the chosen answers back to the client in one send: for each, reject or request
 * changes, and the reason the client reads (required, at most 2000 characters). The client
 * gets one email listing them with a link to the first.
 */
export function SendBackDialog({
  onboardingId,
  answers,
  onClose,
  onSent,
}: {
  onboardingId: string;
  answers: ReviewedAnswer[];
  onClose: () => void;
  onSent: () => void;
}) {
  const [decisions, setDecisions] = useState<Record<string, Decision>>({});
  const [reasons, setReasons] = useState<Record<string, string>>({});
  const [invalid, setInvalid] = useState<Record<string, boolean>>({});
  const [problem, setProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const prefix = useId();
  const idOf = (index: number) => `${prefix}-reason-${index}`;

  async function submit(event: Event) {
    event.preventDefault();
    if (busy) return;
    const wrong = Object.fromEntries(
      answers.map((answer) => {
        const reason = (reasons[answer.field_id] ?? '').trim();
        return [answer.field_id, reason.length === 0 || reason.length > REASON_MAX];
      }),
    );
    setInvalid(wrong);
    const firstWrong = answers.findIndex((answer) => wrong[answer.field_id]);
    if (firstWrong >= 0) {
      document.getElementById(idOf(firstWrong))?.focus();
      return;
    }
    setBusy(true);
    const outcome = await sendBackAnswers(
      onboardingId,
      answers.map((answer) => ({
        field_id: answer.field_id,
        decision: decisions[answer.field_id] ?? 'request_changes',
        reason: (reasons[answer.field_id] ?? '').trim(),
      })),
    );
    setBusy(false);
    if (outcome.ok) onSent();
    else setProblem(problemMessage(outcome.problem, t));
  }

  return (
    <Dialog title={t('review.sendBackTitle', { count: answers.length })} onClose={onClose}>
      <form noValidate onSubmit={submit}>
        <p>{t('review.sendBackIntro')}</p>
        <ErrorMessage text={problem} />
        {answers.map((answer, index) => (
          <fieldset key={answer.field_id} class="send-back-answer">
            <legend>{answer.label}</legend>
            <Select
              label={t('review.sendBackDecision')}
              value={decisions[answer.field_id] ?? 'request_changes'}
              onValue={(value) => setDecisions({ ...decisions, [answer.field_id]: value as Decision })}
              options={[
                { value: 'request_changes', label: t('review.requestChanges') },
                { value: 'reject', label: t('review.reject') },
              ]}
            />
            <NoteField
              id={idOf(index)}
              label={t('review.sendBackReason', { label: answer.label })}
              hint={t('review.reasonHint')}
              invalid={invalid[answer.field_id] ? t('review.reasonRequired') : null}
              rows={3}
              maxLength={REASON_MAX}
              value={reasons[answer.field_id] ?? ''}
              onInput={(value) => setReasons({ ...reasons, [answer.field_id]: value })}
            />
          </fieldset>
        ))}
        <div class="actions">
          <button type="submit" class="button-primary" disabled={busy}>
            {t('review.sendBackSend', { count: answers.length })}
          </button>
        </div>
      </form>
    </Dialog>
  );
}

/** The chosen answers' "Send back" button and its dialog (nothing while none is chosen). */
export function SendBackChosen({
  onboardingId,
  answers,
  onSent,
}: {
  onboardingId: string;
  answers: ReviewedAnswer[];
  onSent: () => void;
}) {
  const [open, setOpen] = useState(false);
  if (answers.length === 0) return null;
  return (
    <>
      <div class="actions review-send-back">
        <button type="button" class="button-primary" onClick={() => setOpen(true)}>
          {t('review.sendBackChosen', { count: answers.length })}
        </button>
      </div>
      {open ? (
        <SendBackDialog
          onboardingId={onboardingId}
          answers={answers}
          onClose={() => setOpen(false)}
          onSent={() => {
            setOpen(false);
            onSent();
          }}
        />
      ) : null}
    </>
  );
}
