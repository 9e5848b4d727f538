import { describe, expect, it } from 'vitest';
import { LOCALE, messagesOf, translator } from './i18n.ts';
import { isUncertain, minutesOf, problemMessage, type Problem } from './problems.ts';

const t = translator(messagesOf(LOCALE));
const problem = (status: number, code: string, extra: Partial<Problem> = {}): Problem => ({
  status,
  code,
  message: '',
  retryAfterSeconds: null,
  ...extra,
});

describe('problemMessage', () => {
  it('says a wrong password in words', () => {
    expect(problemMessage(problem(401, 'invalid_credentials'), t)).toBe('The email or password is wrong.');
  });

  it('gives the minutes of a locked sign-in, rounded up', () => {
    expect(problemMessage(problem(429, 'sign_in_locked', { retryAfterSeconds: 840 }), t)).toContain(
      'Try again in 14 minutes',
    );
    expect(problemMessage(problem(429, 'sign_in_locked', { retryAfterSeconds: 5 }), t)).toContain(
      'Try again in 1 minute,',
    );
    expect(problemMessage(problem(429, 'sign_in_slowed_down', { retryAfterSeconds: 30 }), t)).toBe(
      'Too many attempts. Try again in 30 seconds.',
    );
    expect(problemMessage(problem(429, 'sign_in_rate_limited', { retryAfterSeconds: 600 }), t)).toBe(
      'Too many attempts. Try again in 10 minutes.',
    );
  });

  it('explains last_owner and key_limit_reached', () => {
    expect(problemMessage(problem(409, 'last_owner'), t)).toBe(
      'A team needs at least one owner. Make someone else an owner first.',
    );
    expect(problemMessage(problem(409, 'key_limit_reached'), t)).toContain('5 active API keys');
  });

  it("shows the API's sentence for invalid_body and a general one for no answer and 5xx", () => {
    const rule = 'The password must have at least 12 characters.';
    expect(problemMessage(problem(400, 'invalid_body', { message: rule }), t)).toBe(rule);
    expect(problemMessage(problem(0, 'network'), t)).toMatch(/could not reach/);
    expect(problemMessage(problem(503, 'unavailable'), t)).toMatch(/on our side/);
  });

  it('treats no answer and 5xx as uncertain, and 4xx as certain', () => {
    expect([0, 500, 502, 400, 409].map((status) => isUncertain(problem(status, 'x')))).toEqual([
      true,
      true,
      true,
      false,
      false,
    ]);
    expect(minutesOf(null)).toBe(1);
    expect(minutesOf(61)).toBe(2);
  });
});
