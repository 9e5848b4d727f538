import { randomUUID } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { type ZodApp, zodApp } from '../../../shared/http/zod-app.ts';
import { z } from 'zod';
import { awaitReadModels } from '../../../shared/commands/read-your-writes.ts';
import { codedError } from '../../../shared/http/api-error.ts';
import { apiKeyDecider, DEFAULT_API_KEY_NAME } from '../api-key-decider.ts';
import { apiKeyStreamId } from '../api-key-events.ts';
import {
  expiresAtEndOfUtcDate,
  generateApiKeySecret,
  hashApiKeySecret,
  shownPrefix,
  isCalendarDate,
  isExpired,
} from '../api-key-secret.ts';
import { OFFERED_SCOPES, SCOPES, scopeLabel, type Scope } from '../contract/scopes.ts';
import { teamDecider } from '../team-decider.ts';
import { teamStreamId } from '../team-events.ts';
import type { WorkspaceDeps } from '../../../shared/http/workspace-request.ts';
import { inWorkspaceTransaction, lastPosition } from './workspace-commands.ts';
import { memberMetadata } from '../../../shared/http/workspace-request.ts';
import { signedIn, type WorkspaceSession } from './workspace-session.ts';
import { SECRET_ANSWER } from '../../../shared/http/secret-answer.ts';
import { teamApiKey, teamApiKeys, type ApiKeyRow } from '../../../projections/api-keys/queries.ts';
import { recordKeyRequest, requestedKeyId } from './api-key-requests.ts';
import { workspaceSchema } from '../../../shared/http/route-schema.ts';

export const keySchema = z.object({
  id: z.string().uuid(),
  name: z.string(),
  scopes: z.array(z.enum(SCOPES)),
  scope_labels: z.array(z.string()),
  status: z.enum(['active', 'revoked', 'expired']),
  expires_at: z.string().nullable(),
  created_at: z.string(),
  revoked_at: z.string().nullable(),
  key_prefix: z
    .string()
    .nullable()
    .describe("the secret's first characters (cos_ and 8 more); null for an older key"),
  created_by: z
    .string()
    .nullable()
    .describe("the creating member's name; null: created through the operator API"),
  last_used_at: z.string().nullable().describe('when the key last authenticated a request, to the minute'),
});
const createdSchema = z.object({
  status: z.enum(['created', 'already_created']),
  api_key: keySchema,
  secret: z.string().optional().describe('shown once, only with status created'),
});

function idempotencyKeyOf(request: FastifyRequest): string {
  const key = request.headers['idempotency-key'];
  if (typeof key !== 'string' || key.trim() === '' || key.length > 255) {
    throw codedError(
      400,
      'idempotency_key_required',
      'Send an Idempotency-Key header (any unique string, the same when you repeat the request).',
    );
  }
  return key.trim();
}

/** What the API-key routes share: the key's view, its read, and an Idempotency-Key's earlier key. */
function apiKeysKit(context: WorkspaceDeps) {
  const view = (row: ApiKeyRow) => ({
    id: row.id,
    name: row.name,
    scopes: row.scopes,
    scope_labels: row.scopes.map(scopeLabel),
    status:
      row.revoked_at !== null
        ? ('revoked' as const)
        : isExpired(row.expires_at, context.clock.now())
          ? ('expired' as const)
          : ('active' as const),
    expires_at: row.expires_at?.toISOString() ?? null,
    created_at: row.created_at.toISOString(),
    revoked_at: row.revoked_at?.toISOString() ?? null,
    key_prefix: row.key_prefix,
    created_by: row.created_by_name,
    last_used_at: row.last_used_at?.toISOString() ?? null,
  });

  async function keyOf(teamId: string, id: string): Promise<ApiKeyRow | undefined> {
    return teamApiKey(context.pool, teamId, id);
  }

  async function earlier(teamId: string, action: string, key: string): Promise<ApiKeyRow | undefined> {
    const keyId = await requestedKeyId(context.pool, teamId, action, key);
    if (!keyId) return undefined;
    const known = await keyOf(teamId, keyId);
    if (known) return known;
    // The request row commits with the key's events, but a concurrent repeat may read it
    // before the read model applied them: wait for the read models, then read the key.
    await awaitReadModels(context, await context.eventStore.committedHeadPosition());
    return keyOf(teamId, keyId);
  }

  return { context, view, keyOf, earlier };
}

type ApiKeysKit = ReturnType<typeof apiKeysKit>;

/**
 * Creates a key in one transaction: the team's slot (its expected revision keeps a sixth
 * active key out), the key, and the Idempotency-Key's row. A repeat of the same
 * Idempotency-Key answers the key it made, without its secret ("check").
 */
async function createKey(
  kit: ApiKeysKit,
  request: FastifyRequest,
  session: WorkspaceSession,
  action: string,
  key: { name: string; scopes: Scope[]; expires_at: string | null; replaces?: string },
) {
  const { context, view, keyOf, earlier } = kit;
  const idempotencyKey = idempotencyKeyOf(request);
  const before = await earlier(session.teamId, action, idempotencyKey);
  if (before) return { status: 'already_created' as const, api_key: view(before) };
  const apiKeyId = randomUUID();
  const secret = generateApiKeySecret();
  const now = context.clock.now();
  const metadata = memberMetadata(request, session.memberId, idempotencyKey);
  const position = await inWorkspaceTransaction(context, async (decide) => {
    const slot = await decide({
      streamId: teamStreamId(session.teamId),
      decider: teamDecider,
      metadata,
      command: {
        type: 'TakeApiKeySlot',
        data: { api_key_id: apiKeyId, expires_at: key.expires_at },
        metadata: { now },
      },
    });
    const created = await decide({
      streamId: apiKeyStreamId(apiKeyId),
      decider: apiKeyDecider,
      metadata,
      command: {
        type: 'CreateApiKey',
        data: {
          api_key_id: apiKeyId,
          team_id: session.teamId,
          name: key.name,
          scopes: key.scopes,
          key_hash: hashApiKeySecret(secret),
          key_prefix: shownPrefix(secret),
          expires_at: key.expires_at,
          ...(key.replaces ? { replaces_api_key_id: key.replaces } : {}),
        },
        metadata: { now },
      },
      writeRows: async (_decided, tx) => {
        await recordKeyRequest(tx, { teamId: session.teamId, action, idempotencyKey, apiKeyId, now });
      },
    });
    return lastPosition(slot, created);
  }).catch(async (error: unknown) => {
    // The same Idempotency-Key raced in: answer the key the other request made.
    if ((error as { code?: string })?.code === '23505') return undefined;
    throw error;
  });
  if (position === undefined) {
    const raced = await earlier(session.teamId, action, idempotencyKey);
    if (!raced) throw new Error('The Idempotency-Key row of a raced key request names no key');
    return { status: 'already_created' as const, api_key: view(raced) };
  }
  await awaitReadModels(context, position);
  const row = await keyOf(session.teamId, apiKeyId);
  return { status: 'created' as const, api_key: view(row!), secret };
}

/** GET /api-keys */
function listApiKeysRoute(app: ZodApp, kit: ApiKeysKit) {
  const { context, view } = kit;
  app.get(
    '/api-keys',
    {
      config: { workspace: { action: 'api_keys.list' } },
      schema: workspaceSchema(
        'workspaceListApiKeys',
        "The team's API keys, newest first (never their secrets)",
        {},
        { 200: z.object({ data: z.array(keySchema) }) },
      ),
    },
    async (request) => {
      const session = signedIn(request);
      return { data: (await teamApiKeys(context.pool, session.teamId)).map(view) };
    },
  );
}

/** POST /api-keys */
function createApiKeyRoute(app: ZodApp, kit: ApiKeysKit) {
  const { context } = kit;
  app.post(
    '/api-keys',
    {
      config: { ...SECRET_ANSWER, workspace: { action: 'api_keys.create' }, idempotent: true },
      schema: workspaceSchema(
        'workspaceCreateApiKey',
        'Create an API key (Idempotency-Key required; the secret is shown once)',
        {
          body: z.object({
            name: z.string().max(200).nullable().optional(),
            scopes: z.array(z.enum(OFFERED_SCOPES)).min(1, 'Choose at least one permission'),
            expires_on: z
              .string()
              .refine(isCalendarDate, { message: 'expires_on must be a date (YYYY-MM-DD)' })
              .nullable()
              .optional(),
          }),
        },
        { 200: createdSchema, 201: createdSchema },
      ),
    },
    async (request, reply) => {
      const session = signedIn(request);
      const { name, scopes, expires_on } = request.body;
      const expiresAt = expires_on ? expiresAtEndOfUtcDate(expires_on) : null;
      if (expiresAt !== null && expiresAt < context.clock.now().toISOString()) {
        throw codedError(400, 'invalid_body', 'The expiry date must be today or later (UTC).');
      }
      const answer = await createKey(kit, request, session, 'create', {
        name: name?.trim() || DEFAULT_API_KEY_NAME,
        scopes,
        expires_at: expiresAt,
      });
      return reply.status(answer.status === 'created' ? 201 : 200).send(answer);
    },
  );
}

/** POST /api-keys/:key_id/rotate */
function rotateApiKeyRoute(app: ZodApp, kit: ApiKeysKit) {
  const { view, keyOf, earlier } = kit;
  app.post(
    '/api-keys/:key_id/rotate',
    {
      config: { ...SECRET_ANSWER, workspace: { action: 'api_keys.rotate' } },
      schema: workspaceSchema(
        'workspaceRotateApiKey',
        'Rotate a key: a replacement with the same name, permissions and expiry; both stay active',
        { params: z.object({ key_id: z.string().uuid() }) },
        { 200: createdSchema, 201: createdSchema },
      ),
    },
    async (request, reply) => {
      const session = signedIn(request);
      const old = await keyOf(session.teamId, request.params.key_id);
      if (!old) throw codedError(404, 'api_key_not_found', 'API key not found');
      const action = `rotate:${old.id}`;
      const again = await earlier(session.teamId, action, idempotencyKeyOf(request));
      if (!again && view(old).status !== 'active') {
        throw codedError(409, 'api_key_inactive', 'Only an active key can be rotated.');
      }
      const answer = await createKey(kit, request, session, action, {
        name: old.name,
        scopes: old.scopes,
        expires_at: old.expires_at?.toISOString() ?? null,
        replaces: old.id,
      });
      return reply.status(answer.status === 'created' ? 201 : 200).send(answer);
    },
  );
}

/** DELETE /api-keys/:key_id */
function revokeApiKeyRoute(app: ZodApp, kit: ApiKeysKit) {
  const { context } = kit;
  app.delete(
    '/api-keys/:key_id',
    {
      config: { workspace: { action: 'api_keys.revoke' } },
      schema: workspaceSchema(
        'workspaceRevokeApiKey',
        'Revoke a key: it fails from its next request',
        { params: z.object({ key_id: z.string().uuid() }) },
        { 200: z.object({ success: z.literal(true) }) },
      ),
    },
    async (request) => {
      const session = signedIn(request);
      const now = context.clock.now();
      const metadata = memberMetadata(request, session.memberId);
      const position = await inWorkspaceTransaction(context, async (decide) => {
        const revoked = await decide({
          streamId: apiKeyStreamId(request.params.key_id),
          decider: apiKeyDecider,
          metadata,
          command: { type: 'RevokeApiKey', data: { team_id: session.teamId }, metadata: { now } },
        });
        const released = await decide({
          streamId: teamStreamId(session.teamId),
          decider: teamDecider,
          metadata,
          command: {
            type: 'ReleaseApiKeySlot',
            data: { api_key_id: request.params.key_id },
            metadata: { now },
          },
        });
        return lastPosition(revoked, released);
      });
      // The public API reads api_keys at every request (no cache): once the read model has
      // the revocation, the key's next request answers 401 api_key_inactive.
      await awaitReadModels(context, position);
      return { success: true as const };
    },
  );
}

/** Integrations: API keys of the team (owners and admins; creating, rotating and revoking after a re-authentication). */
export async function workspaceApiKeyRoutes(plain: FastifyInstance, { context }: { context: WorkspaceDeps }) {
  const app = zodApp(plain);
  const kit = apiKeysKit(context);
  listApiKeysRoute(app, kit);
  createApiKeyRoute(app, kit);
  rotateApiKeyRoute(app, kit);
  revokeApiKeyRoute(app, kit);
}
