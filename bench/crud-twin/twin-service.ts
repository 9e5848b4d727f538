import { randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import pg from 'pg';
import { z } from 'zod';
import { hashApiKeySecret } from '../../services/access/api-key-secret.ts';
import { issueClientToken } from '../../services/onboardings/link-secrets.ts';
import { twinCreate, twinSend, TwinRefusal, type TwinTeam } from './twin-commands.ts';
import { twinGet, twinList } from './twin-reads.ts';

/**
 * The CRUD twin: the smallest honest fastify + pg service that does the service's work for
 * POST /api/v1/onboardings, POST /api/v1/onboardings/:id/send, GET /api/v1/onboardings and
 * GET /api/v1/onboardings/:id without events. Same key lookup (SHA-256 of the secret, per
 * request, joined with the team), same body validation (zod), same reads of team, template
 * and client, the same rows an API user sees, the same outbox row and operational rows on
 * send, one transaction per command, the same pool size and the same server's durability.
 * What it leaves out is what event sourcing adds: the log, the projections, checkpoints,
 * idempotency records (the bench sends no Idempotency-Key on either side) and audit events.
 */
export interface TwinService {
  url: string;
  pool: pg.Pool;
  stop(): Promise<void>;
}

const POOL_SIZE = 20;

const createBody = z.object({
  template_id: z.string().uuid(),
  client_id: z.string().uuid(),
  due_date: z.string().nullable().optional(),
  expires_at: z.string().nullable().optional(),
});
const sendBody = z
  .object({
    force: z.boolean().optional(),
    pin: z
      .string()
      .regex(/^\d{6}$/)
      .nullable()
      .optional(),
  })
  .nullish();
const idParams = z.object({ id: z.string().uuid() });
const listQuery = z.object({
  limit: z.coerce.number().int().min(1).max(100).default(20),
  offset: z.coerce.number().int().min(0).default(0),
});

interface Principal {
  teamId: string;
  scopes: string[];
}

async function authenticate(pool: pg.Pool, request: FastifyRequest): Promise<Principal> {
  const secret = /^Bearer\s+(.+)$/i.exec(request.headers.authorization ?? '')?.[1]?.trim();
  if (!secret) throw new TwinRefusal(401, 'api_key_required');
  const { rows } = await pool.query<{
    team_id: string;
    scopes: string[];
    expires_at: Date | null;
    revoked_at: Date | null;
  }>(
    `select k.team_id, k.scopes, k.expires_at, k.revoked_at
     from api_keys k join teams t on t.id = k.team_id where k.key_hash = $1`,
    [hashApiKeySecret(secret)],
  );
  const key = rows[0];
  if (!key || key.revoked_at || (key.expires_at && key.expires_at.getTime() <= Date.now())) {
    throw new TwinRefusal(401, 'api_key_inactive');
  }
  return { teamId: key.team_id, scopes: key.scopes };
}

function requireScope(principal: Principal, scope: string): void {
  if (!principal.scopes.includes(scope)) throw new TwinRefusal(403, 'api_key_scope_denied');
}

function parse<T>(schema: z.ZodType<T, z.ZodTypeDef, unknown>, value: unknown): T {
  const result = schema.safeParse(value);
  if (!result.success) throw new TwinRefusal(400, 'invalid_body');
  return result.data;
}

/** One transaction on one connection; rolled back on any error. */
async function inTransaction<T>(pool: pg.Pool, work: (tx: pg.PoolClient) => Promise<T>): Promise<T> {
  const tx = await pool.connect();
  try {
    await tx.query('begin');
    const result = await work(tx);
    await tx.query('commit');
    return result;
  } catch (error) {
    await tx.query('rollback').catch(() => undefined);
    throw error;
  } finally {
    tx.release();
  }
}

async function loadTeam(tx: pg.PoolClient, teamId: string): Promise<TwinTeam> {
  const { rows } = await tx.query<TwinTeam>('select * from teams where id = $1', [teamId]);
  if (!rows[0]) throw new TwinRefusal(401, 'api_key_inactive');
  return rows[0];
}

function routes(app: FastifyInstance, pool: pg.Pool, publicUrl: () => string): void {
  app.setErrorHandler((error, _request, reply: FastifyReply) => {
    if (error instanceof TwinRefusal)
      return reply.status(error.status).send({ error: error.code, code: error.code });
    // The bench counts the 500; its cause goes to stderr for whoever reads the run.
    console.error(error);
    return reply.status(500).send({ error: 'internal', code: 'internal' });
  });

  app.post('/api/v1/onboardings', async (request, reply) => {
    const principal = await authenticate(pool, request);
    const body = parse(createBody, request.body);
    requireScope(principal, 'onboardings:write');
    const { token, hash } = issueClientToken();
    const created = await inTransaction(pool, async (tx) =>
      twinCreate(tx, await loadTeam(tx, principal.teamId), body, hash, new Date()),
    );
    return reply.status(201).send({ onboarding: { ...created, token } });
  });

  app.post('/api/v1/onboardings/:id/send', async (request) => {
    const principal = await authenticate(pool, request);
    const { id } = parse(idParams, request.params);
    const body = parse(sendBody, request.body) ?? {};
    requireScope(principal, 'onboardings:write');
    const commandId = randomUUID();
    await inTransaction(pool, async (tx) =>
      twinSend(tx, await loadTeam(tx, principal.teamId), id, body, publicUrl(), new Date()),
    );
    return { success: true, queued: true, command_id: commandId };
  });

  app.get('/api/v1/onboardings', async (request) => {
    const principal = await authenticate(pool, request);
    const query = parse(listQuery, request.query);
    requireScope(principal, 'onboardings:read');
    return twinList(pool, principal.teamId, query);
  });

  app.get('/api/v1/onboardings/:id', async (request) => {
    const principal = await authenticate(pool, request);
    const { id } = parse(idParams, request.params);
    requireScope(principal, 'onboardings:read');
    const onboarding = await twinGet(pool, principal.teamId, id);
    if (!onboarding) throw new TwinRefusal(404, 'target_unavailable');
    return { onboarding };
  });
}

/** The twin's tables, created in a fresh database of the bench's server. */
export async function createTwinSchema(databaseUrl: string): Promise<void> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await client.query(await readFile(new URL('./schema.sql', import.meta.url), 'utf8'));
  } finally {
    await client.end();
  }
}

/** Starts the twin on an ephemeral loopback port over `databaseUrl` (schema already created). */
export async function startTwinService(databaseUrl: string): Promise<TwinService> {
  const pool = new pg.Pool({ connectionString: databaseUrl, max: POOL_SIZE });
  const app = Fastify({ logger: false });
  let url = '';
  routes(app, pool, () => url);
  url = await app.listen({ port: 0, host: '127.0.0.1' });
  return {
    url,
    pool,
    async stop() {
      await app.close();
      await pool.end();
    },
  };
}
