import { randomBytes } from 'node:crypto';
import { Webhook } from 'standardwebhooks';

/**
 * Signatures of hook and webhook deliveries (Standard Webhooks, https://www.standardwebhooks.com):
 *
 *   webhook-signature (hook subscriptions) or X-Service-Signature (signed webhook endpoints):
 *     v1,<base64 HMAC-SHA256 of "<webhook-id>.<webhook-timestamp>.<body>">
 *
 * keyed with the base64-decoded part of a `whsec_<base64>` secret. During the overlap
 * after a rotation a delivery carries one signature per live secret, newest first,
 * separated by a space (the spec's list form), so a receiver holding either secret accepts
 * it. Signing uses the official `standardwebhooks` library: the same code receivers verify
 * with. Pure: no I/O, the caller hands the secrets and the time.
 */

/** How long the previous secret keeps signing after a rotation: a day, to roll a receiver's config over. */
export const SIGNING_OVERLAP_HOURS = 24;

export const SECRET_PREFIX = 'whsec_';

/** A new secret: `whsec_` and 32 random bytes in base64 (the spec allows 24 to 64). */
export const newSigningSecret = (): string => `${SECRET_PREFIX}${randomBytes(32).toString('base64')}`;

/** A stored secret with the one it replaced (operational tables). */
export interface SecretPair {
  secret: string;
  previous_secret: string | null;
  previous_until: Date | null;
}

/** The secrets that sign at `now`: the current one, and the previous one within its overlap. */
export function liveSecrets(pair: SecretPair, now: Date): string[] {
  const previousLive =
    pair.previous_secret !== null && pair.previous_until !== null && pair.previous_until > now;
  return previousLive ? [pair.secret, pair.previous_secret!] : [pair.secret];
}

/** The signature header value of one attempt: `v1,<sig>` per live secret, space-separated. */
export function signatureHeader(
  secrets: readonly string[],
  webhookId: string,
  at: Date,
  body: string,
): string {
  return secrets.map((secret) => new Webhook(secret).sign(webhookId, at, body)).join(' ');
}

/** The webhook-timestamp of an attempt: whole seconds of the service clock. */
export const webhookTimestamp = (at: Date): string => String(Math.floor(at.getTime() / 1000));

/** The end of the overlap of a rotation made at `now`. */
export const overlapEnd = (now: Date): Date => new Date(now.getTime() + SIGNING_OVERLAP_HOURS * 3600_000);
