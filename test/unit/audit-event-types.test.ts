import { describe, expect, it } from 'vitest';
import {
  AUDIT_EVENT_TYPES,
  PUBLIC_EVENT_TYPES,
  toAuditRecord,
} from '../../services/events/audit-event-types.ts';
import type { RecordedEvent } from '../../shared/event-store/event-store.ts';

const teamId = '22222222-2222-4222-8222-222222222222';
const recordedAt = new Date('2025-01-02T03:04:05.678Z');

const recorded = (type: string, data: unknown): RecordedEvent => ({
  id: '99999999-9999-4999-8999-999999999999',
  streamId: 'x-1',
  revision: 0n,
  position: 1n,
  type,
  data,
  metadata: {},
  recordedAt,
});

describe('audit event types', () => {
  it('names every audit event by a public name or an internal snake_case name', () => {
    for (const mapping of Object.values(AUDIT_EVENT_TYPES)) {
      const isPublic = (PUBLIC_EVENT_TYPES as readonly string[]).includes(mapping.name);
      expect(isPublic || /^[a-z]+(_[a-z]+)*$/.test(mapping.name), mapping.name).toBe(true);
    }
  });

  it('maps client.created to client_created without personal data', () => {
    const record = toAuditRecord(
      recorded('client.created', {
        client_id: 'c1',
        team_id: teamId,
        name: 'Ada',
        email: 'ada@example.com',
        created_at: '2025-01-01T00:00:00.000Z',
      }),
    );
    expect(record).toEqual({
      id: '99999999-9999-4999-8999-999999999999',
      teamId,
      type: 'client_created',
      onboardingId: null,
      data: { client_id: 'c1' },
      occurredAt: '2025-01-01T00:00:00.000Z',
    });
  });

  it('keeps only the origin of a hook target URL', () => {
    const record = toAuditRecord(
      recorded('hook_subscription.created', {
        subscription_id: 's1',
        team_id: teamId,
        event: 'onboarding.sent',
        target_url: 'https://hooks.example.com/catch/123/secret?token=abc',
        api_key_id: null,
        created_at: '2025-01-01T00:00:00.000Z',
      }),
    );
    expect(record?.data).toEqual({
      subscription_id: 's1',
      event: 'onboarding.sent',
      target_origin: 'https://hooks.example.com',
    });
  });

  it('never shows an API key hash', () => {
    const record = toAuditRecord(
      recorded('api_key.created', {
        api_key_id: 'k1',
        team_id: teamId,
        name: 'Default',
        scopes: ['clients:read'],
        key_hash: 'abc',
        expires_at: null,
        created_at: '2025-01-01T00:00:00.000Z',
      }),
    );
    expect(JSON.stringify(record)).not.toContain('key_hash');
  });

  it('leaves out events that are not audit events or have no team (gallery templates)', () => {
    expect(toAuditRecord(recorded('client_email.reserved', { team_id: teamId }))).toBeUndefined();
    expect(
      toAuditRecord(
        recorded('template.created', { template_id: 't1', team_id: null, name: 'G', created_at: 'x' }),
      ),
    ).toBeUndefined();
  });

  it('uses the recorded time when the event carries no domain time', () => {
    AUDIT_EVENT_TYPES['test.no_time'] = { name: 'no_time', teamId: () => teamId, details: () => ({}) };
    try {
      expect(toAuditRecord(recorded('test.no_time', {}))?.occurredAt).toBe(recordedAt.toISOString());
    } finally {
      delete AUDIT_EVENT_TYPES['test.no_time'];
    }
  });
});
