import { describe, expect, it } from 'vitest';
import { preview, rowProblems, validRules } from './reminders.ts';

describe('reminder schedule editor', () => {
  it('says which row is wrong: not a whole number from 1 to 365, or a repeat', () => {
    expect(
      rowProblems([
        { when: 'after_send', days: '3' },
        { when: 'after_send', days: '0' },
        { when: 'before_due', days: 'two' },
        { when: 'after_send', days: ' 3 ' },
        { when: 'after_due', days: '366' },
      ]),
    ).toEqual({ 1: 'days', 2: 'days', 3: 'duplicate', 4: 'days' });
  });

  it('previews the example onboarding (sent now, due in 14 days) with the rules that give each date', () => {
    const now = new Date('2026-05-04T09:30:00.000Z');
    const rules = validRules([
      { when: 'after_send', days: '3' },
      { when: 'before_due', days: '11' },
      { when: 'after_due', days: '2' },
      { when: 'before_due', days: '20' },
      { when: 'after_send', days: 'x' },
    ]);
    expect(preview(rules, now)).toEqual({
      due: '2026-05-18T09:30:00.000Z',
      reminders: [
        {
          at: '2026-05-07T09:30:00.000Z',
          rules: [
            { when: 'after_send', days: 3 },
            { when: 'before_due', days: 11 },
          ],
        },
        { at: '2026-05-20T09:30:00.000Z', rules: [{ when: 'after_due', days: 2 }] },
      ],
    });
  });
});
