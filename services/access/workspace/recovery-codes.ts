import { randomInt } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { zodApp } from '../../../shared/http/zod-app.ts';
import { z } from 'zod';
import type { PoolClient } from '../../../shared/db/pool.ts';
import { codedError } from '../../../shared/http/api-error.ts';
import { SECRET_ANSWER } from '../../../shared/http/secret-answer.ts';
import type { AccountCommand } from './account-decider.ts';
import { recentlyReauthenticated } from './session-policy.ts';
import type { WorkspaceDeps } from '../../../shared/http/workspace-request.ts';
import { accountCommand } from './workspace-commands.ts';
import { reauthenticationRequired } from './workspace-errors.ts';
import { hashSecret } from './workspace-secrets.ts';
import { signedIn } from './workspace-session.ts';
import { workspaceSchema } from '../../../shared/http/route-schema.ts';

/**
 * Two-factor recovery codes: ten one-time codes handed out when two-factor sign-in is
 * turned on (and when regenerated), shown once. Each stands in for one two-factor code at
 * sign-in. A code is 16 characters of an unambiguous alphabet (80 random bits), shown as
 * four groups of four; only the SHA-256 of the member id and the code is stored
 * (table member_recovery_codes), and a code is spent by a conditional update, so it signs
 * in once even when sent many times at once.
 */
export const RECOVERY_CODE_COUNT = 10;
const ALPHABET = '0123456789abcdefghjkmnpqrstvwxyz';
const CODE_LENGTH = 16;

type Db = Pick<PoolClient, 'query'>;

/** Ten new codes, as the member reads them ("abcd-efgh-jkmn-pqrs"). */
export function newRecoveryCodes(): string[] {
  return Array.from({ length: RECOVERY_CODE_COUNT }, () => {
    const characters = Array.from({ length: CODE_LENGTH }, () => ALPHABET[randomInt(ALPHABET.length)]);
    return characters.join('').match(/.{4}/g)!.join('-');
  });
}

/** A code as typed: case, spaces and dashes do not matter. */
export const normalizeRecoveryCode = (code: string): string => code.toLowerCase().replace(/[\s-]+/g, '');

/** Does `text` look like a recovery code (rather than a 6-digit two-factor code)? */
export const looksLikeRecoveryCode = (text: string): boolean =>
  normalizeRecoveryCode(text).length === CODE_LENGTH;

const codeHash = (memberId: string, code: string) =>
  hashSecret(`recovery_code:${memberId}:${normalizeRecoveryCode(code)}`);

/** Replaces the member's codes with `codes` (inside the command's transaction). */
export async function replaceRecoveryCodes(tx: Db, memberId: string, codes: string[], now: Date) {
  await deleteRecoveryCodes(tx, memberId);
  await tx.query(
    `insert into member_recovery_codes (member_id, code_hash, created_at)
     select $1, hash, $3 from unnest($2::text[]) as hash`,
    [memberId, codes.map((code) => codeHash(memberId, code)), now],
  );
}

export async function deleteRecoveryCodes(tx: Db, memberId: string): Promise<void> {
  await tx.query('delete from member_recovery_codes where member_id = $1', [memberId]);
}

/** The member's unused codes. */
export async function recoveryCodesLeft(db: Db, memberId: string): Promise<number> {
  const { rows } = await db.query<{ left: number }>(
    'select count(*)::int as left from member_recovery_codes where member_id = $1 and used_at is null',
    [memberId],
  );
  return rows[0]?.left ?? 0;
}

/** Is `code` one of the member's unused codes (read before the sign-in's transaction)? */
export async function unusedRecoveryCode(db: Db, memberId: string, code: string): Promise<boolean> {
  const { rowCount } = await db.query(
    'select 1 from member_recovery_codes where member_id = $1 and code_hash = $2 and used_at is null',
    [memberId, codeHash(memberId, code)],
  );
  return (rowCount ?? 0) > 0;
}

export const recoveryCodeInvalid = () =>
  codedError(401, 'recovery_code_invalid', 'That recovery code is wrong or was already used.');

/**
 * The sign-in command of a recovery code, deciding inside the sign-in's transaction: spends
 * the code (only the first of concurrent uses updates its row; the others are refused and
 * their transaction rolls back) and records the codes left.
 */
export function recoverySignIn(memberId: string, code: string, now: Date) {
  return async (_state: unknown, tx: Db): Promise<AccountCommand> => {
    const spent = await tx.query(
      `update member_recovery_codes set used_at = $3
       where member_id = $1 and code_hash = $2 and used_at is null`,
      [memberId, codeHash(memberId, code), now],
    );
    if (spent.rowCount !== 1) throw recoveryCodeInvalid();
    const left = await recoveryCodesLeft(tx, memberId);
    return { type: 'SignIn', data: { second_factor: true, recovery_codes_left: left }, metadata: { now } };
  };
}

/** The signed-in member's recovery codes: how many are left; new ones after a re-authentication. */
export async function recoveryCodeRoutes(plain: FastifyInstance, { context }: { context: WorkspaceDeps }) {
  const app = zodApp(plain);

  app.get(
    '/me/recovery-codes',
    {
      schema: workspaceSchema(
        'workspaceGetRecoveryCodeCount',
        'How many unused two-factor recovery codes the signed-in member has (never the codes)',
        {},
        {
          200: z.object({ totp_enabled: z.boolean(), remaining: z.number().int() }),
        },
      ),
    },
    async (request) => {
      const session = signedIn(request);
      const { rows } = await context.pool.query<{ on: boolean }>(
        'select totp_secret is not null as on from member_credentials where member_id = $1',
        [session.memberId],
      );
      return {
        totp_enabled: rows[0]?.on ?? false,
        remaining: await recoveryCodesLeft(context.pool, session.memberId),
      };
    },
  );

  app.post(
    '/me/recovery-codes',
    {
      config: SECRET_ANSWER,
      schema: workspaceSchema(
        'workspaceRegenerateRecoveryCodes',
        'New two-factor recovery codes, shown once; the older ones stop working (re-authentication within 5 minutes)',
        {},
        { 200: z.object({ recovery_codes: z.array(z.string()) }) },
      ),
    },
    async (request) => {
      const session = signedIn(request);
      const now = context.clock.now();
      if (!recentlyReauthenticated(session, now)) throw reauthenticationRequired();
      const codes = newRecoveryCodes();
      await accountCommand(context, request, session.memberId, {
        command: {
          type: 'RegenerateRecoveryCodes',
          data: { recovery_codes: codes.length },
          metadata: { now },
        },
        writeRows: (_decided, tx) => replaceRecoveryCodes(tx, session.memberId, codes, now),
      });
      return { recovery_codes: codes };
    },
  );
}
