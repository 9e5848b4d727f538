import { useCallback, useEffect, useId, useState } from 'preact/hooks';
import { formatDateTime } from '../../dates.ts';
import { t } from '../../i18n.ts';
import { problemMessage } from '../../problems.ts';
import { Dialog, ErrorMessage, NoteField, Status } from '../../ui/index.ts';
import { AnswerVersions, answerText, useClientReading } from './answer-versions.tsx';
import { countersign as countersignAnswer, listAnswers, reviewAnswer } from './api.ts';
import { filesOf, valueText, type ReviewedAnswer } from './review-types.ts';
import { SendBackChosen } from './send-back-dialog.tsx';
import './onboarding-review.css';

type Decision = 'approve' | 'reject' | 'request_changes';
const REASON_MAX = 2000;

/**
 * The onboarding's answers, each with its review status, the reason or note sent to the
 * client, its versions and the diff since the last review, and the review actions of a
 * submitted answer: approve, reject (reason) or request changes (note). Several submitted
 * answers can be chosen and sent back in one send (one email to the client). Files download
 * from here; a signature field can be countersigned by the signed-in member.
 */
export function OnboardingReview({
  onboardingId,
  version,
  onChanged,
}: {
  onboardingId: string;
  version: number;
  onChanged: () => void;
}) {
  const [answers, setAnswers] = useState<ReviewedAnswer[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [status, setStatus] = useState<string | null>(null);
  const [asking, setAsking] = useState<{
    answer: ReviewedAnswer;
    decision: Exclude<Decision, 'approve'>;
  } | null>(null);
  const [chosen, setChosen] = useState<string[]>([]);
  const base = `/onboardings/${encodeURIComponent(onboardingId)}`;
  const chosenAnswers = (answers ?? []).filter(
    (answer) => answer.status === 'submitted' && chosen.includes(answer.field_id),
  );

  const load = useCallback(async () => {
    const answer = await listAnswers(onboardingId);
    if (answer.ok) setAnswers(answer.data.answers);
    else setError(problemMessage(answer.problem, t));
  }, [onboardingId]);
  useEffect(() => {
    void load();
  }, [load, version]);

  async function decide(answer: ReviewedAnswer, decision: Decision, reason?: string): Promise<string | null> {
    const outcome = await reviewAnswer(
      onboardingId,
      answer.field_id,
      reason === undefined ? { decision } : { decision, reason },
    );
    if (!outcome.ok) return problemMessage(outcome.problem, t);
    const done = {
      approve: 'review.approved',
      reject: 'review.rejected',
      request_changes: 'review.changesRequested',
    };
    setError(null);
    setStatus(t(done[decision], { label: answer.label }));
    onChanged();
    return null;
  }

  async function countersign(answer: ReviewedAnswer) {
    const outcome = await countersignAnswer(onboardingId, answer.field_id);
    if (!outcome.ok) return setError(problemMessage(outcome.problem, t));
    setError(null);
    setStatus(t('review.countersignDone', { label: answer.label }));
    onChanged();
  }

  return (
    <section class="section" aria-labelledby="review-title">
      <h2 id="review-title" class="section-title">
        {t('review.title')}
      </h2>
      <Status text={status} />
      <ErrorMessage text={error} />
      {answers === null ? (
        <p class="loading">{t('app.loading')}</p>
      ) : answers.length === 0 ? (
        <p>{t('review.none')}</p>
      ) : (
        <ul class="rows review-answers">
          {answers.map((answer) => (
            <AnswerRow
              key={answer.field_id}
              answer={answer}
              base={base}
              onApprove={() => void decide(answer, 'approve').then(setError)}
              onAsk={(decision) => setAsking({ answer, decision })}
              onCountersign={() => void countersign(answer)}
              chosen={chosen.includes(answer.field_id)}
              onChoose={(on) =>
                setChosen((current) =>
                  on ? [...current, answer.field_id] : current.filter((id) => id !== answer.field_id),
                )
              }
            />
          ))}
        </ul>
      )}
      <SendBackChosen
        onboardingId={onboardingId}
        answers={chosenAnswers}
        onSent={() => {
          setError(null);
          setStatus(t('review.sentBack', { count: chosenAnswers.length }));
          setChosen([]);
          onChanged();
        }}
      />
      {asking ? (
        <ReasonDialog
          label={asking.answer.label}
          decision={asking.decision}
          onClose={() => setAsking(null)}
          onSend={async (reason) => {
            const problem = await decide(asking.answer, asking.decision, reason);
            if (problem === null) setAsking(null);
            return problem;
          }}
        />
      ) : null}
    </section>
  );
}

/** One answer under review: its status, value, reason or note, countersignatures, versions and actions. */
function AnswerRow({
  answer,
  base,
  onApprove,
  onAsk,
  onCountersign,
  chosen,
  onChoose,
}: {
  answer: ReviewedAnswer;
  base: string;
  onApprove: () => void;
  onAsk: (decision: Exclude<Decision, 'approve'>) => void;
  onCountersign: () => void;
  chosen: boolean;
  onChoose: (on: boolean) => void;
}) {
  const chooseId = useId();
  return (
    <li class="row review-answer" data-field-id={answer.field_id}>
      <h3 class="row-title">{answer.label}</h3>
      {answer.status === 'submitted' ? (
        <div class="check review-choose">
          <input
            type="checkbox"
            id={chooseId}
            checked={chosen}
            onChange={(event) => onChoose((event.target as HTMLInputElement).checked)}
          />
          <label for={chooseId}>
            {t('review.choose')}
            <span class="visually-hidden"> {answer.label}</span>
          </label>
        </div>
      ) : null}
      <dl class="facts">
        <dt>{t('review.statusLabel')}</dt>
        <dd>
          <span class={`review-status review-status-${answer.status}`}>
            {t(`review.status.${answer.status}`)}
          </span>
        </dd>
        <dt>{t('review.answer')}</dt>
        <dd class="review-value">
          <AnswerValue answer={answer} base={base} />
        </dd>
        {answer.reason ? (
          <>
            <dt>{t(answer.status === 'rejected' ? 'review.reason' : 'review.note')}</dt>
            <dd>{answer.reason}</dd>
          </>
        ) : null}
      </dl>
      {answer.countersignatures.map((signed) => (
        <p key={signed.signed_at}>
          {t('review.countersigned', {
            name: signed.member_name,
            date: formatDateTime(signed.signed_at),
          })}
        </p>
      ))}
      <AnswerVersions answer={answer} />
      <div class="actions">
        {answer.status === 'submitted' ? (
          <>
            <button type="button" class="button-primary" onClick={onApprove}>
              {t('review.approve')}
              <span class="visually-hidden"> {answer.label}</span>
            </button>
            <button type="button" class="button-danger" onClick={() => onAsk('reject')}>
              {t('review.reject')}
              <span class="visually-hidden"> {answer.label}</span>
            </button>
            <button type="button" class="button-secondary" onClick={() => onAsk('request_changes')}>
              {t('review.requestChanges')}
              <span class="visually-hidden"> {answer.label}</span>
            </button>
          </>
        ) : null}
        {answer.type === 'signature' ? (
          <button type="button" class="button-secondary" onClick={onCountersign}>
            {t('review.countersign')}
            <span class="visually-hidden"> {answer.label}</span>
          </button>
        ) : null}
      </div>
    </li>
  );
}

function AnswerValue({ answer, base }: { answer: ReviewedAnswer; base: string }) {
  // A date reads as the client reads it, like its versions and diff.
  const reading = useClientReading();
  const files = filesOf(answer.value);
  if (files.length > 0) {
    return (
      <ul class="plain">
        {files.map((file) => (
          <li key={file.file_id}>
            <a href={`/workspace/v1${base}/files/${encodeURIComponent(file.file_id)}`} download>
              {t('review.download', { name: file.file_name ?? 'file' })}
            </a>
          </li>
        ))}
      </ul>
    );
  }
  if (answer.type === 'signature' && answer.value && typeof answer.value === 'object') {
    return <>{t('review.signedBy', { name: valueText(answer.value, t('review.empty')) })}</>;
  }
  return <>{answerText(answer.type, answer.value, t('review.empty'), reading)}</>;
}

/** Asks the reason of a rejection or the note of a request for changes (required, at most 2000 characters). */
function ReasonDialog({
  label,
  decision,
  onClose,
  onSend,
}: {
  label: string;
  decision: 'reject' | 'request_changes';
  onClose: () => void;
  onSend: (reason: string) => Promise<string | null>;
}) {
  const [reason, setReason] = useState('');
  const [invalid, setInvalid] = useState<string | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const id = useId();
  const reject = decision === 'reject';
  return (
    <Dialog
      title={t(reject ? 'review.rejectTitle' : 'review.requestChangesTitle', { label })}
      onClose={onClose}
    >
      <form
        noValidate
        onSubmit={async (event) => {
          event.preventDefault();
          const text = reason.trim();
          if (text.length === 0 || text.length > REASON_MAX) {
            setInvalid(t('review.reasonRequired'));
            document.getElementById(id)?.focus();
            return;
          }
          setInvalid(null);
          setBusy(true);
          setProblem(await onSend(text));
          setBusy(false);
        }}
      >
        <ErrorMessage text={problem} />
        <NoteField
          id={id}
          label={t(reject ? 'review.reasonLabel' : 'review.noteLabel')}
          hint={t('review.reasonHint')}
          invalid={invalid}
          rows={4}
          maxLength={REASON_MAX}
          value={reason}
          onInput={setReason}
        />
        <div class="actions">
          <button type="submit" class={reject ? 'button-danger' : 'button-primary'} disabled={busy}>
            {t(reject ? 'review.sendReject' : 'review.sendRequestChanges')}
          </button>
        </div>
      </form>
    </Dialog>
  );
}
