import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { sql } from 'slonik';
import { z } from 'zod';
import { apiRateLimitText, monthlyOnboardingLimit, PLANS, type Plan } from './contract/plans.ts';
import type { Platform } from '../../shared/app-deps.ts';
import { publicErrorResponses } from '../../shared/http/public-errors.ts';

export type MeRouteDeps = Pick<Platform, 'readDb'>;

const meResponse = z.object({
  team: z.object({ id: z.string().uuid(), name: z.string(), tier: z.enum(PLANS) }),
  limits: z.object({
    onboardings_per_month: z.union([z.number().int(), z.literal('unlimited')]),
    api_rate_limit: z.string().describe('the per-minute cap per key, e.g. "200 requests per minute"'),
  }),
});

const teamRow = z.object({
  id: z.string(),
  name: z.string(),
  plan: z.string(),
  monthly_onboarding_limit: z.number().nullable(),
  monthly_onboarding_unlimited: z.boolean(),
});

/** GET /api/v1/me: any valid key of a team whose plan includes API access. */
export async function meRoutes(plain: FastifyInstance, { context }: { context: MeRouteDeps }) {
  const app = plain.withTypeProvider<ZodTypeProvider>();
  app.get(
    '/me',
    {
      schema: {
        tags: ['account'],
        summary: "The key's team and its limits",
        response: { 200: meResponse, ...publicErrorResponses({ validation: false, scope: false }) },
      },
    },
    async (request) => {
      const team = await context.readDb.one(
        sql.type(teamRow)`
          select id, name, plan, monthly_onboarding_limit, monthly_onboarding_unlimited
          from teams where id = ${request.principal.teamId}`,
      );
      const plan = team.plan as Plan;
      const override = team.monthly_onboarding_unlimited ? 'unlimited' : team.monthly_onboarding_limit;
      return {
        team: { id: team.id, name: team.name, tier: plan },
        limits: {
          onboardings_per_month: monthlyOnboardingLimit(plan, override),
          api_rate_limit: apiRateLimitText(plan),
        },
      };
    },
  );
}
