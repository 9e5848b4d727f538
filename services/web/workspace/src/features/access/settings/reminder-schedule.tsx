import { useState } from 'preact/hooks';
import { formatDate } from '../../../dates.ts';
import { t } from '../../../i18n.ts';
import {
  MAX_REMINDER_RULES,
  preview,
  REMINDER_WHEN,
  rowProblems,
  rowsOf,
  validRules,
  type ReminderRule,
  type ReminderWhen,
  type RuleRow,
} from './reminders.ts';
import { updateTeam, type TeamSettings } from '../api.ts';
import { ErrorMessage, Field, Select, Status, useAction, useFieldCheck } from '../../../ui/index.ts';

const whenLabel = (when: ReminderWhen) => t(`reminders.when.${when}`);
const ruleText = (rule: ReminderRule) => t(`reminders.rule.${rule.when}`, { days: rule.days });

/**
 * The team's default reminder schedule (owners and admins edit): up to five rules, each N
 * days after send, before due or after due, with the dates they give an example onboarding
 * sent today and due in 14 days, worked out by the service's own scheduling function.
 */
export function ReminderScheduleSection({
  team,
  canEdit,
  onSaved,
}: {
  team: TeamSettings;
  canEdit: boolean;
  onSaved: (team: TeamSettings) => void;
}) {
  const [rows, setRows] = useState<RuleRow[]>(() => rowsOf(team.reminder_schedule));
  const [status, setStatus] = useState<string | null>(null);
  const { busy, error, setError, run, fail } = useAction();
  const fields = useFieldCheck();
  const [now] = useState(() => new Date());
  const example = preview(validRules(rows), now);

  const change = (index: number, next: Partial<RuleRow>) =>
    setRows((current) => current.map((row, at) => (at === index ? { ...row, ...next } : row)));
  const add = () => {
    setRows((current) => [...current, { when: 'after_send', days: '' }]);
    setStatus(t('reminders.added', { n: rows.length + 1 }));
    // The new row's days field takes focus once it is in the page.
    setTimeout(() =>
      fields.form.current?.querySelector<HTMLInputElement>('.reminder-rule:last-of-type input')?.focus(),
    );
  };
  const remove = (index: number) => {
    setRows((current) => current.filter((_, at) => at !== index));
    setStatus(t('reminders.removed', { n: index + 1 }));
    setTimeout(() =>
      fields.form.current?.querySelector<HTMLButtonElement>('.add-reminder, .reminder-rule input')?.focus(),
    );
  };

  const submit = async (event: Event) => {
    event.preventDefault();
    const problems = rowProblems(rows);
    const found = Object.fromEntries(
      Object.entries(problems).map(([index, problem]) => [
        `rule${index}`,
        problem === 'days' ? t('reminders.daysInvalid') : t('reminders.duplicate'),
      ]),
    );
    if (!fields.check(found)) return setError(null);
    if (busy) return;
    const answer = await run(() => {
      setStatus(t('settings.saving'));
      return updateTeam({ reminder_schedule: validRules(rows) });
    });
    if (answer === undefined) return;
    if (!answer.ok) {
      setStatus(null);
      return fail(answer.problem);
    }
    setRows(rowsOf(answer.data.team.reminder_schedule));
    onSaved(answer.data.team);
    setStatus(t('reminders.saved'));
  };

  return (
    <section class="card section" aria-labelledby="reminders-title">
      <h2 id="reminders-title">{t('reminders.title')}</h2>
      <p>{t('reminders.intro')}</p>
      <p class="hint">{t('reminders.dueOnly')}</p>
      <form ref={fields.form} onSubmit={(event) => void submit(event)} noValidate>
        <fieldset disabled={!canEdit} class="plain">
          <legend class="visually-hidden">{t('reminders.title')}</legend>
          {rows.length === 0 ? <p>{t('reminders.none')}</p> : null}
          <ol class="reminder-rules">
            {rows.map((row, index) => (
              <ReminderRow
                key={index}
                row={row}
                index={index}
                error={fields.errors[`rule${index}`]}
                canEdit={canEdit}
                onChange={(next) => change(index, next)}
                onRemove={() => remove(index)}
              />
            ))}
          </ol>
          {canEdit && rows.length < MAX_REMINDER_RULES ? (
            <button type="button" class="button-secondary add-reminder" onClick={add}>
              {t('reminders.add')}
            </button>
          ) : null}
          {canEdit && rows.length >= MAX_REMINDER_RULES ? (
            <p class="hint">{t('reminders.max', { max: MAX_REMINDER_RULES })}</p>
          ) : null}
        </fieldset>
        <SchedulePreview now={now} example={example} />
        <Status text={status} />
        <ErrorMessage text={error} />
        {canEdit ? (
          <button type="submit" class="button-primary" aria-disabled={busy || undefined}>
            {t('reminders.save')}
          </button>
        ) : null}
      </form>
    </section>
  );
}

/** One rule of the schedule: its days, when they count from, and Remove. */
function ReminderRow({
  row,
  index,
  error,
  canEdit,
  onChange,
  onRemove,
}: {
  row: RuleRow;
  index: number;
  error: string | undefined;
  canEdit: boolean;
  onChange: (next: Partial<RuleRow>) => void;
  onRemove: () => void;
}) {
  return (
    <li class="reminder-rule">
      <fieldset class="reminder-fields">
        <legend>{t('reminders.number', { n: index + 1 })}</legend>
        <Field
          label={t('reminders.days')}
          inputMode="numeric"
          autoComplete="off"
          maxLength={3}
          class="days-input"
          value={row.days}
          onValue={(days) => onChange({ days })}
          error={error}
        />
        <Select
          label={t('reminders.whenLabel')}
          value={row.when}
          onValue={(when) => onChange({ when: when as ReminderWhen })}
          options={REMINDER_WHEN.map((when) => ({ value: when, label: whenLabel(when) }))}
        />
        {canEdit ? (
          <button type="button" class="button-secondary" onClick={onRemove}>
            {t('reminders.remove', { n: index + 1 })}
          </button>
        ) : null}
      </fieldset>
    </li>
  );
}

/** The dates the schedule gives an example onboarding sent now and due in 14 days. */
function SchedulePreview({ now, example }: { now: Date; example: ReturnType<typeof preview> }) {
  return (
    <div class="reminder-preview" aria-labelledby="reminders-preview-title">
      <h3 id="reminders-preview-title">{t('reminders.previewTitle')}</h3>
      <p>
        {t('reminders.previewFacts', {
          sent: formatDate(now.toISOString()),
          due: formatDate(example.due),
        })}
      </p>
      {example.reminders.length === 0 ? (
        <p>{t('reminders.previewNone')}</p>
      ) : (
        <ol class="preview-dates" aria-live="polite">
          {example.reminders.map((reminder) => (
            <li key={reminder.at}>
              <time dateTime={reminder.at}>{formatDate(reminder.at)}</time>
              {' · '}
              {reminder.rules.map(ruleText).join(', ')}
            </li>
          ))}
        </ol>
      )}
    </div>
  );
}
