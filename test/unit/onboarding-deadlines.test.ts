import { describe, expect, it } from 'vitest';
import { canonicalJson, idempotencyKeyOf } from '../../shared/commands/idempotency.ts';
import { knownZone, parseDeadline, usageMonth } from '../../services/onboardings/deadlines.ts';
import { inviteEmail } from '../../services/onboardings/invite-email.ts';
import {
  hashClientToken,
  hashPin,
  issueClientToken,
  verifyPin,
} from '../../services/onboardings/link-secrets.ts';

describe('parseDeadline', () => {
  it('a calendar date is the end of that day in the team time zone, across DST changes', () => {
    expect(parseDeadline('2025-03-08', 'America/New_York')).toEqual({
      due_date: '2025-03-08T23:59:59.999-05:00',
      due_on: '2025-03-08',
      due_timezone: 'America/New_York',
    });
    expect(parseDeadline('2025-03-09', 'America/New_York')?.due_date).toBe('2025-03-09T23:59:59.999-04:00');
    expect(parseDeadline('2025-12-31', 'UTC')?.due_date).toBe('2025-12-31T23:59:59.999Z');
    expect(parseDeadline('2024-02-29', 'Asia/Kolkata')?.due_date).toBe('2024-02-29T23:59:59.999+05:30');
  });

  it('a timestamp keeps its own offset', () => {
    expect(parseDeadline('2025-04-01T12:30:00+02:00', 'UTC')).toEqual({
      due_date: '2025-04-01T12:30:00.000+02:00',
      due_on: null,
      due_timezone: null,
    });
    expect(parseDeadline('2025-04-01T12:30Z', 'UTC')?.due_date).toBe('2025-04-01T12:30:00.000Z');
    expect(parseDeadline('2025-04-01T12:30:00.123456-0330', 'UTC')?.due_date).toBe(
      '2025-04-01T12:30:00.123-03:30',
    );
  });

  it.each([
    '2025-02-29',
    '2025-04-31',
    '2025-4-1',
    '2025-04-01T12:30:00',
    '2025-04-01 12:30:00Z',
    '2025-04-01T25:00:00Z',
    'tomorrow',
    '',
    20250401,
    null,
    {},
  ])('%j is not a deadline', (value) => {
    expect(parseDeadline(value, 'UTC')).toBeNull();
  });
});

describe('usageMonth and knownZone', () => {
  it('the calendar month in the team time zone', () => {
    const now = new Date('2025-03-31T23:30:00.000Z');
    expect(usageMonth(now, 'UTC')).toBe('2025-03');
    expect(usageMonth(now, 'Europe/Paris')).toBe('2025-04');
    expect(usageMonth(now, 'America/Los_Angeles')).toBe('2025-03');
  });

  it('an unknown zone falls back to UTC', () => {
    expect(knownZone('Mars/Olympus')).toBe('UTC');
    expect(knownZone('Europe/Paris')).toBe('Europe/Paris');
    expect(knownZone(null)).toBe('UTC');
  });
});

describe('link secrets', () => {
  it('a token is 64 hex characters; only its SHA-256 is kept', () => {
    const { token, hash } = issueClientToken();
    expect(token).toMatch(/^[0-9a-f]{64}$/);
    expect(hash).toBe(hashClientToken(token));
    expect(hash).not.toBe(token);
  });

  it('a PIN is salted: two hashes of one PIN differ and both verify', async () => {
    const a = await hashPin('123456');
    const b = await hashPin('123456');
    expect(a.hash).not.toBe(b.hash);
    expect(await verifyPin('123456', a)).toBe(true);
    expect(await verifyPin('123457', a)).toBe(false);
    expect(await verifyPin('12345', a)).toBe(false);
  });
});

describe('Idempotency-Key', () => {
  it('1 to 128 characters from 0x21 to 0x7E', () => {
    expect(idempotencyKeyOf(undefined)).toBeUndefined();
    expect(idempotencyKeyOf('a')).toBe('a');
    expect(idempotencyKeyOf('~'.repeat(128))).toHaveLength(128);
    for (const bad of ['', ' ', 'a b', 'x'.repeat(129), 'é', '\u007f', ['a', 'b']]) {
      expect(() => idempotencyKeyOf(bad)).toThrow('Idempotency-Key');
    }
  });

  it('canonical JSON ignores key order and undefined members', () => {
    expect(canonicalJson({ b: 1, a: { d: [1, { y: 2, x: 1 }], c: undefined } })).toBe(
      canonicalJson({ a: { d: [1, { x: 1, y: 2 }] }, b: 1 }),
    );
    expect(canonicalJson({ a: null })).not.toBe(canonicalJson({}));
  });
});

describe('invite email', () => {
  it('names the firm and the form, links the portal, never shows the PIN', () => {
    const email = inviteEmail({
      publicUrl: 'https://forms.example.com/',
      token: 'a'.repeat(64),
      fromName: 'Acme',
      clientName: 'Ada',
      templateName: 'Intake',
      dueDate: '2025-03-31T23:59:59.999-04:00',
      dueOn: '2025-03-31',
      pinRequired: true,
    });
    expect(email.subject).toBe('Acme invited you to fill in Intake');
    expect(email.text).toContain(`https://forms.example.com/f/${'a'.repeat(64)}`);
    expect(email.text).toContain('Please complete it by March 31, 2025.');
    expect(email.text).toContain('asks for the PIN');
  });
});
