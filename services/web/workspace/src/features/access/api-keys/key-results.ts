import type { Outcome } from '../../../../../shared/api/client.ts';
import { isUncertain, type Problem } from '../../../problems.ts';
import type { ApiKey, KeyCreated, NewKey } from '../api.ts';

/** What a key creation or rotation attempt led to, as the dialog shows it. */
export type KeyResult =
  | { state: 'created'; key: ApiKey; secret: string }
  | { state: 'already_created'; key: ApiKey }
  | { state: 'uncertain' }
  | { state: 'failed'; problem: Problem }
  | { state: 'cancelled' };

/**
 * Pure: the result of an answer (null: the person cancelled re-authentication). No answer or
 * a 5xx is uncertain: the key may exist, and Check repeats the request with the same
 * Idempotency-Key; a repeat of a finished request answers already_created without the secret.
 */
export function keyResultOf(answer: Outcome<KeyCreated> | null): KeyResult {
  if (answer === null) return { state: 'cancelled' };
  if (!answer.ok) {
    return isUncertain(answer.problem)
      ? { state: 'uncertain' }
      : { state: 'failed', problem: answer.problem };
  }
  const { status, api_key: key, secret } = answer.data;
  if (status === 'created' && secret) return { state: 'created', key, secret };
  return { state: 'already_created', key };
}

/** Pure: the body of a key creation from the form (an empty name saves as Default on the server). */
export function createKeyBody(
  name: string,
  scopes: readonly NewKey['scopes'][number][],
  expiresOn: string,
): NewKey {
  return {
    name: name.trim() === '' ? null : name.trim(),
    scopes: [...scopes],
    expires_on: expiresOn === '' ? null : expiresOn,
  };
}
