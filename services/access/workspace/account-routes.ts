import { teamSummary } from '../../../projections/teams/queries.ts';
import { randomUUID } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { inTransaction, type PoolClient } from '../../../shared/db/pool.ts';
import { awaitReadModels } from '../../../shared/commands/read-your-writes.ts';
import { ApiError, codedError } from '../../../shared/http/api-error.ts';
import type { SealedValue } from '../../../shared/privacy/personal-data-vault.ts';
import { teamDecider } from '../team-decider.ts';
import { teamStreamId, type TeamSettings } from '../team-events.ts';
import { accountDecider } from './account-decider.ts';
import { accountStreamId } from './account-events.ts';
import { hashPassword, verifyPassword } from './password-hash.ts';
import { passwordProblem } from './password-rules.ts';
import {
  lockRefusal,
  refusalMessage,
  type SignInAttempt,
  type SignInThrottle,
  type ThrottleRefusal,
} from './sign-in-throttle.ts';
import { newTotpSecret, stepUnused, totpStep, totpUri } from './totp.ts';
import {
  deleteRecoveryCodes,
  newRecoveryCodes,
  recoveryCodeInvalid,
  recoverySignIn,
  replaceRecoveryCodes,
  unusedRecoveryCode,
} from './recovery-codes.ts';
import { abuseLimits, answerNoSoonerThan } from './abuse-limits.ts';
import { requireEmailVerification } from './email-verification.ts';
import {
  RESET_ANSWER_MS,
  resetLinkRows,
  SIGN_UP_ACCEPTED,
  SIGN_UP_ANSWER_MS,
  signUpAccepted,
  warnExistingOwner,
} from './sign-up-answers.ts';
import type { WorkspaceDeps } from '../../../shared/http/workspace-request.ts';
import { inWorkspaceTransaction, lastPosition } from './workspace-commands.ts';
import { memberMetadata } from '../../../shared/http/workspace-request.ts';
import { invalidBody, invalidCredentials, reauthenticationRequired } from './workspace-errors.ts';
import { logMailWithoutSmtp, queueAccountMail } from './workspace-mail.ts';
import { hashSecret, newSecret, TOKEN_PARAM } from './workspace-secrets.ts';
import { recentlyReauthenticated } from './session-policy.ts';
import {
  clearSessionCookie,
  deleteMemberSessions,
  deleteOtherSessions,
  deleteSession,
  insertSession,
  setSessionCookie,
  signedIn,
} from './workspace-session.ts';
import { SECRET_ANSWER } from '../../../shared/http/secret-answer.ts';

/**
 * A self-serve team starts on Pro trial: the plan with API access and automations, so the
 * Integrations tab works from the first day; the operator changes plans (PATCH /admin/v1/teams).
 */
export const SELF_SERVE_PLAN = 'pro_trial' as const;
/** A password reset link works for 30 minutes, once. */
export const RESET_LINK_SECONDS = 30 * 60;

const email = z.string().trim().toLowerCase().pipe(z.string().email().max(320));
const password = z.string().max(1024);
const tag = { tags: ['workspace'] };

const memberView = z.object({ id: z.string().uuid(), name: z.string(), email: z.string(), role: z.string() });
const teamView = z.object({ id: z.string().uuid(), name: z.string(), plan: z.string() });
export const signedInView = z.object({
  member: memberView,
  team: teamView,
  role: z.string(),
  csrf_token: z.string().describe('send it as X-CSRF-Token on every non-GET request'),
});
const success = z.object({ success: z.literal(true) });

interface Credentials {
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
function throttled(refusal: ThrottleRefusal): ApiError {
  return new ApiError(429, refusalMessage(refusal), {
    code: refusal.code,
    shape: 'full',
    retryable: true,
    headers: { 'retry-after': String(refusal.retryAfterSeconds) },
  });
}

const totpInvalid = () => codedError(401, 'totp_invalid', 'The two-factor code is wrong or expired.');

/**
 * Spends a two-factor code's time step in the command's transaction: only a step after the
 * last one used is accepted, so a code (seen over a shoulder, or replayed) works once.
 */
async function spendTotpStep(tx: { query: PoolClient['query'] }, memberId: string, step: number) {
  const spent = await tx.query(
    `update member_credentials set totp_last_step = $2
     where member_id = $1 and (totp_last_step is null or totp_last_step < $2)`,
    [memberId, step],
  );
  if (spent.rowCount !== 1) throw totpInvalid();
}

const isUniqueViolation = (error: unknown) => (error as { code?: string })?.code === '23505';

/** Sign-up, sign-in and out, the signed-in member, re-authentication, two-factor, password reset. */
export async function accountRoutes(
  plain: FastifyInstance,
  { context, throttle }: { context: WorkspaceDeps; throttle: SignInThrottle },
) {
  const app = plain.withTypeProvider<ZodTypeProvider>();
  const publicUrl = context.settings.PUBLIC_URL;

  async function credentialsByEmail(address: string): Promise<Credentials | undefined> {
    const { rows } = await context.pool.query<Credentials>(
      `select c.member_id, c.team_id, c.email, m.name, m.role, c.password_hash, c.totp_secret, c.totp_pending_secret, c.totp_last_step
       from member_credentials c
       join team_members m on m.id = c.member_id and m.removed_at is null
       where c.email = $1`,
      [address],
    );
    return rows[0];
  }

  async function credentialsOf(memberId: string): Promise<Credentials> {
    const { rows } = await context.pool.query<Credentials>(
      `select c.member_id, c.team_id, c.email, m.name, m.role, c.password_hash, c.totp_secret, c.totp_pending_secret, c.totp_last_step
       from member_credentials c join team_members m on m.id = c.member_id where c.member_id = $1`,
      [memberId],
    );
    if (!rows[0]) throw codedError(404, 'account_not_found', 'No workspace account for this member');
    return rows[0];
  }

  async function teamOf(teamId: string) {
    return (await teamSummary(context.pool, teamId))!;
  }

  async function answerSignedIn(
    reply: FastifyReply,
    request: FastifyRequest,
    member: { id: string; name: string; email: string; role: string; team_id: string },
    session: { id: string; csrfToken: string },
    status: number,
  ) {
    setSessionCookie(reply, request, publicUrl, session.id);
    const team = await teamOf(member.team_id);
    return reply.status(status).send({
      member: { id: member.id, name: member.name, email: member.email, role: member.role },
      team,
      role: member.role,
      csrf_token: session.csrfToken,
    });
  }

  app.post(
    '/sign-up',
    {
      config: { ...SECRET_ANSWER, workspace: { public: true } },
      schema: {
        ...tag,
        summary:
          'Create a team and its owner; 202 "check your email" whether or not the address has an account (sign in after, verify the address to send)',
        body: z.object({
          team_name: z.string().trim().min(1).max(200),
          name: z.string().trim().min(1).max(200),
          email,
          password,
        }),
        response: { 202: signUpAccepted },
      },
    },
    async (request, reply) => {
      const started = performance.now();
      const body = request.body;
      const problem = passwordProblem(body.password, body.email);
      if (problem) throw invalidBody(problem);
      await abuseLimits(context).reserve([
        ['sign_up_ip', request.ip],
        ['sign_up_address', body.email],
      ]);
      // Hashed whatever happens next, so an existing address takes as long as a new one.
      const passwordHash = await hashPassword(body.password);
      if (await credentialsByEmail(body.email)) {
        await warnExistingOwner(context, body.email);
        await answerNoSoonerThan(started, SIGN_UP_ANSWER_MS);
        return reply.status(202).send(SIGN_UP_ACCEPTED);
      }
      const teamId = randomUUID();
      const memberId = randomUUID();
      const now = context.clock.now();
      const metadata = memberMetadata(request, memberId);
      const settings: TeamSettings = {
        name: body.team_name,
        plan: SELF_SERVE_PLAN,
        timezone: 'UTC',
        locale: 'en-US',
        date_format: 'MM/DD/YYYY',
        email_sender_name: null,
        sending_paused: false,
        payments_connected: false,
        monthly_onboarding_limit: null,
        unpaid: false,
        new_recipient_cap: null,
      };
      let verificationUrl = '';
      const outcome = await inWorkspaceTransaction(context, async (decide) => {
        const team = await decide({
          streamId: teamStreamId(teamId),
          decider: teamDecider,
          metadata,
          command: { type: 'CreateTeam', data: { team_id: teamId, settings }, metadata: { now } },
        });
        const member = await decide({
          streamId: teamStreamId(teamId),
          decider: teamDecider,
          metadata,
          command: {
            type: 'AddMember',
            data: { member_id: memberId, name: body.name, email: body.email, role: 'owner' },
            metadata: { now },
          },
        });
        const account = await openAccount(decide, metadata, {
          memberId,
          teamId,
          email: body.email,
          passwordHash,
          now,
        });
        const verification = await requireEmailVerification(decide, metadata, {
          memberId,
          teamId,
          email: body.email,
          now,
          publicUrl,
        });
        verificationUrl = verification.url;
        return lastPosition(team, member, account, verification.outcome);
      }).catch(async (error: unknown) => {
        // The same address signed up at the same moment: answered as an existing one.
        if (!isUniqueViolation(error)) throw error;
        await warnExistingOwner(context, body.email);
        return undefined;
      });
      if (outcome !== undefined) {
        await awaitReadModels(context, outcome);
        logMailWithoutSmtp(request.log, context.settings.SMTP_URL, 'verification email', {
          teamId,
          link: verificationUrl,
        });
      }
      await answerNoSoonerThan(started, SIGN_UP_ANSWER_MS);
      return reply.status(202).send(SIGN_UP_ACCEPTED);
    },
  );

  app.post(
    '/sessions',
    {
      config: { ...SECRET_ANSWER, workspace: { public: true } },
      schema: {
        ...tag,
        summary: 'Sign in (wrong passwords slow down, then lock the account for 15 minutes)',
        body: z.object({
          email,
          password,
          totp: z.string().trim().max(12).optional(),
          recovery_code: z
            .string()
            .trim()
            .max(40)
            .optional()
            .describe('a two-factor recovery code, instead of totp (each works once)'),
        }),
        response: { 200: signedInView },
      },
    },
    async (request, reply) => {
      const { email: address, password: given, totp, recovery_code: recoveryCode } = request.body;
      const now = context.clock.now();
      const lock = await context.pool.query<{ locked_until: Date }>(
        'select locked_until from sign_in_locks where email = $1',
        [address],
      );
      const locked = lockRefusal(lock.rows[0]?.locked_until ?? null, now);
      if (locked) throw throttled(locked);
      // The attempt is counted before anything is checked (./sign-in-throttle.ts).
      const admission = await throttle.admit(address, request.ip);
      if ('refusal' in admission) throw throttled(admission.refusal);
      const { attempt } = admission;
      const account = await credentialsByEmail(address);
      const passwordRight = await verifyPassword(account?.password_hash ?? null, given);
      let step: number | null = null;
      if (account && passwordRight && account.totp_secret) {
        if (!totp && !recoveryCode) {
          await throttle.release(attempt);
          throw codedError(401, 'totp_required', 'Enter the 6-digit code from your authenticator app.');
        }
        const secret = await context.vault.open(account.totp_secret);
        const matched = secret === null || !totp ? null : totpStep(secret, account.email, totp, now);
        step = stepUnused(matched, account.totp_last_step) ? matched : null;
      }
      // A recovery code stands in for the two-factor code (./recovery-codes.ts); spent in the transaction.
      const recovered =
        step === null &&
        !!account?.totp_secret &&
        passwordRight &&
        !!recoveryCode &&
        (await unusedRecoveryCode(context.pool, account.member_id, recoveryCode));
      const secondFactor = step !== null || recovered;
      if (!account || !passwordRight || (account.totp_secret && !secondFactor)) {
        await failedSignIn(request, attempt, account, now);
        if (account && passwordRight) throw recoveryCode && !totp ? recoveryCodeInvalid() : totpInvalid();
        throw invalidCredentials();
      }
      // Right before the session: a burst around the right password went over a limit meanwhile.
      const late = await throttle.recheck(attempt);
      if (late) throw throttled(late);
      let session = { id: '', csrfToken: '' };
      await inWorkspaceTransaction(context, (decide) =>
        decide({
          streamId: accountStreamId(account.member_id),
          decider: accountDecider,
          metadata: memberMetadata(request, account.member_id),
          command: recovered
            ? recoverySignIn(account.member_id, recoveryCode!, now)
            : { type: 'SignIn', data: { second_factor: secondFactor }, metadata: { now } },
          writeRows: async (_decided, tx) => {
            await refuseIfLocked(tx, address, now);
            if (step !== null) await spendTotpStep(tx, account.member_id, step);
            session = await insertSession(tx, { memberId: account.member_id, teamId: account.team_id, now });
          },
        }),
      );
      await throttle.release(attempt);
      return answerSignedIn(reply, request, { ...account, id: account.member_id }, session, 200);
    },
  );

  /** A lock written meanwhile (by a failure of the same burst) refuses the session in its transaction. */
  async function refuseIfLocked(tx: { query: PoolClient['query'] }, address: string, now: Date) {
    const { rows } = await tx.query<{ locked_until: Date }>(
      'select locked_until from sign_in_locks where email = $1',
      [address],
    );
    const locked = lockRefusal(rows[0]?.locked_until ?? null, now);
    if (locked) throw throttled(locked);
  }

  /** Counts a failure; the one that locks records the lock and answers 429 sign_in_locked. */
  async function failedSignIn(
    request: FastifyRequest,
    attempt: SignInAttempt,
    account: Credentials | undefined,
    now: Date,
  ): Promise<void> {
    const address = attempt.email;
    const lockedUntil = await throttle.fail(attempt);
    if (!lockedUntil) return;
    const writeLock = async (tx: { query: typeof context.pool.query }) => {
      await tx.query(
        `insert into sign_in_locks (email, locked_until) values ($1, $2)
         on conflict (email) do update set locked_until = excluded.locked_until`,
        [address, lockedUntil],
      );
    };
    if (account) {
      await inWorkspaceTransaction(context, (decide) =>
        decide({
          streamId: accountStreamId(account.member_id),
          decider: accountDecider,
          metadata: memberMetadata(request, null),
          command: {
            type: 'LockSignIn',
            data: { locked_until: lockedUntil.toISOString() },
            metadata: { now },
          },
          writeRows: (_decided, tx) => writeLock(tx as never),
        }),
      );
    } else {
      await writeLock(context.pool as never);
    }
    throw throttled(lockRefusal(lockedUntil, now)!);
  }

  app.get(
    '/me',
    {
      config: SECRET_ANSWER,
      schema: {
        ...tag,
        summary: 'The signed-in member, their team and role, and the CSRF token',
        response: { 200: signedInView },
      },
    },
    async (request) => {
      const session = signedIn(request);
      return {
        member: { id: session.memberId, name: session.name, email: session.email, role: session.role },
        team: await teamOf(session.teamId),
        role: session.role,
        csrf_token: session.csrfToken,
      };
    },
  );

  app.delete(
    '/sessions/current',
    { schema: { ...tag, summary: 'Sign out', response: { 200: success } } },
    async (request, reply) => {
      const session = signedIn(request);
      await signOut(request, session.memberId, 'current', (tx) => deleteSession(tx, session.idHash));
      clearSessionCookie(reply, request, publicUrl);
      return { success: true as const };
    },
  );

  app.post(
    '/sessions/end-all',
    {
      schema: {
        ...tag,
        summary: 'Sign out everywhere (every session of the member ends)',
        response: { 200: success },
      },
    },
    async (request, reply) => {
      const session = signedIn(request);
      await signOut(request, session.memberId, 'everywhere', (tx) =>
        deleteMemberSessions(tx, session.memberId),
      );
      clearSessionCookie(reply, request, publicUrl);
      return { success: true as const };
    },
  );

  async function signOut(
    request: FastifyRequest,
    memberId: string,
    scope: 'current' | 'everywhere',
    rows: (tx: never) => Promise<void>,
  ) {
    await inWorkspaceTransaction(context, (decide) =>
      decide({
        streamId: accountStreamId(memberId),
        decider: accountDecider,
        metadata: memberMetadata(request, memberId),
        command: { type: 'SignOut', data: { scope }, metadata: { now: context.clock.now() } },
        writeRows: (_decided, tx) => rows(tx as never),
      }),
    );
  }

  app.post(
    '/sessions/current/reauth',
    {
      schema: {
        ...tag,
        summary: 'Confirm the password or a two-factor code; counts for 5 minutes',
        body: z
          .object({ password: password.optional(), totp: z.string().trim().max(12).optional() })
          .refine((body) => body.password !== undefined || body.totp !== undefined, {
            message: 'Give your password or a two-factor code',
          }),
        response: { 200: z.object({ reauthenticated_until: z.string() }) },
      },
    },
    async (request) => {
      const session = signedIn(request);
      const now = context.clock.now();
      const account = await credentialsOf(session.memberId);
      const locked = lockRefusal(
        (
          await context.pool.query<{ locked_until: Date }>(
            'select locked_until from sign_in_locks where email = $1',
            [account.email],
          )
        ).rows[0]?.locked_until ?? null,
        now,
      );
      if (locked) throw throttled(locked);
      const admission = await throttle.admit(account.email, request.ip);
      if ('refusal' in admission) throw throttled(admission.refusal);
      let method: 'password' | 'totp' = 'password';
      let right = false;
      let step: number | null = null;
      if (request.body.password !== undefined) {
        right = await verifyPassword(account.password_hash, request.body.password);
      } else if (account.totp_secret) {
        method = 'totp';
        const secret = await context.vault.open(account.totp_secret);
        const matched =
          secret === null ? null : totpStep(secret, account.email, request.body.totp ?? '', now);
        step = stepUnused(matched, account.totp_last_step) ? matched : null;
        right = step !== null;
      }
      if (!right) {
        await failedSignIn(request, admission.attempt, account, now);
        throw codedError(401, 'invalid_credentials', 'That password or code is wrong.');
      }
      const late = await throttle.recheck(admission.attempt);
      if (late) throw throttled(late);
      await inWorkspaceTransaction(context, (decide) =>
        decide({
          streamId: accountStreamId(session.memberId),
          decider: accountDecider,
          metadata: memberMetadata(request, session.memberId),
          command: { type: 'Reauthenticate', data: { method }, metadata: { now } },
          writeRows: async (_decided, tx) => {
            if (step !== null) await spendTotpStep(tx, session.memberId, step);
            await tx.query('update workspace_sessions set reauthenticated_at = $2 where id_hash = $1', [
              session.idHash,
              now,
            ]);
          },
        }),
      );
      await throttle.release(admission.attempt);
      return { reauthenticated_until: new Date(now.getTime() + 5 * 60 * 1000).toISOString() };
    },
  );

  app.get(
    '/me/totp',
    {
      schema: {
        ...tag,
        summary: 'Whether two-factor sign-in is on for the signed-in member (never the secret)',
        response: { 200: z.object({ enabled: z.boolean() }) },
      },
    },
    async (request) => {
      const account = await credentialsOf(signedIn(request).memberId);
      return { enabled: account.totp_secret !== null };
    },
  );

  app.post(
    '/me/totp',
    {
      config: SECRET_ANSWER,
      schema: {
        ...tag,
        summary: 'Start two-factor setup: a secret and its otpauth URI (not active until confirmed)',
        response: { 200: z.object({ secret: z.string(), otpauth_uri: z.string() }) },
      },
    },
    async (request) => {
      const session = signedIn(request);
      const secret = newTotpSecret();
      // The member is the vault's subject (a uuid): erasing them makes the secret unreadable.
      const sealed = await context.vault.seal(session.teamId, session.memberId, secret);
      await inWorkspaceTransaction(context, (decide) =>
        decide({
          streamId: accountStreamId(session.memberId),
          decider: accountDecider,
          metadata: memberMetadata(request, session.memberId),
          command: { type: 'StartTotp', data: {}, metadata: { now: context.clock.now() } },
          writeRows: async (_decided, tx) => {
            await tx.query('update member_credentials set totp_pending_secret = $2 where member_id = $1', [
              session.memberId,
              JSON.stringify(sealed),
            ]);
          },
        }),
      );
      return { secret, otpauth_uri: totpUri(secret, session.email) };
    },
  );

  app.post(
    '/me/totp/confirm',
    {
      schema: {
        ...tag,
        summary:
          'Turn two-factor sign-in on with a code from the authenticator app: every other session ends, and 10 one-time recovery codes are answered once',
        body: z.object({ code: z.string().trim().max(12) }),
        response: { 200: success.extend({ recovery_codes: z.array(z.string()) }) },
      },
      config: SECRET_ANSWER,
    },
    async (request) => {
      const session = signedIn(request);
      const now = context.clock.now();
      const account = await credentialsOf(session.memberId);
      const pending = account.totp_pending_secret
        ? await context.vault.open(account.totp_pending_secret)
        : null;
      if (!pending) throw codedError(409, 'totp_not_started', 'Start the two-factor setup first');
      const step = totpStep(pending, account.email, request.body.code, now);
      if (step === null) {
        throw codedError(400, 'totp_invalid', 'The two-factor code is wrong or expired.');
      }
      const recoveryCodes = newRecoveryCodes();
      await inWorkspaceTransaction(context, (decide) =>
        decide({
          streamId: accountStreamId(session.memberId),
          decider: accountDecider,
          metadata: memberMetadata(request, session.memberId),
          command: { type: 'EnableTotp', data: { recovery_codes: recoveryCodes.length }, metadata: { now } },
          writeRows: async (_decided, tx) => {
            await tx.query(
              `update member_credentials
               set totp_secret = totp_pending_secret, totp_pending_secret = null, totp_last_step = $2
               where member_id = $1`,
              [session.memberId, step],
            );
            await replaceRecoveryCodes(tx, session.memberId, recoveryCodes, now);
            await deleteOtherSessions(tx, session.memberId, session.idHash);
          },
        }),
      );
      return { success: true as const, recovery_codes: recoveryCodes };
    },
  );

  app.delete(
    '/me/totp',
    {
      schema: {
        ...tag,
        summary: 'Turn two-factor sign-in off (re-authentication within 5 minutes)',
        response: { 200: success },
      },
    },
    async (request) => {
      const session = signedIn(request);
      if (!recentlyReauthenticated(session, context.clock.now())) throw reauthenticationRequired();
      await inWorkspaceTransaction(context, (decide) =>
        decide({
          streamId: accountStreamId(session.memberId),
          decider: accountDecider,
          metadata: memberMetadata(request, session.memberId),
          command: { type: 'DisableTotp', data: {}, metadata: { now: context.clock.now() } },
          writeRows: async (_decided, tx) => {
            await tx.query(
              `update member_credentials set totp_secret = null, totp_pending_secret = null, totp_last_step = null
               where member_id = $1`,
              [session.memberId],
            );
            await deleteRecoveryCodes(tx, session.memberId);
          },
        }),
      );
      return { success: true as const };
    },
  );

  app.post(
    '/password-resets',
    {
      config: { workspace: { public: true } },
      schema: {
        ...tag,
        summary: 'Email a one-time password reset link (always 202: no account enumeration)',
        body: z.object({ email }),
        response: { 202: z.object({ accepted: z.literal(true) }) },
      },
    },
    async (request, reply) => {
      const started = performance.now();
      await abuseLimits(context).reserve([
        ['reset_ip', request.ip],
        ['reset_address', request.body.email],
      ]);
      const account = await credentialsByEmail(request.body.email);
      if (account) {
        const token = newSecret();
        const now = context.clock.now();
        const link = `${publicUrl}/workspace/reset-password/${token}`;
        await inTransaction(context.pool, async (tx) => {
          // A new link ends the older ones of the account (resetLinkRows).
          await resetLinkRows(tx, account.member_id, {
            tokenHash: hashSecret(token),
            teamId: account.team_id,
            expiresAt: new Date(now.getTime() + RESET_LINK_SECONDS * 1000),
            now,
          });
          await queueAccountMail(tx, {
            teamId: account.team_id,
            to: account.email,
            subject: 'Reset your password',
            text: `Someone asked to reset the password of your workspace account.\n\nSet a new password here (the link works once, for 30 minutes):\n${link}\n\nIf it was not you, ignore this email.`,
            at: now,
          });
        });
        logMailWithoutSmtp(request.log, context.settings.SMTP_URL, 'password reset email', {
          teamId: account.team_id,
          link,
        });
      }
      await answerNoSoonerThan(started, RESET_ANSWER_MS);
      return reply.status(202).send({ accepted: true as const });
    },
  );

  app.post(
    '/password-resets/:token',
    {
      config: { workspace: { public: true } },
      schema: {
        ...tag,
        summary: 'Set a new password with a reset link; every session of the account ends',
        params: z.object({ token: z.string().max(64).describe(TOKEN_PARAM) }),
        body: z.object({ password }),
        response: { 200: success },
      },
    },
    async (request) => {
      const now = context.clock.now();
      const tokenHash = hashSecret(request.params.token);
      const { rows } = await context.pool.query<{ member_id: string; email: string }>(
        `select t.member_id, c.email from workspace_tokens t join member_credentials c on c.member_id = t.member_id
         where t.token_hash = $1 and t.purpose = 'password_reset' and t.used_at is null and t.expires_at > $2`,
        [tokenHash, now],
      );
      const found = rows[0];
      if (!found) {
        throw codedError(
          400,
          'reset_link_invalid',
          'This reset link has expired or was already used: ask for a new one.',
        );
      }
      const problem = passwordProblem(request.body.password, found.email);
      if (problem) throw invalidBody(problem);
      const passwordHash = await hashPassword(request.body.password);
      await inWorkspaceTransaction(context, (decide) =>
        decide({
          streamId: accountStreamId(found.member_id),
          decider: accountDecider,
          metadata: memberMetadata(request, found.member_id),
          command: { type: 'ChangePassword', data: { reason: 'reset' }, metadata: { now } },
          writeRows: async (_decided, tx) => {
            const used = await tx.query(
              'update workspace_tokens set used_at = $2 where token_hash = $1 and used_at is null',
              [tokenHash, now],
            );
            if (used.rowCount !== 1) {
              throw codedError(
                400,
                'reset_link_invalid',
                'This reset link has expired or was already used: ask for a new one.',
              );
            }
            await tx.query(
              'update member_credentials set password_hash = $2, updated_at = $3 where member_id = $1',
              [found.member_id, passwordHash, now],
            );
            // A completed reset ends every other outstanding link of the account.
            await resetLinkRows(tx, found.member_id, null);
            await tx.query('delete from sign_in_locks where email = $1', [found.email]);
            await deleteMemberSessions(tx, found.member_id);
          },
        }),
      );
      // The reset proves the account's owner: its wrong-password count ends with the lock.
      await throttle.forgetAccount(found.email);
      return { success: true as const };
    },
  );
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
