import { useCallback, useEffect, useState } from 'preact/hooks';
import { call, type Member, type Outcome } from '../../api.ts';
import { t } from '../../i18n.ts';
import { recordProblem, validPin } from '../clients/record-problems.ts';
import { allowedActions, type OnboardingView } from '../clients/records.ts';
import { Dialog, ErrorMessage, Field, Link, ScreenHeading, Status, Select } from '../../ui/index.ts';
import { OnboardingFacts } from './onboarding-fields.tsx';
import { OnboardingReview } from './onboarding-review.tsx';
import { OnboardingTimeline } from './onboarding-timeline.tsx';

type Open = 'send' | 'force' | 'cancel' | 'reopen' | { pin: string } | null;

/** One onboarding: its state and actions, the answers under review, and its timeline. */
export function OnboardingScreen({ id, navigate }: { id: string; navigate: (path: string) => void }) {
  // Bumped after every change made on this page so the review and the timeline read again.
  const [version, setVersion] = useState(0);
  const [onboarding, setOnboarding] = useState<OnboardingView | null | undefined>(undefined);
  const [members, setMembers] = useState<Member[]>([]);
  const [error, setError] = useState<string | null>(null);
  const [status, setStatus] = useState<string | null>(null);
  const [open, setOpen] = useState<Open>(null);
  const [pending, setPending] = useState<{ pin: string }>({ pin: '' });
  const path = `/onboardings/${encodeURIComponent(id)}`;

  const load = useCallback(async () => {
    const answer = await call<{ onboarding: OnboardingView }>('GET', path);
    if (answer.ok) setOnboarding(answer.data.onboarding);
    else if (answer.problem.status === 404 || answer.problem.status === 400) setOnboarding(null);
    else setError(recordProblem(answer.problem, t));
  }, [path]);
  useEffect(() => {
    void load();
    void call<{ data: Member[] }>('GET', '/members').then((answer) => {
      if (answer.ok) setMembers(answer.data.data);
    });
  }, [load]);

  /** Runs an action; on success shows `done` and reads everything again. */
  const act = async (
    request: () => Promise<Outcome<{ onboarding: OnboardingView }>>,
    done: string,
  ): Promise<Outcome<{ onboarding: OnboardingView }>> => {
    setStatus(null);
    const answer = await request();
    if (answer.ok) {
      setError(null);
      setOnboarding(answer.data.onboarding);
      setStatus(done);
      setVersion((v) => v + 1);
    } else if (answer.problem.code !== 'requires_force') {
      setError(recordProblem(answer.problem, t));
    }
    return answer;
  };

  const send = async (pin: string, force: boolean) => {
    const body = { ...(pin ? { pin } : {}), ...(force ? { force: true } : {}) };
    const answer = await act(() => call('POST', `${path}/send`, { body }), t('onboardings.sent'));
    if (!answer.ok && answer.problem.code === 'requires_force') {
      setPending({ pin });
      return setOpen('force');
    }
    setOpen(answer.ok && pin ? { pin } : null);
  };

  const reopen = async (pin: string) => {
    const body = pin ? { pin } : {};
    const answer = await act(() => call('POST', `${path}/reopen`, { body }), t('onboardings.reopened'));
    setOpen(answer.ok && pin ? { pin } : null);
  };

  if (onboarding === undefined) return <p class="loading">{t('app.loading')}</p>;
  const name = onboarding?.client.name ?? onboarding?.client.email ?? '';
  const allowed = onboarding ? allowedActions(onboarding) : null;
  return (
    <>
      <p>
        <Link href="/workspace/onboardings" navigate={navigate}>
          {t('onboardings.back')}
        </Link>
      </p>
      <ScreenHeading>
        {onboarding ? `${name}: ${onboarding.template.name}` : t('title.onboarding')}
      </ScreenHeading>
      <Status text={status} />
      <ErrorMessage text={error} />
      {onboarding === null || allowed === null ? (
        <p>{t('onboardings.notFound')}</p>
      ) : (
        <>
          <OnboardingFacts onboarding={onboarding}>
            <dt>{t('onboardings.client')}</dt>
            <dd>
              <Link href={`/workspace/clients/${onboarding.client.id}`} navigate={navigate}>
                {name}
              </Link>
              {onboarding.client.email ? ` (${onboarding.client.email})` : ''}
            </dd>
            <dt>{t('onboardings.link')}</dt>
            <dd>{t(`onboardings.link.${onboarding.link}`, { count: onboarding.send_count })}</dd>
          </OnboardingFacts>
          <section class="section" aria-labelledby="onboarding-actions">
            <h2 id="onboarding-actions">{t('onboardings.actions')}</h2>
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
                <button
                  type="button"
                  class="button-secondary"
                  onClick={() =>
                    void act(() => call('POST', `${path}/archive`), t('onboardings.archivedDone'))
                  }
                >
                  {t('onboardings.archive')}
                </button>
              ) : null}
              {allowed.unarchive ? (
                <button
                  type="button"
                  class="button-secondary"
                  onClick={() =>
                    void act(() => call('POST', `${path}/unarchive`), t('onboardings.unarchivedDone'))
                  }
                >
                  {t('onboardings.unarchive')}
                </button>
              ) : null}
            </div>
            {allowed.edit ? (
              <AssignAndDue
                onboarding={onboarding}
                members={members}
                onChange={(body, done) => act(() => call('PATCH', path, { body }), done)}
              />
            ) : null}
          </section>
          {open === 'send' ? (
            <PinDialog
              title={t(allowed.send ? 'onboardings.sendTitle' : 'onboardings.resendTitle', { name })}
              question={null}
              confirm={t('onboardings.sendNow')}
              error={error}
              onClose={() => setOpen(null)}
              onConfirm={(pin) => send(pin, false)}
            />
          ) : null}
          {open === 'reopen' ? (
            <PinDialog
              title={t('onboardings.reopenTitle', { name })}
              question={t('onboardings.reopenQuestion')}
              confirm={t('onboardings.reopenYes')}
              error={error}
              onClose={() => setOpen(null)}
              onConfirm={reopen}
            />
          ) : null}
          {open === 'force' ? (
            <Dialog title={t('onboardings.forceTitle')} onClose={() => setOpen(null)}>
              <p>{t('onboardings.forceQuestion')}</p>
              <div class="actions">
                <button type="button" class="button-primary" onClick={() => void send(pending.pin, true)}>
                  {t('onboardings.forceYes')}
                </button>
                <button type="button" class="button-quiet" onClick={() => setOpen(null)}>
                  {t('dialog.cancel')}
                </button>
              </div>
            </Dialog>
          ) : null}
          {open === 'cancel' ? (
            <Dialog title={t('onboardings.cancelTitle')} onClose={() => setOpen(null)}>
              <p>{t('onboardings.cancelQuestion', { name })}</p>
              <div class="actions">
                <button
                  type="button"
                  class="button-danger"
                  onClick={() =>
                    void act(() => call('POST', `${path}/cancel`), t('onboardings.cancelled')).then(() =>
                      setOpen(null),
                    )
                  }
                >
                  {t('onboardings.cancelYes')}
                </button>
                <button type="button" class="button-quiet" onClick={() => setOpen(null)}>
                  {t('onboardings.keep')}
                </button>
              </div>
            </Dialog>
          ) : null}
          {open !== null && typeof open === 'object' ? (
            <Dialog title={t('onboardings.pinShownTitle', { name })} onClose={() => setOpen(null)}>
              <p>{t('onboardings.pinShown')}</p>
              <p class="secret">{open.pin}</p>
              <div class="actions">
                <button type="button" class="button-primary" onClick={() => setOpen(null)}>
                  {t('onboardings.pinDone')}
                </button>
              </div>
            </Dialog>
          ) : null}
        </>
      )}
      <OnboardingReview onboardingId={id} version={version} onChanged={() => setVersion((v) => v + 1)} />
      <OnboardingTimeline onboardingId={id} version={version} />
    </>
  );
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
        <div class="actions">
          <button type="submit" class="button-primary" disabled={busy}>
            {confirm}
          </button>
          <button type="button" class="button-quiet" onClick={onClose}>
            {t('dialog.cancel')}
          </button>
        </div>
      </form>
    </Dialog>
  );
}

/** Assign to a member or nobody; set or clear the due date (a calendar date in the team's time zone). */
function AssignAndDue({
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
          options={[
            { value: '', label: t('onboardings.nobody') },
            ...members.map((member) => ({ value: member.id, label: member.name })),
          ]}
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
        <Field
          label={t('onboardings.due')}
          hint={t('onboardings.dueOnHint')}
          type="date"
          value={dueOn}
          onValue={setDueOn}
        />
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
