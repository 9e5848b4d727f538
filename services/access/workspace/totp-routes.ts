import type { FastifyInstance } from 'fastify';
import { type ZodApp, zodApp } from '../../../shared/http/zod-app.ts';
import { z } from 'zod';
import { codedError } from '../../../shared/http/api-error.ts';
import { newTotpSecret, totpStep, totpUri } from './totp.ts';
import { deleteRecoveryCodes, newRecoveryCodes, replaceRecoveryCodes } from './recovery-codes.ts';
import type { WorkspaceDeps } from '../../../shared/http/workspace-request.ts';
import { accountCommand } from './workspace-commands.ts';
import { reauthenticationRequired } from './workspace-errors.ts';
import { recentlyReauthenticated } from './session-policy.ts';
import { deleteOtherSessions, signedIn } from './workspace-session.ts';
import { SECRET_ANSWER } from '../../../shared/http/secret-answer.ts';
import { credentialsOf, success } from './account-answers.ts';
import { disableTotp, enableTotp, setPendingTotpSecret } from './accounts.ts';
import { workspaceSchema } from '../../../shared/http/route-schema.ts';

/** The signed-in member's two-factor sign-in: its state, setting it up, confirming it, turning it off. */
export async function totpRoutes(plain: FastifyInstance, { context }: { context: WorkspaceDeps }) {
  const app = zodApp(plain);
  // Registered in the OpenAPI document's order.
  totpStateRoute(app, context);
  startTotpRoute(app, context);
  confirmTotpRoute(app, context);
  disableTotpRoute(app, context);
}

function totpStateRoute(app: ZodApp, context: WorkspaceDeps) {
  app.get(
    '/me/totp',
    {
      schema: workspaceSchema(
        'workspaceGetTotpStatus',
        'Whether two-factor sign-in is on for the signed-in member (never the secret)',
        {},
        { 200: z.object({ enabled: z.boolean() }) },
      ),
    },
    async (request) => {
      const account = await credentialsOf(context.pool, signedIn(request).memberId);
      return { enabled: account.totp_secret !== null };
    },
  );
}

function startTotpRoute(app: ZodApp, context: WorkspaceDeps) {
  app.post(
    '/me/totp',
    {
      config: SECRET_ANSWER,
      schema: workspaceSchema(
        'workspaceStartTotpSetup',
        'Start two-factor setup: a secret and its otpauth URI (not active until confirmed)',
        {},
        {
          200: z.object({ secret: z.string(), otpauth_uri: z.string() }),
        },
      ),
    },
    async (request) => {
      const session = signedIn(request);
      const secret = newTotpSecret();
      // The member is the vault's subject (a uuid): erasing them makes the secret unreadable.
      const sealed = await context.vault.seal(session.teamId, session.memberId, secret);
      await accountCommand(context, request, session.memberId, {
        command: { type: 'StartTotp', data: {}, metadata: { now: context.clock.now() } },
        writeRows: (_decided, tx) => setPendingTotpSecret(tx, session.memberId, JSON.stringify(sealed)),
      });
      return { secret, otpauth_uri: totpUri(secret, session.email) };
    },
  );
}

function confirmTotpRoute(app: ZodApp, context: WorkspaceDeps) {
  app.post(
    '/me/totp/confirm',
    {
      schema: workspaceSchema(
        'workspaceConfirmTotp',
        'Turn two-factor sign-in on with a code from the authenticator app: every other session ends, and 10 one-time recovery codes are answered once',
        { body: z.object({ code: z.string().trim().max(12) }) },
        {
          200: success.extend({ recovery_codes: z.array(z.string()) }),
        },
      ),
      config: SECRET_ANSWER,
    },
    async (request) => {
      const session = signedIn(request);
      const now = context.clock.now();
      const account = await credentialsOf(context.pool, session.memberId);
      const pending = account.totp_pending_secret
        ? await context.vault.open(account.totp_pending_secret)
        : null;
      if (!pending) throw codedError(409, 'totp_not_started', 'Start the two-factor setup first');
      const step = totpStep(pending, account.email, request.body.code, now);
      if (step === null) {
        throw codedError(400, 'totp_invalid', 'The two-factor code is wrong or expired.');
      }
      const recoveryCodes = newRecoveryCodes();
      await accountCommand(context, request, session.memberId, {
        command: { type: 'EnableTotp', data: { recovery_codes: recoveryCodes.length }, metadata: { now } },
        writeRows: async (_decided, tx) => {
          await enableTotp(tx, session.memberId, step);
          await replaceRecoveryCodes(tx, session.memberId, recoveryCodes, now);
          await deleteOtherSessions(tx, session.memberId, session.idHash);
        },
      });
      return { success: true as const, recovery_codes: recoveryCodes };
    },
  );
}

function disableTotpRoute(app: ZodApp, context: WorkspaceDeps) {
  app.delete(
    '/me/totp',
    {
      schema: workspaceSchema(
        'workspaceDisableTotp',
        'Turn two-factor sign-in off (re-authentication within 5 minutes)',
        {},
        { 200: success },
      ),
    },
    async (request) => {
      const session = signedIn(request);
      if (!recentlyReauthenticated(session, context.clock.now())) throw reauthenticationRequired();
      await accountCommand(context, request, session.memberId, {
        command: { type: 'DisableTotp', data: {}, metadata: { now: context.clock.now() } },
        writeRows: async (_decided, tx) => {
          await disableTotp(tx, session.memberId);
          await deleteRecoveryCodes(tx, session.memberId);
        },
      });
      return { success: true as const };
    },
  );
}
