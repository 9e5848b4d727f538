import { useEffect, useState } from 'preact/hooks';
import type { Member } from '../../api.ts';
import { t } from '../../i18n.ts';
import { validPin } from '../clients/record-problems.ts';
import type { OnboardingView } from '../clients/records.ts';
import { CheckGroup, Dialog, DialogActions, ErrorMessage, Field, Select } from '../../ui/index.ts';
import { listAnswers } from './api.ts';
import { RemindDialog } from './remind-dialog.tsx';
import { DueOnField, memberOptions } from './onboarding-fields.tsx';
import type { ReviewedAnswer } from './review-types.ts';
import type { OnboardingRecord, ReopenChoice } from './use-onboarding.ts';

/**
 * The action buttons an onboarding's state allows; the dialogs they open ask first. The one
 * primary action follows the state (decision 0089): Review while answers wait for the team,
 * Send a reminder while the team waits on the client, Send for a draft; Reopen is only ever
 * a secondary action of a completed one.
 */
export function ActionButtons({ record, waiting }: { record: OnboardingRecord; waiting: number }) {
  const { allowed, setOpen, archive, unarchive, onboarding } = record;
  const [reminding, setReminding] = useState(false);
  if (!allowed || !onboarding) return null;
  const waitsOnClient =
    waiting === 0 &&
    onboarding.archived_at === null &&
    (onboarding.status === 'sent' || onboarding.status === 'in_progress');
  const primary = waiting > 0 ? 'review' : waitsOnClient ? 'remind' : 'send';
  return (
    <div class="actions">
      {primary === 'review' ? (
        <button type="button" class="button-primary" onClick={toReview}>
          {t('review.primaryReview', { count: waiting })}
        </button>
      ) : null}
      {primary === 'remind' ? (
        <button type="button" class="button-primary" onClick={() => setReminding(true)}>
          {t('onboardings.remindPrimary')}
        </button>
      ) : null}
      {allowed.send ? (
        <button type="button" class="button-primary" onClick={() => setOpen('send')}>
          {t('onboardings.send')}
        </button>
      ) : null}
      {allowed.resend ? (
        <button
          type="button"
          class={primary === 'send' ? 'button-primary' : 'button-secondary'}
          onClick={() => setOpen('send')}
        >
          {t('onboardings.resend')}
        </button>
      ) : null}
      {allowed.reopen ? (
        <button type="button" class="button-secondary" onClick={() => setOpen('reopen')}>
          {t('onboardings.reopen')}
        </button>
      ) : null}
      {allowed.cancel ? (
        <button type="button" class="button-danger" onClick={() => setOpen('cancel')}>
          {t('onboardings.cancel')}
        </button>
      ) : null}
      {allowed.archive ? (
        <button type="button" class="button-secondary" onClick={() => void archive()}>
          {t('onboardings.archive')}
        </button>
      ) : null}
      {allowed.unarchive ? (
        <button type="button" class="button-secondary" onClick={() => void unarchive()}>
          {t('onboardings.unarchive')}
        </button>
      ) : null}
      {reminding ? (
        <RemindDialog
          onboardingId={onboarding.id}
          onClose={() => setReminding(false)}
          onSent={() => {
            setReminding(false);
            record.changed();
          }}
        />
      ) : null}
    </div>
  );
}

/** Moves the member to the answers: the review's heading, focused so the keyboard goes on from there. */
function toReview() {
  const heading = document.getElementById('review-title');
  if (!heading) return;
  heading.setAttribute('tabindex', '-1');
  heading.scrollIntoView({ block: 'start' });
  heading.focus();
}

/** The dialog open on the onboarding's page: send, reopen, force a send, cancel, or the PIN shown once. */
export function ActionDialogs({ record, name }: { record: OnboardingRecord; name: string }) {
  const { open, setOpen, allowed, error, send, reopen, pending, cancel } = record;
  const close = () => setOpen(null);
  if (open === 'send') {
    return (
      <PinDialog
        title={t(allowed?.send ? 'onboardings.sendTitle' : 'onboardings.resendTitle', { name })}
        question={null}
        confirm={t('onboardings.sendNow')}
        error={error}
        onClose={close}
        onConfirm={(pin) => send(pin, false)}
      />
    );
  }
  if (open === 'reopen' && record.onboarding) {
    return (
      <ReopenDialog
        id={record.onboarding.id}
        title={t('onboardings.reopenTitle', { name })}
        error={error}
        onClose={close}
        onConfirm={reopen}
      />
    );
  }
  if (open === 'force') {
    return (
      <Dialog title={t('onboardings.forceTitle')} onClose={close}>
        <p>{t('onboardings.forceQuestion')}</p>
        <DialogActions
          action={t('onboardings.forceYes')}
          onAction={() => void send(pending.pin, true)}
          onCancel={close}
        />
      </Dialog>
    );
  }
  if (open === 'cancel') {
    return (
      <Dialog title={t('onboardings.cancelTitle')} onClose={close}>
        <p>{t('onboardings.cancelQuestion', { name })}</p>
        <DialogActions
          action={t('onboardings.cancelYes')}
          danger
          onAction={() => void cancel().then(close)}
          onCancel={close}
          cancel={t('onboardings.keep')}
        />
      </Dialog>
    );
  }
  if (open !== null && typeof open === 'object') {
    return (
      <Dialog title={t('onboardings.pinShownTitle', { name })} onClose={close}>
        <p>{t('onboardings.pinShown')}</p>
        <p class="secret">{open.pin}</p>
        <div class="actions">
          <button type="button" class="button-primary" onClick={close}>
            {t('onboardings.pinDone')}
          </button>
        </div>
      </Dialog>
    );
  }
  return null;
}

/** The longest reason the reopen email carries (the API's limit). */
const REASON_MAX = 1000;

/**
 * Reopen (decision 0077): which answers open again (every answer not approved; approved ones
 * only when chosen here), an optional reason the email tells the client, an optional new PIN.
 */
function ReopenDialog(props: {
  id: string;
  title: string;
  error: string | null;
  onClose: () => void;
  onConfirm: (choice: ReopenChoice) => Promise<void>;
}) {
  const [answers, setAnswers] = useState<ReviewedAnswer[] | null>(null);
  const [unlock, setUnlock] = useState<string[]>([]);
  const [reason, setReason] = useState('');
  const [pin, setPin] = useState('');
  const [pinError, setPinError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    void listAnswers(props.id).then((answer) => setAnswers(answer.ok ? answer.data.answers : []));
  }, [props.id]);
  const approved = (answers ?? []).filter((answer) => answer.status === 'approved');
  const opening = (answers ?? []).filter((answer) => answer.status !== 'approved');
  const submit = async (event: Event) => {
    event.preventDefault();
    if (busy) return;
    if (!validPin(pin)) return setPinError(t('onboardings.pinInvalid'));
    setPinError(null);
    setBusy(true);
    await props.onConfirm({ pin: pin.trim(), reason: reason.trim(), unlock });
    setBusy(false);
  };
  return (
    <Dialog title={props.title} onClose={props.onClose}>
      <form onSubmit={submit} noValidate>
        <ErrorMessage text={props.error} />
        <p>{t('onboardings.reopenQuestion')}</p>
        {answers === null ? <p>{t('onboardings.reopenReading')}</p> : null}
        {opening.length > 0 ? (
          <>
            <p>{t('onboardings.reopenOpens')}</p>
            <ul class="reopen-opens">
              {opening.map((answer) => (
                <li key={answer.field_id}>{answer.label}</li>
              ))}
            </ul>
          </>
        ) : null}
        {answers !== null && opening.length === 0 && approved.length > 0 ? (
          <p>{t('onboardings.reopenAllApproved')}</p>
        ) : null}
        {approved.length > 0 ? (
          <CheckGroup
            legend={t('onboardings.reopenUnlock')}
            idPrefix="reopen-unlock"
            errorId="reopen-unlock-error"
            error={null}
            options={approved.map((answer) => ({ value: answer.field_id, label: answer.label }))}
            chosen={unlock}
            onChosen={(fieldId, on) =>
              setUnlock((now) => (on ? [...now, fieldId] : now.filter((one) => one !== fieldId)))
            }
          />
        ) : null}
        <div class="field">
          <label for="reopen-reason">{t('onboardings.reopenReason')}</label>
          <div id="reopen-reason-hint" class="hint">
            {t('onboardings.reopenReasonHint')}
          </div>
          <textarea
            id="reopen-reason"
            rows={3}
            maxLength={REASON_MAX}
            value={reason}
            aria-describedby="reopen-reason-hint"
            onInput={(event) => setReason((event.target as HTMLTextAreaElement).value)}
          />
        </div>
        <Field
          label={t('onboardings.pin')}
          hint={t('onboardings.pinHint')}
          inputMode="numeric"
          autoComplete="off"
          maxLength={6}
          value={pin}
          onValue={setPin}
          error={pinError}
        />
        <DialogActions action={t('onboardings.reopenYes')} disabled={busy} onCancel={props.onClose} />
      </form>
    </Dialog>
  );
}

/** Send or resend: an optional new PIN, then the action. */
function PinDialog({
  title,
  question,
  confirm,
  error,
  onClose,
  onConfirm,
}: {
  title: string;
  question: string | null;
  confirm: string;
  error: string | null;
  onClose: () => void;
  onConfirm: (pin: string) => Promise<void>;
}) {
  const [pin, setPin] = useState('');
  const [pinError, setPinError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const submit = async (event: Event) => {
    event.preventDefault();
    if (busy) return;
    if (!validPin(pin)) return setPinError(t('onboardings.pinInvalid'));
    setPinError(null);
    setBusy(true);
    await onConfirm(pin.trim());
    setBusy(false);
  };
  return (
    <Dialog title={title} onClose={onClose}>
      <form onSubmit={submit} noValidate>
        <ErrorMessage text={error} />
        {question ? <p>{question}</p> : null}
        <Field
          label={t('onboardings.pin')}
          hint={t('onboardings.pinHint')}
          inputMode="numeric"
          autoComplete="off"
          maxLength={6}
          value={pin}
          onValue={setPin}
          error={pinError}
        />
        <DialogActions action={confirm} disabled={busy} onCancel={onClose} />
      </form>
    </Dialog>
  );
}

/** Assign to a member or nobody; set or clear the due date (a calendar date in the team's time zone). */
export function AssignAndDue({
  onboarding,
  members,
  onChange,
}: {
  onboarding: OnboardingView;
  members: Member[];
  onChange: (body: Record<string, unknown>, done: string) => Promise<unknown>;
}) {
  const [assignee, setAssignee] = useState(onboarding.assigned_to ?? '');
  const [dueOn, setDueOn] = useState(onboarding.due_on ?? '');
  useEffect(() => {
    setAssignee(onboarding.assigned_to ?? '');
    setDueOn(onboarding.due_on ?? '');
  }, [onboarding.assigned_to, onboarding.due_on]);
  return (
    <>
      <form
        class="inline-form"
        onSubmit={(event) => {
          event.preventDefault();
          void onChange({ assigned_to: assignee || null }, t('onboardings.assigned'));
        }}
      >
        <Select
          label={t('onboardings.assign')}
          value={assignee}
          onValue={setAssignee}
          options={[{ value: '', label: t('onboardings.nobody') }, ...memberOptions(members)]}
        />
        <button type="submit" class="button-secondary">
          {t('onboardings.assignSave')}
        </button>
      </form>
      <form
        class="inline-form"
        onSubmit={(event) => {
          event.preventDefault();
          if (dueOn) void onChange({ due_on: dueOn }, t('onboardings.dueSaved'));
        }}
      >
        <DueOnField label={t('onboardings.due')} value={dueOn} onValue={setDueOn} />
        <div class="actions">
          <button type="submit" class="button-secondary" disabled={!dueOn}>
            {t('onboardings.dueSave')}
          </button>
          {onboarding.due_date ? (
            <button
              type="button"
              class="button-quiet"
              onClick={() => void onChange({ due_on: null }, t('onboardings.dueCleared'))}
            >
              {t('onboardings.dueClear')}
            </button>
          ) : null}
        </div>
      </form>
    </>
  );
}
