import type { ComponentChildren } from 'preact';
import { formatDate } from '../../dates.ts';
import { t } from '../../i18n.ts';
import type { Member } from '../../api.ts';
import type { OnboardingView } from '../clients/records.ts';
import { Field } from '../../ui/index.ts';

/** The due date as the member reads it: the calendar date given, else the instant's date. */
export function dueText(onboarding: Pick<OnboardingView, 'due_on' | 'due_date' | 'overdue'>): string {
  const date = onboarding.due_on
    ? formatDate(`${onboarding.due_on}T12:00:00Z`)
    : onboarding.due_date
      ? formatDate(onboarding.due_date)
      : null;
  if (!date) return t('onboardings.noDue');
  return onboarding.overdue ? t('onboardings.overdue', { date }) : date;
}

/** The facts of one onboarding (list card and page alike). */
export function OnboardingFacts({
  onboarding,
  children,
}: {
  onboarding: OnboardingView;
  children?: ComponentChildren;
}) {
  return (
    <dl class="facts">
      <dt>{t('onboardings.status')}</dt>
      <dd>{t(`onboardings.statusLabel.${onboarding.status}`)}</dd>
      {onboarding.review_state ? (
        <>
          <dt>{t('onboardings.reviewStateLabel')}</dt>
          <dd class={`review-state review-state-${onboarding.review_state}`}>
            {t(`onboardings.reviewState.${onboarding.review_state}`)}
          </dd>
        </>
      ) : null}
      <dt>{t('onboardings.template')}</dt>
      <dd>{onboarding.template.name}</dd>
      <dt>{t('onboardings.due')}</dt>
      <dd>{dueText(onboarding)}</dd>
      <dt>{t('onboardings.assignee')}</dt>
      <dd>{onboarding.assignee_name ?? t('onboardings.nobody')}</dd>
      <dt>{t('onboardings.progress')}</dt>
      <dd>{t('onboardings.progressValue', { pct: onboarding.progress_pct })}</dd>
      {onboarding.archived_at ? (
        <>
          <dt>{t('onboardings.archivedOn')}</dt>
          <dd>{formatDate(onboarding.archived_at)}</dd>
        </>
      ) : null}
      {children}
    </dl>
  );
}

/** The team's members as the options of a select (the list's filter, the assignee). */
export const memberOptions = (members: readonly Member[]) =>
  members.map((member) => ({ value: member.id, label: member.name }));

/** A due date to choose: a calendar date in the team's time zone. */
export function DueOnField({
  label,
  value,
  onValue,
}: {
  label: string;
  value: string;
  onValue: (value: string) => void;
}) {
  return (
    <Field label={label} hint={t('onboardings.dueOnHint')} type="date" value={value} onValue={onValue} />
  );
}
