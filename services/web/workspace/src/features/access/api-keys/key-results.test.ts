import { describe, expect, it } from 'vitest';
import type { ApiKey } from '../api.ts';
import { createKeyBody, keyResultOf } from './key-results.ts';

const key: ApiKey = {
  id: '00000000-0000-4000-8000-000000000001',
  name: 'Default',
  scopes: ['clients:read'],
  scope_labels: ['Read clients'],
  status: 'active',
  expires_at: null,
  created_at: '2026-01-01T00:00:00.000Z',
  revoked_at: null,
  key_prefix: 'cos_ab12cd34',
  created_by: 'Ada Lovelace',
  last_used_at: null,
};

describe('keyResultOf', () => {
  it('shows the secret of a created key', () => {
    expect(
      keyResultOf({ ok: true, status: 201, data: { status: 'created', api_key: key, secret: 's3cret' } }),
    ).toEqual({ state: 'created', key, secret: 's3cret' });
  });

  it('says a repeated request found the key, without a secret', () => {
    expect(keyResultOf({ ok: true, status: 200, data: { status: 'already_created', api_key: key } })).toEqual(
      {
        state: 'already_created',
        key,
      },
    );
  });

  it('is uncertain without an answer or with a 5xx, and a failure for a 4xx', () => {
    const failed = (status: number) =>
      keyResultOf({
        ok: false,
        problem: { status, code: 'x', message: '', details: null, retryAfterSeconds: null },
      }).state;
    expect([failed(0), failed(502), failed(409)]).toEqual(['uncertain', 'uncertain', 'failed']);
    expect(keyResultOf(null)).toEqual({ state: 'cancelled' });
  });
});

describe('createKeyBody', () => {
  it('sends an empty name as null (Default) and an empty date as no expiry', () => {
    expect(createKeyBody('  ', ['clients:read'], '')).toEqual({
      name: null,
      scopes: ['clients:read'],
      expires_on: null,
    });
    expect(createKeyBody(' CRM ', ['events:read'], '2030-12-31')).toEqual({
      name: 'CRM',
      scopes: ['events:read'],
      expires_on: '2030-12-31',
    });
  });
});
