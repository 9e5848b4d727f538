import { describe, expect, it } from 'vitest';
import { attemptOutcome, dayBefore, ENDPOINT_EVENTS, sinceIso } from './webhooks.ts';

describe('webhooks helpers', () => {
  it('nine endpoint event types, onboarding.cancelled last', () => {
    expect(ENDPOINT_EVENTS).toHaveLength(9);
    expect(ENDPOINT_EVENTS[8]).toBe('onboarding.cancelled');
  });
  it('a datetime-local value becomes an ISO instant; anything else is null', () => {
    expect(sinceIso('2026-03-01T10:30')).toBe(new Date('2026-03-01T10:30').toISOString());
    expect(sinceIso('')).toBeNull();
    expect(sinceIso('yesterday')).toBeNull();
  });
  it('the default since is one day earlier', () => {
    expect(sinceIso(dayBefore(new Date('2026-03-02T10:30:00')))).toBe(
      new Date('2026-03-01T10:30:00').toISOString(),
    );
  });
  it("an attempt's outcome: the status code, else the error", () => {
    const base = { round: 0, attempt: 1, attempted_at: '', duration_ms: 3, next_attempt_at: null };
    expect(attemptOutcome({ ...base, status_code: 500, error: 'HTTP 500' })).toBe('HTTP 500');
    expect(attemptOutcome({ ...base, status_code: null, error: 'timeout' })).toBe('timeout');
  });
});
