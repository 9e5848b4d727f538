import { useEffect, useId, useState } from 'preact/hooks';
import { t } from '../../../i18n.ts';
import { problemMessage } from '../../../problems.ts';
import { changesOf, formOf, isHexColor, localeName, timeZones, type SettingsForm } from './team-settings.ts';
import { getTeam, updateTeam, type TeamSettings } from '../api.ts';
import { DATE_FORMATS, LOCALES } from '../../../../../../../shared/i18n/locales.ts';
import { LOGO_TYPES, MAX_LOGO_BYTES } from '../../../../../../access/contract/logo-limits.ts';
import { ErrorMessage, Field, ScreenHeading, Select, Status, useFieldCheck } from '../../../ui/index.ts';
import { fieldErrors } from '../../../validation.ts';
import { accentProblem, fieldOfProblem } from './accent-check.ts';
import { ReminderScheduleSection } from './reminder-schedule.tsx';
import { PlanAndPayments } from './plan-payments.tsx';

/**
 * Settings: everyone reads the team's settings, its plan and its online payments; owners and
 * admins change the name, sender name, time zone, language, date format, accent colour and
 * logo, and the default reminder schedule (its own form), and connect the team's Stripe
 * account (./plan-payments.tsx; `stripeBack`: back from Stripe on its return or refresh
 * page). Notices say when sending is paused or the monthly limit is near.
 */
export function SettingsScreen({
  canEdit,
  stripeBack,
  navigate,
}: {
  canEdit: boolean;
  stripeBack?: 'return' | 'refresh';
  navigate: (path: string, options?: { replace?: boolean }) => void;
}) {
  const [team, setTeam] = useState<TeamSettings | null>(null);
  const [form, setForm] = useState<SettingsForm | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [status, setStatus] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const fields = useFieldCheck();

  const loaded = (settings: TeamSettings) => {
    setTeam(settings);
    setForm(formOf(settings));
  };
  useEffect(() => {
    void getTeam().then((answer) => {
      if (answer.ok) loaded(answer.data.team);
      else setError(problemMessage(answer.problem, t));
    });
  }, []);

  const set = (change: Partial<SettingsForm>) => setForm((current) => current && { ...current, ...change });

  const submit = async (event: Event) => {
    event.preventDefault();
    if (busy || !team || !form) return;
    const found = fieldErrors({ name: { kind: 'required', value: form.name } }, t);
    const accent = accentProblem(form.accent);
    if (accent) found.accent = accent;
    if (!fields.check(found)) return setError(null);
    const changes = changesOf(team, form);
    if (Object.keys(changes).length === 0) return setStatus(t('settings.nothingChanged'));
    setBusy(true);
    setError(null);
    setStatus(t('settings.saving'));
    const answer = await updateTeam(changes);
    setBusy(false);
    if (!answer.ok) {
      setStatus(null);
      // A refusal about the accent colour or the name is said beside that field, in words.
      const field = fieldOfProblem(answer.problem.message);
      if (field === 'accent' && accentProblem(form.accent))
        return fields.check({ accent: accentProblem(form.accent)! });
      if (field === 'name') return fields.check({ name: answer.problem.message });
      return setError(problemMessage(answer.problem, t));
    }
    loaded(answer.data.team);
    setStatus(t('settings.saved'));
  };

  return (
    <>
      <ScreenHeading>{t('settings.title')}</ScreenHeading>
      {team ? <TeamNotices team={team} /> : null}
      {canEdit ? null : <p>{t('settings.readOnly')}</p>}
      {team ? <PlanAndPayments {...{ team, canEdit, stripeBack, navigate }} onTeam={setTeam} /> : null}
      <Status text={status} />
      <ErrorMessage text={error} />
      {!team || !form ? (
        <p class="loading">{t('app.loading')}</p>
      ) : (
        <form ref={fields.form} onSubmit={(event) => void submit(event)} noValidate class="card section">
          <fieldset disabled={!canEdit} class="plain">
            <Field
              label={t('settings.name')}
              required
              maxLength={200}
              value={form.name}
              onValue={(name) => set({ name })}
              error={fields.errors.name}
            />
            <Field
              label={t('settings.senderName')}
              maxLength={200}
              value={form.sender}
              onValue={(sender) => set({ sender })}
              hint={t('settings.senderHint')}
            />
            <Select
              label={t('settings.timezone')}
              value={form.timezone}
              onValue={(timezone) => set({ timezone })}
              options={timeZones(form.timezone).map((zone) => ({ value: zone, label: zone }))}
            />
            <Select
              label={t('settings.locale')}
              value={form.locale}
              onValue={(locale) => set({ locale })}
              options={LOCALES.map((locale) => ({
                value: locale,
                label: localeName(locale),
                lang: locale,
              }))}
            />
            <Select
              label={t('settings.dateFormat')}
              value={form.date_format}
              onValue={(format) => set({ date_format: format as SettingsForm['date_format'] })}
              options={DATE_FORMATS.map((format) => ({ value: format, label: format }))}
            />
            <AccentFields form={form} set={set} error={fields.errors.accent} />
            <LogoField form={form} set={set} onProblem={setError} />
          </fieldset>
          {canEdit ? (
            <button type="submit" class="button-primary" aria-disabled={busy || undefined}>
              {t('settings.save')}
            </button>
          ) : null}
        </form>
      )}
      {team ? <ReminderScheduleSection team={team} canEdit={canEdit} onSaved={setTeam} /> : null}
    </>
  );
}

/** Sending paused, or the monthly limit near. */
function TeamNotices({ team }: { team: TeamSettings }) {
  return (
    <>
      {team.sending_paused ? <p class="notice">{t('settings.paused')}</p> : null}
      {team.usage.limit_near ? (
        <p class="notice">
          {t('settings.limitNear', {
            sent: team.usage.onboardings_sent,
            limit: team.usage.monthly_limit,
            month: team.usage.month,
          })}
        </p>
      ) : null}
    </>
  );
}

function AccentFields({
  form,
  set,
  error,
}: {
  form: SettingsForm;
  set: (change: Partial<SettingsForm>) => void;
  error?: string | null;
}) {
  const id = useId();
  return (
    <div class="field">
      <label for={id}>{t('settings.accent')}</label>
      <input
        id={id}
        type="color"
        value={isHexColor(form.accent) ? form.accent.toLowerCase() : '#000000'}
        aria-describedby={`${id}-hint`}
        onInput={(event) => set({ accent: (event.target as HTMLInputElement).value })}
      />
      <Field
        label={t('settings.accentHex')}
        autoComplete="off"
        spellcheck={false}
        maxLength={7}
        value={form.accent}
        onValue={(accent) => set({ accent })}
        error={error}
      />
      <p id={`${id}-hint`} class="hint">
        {t('settings.accentHint')}
      </p>
    </div>
  );
}

function LogoField({
  form,
  set,
  onProblem,
}: {
  form: SettingsForm;
  set: (change: Partial<SettingsForm>) => void;
  onProblem: (message: string | null) => void;
}) {
  const id = useId();
  const choose = (input: HTMLInputElement) => {
    const file = input.files?.[0];
    if (!file) return;
    const problem = !(LOGO_TYPES as readonly string[]).includes(file.type)
      ? t('settings.logoType')
      : file.size > MAX_LOGO_BYTES
        ? t('settings.logoSize')
        : null;
    if (problem) {
      input.value = '';
      return onProblem(problem);
    }
    const reader = new FileReader();
    reader.onload = () => {
      onProblem(null);
      set({ logo: String(reader.result) });
    };
    reader.onerror = () => onProblem(t('settings.logoUnreadable'));
    reader.readAsDataURL(file);
  };
  return (
    <div class="field">
      <label for={id}>{t('settings.logo')}</label>
      <p id={`${id}-hint`} class="hint">
        {t('settings.logoHint')}
      </p>
      {form.logo ? (
        <img src={form.logo} alt={t('settings.logoPreview')} class="logo-preview" height={64} />
      ) : (
        <p>{t('settings.noLogo')}</p>
      )}
      <input
        id={id}
        type="file"
        accept={LOGO_TYPES.join(',')}
        aria-describedby={`${id}-hint`}
        onChange={(event) => choose(event.target as HTMLInputElement)}
      />
      {form.logo ? (
        <button type="button" class="button-secondary" onClick={() => set({ logo: null })}>
          {t('settings.logoRemove')}
        </button>
      ) : null}
    </div>
  );
}
