import { memberLocale, teamSummary } from '../../../projections/teams/queries.ts';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { type PoolClient } from '../../../shared/db/pool.ts';
import { ApiError, codedError } from '../../../shared/http/api-error.ts';
import type { SealedValue } from '../../../shared/privacy/personal-data-vault.ts';
import { accountDecider } from './account-decider.ts';
import { accountStreamId } from './account-events.ts';
import { refusalMessage, type ThrottleRefusal } from './sign-in-throttle.ts';
import type { WorkspaceDeps } from '../../../shared/http/workspace-request.ts';
import { inWorkspaceTransaction } from './workspace-commands.ts';
import { memberMetadata } from '../../../shared/http/workspace-request.ts';
import { setSessionCookie } from './workspace-session.ts';
import type { ReadClient } from '../../../projections/read-client.ts';

/**
 * What the account route files share: the request and answer schemas, the account
 * (member_credentials) reads and writes, the sign-in answer and the OpenAccount command.
 */

/**
 * A self-serve team starts on Pro trial: the plan with API access and automations, so the
 * Integrations tab works from the first day; the operator changes plans (PATCH /admin/v1/teams).
 */
export const SELF_SERVE_PLAN = 'pro_trial' as const;
/** A password reset link works for 30 minutes, once. */
export const RESET_LINK_SECONDS = 30 * 60;

export const email = z.string().trim().toLowerCase().pipe(z.string().email().max(320));
export const password = z.string().max(1024);

const memberView = z.object({
  id: z.string().uuid(),
  name: z.string(),
  email: z.string(),
  role: z.string(),
  locale: z
    .string()
    .nullable()
    .describe("the language the member chose for the workspace and its emails; null: the team's"),
});
const teamView = z.object({ id: z.string().uuid(), name: z.string(), plan: z.string(), locale: z.string() });
export const signedInView = z.object({
  member: memberView,
  team: teamView,
  role: z.string(),
  csrf_token: z.string().describe('send it as X-CSRF-Token on every non-GET request'),
});
export const success = z.object({ success: z.literal(true) });

export interface Credentials {
  member_id: string;
  team_id: string;
  email: string;
  name: string;
  role: string;
  password_hash: string;
  totp_secret: SealedValue | null;
  totp_pending_secret: SealedValue | null;
  totp_last_step: number | null;
}

/** The 429 of a throttled sign-in, with Retry-After. */
export function throttled(refusal: ThrottleRefusal): ApiError {
  return new ApiError(429, refusalMessage(refusal), {
    code: refusal.code,
    shape: 'full',
    retryable: true,
    headers: { 'retry-after': String(refusal.retryAfterSeconds) },
  });
}

export const totpInvalid = () => codedError(401, 'totp_invalid', 'The two-factor code is wrong or expired.');

/**
 * Spends a two-factor code's time step in the command's transaction: only a step after the
 * last one used is accepted, so a code (seen over a shoulder, or replayed) works once.
 */
export async function spendTotpStep(tx: { query: PoolClient['query'] }, memberId: string, step: number) {
  const spent = await tx.query(
    `update member_credentials set totp_last_step = $2
     where member_id = $1 and (totp_last_step is null or totp_last_step < $2)`,
    [memberId, step],
  );
  if (spent.rowCount !== 1) throw totpInvalid();
}

export const isUniqueViolation = (error: unknown) => (error as { code?: string })?.code === '23505';

/** The account of a current member by email, with its name and role. */
export async function credentialsByEmail(db: ReadClient, address: string): Promise<Credentials | undefined> {
  const { rows } = await db.query<Credentials>(
    `select c.member_id, c.team_id, c.email, m.name, m.role, c.password_hash, c.totp_secret, c.totp_pending_secret, c.totp_last_step
     from member_credentials c
     join team_members m on m.id = c.member_id and m.removed_at is null
     where c.email = $1`,
    [address],
  );
  return rows[0];
}

/** The member's account; 404 account_not_found when it has none. */
export async function credentialsOf(db: ReadClient, memberId: string): Promise<Credentials> {
  const { rows } = await db.query<Credentials>(
    `select c.member_id, c.team_id, c.email, m.name, m.role, c.password_hash, c.totp_secret, c.totp_pending_secret, c.totp_last_step
     from member_credentials c join team_members m on m.id = c.member_id where c.member_id = $1`,
    [memberId],
  );
  if (!rows[0]) throw codedError(404, 'account_not_found', 'No workspace account for this member');
  return rows[0];
}

/** Stores the account's new password hash (in the command's transaction). */
export async function setPasswordHash(tx: ReadClient, memberId: string, passwordHash: string, now: Date) {
  await tx.query('update member_credentials set password_hash = $2, updated_at = $3 where member_id = $1', [
    memberId,
    passwordHash,
    now,
  ]);
}

/** The member's team as the sign-in answers name it. */
export async function teamOf(db: ReadClient, teamId: string) {
  return (await teamSummary(db, teamId))!;
}

/** Answers a sign-in: the session cookie, the member, their team and the CSRF token. */
export async function answerSignedIn(
  context: Pick<WorkspaceDeps, 'pool' | 'settings'>,
  reply: FastifyReply,
  request: FastifyRequest,
  member: { id: string; name: string; email: string; role: string; team_id: string },
  session: { id: string; csrfToken: string },
  status: number,
) {
  setSessionCookie(reply, request, context.settings.PUBLIC_URL, session.id);
  const team = await teamOf(context.pool, member.team_id);
  const locale = await memberLocale(context.pool, member.id);
  return reply.status(status).send({
    member: { id: member.id, name: member.name, email: member.email, role: member.role, locale },
    team,
    role: member.role,
    csrf_token: session.csrfToken,
  });
}

type Decide = Parameters<Parameters<typeof inWorkspaceTransaction>[1]>[0];

/** Opens a member's account with their password hash (sign-up, accepting an invitation). */
export function openAccount(
  decide: Decide,
  metadata: ReturnType<typeof memberMetadata>,
  account: { memberId: string; teamId: string; email: string; passwordHash: string; now: Date },
) {
  return decide({
    streamId: accountStreamId(account.memberId),
    decider: accountDecider,
    metadata,
    command: {
      type: 'OpenAccount',
      data: { member_id: account.memberId, team_id: account.teamId },
      metadata: { now: account.now },
    },
    writeRows: async (_decided, tx) => {
      await tx.query(
        `insert into member_credentials (member_id, team_id, email, password_hash, updated_at)
         values ($1, $2, $3, $4, $5)`,
        [account.memberId, account.teamId, account.email, account.passwordHash, account.now],
      );
    },
  });
}
