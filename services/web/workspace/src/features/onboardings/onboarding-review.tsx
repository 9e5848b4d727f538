import { useId, useState } from 'preact/hooks';
import { formatDateTime } from '../../dates.ts';
import { currentLocale, t } from '../../i18n.ts';
import { Dialog, ErrorMessage, NoteField, Status } from '../../ui/index.ts';
import { AnswerVersions, answerText, useClientReading } from './answer-versions.tsx';
import { formatAmount, type OnboardingPayment } from './payments-model.ts';
import { useReview, type Decision } from './review/use-review.ts';
import { FilePreview } from './review/file-preview.tsx';
import { groupByStep, type StepGroup, type StepTitle } from './review/steps.ts';
import type { ComponentChildren } from 'preact';
import { filesOf, valueText, type ReviewedAnswer } from './review-types.ts';
import { SendBackChosen } from './send-back-dialog.tsx';
import './onboarding-review.css';

const REASON_MAX = 2000;

/**
 * The onboarding's answers grouped by the form's steps, each step with its progress
 * (approved of total) and Approve step, and Approve all above them (decision 0089); each
 * answer with its review status, the reason or note sent to the client, its versions and
 * the diff since the last review, and the review actions of a submitted answer: approve,
 * reject (reason) or request changes (note). Several submitted answers can be chosen and
 * sent back in one send (one email to the client); Approve step and Approve all leave the
 * chosen ones out. Images preview inline, PDFs open in a tab; a payment field shows its
 * payment; a signature field can be countersigned by the signed-in member.
 */
export function OnboardingReview({
  onboardingId,
  version,
  steps,
  onChanged,
  onWaiting,
}: {
  onboardingId: string;
  version: number;
  steps: StepTitle[];
  onChanged: () => void;
  /** How many answers wait for the team (the page's primary action follows it). */
  onWaiting?: (count: number) => void;
}) {
  const review = useReview(onboardingId, version, onChanged, onWaiting);
  const { answers, payments, busy, error, setError, status, setStatus, asking, setAsking } = review;
  const { chosen, setChosen, chosenAnswers, decide, approveMany, countersign } = review;
  const base = `/onboardings/${encodeURIComponent(onboardingId)}`;

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
        <>
          <ApproveAll
            waiting={approvable(answers, chosen)}
            busy={busy}
            onApprove={() => void approveMany(answers)}
          />
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
          {groupByStep(answers, steps).map((group) => (
            <StepSection
              key={group.id}
              group={group}
              busy={busy}
              approvable={approvable(group.answers, chosen)}
              onApproveStep={() => void approveMany(group.answers)}
            >
              {group.answers.map((answer) => (
                <AnswerRow
                  key={answer.field_id}
                  answer={answer}
                  base={base}
                  payment={payments.find((one) => one.field_id === answer.field_id) ?? null}
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
              {payments
                .filter(
                  (payment) =>
                    payment.step_id === group.id &&
                    !group.answers.some((answer) => answer.field_id === payment.field_id),
                )
                .map((payment) => (
                  <PaymentRow key={payment.field_id} payment={payment} />
                ))}
            </StepSection>
          ))}
        </>
      )}
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

/** One step of the review: its title, progress (approved of total) and Approve step, then its answers. */
function StepSection({
  group,
  busy,
  approvable: count,
  onApproveStep,
  children,
}: {
  group: StepGroup<ReviewedAnswer>;
  busy: boolean;
  approvable: number;
  onApproveStep: () => void;
  children: ComponentChildren;
}) {
  return (
    <section class="review-step" aria-labelledby={`review-step-${group.id}`}>
      <div class="review-step-head">
        <h3 id={`review-step-${group.id}`} class="review-step-title">
          {group.title}
        </h3>
        <span class="review-step-progress">
          {t('review.stepProgress', { approved: group.approved, total: group.total })}
        </span>
        {count > 0 ? (
          <button type="button" class="button-secondary" disabled={busy} onClick={onApproveStep}>
            {t('review.approveStep', { count })}
            <span class="visually-hidden"> {group.title}</span>
          </button>
        ) : null}
      </div>
      <ul class="rows review-answers">{children}</ul>
    </section>
  );
}

/** Pure: how many answers Approve would approve (waiting, not chosen to send back). */
const approvable = (answers: readonly ReviewedAnswer[], chosen: readonly string[]) =>
  answers.filter((answer) => answer.status === 'submitted' && !chosen.includes(answer.field_id)).length;

/** Approve all: every answer still waiting that is not chosen to send back. */
function ApproveAll({ waiting, busy, onApprove }: { waiting: number; busy: boolean; onApprove: () => void }) {
  if (waiting === 0) return null;
  return (
    <div class="actions review-approve-all">
      <button type="button" class="button-primary" disabled={busy} onClick={onApprove}>
        {t('review.approveAll', { count: waiting })}
      </button>
    </div>
  );
}

/** A payment field of the step, shown among its answers (paid, marked as paid, refunded…). */
function PaymentRow({ payment }: { payment: OnboardingPayment }) {
  return (
    <li class="row review-answer" data-field-id={payment.field_id}>
      <h4 class="row-title">{payment.label}</h4>
      <dl class="facts">
        <dt>{t('review.payment')}</dt>
        <dd>
          {payment.amount_cents === null
            ? ''
            : `${formatAmount(payment.amount_cents, payment.currency, currentLocale())} · `}
          {t(`payments.status.${payment.status}`)}
        </dd>
      </dl>
    </li>
  );
}

/** One answer under review: its status, value, reason or note, countersignatures, versions and actions. */
function AnswerRow({
  answer,
  base,
  payment,
  onApprove,
  onAsk,
  onCountersign,
  chosen,
  onChoose,
}: {
  answer: ReviewedAnswer;
  base: string;
  payment: OnboardingPayment | null;
  onApprove: () => void;
  onAsk: (decision: Exclude<Decision, 'approve'>) => void;
  onCountersign: () => void;
  chosen: boolean;
  onChoose: (on: boolean) => void;
}) {
  const chooseId = useId();
  return (
    <li class="row review-answer" data-field-id={answer.field_id}>
      <h4 class="row-title">{answer.label}</h4>
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
        {payment ? (
          <>
            <dt>{t('review.payment')}</dt>
            <dd>
              {payment.amount_cents === null
                ? ''
                : `${formatAmount(payment.amount_cents, payment.currency, currentLocale())} · `}
              {t(`payments.status.${payment.status}`)}
            </dd>
          </>
        ) : null}
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
            <FilePreview
              href={`/workspace/v1${base}/files/${encodeURIComponent(file.file_id)}`}
              file={file}
            />
          </li>
        ))}
      </ul>
    );
  }
  if (answer.type === 'signature' && answer.value && typeof answer.value === 'object') {
    return (
      <>
        {t('review.signedBy', { name: valueText(answer.value, t('review.empty')) })}{' '}
        <a href="#signatures-title">{t('review.seeEvidence')}</a>
      </>
    );
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
