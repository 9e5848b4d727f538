import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

/**
 * Answers that carry a secret (a new API key, a signing secret, a client token, a
 * two-factor set-up, a CSRF token, recovery codes, a session cookie) are never stored by a
 * browser or a cache: `Cache-Control: no-store`.
 *
 * A route says so in its config, and the hook (`noStoreSecretAnswers`, registered once on
 * the root by services/app/http-app.ts) does the rest, for every answer of that route,
 * errors included:
 *
 *     app.post('/keys', { config: SECRET_ANSWER, schema: { ... } }, handler);
 *     app.post('/keys', { config: { ...SECRET_ANSWER, rateLimit: ... }, schema }, handler);
 *
 * An answer that sets a cookie (a session, a link session, the CSRF cookie) gets it too,
 * marked or not. test/integration/onboardings/secret-answers.test.ts fails for a documented route whose
 * answer has a property named like a secret (SECRET_PROPERTY) and no marker.
 */

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Every answer of this route is `Cache-Control: no-store` (./secret-answer.ts). */
    secretAnswer?: boolean;
  }
}

export const SECRET_ANSWER = { secretAnswer: true } as const;

/** Names of answer properties that hold a secret. */
export const SECRET_PROPERTY =
  /(^|_)(secrets?|tokens?|api_keys?|csrf(_token)?|otpauth(_uri|_url)?|passwords?|pins?|(recovery|backup)_codes?)$/i;

export const NO_STORE = 'no-store';

export function isSecretAnswerRoute(request: FastifyRequest): boolean {
  return request.routeOptions.config?.secretAnswer === true;
}

/** Sets `Cache-Control: no-store` on `reply` (for a route that cannot use the marker). */
export function markSecretAnswer(reply: FastifyReply): FastifyReply {
  return reply.header('Cache-Control', NO_STORE).header('Pragma', 'no-cache');
}

export function noStoreSecretAnswers(app: FastifyInstance): void {
  app.addHook('onSend', async (request, reply) => {
    if (isSecretAnswerRoute(request) || reply.hasHeader('set-cookie')) markSecretAnswer(reply);
  });
}
