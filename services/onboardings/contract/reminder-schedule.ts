/**
 * A team's reminder schedule and the reminder times it gives one onboarding. Pure: the
 * onboarding decider, the team settings API and the workspace's Settings preview all use
 * this file, so the preview shows exactly the times the service schedules.
 *
 * A rule is "N days after send", "N days before due" or "N days after due". A day is 24
 * hours (as the timers count), so a reminder keeps the hour of the send or of the due date.
 */

export const REMINDER_WHEN = ['after_send', 'before_due', 'after_due'] as const;
export type ReminderWhen = (typeof REMINDER_WHEN)[number];

export interface ReminderRule {
  when: ReminderWhen;
  days: number;
}

/** More rules than this would mostly annoy clients; the workspace offers no more rows. */
export const MAX_REMINDER_RULES = 5;
export const MIN_REMINDER_DAYS = 1;
export const MAX_REMINDER_DAYS = 365;

/** The service's schedule before teams could choose one, and the default of every team. */
export const DEFAULT_REMINDER_SCHEDULE: readonly ReminderRule[] = Object.freeze([
  { when: 'after_send', days: 3 },
  { when: 'after_send', days: 7 },
]);

const DAY_MS = 86_400_000;

export type ReminderScheduleProblem =
  | { code: 'too_many_rules'; max: number }
  | { code: 'invalid_when'; index: number }
  | { code: 'invalid_days'; index: number; min: number; max: number }
  | { code: 'duplicate_rule'; index: number };

/** The first problem of a schedule, or null when it can be saved. An empty schedule sends no reminders. */
export function reminderScheduleProblem(rules: readonly unknown[]): ReminderScheduleProblem | null {
  if (rules.length > MAX_REMINDER_RULES) return { code: 'too_many_rules', max: MAX_REMINDER_RULES };
  const seen = new Set<string>();
  for (const [index, raw] of rules.entries()) {
    const rule = (raw ?? {}) as Partial<ReminderRule>;
    if (!REMINDER_WHEN.includes(rule.when as ReminderWhen)) return { code: 'invalid_when', index };
    if (
      typeof rule.days !== 'number' ||
      !Number.isInteger(rule.days) ||
      rule.days < MIN_REMINDER_DAYS ||
      rule.days > MAX_REMINDER_DAYS
    ) {
      return { code: 'invalid_days', index, min: MIN_REMINDER_DAYS, max: MAX_REMINDER_DAYS };
    }
    const key = `${rule.when}:${rule.days}`;
    if (seen.has(key)) return { code: 'duplicate_rule', index };
    seen.add(key);
  }
  return null;
}

/** The problem in words (the API's 400 message and the workspace's field error). */
export function reminderScheduleProblemText(problem: ReminderScheduleProblem): string {
  switch (problem.code) {
    case 'too_many_rules':
      return `A reminder schedule has at most ${problem.max} rules`;
    case 'invalid_when':
      return `Reminder ${problem.index + 1}: choose after send, before due or after due`;
    case 'invalid_days':
      return `Reminder ${problem.index + 1}: the number of days must be a whole number from ${problem.min} to ${problem.max}`;
    case 'duplicate_rule':
      return `Reminder ${problem.index + 1} repeats an earlier rule`;
  }
}

/** When one rule fires, or null when it has no time (a due-relative rule without a due date). */
export function ruleTime(rule: ReminderRule, sentAt: Date, dueAt: Date | null): Date | null {
  switch (rule.when) {
    case 'after_send':
      return new Date(sentAt.getTime() + rule.days * DAY_MS);
    case 'before_due':
      return dueAt && new Date(dueAt.getTime() - rule.days * DAY_MS);
    case 'after_due':
      return dueAt && new Date(dueAt.getTime() + rule.days * DAY_MS);
  }
}

/**
 * The reminder times of one link, as ISO timestamps: every rule's time after both the send
 * and `now` (a time already past is never sent late), each time once, earliest first.
 * Due-relative rules count only when a due date is set.
 */
export function reminderTimes(
  rules: readonly ReminderRule[],
  sentAt: Date,
  dueAt: Date | null,
  now: Date,
): string[] {
  const after = Math.max(sentAt.getTime(), now.getTime());
  const times = new Set<number>();
  for (const rule of rules) {
    const at = ruleTime(rule, sentAt, dueAt);
    if (at && at.getTime() > after) times.add(at.getTime());
  }
  return [...times].sort((a, b) => a - b).map((time) => new Date(time).toISOString());
}
