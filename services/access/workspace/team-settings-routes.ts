import type { FastifyInstance } from 'fastify';
import { zodApp } from '../../../shared/http/zod-app.ts';
import { z } from 'zod';
import { handleCommand } from '../../../shared/commands/handle-command.ts';
import { awaitReadModels } from '../../../shared/commands/read-your-writes.ts';
import { codedError } from '../../../shared/http/api-error.ts';
import { operatorApiError } from '../../../shared/http/operator-commands.ts';
import { teamById } from '../../../projections/teams/queries.ts';
import { teamUsage } from '../../../projections/onboardings/workspace-queries.ts';
import {
  DEFAULT_REMINDER_SCHEDULE,
  MAX_REMINDER_DAYS,
  MAX_REMINDER_RULES,
  MIN_REMINDER_DAYS,
  REMINDER_WHEN,
  reminderScheduleProblem,
  reminderScheduleProblemText,
} from '../../onboardings/contract/reminder-schedule.ts';
import { brandingPatch, teamPatchChanges, optionalText, timezone } from '../operator-team-routes.ts';
import { hasApiAccess, hasAutomations, hasPayments, isPlan, PLANS, type Plan } from '../contract/plans.ts';
import { STRIPE_ACCOUNT_STATES } from '../stripe-account-state.ts';
import type { TeamRow } from '../../../projections/teams/queries.ts';
import { logoUrl } from '../team-branding.ts';
import { teamDecider } from '../team-decider.ts';
import { DATE_FORMATS, LOCALES } from '../../../shared/i18n/locales.ts';
import { teamStreamId } from '../team-events.ts';
import type { WorkspaceDeps } from '../../../shared/http/workspace-request.ts';
import { memberMetadata } from '../../../shared/http/workspace-request.ts';
import { workspaceErrors } from './workspace-errors.ts';
import { signedIn } from './workspace-session.ts';
import { workspaceSchema } from '../../../shared/http/route-schema.ts';

/*
 * The team's settings in the workspace:
 *   GET   /team   every member: name, sender name, time zone, language, date format,
 *                 branding, plan, sending paused, this month's onboardings and the limit
 *                 (limit_near from 80 % of it), what the plan includes, and the
 *                 team's online payments (its Stripe account; ./stripe-connect-routes.ts)
 *   PATCH /team   owners and admins: name, email_sender_name, timezone, locale, date_format,
 *                 accent_color, logo (the operator PATCH's UpdateTeam command and branding
 *                 rules), reminder_schedule (the default of new onboardings); plan,
 *                 sending_paused and limits stay with the operator.
 */

export const LIMIT_NEAR_SHARE = 0.8;

const daysText = `the number of days must be a whole number from ${MIN_REMINDER_DAYS} to ${MAX_REMINDER_DAYS}`;

const reminderRule = z
  .object({
    when: z
      .enum(REMINDER_WHEN, { message: 'when must be after_send, before_due or after_due' })
      .describe(
        'after_send: N days after each send; before_due / after_due: N days before or after the due date',
      ),
    days: z
      .number({ message: daysText })
      .int({ message: daysText })
      .min(MIN_REMINDER_DAYS, { message: daysText })
      .max(MAX_REMINDER_DAYS, { message: daysText }),
  })
  .strict();

/** The whole schedule replaces the old one; [] sends no reminders. */
const reminderScheduleBody = z
  .array(reminderRule)
  .max(MAX_REMINDER_RULES, { message: `A reminder schedule has at most ${MAX_REMINDER_RULES} rules` })
  .superRefine((rules, context) => {
    const problem = reminderScheduleProblem(rules);
    if (problem)
      context.addIssue({ code: z.ZodIssueCode.custom, message: reminderScheduleProblemText(problem) });
  })
  .describe(
    `The default reminder schedule of new onboardings: at most ${MAX_REMINDER_RULES} different rules; due-relative rules apply only to onboardings with a due date`,
  );

/** The team's online payments: what its plan allows, the service offers and its Stripe account is. */
export const paymentsSchema = z.object({
  plan_allows: z.boolean().describe("the team's plan may collect payments"),
  online: z.boolean().describe('the service takes payments online (its Stripe key is set)'),
  account_state: z
    .enum(STRIPE_ACCOUNT_STATES)
    .describe('details_missing: Stripe needs more details; ready: the account takes payments'),
  stripe_account_id: z.string().nullable(),
  connected: z.boolean().describe('payments_connected: required payments may be sent'),
});

export type PaymentsView = z.infer<typeof paymentsSchema>;

/** The payments part of the team's settings (also the answer of the Stripe account routes). */
export function paymentsOf(
  context: Pick<WorkspaceDeps, 'stripe'>,
  team: Pick<TeamRow, 'stripe_account_id' | 'stripe_account_state' | 'payments_connected'> & { plan: Plan },
): PaymentsView {
  return {
    plan_allows: hasPayments(team.plan),
    online: context.stripe !== null,
    account_state: team.stripe_account_state,
    stripe_account_id: team.stripe_account_id,
    connected: team.payments_connected,
  };
}

export const settingsSchema = z.object({
  id: z.string().uuid(),
  name: z.string(),
  email_sender_name: z.string().nullable(),
  timezone: z.string(),
  locale: z.string(),
  date_format: z.enum(DATE_FORMATS),
  accent_color: z.string().nullable(),
  has_logo: z.boolean(),
  logo_url: z.string().nullable(),
  reminder_schedule: z.array(z.object({ when: z.enum(REMINDER_WHEN), days: z.number().int() })),
  plan: z.enum(PLANS),
  sending_paused: z.boolean(),
  usage: z.object({
    month: z.string().describe('YYYY-MM in the team time zone'),
    onboardings_sent: z.number().int(),
    monthly_limit: z.union([z.number().int(), z.literal('unlimited')]),
    limit_near: z.boolean().describe('at least 80 % of the monthly limit used'),
  }),
  plan_includes: z.object({
    api_access: z.boolean(),
    automations: z.boolean(),
    payments: z.boolean().describe('online payments through Stripe'),
    monthly_onboardings: z
      .union([z.number().int(), z.literal('unlimited')])
      .describe("the team's monthly cap: its plan's, or the operator's override"),
  }),
  payments: paymentsSchema,
});

const patchBody = z
  .object({
    name: z.string().trim().min(1).max(200),
    email_sender_name: optionalText,
    timezone,
    locale: z.enum(LOCALES),
    date_format: z.enum(DATE_FORMATS),
    reminder_schedule: reminderScheduleBody,
  })
  .partial()
  .merge(brandingPatch)
  .strict()
  .refine((body) => Object.values(body).some((value) => value !== undefined), {
    message: 'at least one setting is required',
  });

export async function teamSettingsRoutes(plain: FastifyInstance, { context }: { context: WorkspaceDeps }) {
  const app = zodApp(plain);

  async function settings(teamId: string): Promise<z.infer<typeof settingsSchema>> {
    const team = await teamById(context.pool, teamId);
    if (!team || !isPlan(team.plan)) throw codedError(404, 'team_not_found', 'Team not found');
    const {
      month,
      used: sent,
      limit,
    } = await teamUsage(context.pool, { ...team, plan: team.plan }, context.clock.now());
    return {
      id: team.id,
      name: team.name,
      email_sender_name: team.email_sender_name,
      timezone: team.timezone,
      locale: team.locale,
      date_format: team.date_format,
      accent_color: team.accent_color,
      has_logo: team.logo_sha256 !== null,
      logo_url: logoUrl(team.id, team.logo_sha256),
      reminder_schedule: team.reminder_schedule ?? [...DEFAULT_REMINDER_SCHEDULE],
      plan: team.plan,
      sending_paused: team.sending_paused,
      usage: {
        month,
        onboardings_sent: sent,
        monthly_limit: limit,
        limit_near: limit !== 'unlimited' && sent >= limit * LIMIT_NEAR_SHARE,
      },
      plan_includes: {
        api_access: hasApiAccess(team.plan),
        automations: hasAutomations(team.plan),
        payments: hasPayments(team.plan),
        monthly_onboardings: limit,
      },
      payments: paymentsOf(context, { ...team, plan: team.plan }),
    };
  }

  app.get(
    '/team',
    {
      config: { workspace: { action: 'team.read' } },
      schema: workspaceSchema(
        'workspaceGetTeam',
        "The team's settings, plan and this month's usage",
        {},
        { 200: z.object({ team: settingsSchema }) },
      ),
    },
    async (request) => ({ team: await settings(signedIn(request).teamId) }),
  );

  app.patch(
    '/team',
    {
      config: { workspace: { action: 'team.update' } },
      schema: workspaceSchema(
        'workspaceUpdateTeam',
        "Change the team's name, sender name, time zone, language, date format, accent color, logo or default reminder schedule (owners and admins). 400 invalid_body names the first problem in its message (for the schedule: more than 5 rules, an unknown when, days outside 1 to 365, a repeated rule).",
        { body: patchBody },
        { 200: z.object({ team: settingsSchema }) },
      ),
    },
    async (request) => {
      const session = signedIn(request);
      const changes = await teamPatchChanges(context, session.teamId, request.body);
      try {
        const result = await handleCommand(context, {
          streamId: teamStreamId(session.teamId),
          decider: teamDecider,
          command: { type: 'UpdateTeam', data: { changes }, metadata: { now: context.clock.now() } },
          metadata: memberMetadata(request, session.memberId),
        });
        await awaitReadModels(context, result.position);
      } catch (error) {
        throw operatorApiError(error, workspaceErrors);
      }
      return { team: await settings(session.teamId) };
    },
  );
}
