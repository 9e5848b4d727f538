import { describe, expect, it } from 'vitest';
import { apiKeyDecider, type ApiKeyCommand } from './api-key-decider.ts';
import type { ApiKeyEvent } from './api-key-events.ts';
import {
  expiresAtEndOfUtcDate,
  generateApiKeySecret,
  hashApiKeySecret,
  isCalendarDate,
  isExpired,
} from './api-key-secret.ts';
import { DeciderSpecification } from '../../test/helpers/decider-spec.ts';

const keyId = '33333333-3333-4333-8333-333333333333';
const teamId = '11111111-1111-4111-8111-111111111111';
const otherTeam = '22222222-2222-4222-8222-222222222222';
const now = '2030-01-10T12:00:00.000Z';

const create = (
  overrides: Partial<Extract<ApiKeyCommand, { type: 'CreateApiKey' }>['data']> = {},
): ApiKeyCommand => ({
  type: 'CreateApiKey',
  data: {
    api_key_id: keyId,
    team_id: teamId,
    name: 'CI',
    scopes: ['clients:read'],
    key_hash: 'hash',
    expires_at: null,
    ...overrides,
  },
  metadata: { now: new Date(now) },
});

const created: ApiKeyEvent = {
  type: 'api_key.created',
  data: {
    api_key_id: keyId,
    team_id: teamId,
    name: 'CI',
    scopes: ['clients:read'],
    key_hash: 'hash',
    expires_at: null,
    created_at: now,
  },
};
const revoked: ApiKeyEvent = {
  type: 'api_key.revoked',
  data: { api_key_id: keyId, team_id: teamId, revoked_at: now },
};

const given = DeciderSpecification.for(apiKeyDecider);

describe('API key decider', () => {
  it('creates a key with its hash, never its secret', () => {
    given([]).when(create()).then([created]);
  });

  it('saves an empty or blank name as Default and drops repeated scopes', () => {
    given([])
      .when(create({ name: '  ', scopes: ['clients:read', 'clients:read', 'templates:write'] }))
      .then([
        {
          ...created,
          data: { ...created.data, name: 'Default', scopes: ['clients:read', 'templates:write'] },
        },
      ]);
  });

  it('refuses a key without scopes, and a second creation of the same key', () => {
    given([])
      .when(create({ scopes: [] }))
      .thenThrows('scopes_required');
    given([created]).when(create()).thenThrows('api_key_exists');
  });

  it('revokes a key of the team', () => {
    given([created])
      .when({ type: 'RevokeApiKey', data: { team_id: teamId }, metadata: { now: new Date(now) } })
      .then([revoked]);
  });

  it('decides nothing when the key is already revoked', () => {
    given([created, revoked])
      .when({ type: 'RevokeApiKey', data: { team_id: teamId }, metadata: { now: new Date(now) } })
      .then([]);
  });

  it("treats an unknown key and another team's key as not found", () => {
    given([])
      .when({ type: 'RevokeApiKey', data: { team_id: teamId }, metadata: { now: new Date(now) } })
      .thenThrows('api_key_not_found');
    given([created])
      .when({ type: 'RevokeApiKey', data: { team_id: otherTeam }, metadata: { now: new Date(now) } })
      .thenThrows('api_key_not_found');
  });
});

describe('API key secrets and expiry', () => {
  it('generates distinct secrets and stores a SHA-256 hex hash', () => {
    const a = generateApiKeySecret();
    const b = generateApiKeySecret();
    expect(a).not.toBe(b);
    expect(a).toMatch(/^cos_[A-Za-z0-9_-]{43}$/);
    expect(hashApiKeySecret(a)).toMatch(/^[0-9a-f]{64}$/);
    expect(hashApiKeySecret(a)).toBe(hashApiKeySecret(a));
  });

  it('ends a key at the end of its UTC date', () => {
    const expiresAt = expiresAtEndOfUtcDate('2030-02-28');
    expect(expiresAt).toBe('2030-02-28T23:59:59.999Z');
    expect(isExpired(expiresAt, new Date('2030-02-28T23:59:59.999Z'))).toBe(false);
    expect(isExpired(expiresAt, new Date('2030-03-01T00:00:00.000Z'))).toBe(true);
    expect(isExpired(null, new Date('2999-01-01T00:00:00.000Z'))).toBe(false);
  });

  it('accepts only real calendar dates', () => {
    expect(isCalendarDate('2028-02-29')).toBe(true);
    expect(isCalendarDate('2030-02-29')).toBe(false);
    expect(isCalendarDate('2030-13-01')).toBe(false);
    expect(isCalendarDate('2030-1-01')).toBe(false);
    expect(isCalendarDate('tomorrow')).toBe(false);
  });
});
