import type { FastifyRequest } from 'fastify';
import { type ZodApp } from '../../../shared/http/zod-app.ts';
import { z } from 'zod';
import type { ReadClient } from '../../../projections/read-client.ts';
import { codedError } from '../../../shared/http/api-error.ts';
import { accountDecider } from './account-decider.ts';
import { accountStreamId } from './account-events.ts';
import { verifyPassword } from './password-hash.ts';
import { lockRefusal, type SignInAttempt, type SignInThrottle } from './sign-in-throttle.ts';
import { stepUnused, totpStep } from './totp.ts';
import { recoveryCodeInvalid, recoverySignIn, unusedRecoveryCode } from './recovery-codes.ts';
import type { WorkspaceDeps } from '../../../shared/http/workspace-request.ts';
import { accountCommand, memberCommand } from './workspace-commands.ts';
import { invalidCredentials } from './workspace-errors.ts';
import { insertSession, signedIn } from './workspace-session.ts';
import { SECRET_ANSWER } from '../../../shared/http/secret-answer.ts';
import {
  email,
  password,
  signedInView,
  throttled,
  totpInvalid,
  spendTotpStep,
  credentialsByEmail,
  credentialsOf,
  answerSignedIn,
} from './account-answers.ts';
import type { Credentials } from './account-answers.ts';
import { markReauthenticated, signInLockedUntil, writeSignInLock } from './accounts.ts';
import { workspaceSchema } from '../../../shared/http/route-schema.ts';

/** What the sign-in and the re-authentication share: the lock checks and the counted failure. */
export function signInKit(context: WorkspaceDeps, throttle: SignInThrottle) {
  /** A written lock of the address refuses with 429 sign_in_locked. */
  async function refuseIfLocked(db: ReadClient, address: string, now: Date) {
    const locked = lockRefusal(await signInLockedUntil(db, address), now);
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
    if (account) {
      await memberCommand(context, request, null, {
        streamId: accountStreamId(account.member_id),
        decider: accountDecider,
        command: {
          type: 'LockSignIn',
          data: { locked_until: lockedUntil.toISOString() },
          metadata: { now },
        },
        writeRows: (_decided, tx) => writeSignInLock(tx, address, lockedUntil),
      });
    } else {
      await writeSignInLock(context.pool, address, lockedUntil);
    }
    throw throttled(lockRefusal(lockedUntil, now)!);
  }

  return { context, throttle, refuseIfLocked, failedSignIn };
}

export type SignInKit = ReturnType<typeof signInKit>;

/** POST /sessions: sign in with the password and, when it is on, the second factor. */
export function signInRoute(app: ZodApp, kit: SignInKit) {
  const { context, throttle, refuseIfLocked, failedSignIn } = kit;
  app.post(
    '/sessions',
    {
      config: { ...SECRET_ANSWER, workspace: { public: true } },
      schema: workspaceSchema(
        'workspaceSignIn',
        'Sign in (wrong passwords slow down, then lock the account for 15 minutes)',
        {
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
        },
        { 200: signedInView },
      ),
    },
    async (request, reply) => {
      const { email: address, password: given, totp, recovery_code: recoveryCode } = request.body;
      const now = context.clock.now();
      await refuseIfLocked(context.pool, address, now);
      // The attempt is counted before anything is checked (./sign-in-throttle.ts).
      const admission = await throttle.admit(address, request.ip);
      if ('refusal' in admission) throw throttled(admission.refusal);
      const { attempt } = admission;
      const account = await credentialsByEmail(context.pool, address);
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
      await accountCommand(context, request, account.member_id, {
        command: recovered
          ? recoverySignIn(account.member_id, recoveryCode!, now)
          : { type: 'SignIn', data: { second_factor: secondFactor }, metadata: { now } },
        writeRows: async (_decided, tx) => {
          // A lock written meanwhile (by a failure of the same burst) refuses the session.
          await refuseIfLocked(tx, address, now);
          if (step !== null) await spendTotpStep(tx, account.member_id, step);
          session = await insertSession(tx, { memberId: account.member_id, teamId: account.team_id, now });
        },
      });
      await throttle.release(attempt);
      return answerSignedIn(context, reply, request, { ...account, id: account.member_id }, session, 200);
    },
  );
}

/** POST /sessions/current/reauth: the password or a two-factor code again, for 5 minutes. */
export function reauthenticateRoute(app: ZodApp, kit: SignInKit) {
  const { context, throttle, refuseIfLocked, failedSignIn } = kit;
  app.post(
    '/sessions/current/reauth',
    {
      schema: workspaceSchema(
        'workspaceReauthenticate',
        'Confirm the password or a two-factor code; counts for 5 minutes',
        {
          body: z
            .object({ password: password.optional(), totp: z.string().trim().max(12).optional() })
            .refine((body) => body.password !== undefined || body.totp !== undefined, {
              message: 'Give your password or a two-factor code',
            }),
        },
        { 200: z.object({ reauthenticated_until: z.string() }) },
      ),
    },
    async (request) => {
      const session = signedIn(request);
      const now = context.clock.now();
      const account = await credentialsOf(context.pool, session.memberId);
      await refuseIfLocked(context.pool, account.email, now);
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
      await accountCommand(context, request, session.memberId, {
        command: { type: 'Reauthenticate', data: { method }, metadata: { now } },
        writeRows: async (_decided, tx) => {
          if (step !== null) await spendTotpStep(tx, session.memberId, step);
          await markReauthenticated(tx, session.idHash, now);
        },
      });
      await throttle.release(admission.attempt);
      return { reauthenticated_until: new Date(now.getTime() + 5 * 60 * 1000).toISOString() };
    },
  );
}
