import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { canonicalJson, fingerprintMatches, fingerprintOf, type IdempotencyRequest } from './idempotency.ts';

const request = (body: unknown, apiKeySecret = 'ok_live_secret_one'): IdempotencyRequest => ({
  apiKeyId: 'k1',
  apiKeySecret,
  operation: 'create',
  key: 'retry-1',
  onboardingId: null,
  body,
});
const body = { client: { name: 'Ada Lovelace', email: 'ada@example.com' }, template_id: 't1' };
const plainDigest = (value: IdempotencyRequest) =>
  createHash('sha256')
    .update(
      canonicalJson({ operation: value.operation, onboarding_id: value.onboardingId, body: value.body }),
    )
    .digest('hex');

describe('idempotency fingerprint (docs/decisions/0016)', () => {
  it('is keyed by the API key secret: not the plain sha256 of the body, another key gives another', () => {
    expect(fingerprintOf(request(body))).not.toBe(plainDigest(request(body)));
    expect(fingerprintOf(request(body))).not.toBe(fingerprintOf(request(body, 'ok_live_secret_two')));
    expect(fingerprintOf(request({ ...body }))).toBe(fingerprintOf(request(body)));
  });

  it('matches its own request, and a plain sha256 kept before; not another body', () => {
    expect(fingerprintMatches(fingerprintOf(request(body)), request(body))).toBe(true);
    expect(fingerprintMatches(plainDigest(request(body)), request(body))).toBe(true);
    expect(fingerprintMatches(fingerprintOf(request(body)), request({ ...body, template_id: 't2' }))).toBe(
      false,
    );
  });
});
