import { Webhook, WebhookVerificationError } from 'standardwebhooks';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { liveSecrets, newSigningSecret, overlapEnd, signatureHeader, webhookTimestamp } from './signing.ts';

const at = new Date('2026-11-21T10:15:00.123Z');
const id = 'c0ffee00-0000-4000-8000-000000000000';
const body = '{"id":"e","event":"onboarding.sent","timestamp":"t","data":{}}';

afterEach(() => vi.useRealTimers());

function verify(secret: string, signature: string, payload = body) {
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(at);
  return new Webhook(secret).verify(payload, {
    'webhook-id': id,
    'webhook-timestamp': webhookTimestamp(at),
    'webhook-signature': signature,
  });
}

describe('signing', () => {
  it('a new secret is whsec_ and 32 random bytes in base64', () => {
    const secret = newSigningSecret();
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(Buffer.from(secret.slice(6), 'base64')).toHaveLength(32);
    expect(newSigningSecret()).not.toBe(secret);
  });

  it('signs v1,<base64 HMAC-SHA256 of id.timestamp.body> the official verifier accepts; a changed body fails', () => {
    const secret = newSigningSecret();
    const header = signatureHeader([secret], id, at, body);
    expect(header).toMatch(/^v1,[A-Za-z0-9+/]{43}=$/);
    expect(verify(secret, header)).toEqual(JSON.parse(body));
    expect(() => verify(secret, header, body.replace('sent', 'started'))).toThrow(WebhookVerificationError);
  });

  it('during the overlap both secrets sign, space-separated, and each verifier accepts', () => {
    const [current, previous] = [newSigningSecret(), newSigningSecret()];
    const pair = { secret: current, previous_secret: previous, previous_until: overlapEnd(at) };
    expect(overlapEnd(at).getTime() - at.getTime()).toBe(24 * 3600_000);
    expect(liveSecrets(pair, at)).toEqual([current, previous]);
    const header = signatureHeader(liveSecrets(pair, at), id, at, body);
    expect(header.split(' ')).toHaveLength(2);
    expect(verify(current, header)).toBeTruthy();
    expect(verify(previous, header)).toBeTruthy();
    expect(liveSecrets(pair, overlapEnd(at))).toEqual([current]);
    expect(liveSecrets({ secret: current, previous_secret: null, previous_until: null }, at)).toEqual([
      current,
    ]);
  });
});
