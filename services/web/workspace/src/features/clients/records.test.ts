import { describe, expect, it } from 'vitest';
import { recordProblem, validPin } from './record-problems.ts';
import { allowedActions, listQuery } from './records.ts';

const t = (key: string) => key;
const problem = (code: string) => ({ status: 403, code, message: '', retryAfterSeconds: null });

describe('onboarding actions by status', () => {
  it('a draft sends; sent and in progress resend; closed ones reopen; archived ones only unarchive', () => {
    expect(allowedActions({ status: 'draft', archived_at: null })).toMatchObject({
      send: true,
      resend: false,
      cancel: true,
      reopen: false,
      edit: true,
    });
    for (const status of ['sent', 'in_progress'] as const) {
      expect(allowedActions({ status, archived_at: null })).toMatchObject({
        send: false,
        resend: true,
        cancel: true,
      });
    }
    for (const status of ['completed', 'cancelled', 'expired'] as const) {
      expect(allowedActions({ status, archived_at: null })).toMatchObject({
        reopen: true,
        cancel: false,
        edit: false,
        archive: true,
      });
    }
    expect(allowedActions({ status: 'sent', archived_at: '2030-01-01T00:00:00Z' })).toEqual({
      send: false,
      resend: false,
      cancel: false,
      reopen: false,
      edit: false,
      archive: false,
      unarchive: true,
    });
  });

  it('leaves empty filters out of the query', () => {
    const query = listQuery({ status: '', assignee: 'unassigned', due: 'week', archived: 'hide' }, 20, 40);
    expect(
      new URLSearchParams(Object.entries(query).map(([key, value]) => [key, String(value)])).toString(),
    ).toBe('assignee=unassigned&due=week&archived=hide&limit=20&offset=40');
  });
});

describe('refusals in words', () => {
  it('names the limit, the used email and the send checks by their own texts', () => {
    expect(recordProblem(problem('limit_reached'), t)).toBe('error.limitReached');
    expect(recordProblem(problem('email_taken'), t)).toBe('error.emailTaken');
    expect(recordProblem(problem('agreement_text_required'), t)).toBe('error.agreementTextRequired');
    expect(recordProblem(problem('sending_paused'), t)).toBe('error.sendingPaused');
  });

  it('a PIN is empty or exactly 6 digits', () => {
    expect(validPin('')).toBe(true);
    expect(validPin('123456')).toBe(true);
    expect(validPin('12345')).toBe(false);
    expect(validPin('12345a')).toBe(false);
  });
});
