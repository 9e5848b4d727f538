import { randomUUID } from 'node:crypto';
import { operatorSchema } from '../../shared/http/route-schema.ts';
import type { FastifyInstance } from 'fastify';
import { type ZodApp, zodApp } from '../../shared/http/zod-app.ts';
import { z } from 'zod';
import { apiKeyDecider, DEFAULT_API_KEY_NAME } from './api-key-decider.ts';
import { apiKeyStreamId, type ApiKeyCreated } from './api-key-events.ts';
import {
  expiresAtEndOfUtcDate,
  generateApiKeySecret,
  hashApiKeySecret,
  shownPrefix,
  isCalendarDate,
} from './api-key-secret.ts';
import { SCOPES } from './contract/scopes.ts';
import { teamDecider } from './team-decider.ts';
import { teamStreamId } from './team-events.ts';
import { codedError } from '../../shared/http/api-error.ts';
import type { Platform } from '../../shared/app-deps.ts';
import { coded } from '../../shared/http/error-schemas.ts';
import { awaitReadModels } from '../../shared/commands/read-your-writes.ts';
import { runCommand } from '../../shared/http/operator-commands.ts';
import { successSchema } from './operator-team-routes.ts';
import { SECRET_ANSWER } from '../../shared/http/secret-answer.ts';

export type OperatorApiKeyRouteDeps = Pick<
  Platform,
  'clock' | 'pool' | 'eventStore' | 'projections' | 'logger'
>;

const createApiKeyBody = z.object({
  name: z.string().max(200).nullable().optional(),
  scopes: z.array(z.enum(SCOPES)).min(1, 'scopes must hold at least one scope'),
  expires_on: z
    .string()
    .refine(isCalendarDate, { message: 'expires_on must be a date (YYYY-MM-DD)' })
    .nullable()
    .optional()
    .describe('the key ends at the end of this UTC date: expires_at is <date>T23:59:59.999Z'),
});

export const apiKeySchema = z.object({
  id: z.string().uuid(),
  name: z.string(),
  scopes: z.array(z.enum(SCOPES)),
  expires_at: z.string().nullable(),
  created_at: z.string(),
});

const teamParams = z.object({ team_id: z.string().uuid() });
const keyParams = teamParams.extend({ key_id: z.string().uuid() });

/**
 * Operator API: API keys. The secret is answered once and stored only as its SHA-256.
 * At most 5 active keys per team: the slot is taken on the team stream first (its
 * expected revision serialises concurrent creations), then the key stream is written.
 */
export async function operatorApiKeyRoutes(
  plain: FastifyInstance,
  { context }: { context: OperatorApiKeyRouteDeps },
) {
  const app = zodApp(plain);

  app.post(
    '/teams/:team_id/api-keys',
    {
      config: SECRET_ANSWER,
      schema: operatorSchema(
        'adminCreateApiKey',
        'Create an API key (the secret is shown once)',
        {
          description:
            'Optional `name`, `scopes` (array, at least one), optional `expires_on` (YYYY-MM-DD; the key ends at the end of that UTC date). 201 `api_key` and `secret` (shown once); a sixth active key: 409 code `key_limit_reached`.',
          params: teamParams,
          body: createApiKeyBody,
        },
        {
          201: z.object({ api_key: apiKeySchema, secret: z.string() }),
          404: coded('Team not found (code team_not_found)'),
          409: coded('The team has 5 active keys (code key_limit_reached)'),
        },
      ),
    },
    async (request, reply) => {
      const { team_id } = request.params;
      const { name, scopes, expires_on } = request.body;
      const at = context.clock.now();
      const now = at.toISOString();
      const expiresAt = expires_on ? expiresAtEndOfUtcDate(expires_on) : null;
      if (expiresAt !== null && expiresAt < now) {
        throw codedError(400, 'invalid_body', 'expires_on must be today or a later date (UTC)');
      }
      const apiKeyId = randomUUID();
      await runCommand(context, request, teamStreamId(team_id), teamDecider, {
        type: 'TakeApiKeySlot',
        data: { api_key_id: apiKeyId, expires_at: expiresAt },
        metadata: { now: at },
      });
      const secret = generateApiKeySecret();
      let created;
      try {
        created = await runCommand(context, request, apiKeyStreamId(apiKeyId), apiKeyDecider, {
          type: 'CreateApiKey',
          data: {
            api_key_id: apiKeyId,
            team_id,
            name: name ?? DEFAULT_API_KEY_NAME,
            scopes,
            key_hash: hashApiKeySecret(secret),
            key_prefix: shownPrefix(secret),
            expires_at: expiresAt,
          },
          metadata: { now: at },
        });
      } catch (error) {
        // Give the slot back; the key does not exist.
        await runCommand(context, request, teamStreamId(team_id), teamDecider, {
          type: 'ReleaseApiKeySlot',
          data: { api_key_id: apiKeyId },
          metadata: { now: at },
        }).catch((releaseError: unknown) =>
          request.log.error({ err: releaseError, apiKeyId }, 'could not release an API key slot'),
        );
        throw error;
      }
      await awaitReadModels(context, created.position);
      const event = (created.events[0] as ApiKeyCreated).data;
      return reply.status(201).send({
        api_key: {
          id: apiKeyId,
          name: event.name,
          scopes: event.scopes,
          expires_at: event.expires_at,
          created_at: event.created_at,
        },
        secret,
      });
    },
  );

  revokeApiKeyRoute(app, context);
}

/** DELETE /teams/:team_id/api-keys/:key_id: the key fails from its next request. */
function revokeApiKeyRoute(app: ZodApp, context: OperatorApiKeyRouteDeps) {
  app.delete(
    '/teams/:team_id/api-keys/:key_id',
    {
      schema: operatorSchema(
        'adminRevokeApiKey',
        'Revoke an API key (it fails from its next request)',
        { params: keyParams },
        {
          200: successSchema,
          404: coded('API key not found in this team (code api_key_not_found)'),
          503: coded('Read models lag; the key may still work; retry (code read_models_lagging)'),
        },
      ),
    },
    async (request) => {
      const { team_id, key_id } = request.params;
      const now = context.clock.now();
      const revoked = await runCommand(context, request, apiKeyStreamId(key_id), apiKeyDecider, {
        type: 'RevokeApiKey',
        data: { team_id },
        metadata: { now },
      });
      const released = await runCommand(context, request, teamStreamId(team_id), teamDecider, {
        type: 'ReleaseApiKeySlot',
        data: { api_key_id: key_id },
        metadata: { now },
      });
      // Revocation takes effect at the very next request: wait for the key's read model.
      const positions = [revoked.position, released.position].filter((p) => p !== undefined);
      const last = positions.reduce<bigint | undefined>(
        (max, p) => (max === undefined || p > max ? p : max),
        undefined,
      );
      await awaitReadModels(context, last);
      return { success: true as const };
    },
  );
}
