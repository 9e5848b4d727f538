import type { FastifyInstance } from 'fastify';
import { zodApp } from '../../shared/http/zod-app.ts';
import { z } from 'zod';
import { apiRateLimitText, PLANS, type Plan } from './contract/plans.ts';
import { teamById, teamMonthlyLimit } from '../../projections/teams/queries.ts';
import type { Platform } from '../../shared/app-deps.ts';
import { publicErrorResponses } from '../../shared/http/public-errors.ts';

export type MeRouteDeps = Pick<Platform, 'readPool'>;

const meResponse = z.object({
  team: z.object({ id: z.string().uuid(), name: z.string(), tier: z.enum(PLANS) }),
  limits: z.object({
    onboardings_per_month: z.union([z.number().int(), z.literal('unlimited')]),
    api_rate_limit: z.string().describe('the per-minute cap per key, e.g. "200 requests per minute"'),
  }),
});

/** GET /api/v1/me: any valid key of a team whose plan includes API access. */
export async function meRoutes(plain: FastifyInstance, { context }: { context: MeRouteDeps }) {
  const app = zodApp(plain);
  app.get(
    '/me',
    {
      schema: {
        operationId: 'getMe',
        tags: ['account'],
        summary: "The key's team and its limits",
        description:
          "Scope: any valid key; the team's plan must include API access. Response 200: `team` {`id` uuid, `name` string, `tier` string such as pro, pro_trial, business} and `limits` {`onboardings_per_month` (number for capped plans, or the string unlimited for Business), `api_rate_limit` (string describing the per-minute cap)}.",
        response: { 200: meResponse, ...publicErrorResponses({ validation: false, scope: false }) },
      },
    },
    async (request) => {
      const team = await teamById(context.readPool, request.principal.teamId);
      if (!team) throw new Error(`Team ${request.principal.teamId} of an API key has no read model row`);
      const plan = team.plan as Plan;
      return {
        team: { id: team.id, name: team.name, tier: plan },
        limits: {
          onboardings_per_month: teamMonthlyLimit({ ...team, plan }),
          api_rate_limit: apiRateLimitText(plan),
        },
      };
    },
  );
}
