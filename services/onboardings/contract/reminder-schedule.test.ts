import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  DEFAULT_REMINDER_SCHEDULE,
  MAX_REMINDER_RULES,
  REMINDER_WHEN,
  reminderScheduleProblem,
  reminderTimes,
  type ReminderRule,
} from './reminder-schedule.ts';

const sent = new Date('2026-03-02T10:00:00.000Z');
const due = new Date('2026-03-16T17:00:00.000Z');

describe('reminder times', () => {
  it.each([
    [
      'the default: 3 and 7 days after send',
      DEFAULT_REMINDER_SCHEDULE,
      due,
      sent,
      ['2026-03-05T10:00:00.000Z', '2026-03-09T10:00:00.000Z'],
    ],
    [
      'before and after due, sorted with after send',
      [
        { when: 'after_due', days: 1 },
        { when: 'before_due', days: 2 },
        { when: 'after_send', days: 3 },
      ],
      due,
      sent,
      ['2026-03-05T10:00:00.000Z', '2026-03-14T17:00:00.000Z', '2026-03-17T17:00:00.000Z'],
    ],
    [
      'due-relative rules without a due date give nothing',
      [
        { when: 'before_due', days: 2 },
        { when: 'after_due', days: 2 },
      ],
      null,
      sent,
      [],
    ],
    [
      'a time before the send is dropped',
      [
        { when: 'before_due', days: 20 },
        { when: 'after_send', days: 1 },
      ],
      due,
      sent,
      ['2026-03-03T10:00:00.000Z'],
    ],
    [
      'times already past now are dropped',
      [
        { when: 'after_send', days: 3 },
        { when: 'before_due', days: 1 },
      ],
      due,
      new Date('2026-03-10T00:00:00.000Z'),
      ['2026-03-15T17:00:00.000Z'],
    ],
    [
      'the same time from two rules comes once',
      [
        { when: 'after_send', days: 14 },
        { when: 'before_due', days: 0 + 1 },
      ],
      new Date('2026-03-17T10:00:00.000Z'),
      sent,
      ['2026-03-16T10:00:00.000Z'],
    ],
  ] as [string, ReminderRule[], Date | null, Date, string[]][])(
    '%s',
    (_name, rules, dueAt, now, expected) => {
      expect(reminderTimes(rules, sent, dueAt, now)).toEqual(expected);
    },
  );

  const rule = fc.record({ when: fc.constantFrom(...REMINDER_WHEN), days: fc.integer({ min: 1, max: 365 }) });
  const instant = fc
    .integer({ min: Date.parse('2020-01-01'), max: Date.parse('2030-01-01') })
    .map((ms) => new Date(ms));

  it('are sorted, unique, after the send and now, and each comes from a rule', () => {
    fc.assert(
      fc.property(
        fc.array(rule, { maxLength: MAX_REMINDER_RULES }),
        instant,
        fc.option(instant),
        instant,
        (rules, sentAt, dueAt, now) => {
          const times = reminderTimes(rules, sentAt, dueAt, now).map((time) => Date.parse(time));
          expect([...times].sort((a, b) => a - b)).toEqual(times);
          expect(new Set(times).size).toBe(times.length);
          for (const time of times) {
            expect(time).toBeGreaterThan(Math.max(sentAt.getTime(), now.getTime()));
            const offsets = rules.map((r) =>
              r.when === 'after_send'
                ? sentAt.getTime() + r.days * 86_400_000
                : dueAt && dueAt.getTime() + (r.when === 'after_due' ? 1 : -1) * r.days * 86_400_000,
            );
            expect(offsets).toContain(time);
          }
          if (dueAt === null)
            expect(times.length).toBeLessThanOrEqual(rules.filter((r) => r.when === 'after_send').length);
        },
      ),
    );
  });
});

describe('reminder schedule validation', () => {
  it.each([
    [[], null],
    [DEFAULT_REMINDER_SCHEDULE, null],
    [
      Array.from({ length: 6 }, (_, days) => ({ when: 'after_send', days: days + 1 })),
      { code: 'too_many_rules', max: 5 },
    ],
    [[{ when: 'someday', days: 3 }], { code: 'invalid_when', index: 0 }],
    [
      [
        { when: 'after_send', days: 1 },
        { when: 'after_due', days: 0 },
      ],
      { code: 'invalid_days', index: 1, min: 1, max: 365 },
    ],
    [[{ when: 'after_due', days: 366 }], { code: 'invalid_days', index: 0, min: 1, max: 365 }],
    [[{ when: 'after_due', days: 1.5 }], { code: 'invalid_days', index: 0, min: 1, max: 365 }],
    [
      [
        { when: 'before_due', days: 2 },
        { when: 'before_due', days: 2 },
      ],
      { code: 'duplicate_rule', index: 1 },
    ],
  ] as [unknown[], unknown][])('%j', (rules, problem) => {
    expect(reminderScheduleProblem(rules)).toEqual(problem);
  });
});
