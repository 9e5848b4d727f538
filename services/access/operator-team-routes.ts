import { randomUUID } from 'node:crypto';
import { operatorSchema } from '../../shared/http/route-schema.ts';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { type ZodApp, zodApp } from '../../shared/http/zod-app.ts';
import { IANAZone } from 'luxon';
import { z } from 'zod';
import { teamDecider, type TeamCommand, type TeamState } from './team-decider.ts';
import { DATE_FORMATS } from '../../shared/i18n/locales.ts';
import { MEMBER_ROLES } from './contract/roles.ts';
import { teamStreamId, type TeamSettings } from './team-events.ts';
import { INT4_MAX } from '../../shared/validation/safe-text.ts';
import { PLANS } from './contract/plans.ts';
import type { Platform } from '../../shared/app-deps.ts';
import { coded } from '../../shared/http/error-schemas.ts';
import { awaitReadModels } from '../../shared/commands/read-your-writes.ts';
import { runCommand } from '../../shared/http/operator-commands.ts';
import { codedError } from '../../shared/http/api-error.ts';
import { ACCENT_COLOR, accentColorProblem, readLogoDataUrl } from './team-branding.ts';
import { saveTeamLogo } from './team-logo.ts';
import type { TeamBranding } from './team-events.ts';
import { STRIPE_ACCOUNT_ID, stripeAccountSettings } from './stripe-account-state.ts';

export type OperatorTeamRouteDeps = Pick<
  Platform,
  'clock' | 'pool' | 'eventStore' | 'projections' | 'logger'
>;

export const timezone = z
  .string()
  .refine((value) => IANAZone.isValidZone(value), { message: 'timezone must be an IANA time zone' });
export const optionalText = z.string().trim().max(200).nullable();
// Both are int4 columns of the teams read model.
const monthlyLimit = z.union([z.number().int().min(0).max(INT4_MAX), z.literal('unlimited')]).nullable();
const recipientCap = z.number().int().min(0).max(INT4_MAX).nullable();

const settingsPatch = z
  .object({
    name: z.string().trim().min(1).max(200),
    plan: z.enum(PLANS),
    timezone,
    locale: z.string().trim().min(1).max(35),
    date_format: z.enum(DATE_FORMATS),
    email_sender_name: optionalText,
    sending_paused: z.boolean(),
    payments_connected: z.boolean(),
    monthly_onboarding_limit: monthlyLimit.describe('a number, "unlimited", or null for the plan default'),
    unpaid: z.boolean(),
    new_recipient_cap: recipientCap.describe('new recipients per 24 hours, or null for the default'),
    stripe_account_id: z
      .string()
      .regex(STRIPE_ACCOUNT_ID, { message: 'stripe_account_id must be a Stripe account id (acct_...)' })
      .nullable()
      .describe(
        'a connected Stripe account (acct_...), or null; setting one also sets payments_connected (null clears it)',
      ),
  })
  .partial();

/**
 * POST takes name and plan, the documented optional settings, and (for convenience) every
 * PATCH field but the Stripe account, which a team connects later.
 */
const createTeamBody = settingsPatch.omit({ stripe_account_id: true }).extend({
  name: z.string().trim().min(1).max(200),
  plan: z.enum(PLANS),
});

/** Branding of the client's form page (./team-branding.ts); PATCH only. */
export const brandingPatch = z
  .object({
    accent_color: z
      .string()
      .regex(ACCENT_COLOR)
      .nullable()
      .describe('#rrggbb with a contrast ratio of at least 4.5:1 against white, or null'),
    logo: z
      .string()
      .nullable()
      .describe('a data: URL of a PNG, JPEG or WebP image of at most 256 KiB, or null to remove it'),
  })
  .partial();

const patchTeamBody = settingsPatch
  .merge(brandingPatch)
  .refine((body) => Object.values(body).some((value) => value !== undefined), {
    message: 'at least one setting is required',
  });

export const teamSchema = z.object({
  id: z.string().uuid(),
  name: z.string(),
  plan: z.enum(PLANS),
  timezone: z.string(),
  locale: z.string(),
  date_format: z.enum(DATE_FORMATS),
  email_sender_name: z.string().nullable(),
  sending_paused: z.boolean(),
  payments_connected: z.boolean(),
  stripe_account_id: z.string().nullable(),
  monthly_onboarding_limit: monthlyLimit,
  unpaid: z.boolean(),
  new_recipient_cap: z.number().int().nullable(),
  accent_color: z.string().nullable(),
  has_logo: z.boolean(),
  created_at: z.string(),
  updated_at: z.string(),
});

const memberBody = z.object({
  name: z.string().trim().min(1).max(200),
  email: z.string().trim().toLowerCase().pipe(z.string().email().max(320)),
  role: z.enum(MEMBER_ROLES),
});

export const memberSchema = z.object({
  id: z.string().uuid(),
  team_id: z.string().uuid(),
  name: z.string(),
  email: z.string(),
  role: z.enum(MEMBER_ROLES),
  created_at: z.string(),
});

const teamParams = z.object({ team_id: z.string().uuid() });
const memberParams = teamParams.extend({ member_id: z.string().uuid() });

export const successSchema = z.object({ success: z.literal(true) });

const teamNotFound = coded('Team not found (code team_not_found)');

function teamView(state: TeamState) {
  const team = state.team!;
  return {
    id: team.id,
    name: team.name,
    plan: team.plan,
    timezone: team.timezone,
    locale: team.locale,
    date_format: team.date_format,
    email_sender_name: team.email_sender_name,
    sending_paused: team.sending_paused,
    payments_connected: team.payments_connected,
    stripe_account_id: team.stripe_account_id ?? null,
    monthly_onboarding_limit: team.monthly_onboarding_limit,
    unpaid: team.unpaid,
    new_recipient_cap: team.new_recipient_cap,
    accent_color: team.accent_color ?? null,
    has_logo: Boolean(team.logo),
    created_at: team.created_at,
    updated_at: team.updated_at,
  };
}

/**
 * The branding changes of a PATCH: a too light accent color or an unusable logo is 400
 * invalid_body saying why; a new logo's bytes are stored before its event is appended
 * (an unused row is harmless: the teams read model names the logo served).
 */
export async function brandingChanges(
  context: OperatorTeamRouteDeps,
  teamId: string,
  body: { accent_color?: string | null; logo?: string | null },
): Promise<Partial<TeamBranding>> {
  const changes: Partial<TeamBranding> = {};
  if (body.accent_color !== undefined) {
    const problem = body.accent_color === null ? null : accentColorProblem(body.accent_color);
    if (problem) throw codedError(400, 'invalid_body', problem);
    changes.accent_color = body.accent_color === null ? null : body.accent_color.toLowerCase();
  }
  if (body.logo === null) changes.logo = null;
  if (typeof body.logo === 'string') {
    const logo = await readLogoDataUrl(body.logo);
    if ('problem' in logo) throw codedError(400, 'invalid_body', logo.problem);
    await saveTeamLogo(context.pool, teamId, logo, context.clock.now());
    changes.logo = { sha256: logo.sha256, content_type: logo.content_type, size_bytes: logo.size_bytes };
  }
  return changes;
}

/**
 * The changes of a team PATCH, the operator's or the workspace's: the plain fields as sent,
 * the branding checked and stored (brandingChanges), an empty sender name cleared, and a
 * Stripe account id with its state ready and payments_connected (null clears all three;
 * they win over a payments_connected sent beside it).
 */
export async function teamPatchChanges<
  Body extends {
    email_sender_name?: string | null;
    accent_color?: string | null;
    logo?: string | null;
    stripe_account_id?: string | null;
  },
>(context: OperatorTeamRouteDeps, teamId: string, body: Body) {
  const { email_sender_name, accent_color, logo, stripe_account_id, ...changes } = body;
  const branding = await brandingChanges(context, teamId, { accent_color, logo });
  return {
    ...changes,
    ...branding,
    ...(email_sender_name === undefined ? {} : { email_sender_name: email_sender_name || null }),
    ...(stripe_account_id === undefined ? {} : stripeAccountSettings(stripe_account_id)),
  };
}

/** What the team and member routes share: their deps and a command on one team. */
function operatorTeamKit(context: OperatorTeamRouteDeps) {
  /** Runs a command on the team's stream; answers once the read models hold what it wrote. */
  const teamCommand = async (request: FastifyRequest, teamId: string, command: TeamCommand) => {
    const result = await runCommand(context, request, teamStreamId(teamId), teamDecider, command);
    await awaitReadModels(context, result.position);
    return result;
  };
  return { context, teamCommand };
}

type OperatorTeamKit = ReturnType<typeof operatorTeamKit>;

/** POST /teams */
function createTeamRoute(app: ZodApp, kit: OperatorTeamKit) {
  const { context, teamCommand } = kit;
  app.post(
    '/teams',
    {
      schema: operatorSchema(
        'adminCreateTeam',
        'Create a team',
        {
          description:
            '`name`, `plan`, optional `timezone` (IANA, default UTC), `locale` (default en-US), `date_format` (default MM/DD/YYYY), `email_sender_name`. 201 `team`.',
          body: createTeamBody,
        },
        { 201: z.object({ team: teamSchema }) },
      ),
    },
    async (request, reply) => {
      const body = request.body;
      const settings: TeamSettings = {
        name: body.name,
        plan: body.plan,
        timezone: body.timezone ?? 'UTC',
        locale: body.locale ?? 'en-US',
        date_format: body.date_format ?? 'MM/DD/YYYY',
        email_sender_name: body.email_sender_name || null,
        sending_paused: body.sending_paused ?? false,
        payments_connected: body.payments_connected ?? false,
        monthly_onboarding_limit: body.monthly_onboarding_limit ?? null,
        unpaid: body.unpaid ?? false,
        new_recipient_cap: body.new_recipient_cap ?? null,
      };
      const teamId = randomUUID();
      const result = await teamCommand(request, teamId, {
        type: 'CreateTeam',
        data: { team_id: teamId, settings },
        metadata: { now: context.clock.now() },
      });
      return reply.status(201).send({ team: teamView(result.state) });
    },
  );
}

/** PATCH /teams/:team_id */
function patchTeamRoute(app: ZodApp, kit: OperatorTeamKit) {
  const { context, teamCommand } = kit;
  app.patch(
    '/teams/:team_id',
    {
      schema: operatorSchema(
        'adminUpdateTeam',
        'Change settings of a team',
        { params: teamParams, body: patchTeamBody },
        { 200: z.object({ team: teamSchema }), 404: teamNotFound },
      ),
    },
    async (request) => {
      const changes = await teamPatchChanges(context, request.params.team_id, request.body);
      const result = await teamCommand(request, request.params.team_id, {
        type: 'UpdateTeam',
        data: { changes },
        metadata: { now: context.clock.now() },
      });
      return { team: teamView(result.state) };
    },
  );
}

/** POST /teams/:team_id/members */
function addMemberRoute(app: ZodApp, kit: OperatorTeamKit) {
  const { context, teamCommand } = kit;
  app.post(
    '/teams/:team_id/members',
    {
      schema: operatorSchema(
        'adminAddMember',
        'Add a team member',
        { params: teamParams, body: memberBody },
        {
          201: z.object({ member: memberSchema }),
          404: teamNotFound,
          409: coded('A current member already has this email (code member_exists)'),
        },
      ),
    },
    async (request, reply) => {
      const memberId = randomUUID();
      const now = context.clock.now();
      await teamCommand(request, request.params.team_id, {
        type: 'AddMember',
        data: { member_id: memberId, ...request.body },
        metadata: { now },
      });
      return reply.status(201).send({
        member: {
          id: memberId,
          team_id: request.params.team_id,
          ...request.body,
          created_at: now.toISOString(),
        },
      });
    },
  );
}

/** DELETE /teams/:team_id/members/:member_id */
function removeMemberRoute(app: ZodApp, kit: OperatorTeamKit) {
  const { context, teamCommand } = kit;
  app.delete(
    '/teams/:team_id/members/:member_id',
    {
      schema: operatorSchema(
        'adminRemoveMember',
        'Remove a team member',
        { params: memberParams },
        {
          200: successSchema,
          404: coded('Team or member not found (code team_not_found or member_not_found)'),
        },
      ),
    },
    async (request) => {
      await teamCommand(request, request.params.team_id, {
        type: 'RemoveMember',
        data: { member_id: request.params.member_id },
        metadata: { now: context.clock.now() },
      });
      return { success: true as const };
    },
  );
}

/** Operator API: teams and members (operator-and-portal-api.md). */
export async function operatorTeamRoutes(
  plain: FastifyInstance,
  { context }: { context: OperatorTeamRouteDeps },
) {
  const app = zodApp(plain);
  const kit = operatorTeamKit(context);
  createTeamRoute(app, kit);
  patchTeamRoute(app, kit);
  addMemberRoute(app, kit);
  removeMemberRoute(app, kit);
}
