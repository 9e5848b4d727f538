import { useEffect, useState } from 'preact/hooks';
import type { Member } from '../../api.ts';
import { t } from '../../i18n.ts';
import { validPin } from '../clients/record-problems.ts';
import type { OnboardingView } from '../clients/records.ts';
import { Dialog, DialogActions, ErrorMessage, Field, Select } from '../../ui/index.ts';
import { DueOnField, memberOptions } from './onboarding-fields.tsx';
import type { OnboardingRecord } from './use-onboarding.ts';

/** The action buttons an onboarding's state allows; the dialogs they open ask first. */
export function ActionButtons({ record }: { record: OnboardingRecord }) {
  const { allowed, setOpen, archive, unarchive } = record;
  if (!allowed) return null;
  return (
    <div class="actions">
      {allowed.send ? (
        <button type="button" class="button-primary" onClick={() => setOpen('send')}>
          {t('onboardings.send')}
        </button>
      ) : null}
      {allowed.resend ? (
        <button type="button" class="button-primary" onClick={() => setOpen('send')}>
          {t('onboardings.resend')}
        </button>
      ) : null}
      {allowed.reopen ? (
        <button type="button" class="button-primary" onClick={() => setOpen('reopen')}>
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
    </div>
  );
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
  if (open === 'reopen') {
    return (
      <PinDialog
        title={t('onboardings.reopenTitle', { name })}
        question={t('onboardings.reopenQuestion')}
        confirm={t('onboardings.reopenYes')}
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

/** Send, resend or reopen: an optional new PIN, then the action. */
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
