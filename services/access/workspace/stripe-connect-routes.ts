import type { FastifyInstance, FastifyRequest } from 'fastify';
import Stripe from 'stripe';
import { z } from 'zod';
import { awaitReadModels } from '../../../shared/commands/read-your-writes.ts';
import { codedError } from '../../../shared/http/api-error.ts';
import { coded } from '../../../shared/http/error-schemas.ts';
import { workspaceSchema } from '../../../shared/http/route-schema.ts';
import { memberMetadata, type WorkspaceDeps } from '../../../shared/http/workspace-request.ts';
import { type ZodApp, zodApp } from '../../../shared/http/zod-app.ts';
import { firstOwnerEmail, teamById } from '../../../projections/teams/queries.ts';
import { isPlan } from '../contract/plans.ts';
import { accountStateOf, stripeAccountSettings, type StripeAccountOfTeam } from '../stripe-account-state.ts';
import { accountStateChange, changeStripeAccountOfTeam } from '../stripe-account-update.ts';
import { paymentsOf, paymentsSchema } from './team-settings-routes.ts';
import { signedIn } from './workspace-session.ts';

/*
 * The team's Stripe account (Stripe Connect, Express accounts), owners and admins:
 *   POST   /team/stripe/connect  an account for the team (made once), then an account link
 *                                to Stripe's onboarding: 201 { url }
 *   POST   /team/stripe/refresh  what Stripe says of the account now: 200 { payments }
 *   DELETE /team/stripe          the team forgets its account (it stays at Stripe): 200 { payments }
 * Without STRIPE_SECRET_KEY: 409 payments_unavailable. A Stripe failure: 502
 * payment_processor_unavailable; the log keeps its kind, never the request.
 */

/** Where Stripe sends the member back (the workspace's pages of services/web/workspace). */
export const STRIPE_RETURN_PATH = '/workspace/settings/payments/return';
export const STRIPE_REFRESH_PATH = '/workspace/settings/payments/refresh';

const paymentsUnavailable = () =>
  codedError(409, 'payments_unavailable', 'Online payments are not available on this service');

const processorUnavailable = (error: unknown) =>
  codedError(
    502,
    'payment_processor_unavailable',
    'The payment processor did not answer; try again',
    undefined,
    !(error instanceof Stripe.errors.StripeError) ||
      ['StripeConnectionError', 'StripeAPIError', 'StripeRateLimitError'].includes(error.type),
  );

const stripeFailure = (error: unknown) =>
  error instanceof Stripe.errors.StripeError
    ? { type: error.type, code: error.code, status: error.statusCode, request_id: error.requestId }
    : { type: error instanceof Error ? error.name : typeof error };

const refusals = {
  409: coded('Online payments are not available on this service (code payments_unavailable)'),
  502: coded('Stripe refused or did not answer (code payment_processor_unavailable; see retryable)'),
};

const paymentsAnswer = z.object({ payments: paymentsSchema });

/** What the three routes share: the Stripe client, its calls, the team and its account. */
function stripeConnectKit(context: WorkspaceDeps) {
  /** The Stripe client, or 409 when the service takes no payments online. */
  const stripeClient = (): Stripe => {
    if (!context.stripe) throw paymentsUnavailable();
    return context.stripe;
  };

  /** A Stripe call; its failure becomes 502 and a log line without the request. */
  async function atStripe<T>(request: FastifyRequest, what: string, call: () => Promise<T>): Promise<T> {
    try {
      return await call();
    } catch (error) {
      request.log.warn({ stripe: stripeFailure(error) }, `Stripe: ${what} failed`);
      throw processorUnavailable(error);
    }
  }

  async function team(teamId: string) {
    const row = await teamById(context.pool, teamId);
    if (!row || !isPlan(row.plan)) throw codedError(404, 'team_not_found', 'Team not found');
    return { ...row, plan: row.plan };
  }

  const payments = async (teamId: string) => ({ payments: paymentsOf(context, await team(teamId)) });

  /** The team's account: the one it has, else a new Express account (one per team, by its idempotency key). */
  async function accountOf(request: FastifyRequest, teamId: string): Promise<StripeAccountOfTeam> {
    const stripe = stripeClient();
    const row = await team(teamId);
    if (row.stripe_account_id !== null) return row;
    const email = await firstOwnerEmail(context.pool, teamId);
    const account = await atStripe(request, 'creating an account', () =>
      stripe.accounts.create(
        {
          type: 'express',
          ...(email === undefined ? {} : { email }),
          business_profile: { name: row.name },
          metadata: { team_id: teamId },
        },
        { idempotencyKey: `team-account:${teamId}` },
      ),
    );
    const state = accountStateOf({
      chargesEnabled: account.charges_enabled ?? false,
      detailsSubmitted: account.details_submitted ?? false,
    });
    // A team that got another account meanwhile keeps it.
    const recorded = await changeStripeAccountOfTeam(
      context,
      teamId,
      (current) => (current.stripe_account_id === null ? stripeAccountSettings(account.id, state) : {}),
      memberMetadata(request, signedIn(request).memberId),
    );
    await awaitReadModels(context, recorded.position);
    return recorded.account;
  }

  return { context, stripeClient, atStripe, team, payments, accountOf };
}

type StripeConnectKit = ReturnType<typeof stripeConnectKit>;

/** POST /team/stripe/connect */
function connectRoute(app: ZodApp, { context, stripeClient, atStripe, accountOf }: StripeConnectKit) {
  app.post(
    '/team/stripe/connect',
    {
      config: { workspace: { action: 'payments.connect' } },
      schema: workspaceSchema(
        'workspaceConnectStripe',
        "Connect the team's Stripe account (owners and admins)",
        {
          description:
            "Makes the team's Express account at Stripe when it has none (one per team, however often it is asked), then a Stripe account link to its onboarding; the member's browser goes to `url`. Stripe sends them back to /workspace/settings/payments/return, or to /workspace/settings/payments/refresh when the link expired.",
        },
        {
          201: z.object({ url: z.string().url().describe("Stripe's onboarding of the account") }),
          ...refusals,
        },
      ),
    },
    async (request, reply) => {
      const { teamId } = signedIn(request);
      const stripe = stripeClient();
      const account = await accountOf(request, teamId);
      const base = context.settings.PUBLIC_URL;
      const link = await atStripe(request, 'creating an account link', () =>
        stripe.accountLinks.create({
          account: account.stripe_account_id!,
          type: 'account_onboarding',
          refresh_url: `${base}${STRIPE_REFRESH_PATH}`,
          return_url: `${base}${STRIPE_RETURN_PATH}`,
        }),
      );
      return reply.status(201).send({ url: link.url });
    },
  );
}

/** POST /team/stripe/refresh */
function refreshRoute(app: ZodApp, kit: StripeConnectKit) {
  const { context, stripeClient, atStripe, team, payments } = kit;
  app.post(
    '/team/stripe/refresh',
    {
      config: { workspace: { action: 'payments.connect' } },
      schema: workspaceSchema(
        'workspaceRefreshStripe',
        "Read the team's Stripe account again and record its state (owners and admins)",
        {
          description:
            '`payments.account_state` becomes ready when Stripe lets the account take charges and its details are submitted, details_missing otherwise; payments_connected (`connected`) follows.',
        },
        { 200: paymentsAnswer, ...refusals },
      ),
    },
    async (request) => {
      const session = signedIn(request);
      const stripe = stripeClient();
      const row = await team(session.teamId);
      if (row.stripe_account_id === null) return payments(session.teamId);
      const accountId = row.stripe_account_id;
      const account = await atStripe(request, 'reading the account', () =>
        stripe.accounts.retrieve(accountId),
      );
      const recorded = await changeStripeAccountOfTeam(
        context,
        session.teamId,
        accountStateChange({
          accountId,
          chargesEnabled: account.charges_enabled ?? false,
          detailsSubmitted: account.details_submitted ?? false,
        }),
        memberMetadata(request, session.memberId),
      );
      await awaitReadModels(context, recorded.position);
      return payments(session.teamId);
    },
  );
}

/** DELETE /team/stripe */
function disconnectRoute(app: ZodApp, { context, stripeClient, payments }: StripeConnectKit) {
  app.delete(
    '/team/stripe',
    {
      config: { workspace: { action: 'payments.connect' } },
      schema: workspaceSchema(
        'workspaceDisconnectStripe',
        "Disconnect the team's Stripe account (owners and admins)",
        {
          description:
            'The team forgets its account; the account itself stays at Stripe. Payments are then not connected, so required payments cannot be sent.',
        },
        { 200: paymentsAnswer, ...refusals },
      ),
    },
    async (request) => {
      const session = signedIn(request);
      stripeClient();
      const recorded = await changeStripeAccountOfTeam(
        context,
        session.teamId,
        (current) => (current.stripe_account_id === null ? {} : stripeAccountSettings(null)),
        memberMetadata(request, session.memberId),
      );
      await awaitReadModels(context, recorded.position);
      return payments(session.teamId);
    },
  );
}

export async function stripeConnectRoutes(plain: FastifyInstance, { context }: { context: WorkspaceDeps }) {
  const app = zodApp(plain);
  const kit = stripeConnectKit(context);
  connectRoute(app, kit);
  refreshRoute(app, kit);
  disconnectRoute(app, kit);
}
