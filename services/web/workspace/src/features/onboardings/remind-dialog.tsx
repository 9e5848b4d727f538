import { useId, useState } from 'preact/hooks';
import { call } from '../../../../shared/api/client.ts';
import { api, type ApiAnswer } from '../../api.ts';
import { t, type Translate } from '../../i18n.ts';
import { minutesOf, type Problem } from '../../problems.ts';
import { Dialog, DialogActions, ErrorMessage, useAction } from '../../ui/index.ts';
import { recordProblem } from '../clients/record-problems.ts';

/** The longest personal message (the API's REMINDER_MESSAGE_MAX). */
const MESSAGE_MAX = 1000;

type Reminded = ApiAnswer<'/workspace/v1/onboardings/{onboarding_id}/remind', 'post'>;

const sendReminder = (id: string, message: string) =>
  call(
    api.POST('/workspace/v1/onboardings/{onboarding_id}/remind', {
      params: { path: { onboarding_id: id } },
      body: message ? { message } : {},
    }),
  );

/** Pure: a refused reminder in words (the limit says when the next can go). */
export function remindProblem(problem: Problem, translate: Translate): string {
  switch (problem.code) {
    case 'reminder_limit_reached': {
      const hours = Math.ceil(minutesOf(problem.retryAfterSeconds) / 60);
      return translate('remind.limit', { hours });
    }
    case 'invalid_state':
      return translate('remind.notOpen');
    case 'sending_paused':
      return translate('remind.paused');
    default:
      return recordProblem(problem, translate);
  }
}

/** "Send a reminder now": an optional personal message, then the reminder email goes. */
export function RemindDialog({
  onboardingId,
  onClose,
  onSent,
}: {
  onboardingId: string;
  onClose: () => void;
  onSent: (link: Reminded) => void;
}) {
  const id = useId();
  const [message, setMessage] = useState('');
  const { busy, error, setError, run } = useAction();
  const submit = async (event: Event) => {
    event.preventDefault();
    const answer = await run(() => sendReminder(onboardingId, message.trim()));
    if (!answer) return;
    if (answer.ok) onSent(answer.data);
    else setError(remindProblem(answer.problem, t));
  };
  return (
    <Dialog title={t('remind.title')} onClose={onClose}>
      <form onSubmit={submit} noValidate>
        <ErrorMessage text={error} />
        <p>{t('remind.question')}</p>
        <div class="field">
          <label for={id}>{t('remind.message')}</label>
          <div id={`${id}-hint`} class="hint">
            {t('remind.messageHint', { max: MESSAGE_MAX })}
          </div>
          <textarea
            id={id}
            rows={4}
            maxLength={MESSAGE_MAX}
            autoFocus
            value={message}
            aria-describedby={`${id}-hint`}
            onInput={(event) => setMessage((event.target as HTMLTextAreaElement).value)}
          />
        </div>
        <DialogActions action={t('remind.send')} disabled={busy} onCancel={onClose} />
      </form>
    </Dialog>
  );
}
