import {
  MAX_REMINDER_DAYS,
  MAX_REMINDER_RULES,
  MIN_REMINDER_DAYS,
  REMINDER_WHEN,
  reminderTimes,
  ruleTime,
  type ReminderRule,
  type ReminderWhen,
} from '../../../../../../onboardings/contract/reminder-schedule.ts';

/**
 * The reminder schedule editor's rules, over the service's own module: the preview's dates
 * come from the function that schedules real reminders.
 */
export { MAX_REMINDER_RULES, REMINDER_WHEN, type ReminderRule, type ReminderWhen };

/** One row of the editor: days as typed. */
export interface RuleRow {
  when: ReminderWhen;
  days: string;
}

export const rowsOf = (rules: readonly ReminderRule[]): RuleRow[] =>
  rules.map((rule) => ({ when: rule.when, days: String(rule.days) }));

/** Pure: a row's whole number of days, or null when it is not one from 1 to 365. */
export function rowDays(row: RuleRow): number | null {
  const text = row.days.trim();
  if (!/^\d+$/.test(text)) return null;
  const days = Number(text);
  return days >= MIN_REMINDER_DAYS && days <= MAX_REMINDER_DAYS ? days : null;
}

export type RowProblem = 'days' | 'duplicate';

/** Pure: each row's problem (by index), so the page can say it under that row. */
export function rowProblems(rows: readonly RuleRow[]): Record<number, RowProblem> {
  const problems: Record<number, RowProblem> = {};
  const seen = new Set<string>();
  rows.forEach((row, index) => {
    const days = rowDays(row);
    if (days === null) {
      problems[index] = 'days';
      return;
    }
    const key = `${row.when}:${days}`;
    if (seen.has(key)) problems[index] = 'duplicate';
    seen.add(key);
  });
  return problems;
}

/** Pure: the rows that are valid rules (the preview shows what these would do). */
export const validRules = (rows: readonly RuleRow[]): ReminderRule[] =>
  rows.flatMap((row) => {
    const days = rowDays(row);
    return days === null ? [] : [{ when: row.when, days }];
  });

export interface PreviewReminder {
  at: string;
  /** The rules that give this time (two rules may fall on the same time: one email). */
  rules: ReminderRule[];
}

/** The example onboarding of the preview: sent now, due in 14 days. */
export const EXAMPLE_DUE_DAYS = 14;

/** Pure: the example onboarding's reminders under `rules`, earliest first. */
export function preview(
  rules: readonly ReminderRule[],
  now: Date,
): { due: string; reminders: PreviewReminder[] } {
  const due = new Date(now.getTime() + EXAMPLE_DUE_DAYS * 86_400_000);
  const reminders = reminderTimes(rules, now, due, now).map((at) => ({
    at,
    rules: rules.filter((rule) => ruleTime(rule, now, due)?.toISOString() === at),
  }));
  return { due: due.toISOString(), reminders };
}
