import type { FastifyInstance } from 'fastify';
import { teamById } from '../../../projections/teams/queries.ts';
import { zodApp } from '../../../shared/http/zod-app.ts';
import { z } from 'zod';
import type { Platform } from '../../../shared/app-deps.ts';
import { coded } from '../../../shared/http/error-schemas.ts';
import { logoUrl } from '../../access/index.ts';
import { CLIENT_TOKEN_PATTERN, hashClientToken } from '../link-secrets.ts';
import { isOpenReview, type OnboardingState } from '../decider/index.ts';
import { readOnboarding } from '../onboarding-unit-of-work.ts';
import type { PortalAccess } from './portal-access.ts';
import { linkSessionId } from './portal-link-sessions.ts';
import { RateLimitUnavailableError } from '../../../shared/rate-limit/rate-limiter.ts';

/**
 * GET /portal/v1/onboardings/:token/face: what the client's form page shows before it may
 * read the form: whether the link works and needs a PIN, the team's name and branding,
 * and the client's locale and formats. No PIN needed, nothing recorded, never 404 (an
 * unknown token is `inactive` with team and client null); like every portal request it
 * counts against the per-IP limit (services/app/apis/portal.ts). A known token shows its team even
 * when the link no longer works, so the page can say whose form it was; the client's
 * settings are left out once the client is erased.
 */

export const LINK_STATES = [
  'open',
  'pin_required',
  'pin_locked',
  'completed',
  'expired',
  'cancelled',
  'inactive',
] as const;
export type LinkState = (typeof LINK_STATES)[number];

export const faceTeamSchema = z
  .object({
    display_name: z.string().describe("the team's email sender name, else its name"),
    logo_url: z.string().nullable().describe('path of the team logo (/brand/<team_id>/logo?v=...)'),
    accent_color: z.string().nullable().describe('#rrggbb'),
  })
  .nullable();

export const faceClientSchema = z
  .object({
    locale: z.string(),
    date_format: z.string(),
    timezone: z.string(),
    locale_chosen: z
      .boolean()
      .describe(
        "false: the client chose no language; the form shows the browser's language when it is one of the nine, else `locale` (the team's)",
      ),
    date_format_chosen: z
      .boolean()
      .describe("false: the client chose no date format; dates follow the form's language"),
  })
  .nullable();

export const faceSchema = z.object({
  link: z.object({
    state: z.enum(LINK_STATES),
    retry_after_seconds: z.number().int().nullable().describe('set when state is pin_locked'),
    session: z
      .boolean()
      .describe(
        'the request carries a live link session of this link (POST .../session): the form opens without asking for the PIN, even while the link is pin_locked',
      ),
  }),
  team: faceTeamSchema,
  client: faceClientSchema,
});

export type FaceTeam = z.infer<typeof faceTeamSchema>;
export type FaceClient = z.infer<typeof faceClientSchema>;

export interface LinkFacts {
  /** The onboarding as folded from its stream; absent for an unknown token. */
  state: OnboardingState;
  tokenHash: string;
  /** The token is the newest one issued for its onboarding (a resend makes older ones stale). */
  newest: boolean;
  /** The clients read model says the client is erased. */
  clientErased: boolean;
  /** Seconds of the wrong-PIN lockout left, null when the link takes PINs. */
  pinLockedFor: number | null;
  now: Date;
}

/**
 * The state of a link, in the order that says the most: a link that can never work again
 * (unknown, replaced by a resend, archived, client erased) is inactive; then the
 * onboarding's own end (cancelled, completed unless the team sent answers back, expired by
 * status or by expires_at, which a completed onboarding with answers sent back outlives); then
 * whether a working link needs its PIN.
 */
export function linkState(facts: LinkFacts): { state: LinkState; retry_after_seconds: number | null } {
  const at = (state: LinkState, retry: number | null = null) => ({ state, retry_after_seconds: retry });
  const { state } = facts;
  if (state.status === 'absent' || !facts.newest) return at('inactive');
  if (state.archived_at !== null || state.client_erased_at !== null || facts.clientErased) {
    return at('inactive');
  }
  if (state.status === 'cancelled') return at('cancelled');
  // A completed onboarding whose team sent answers back stays open for those answers.
  if (state.status === 'completed' && !Object.values(state.reviews).some(isOpenReview)) {
    return at('completed');
  }
  if (state.status === 'expired') return at('expired');
  const pastExpiry = state.expires_at !== null && facts.now.getTime() >= Date.parse(state.expires_at);
  if (pastExpiry && state.status !== 'completed') return at('expired');
  if (state.token_hash !== facts.tokenHash) return at('inactive');
  if (state.pin === null) return at('open');
  return facts.pinLockedFor === null ? at('pin_required') : at('pin_locked', facts.pinLockedFor);
}

type Queryable = Pick<Platform['pool'], 'query'>;

/** The team as the page shows it; null when the team is unknown. */
export async function teamFace(db: Queryable, teamId: string): Promise<FaceTeam> {
  const team = await teamById(db, teamId);
  if (!team) return null;
  return {
    display_name: team.email_sender_name || team.name,
    logo_url: logoUrl(teamId, team.logo_sha256),
    accent_color: team.accent_color,
  };
}

/** The client's settings and whether the client is erased (then no settings). */
export async function clientFace(
  db: Queryable,
  teamId: string,
  clientId: string,
): Promise<{ client: FaceClient; erased: boolean }> {
  const { rows } = await db.query<{
    locale: string;
    date_format: string;
    timezone: string;
    locale_chosen: boolean;
    date_format_chosen: boolean;
    erased: boolean;
  }>(
    `select locale, date_format, timezone, locale_chosen, date_format_chosen,
            client_is_erased(erased_at, email) as erased
     from clients where id = $1 and team_id = $2`,
    [clientId, teamId],
  );
  const row = rows[0];
  if (!row || row.erased) return { client: null, erased: row?.erased === true };
  return {
    client: {
      locale: row.locale,
      date_format: row.date_format,
      timezone: row.timezone,
      locale_chosen: row.locale_chosen,
      date_format_chosen: row.date_format_chosen,
    },
    erased: false,
  };
}

export type PortalFaceDeps = Pick<Platform, 'pool' | 'eventStore' | 'clock'>;

const tokenParams = z.object({ token: z.string().describe('the client access token (64 hex characters)') });

const unknownLink = () => ({
  link: { state: 'inactive' as const, retry_after_seconds: null, session: false },
  team: null,
  client: null,
});

/** Registered by ./portal-routes.ts with the portal's PortalAccess (its wrong-PIN counter). */
export async function portalFaceRoutes(
  plain: FastifyInstance,
  { context, access }: { context: PortalFaceDeps; access: PortalAccess },
) {
  const app = zodApp(plain);
  app.get(
    '/onboardings/:token/face',
    {
      schema: {
        operationId: 'portalGetFace',
        tags: ['portal'],
        summary:
          'How the form page shows a link before it is opened: link state, team branding, client formats (no PIN; records nothing)',
        security: [],
        params: tokenParams,
        response: {
          200: faceSchema,
          429: z
            .object({ error: z.string(), code: z.literal('rate_limited') })
            .describe('Too many requests from this IP address (code rate_limited); header Retry-After'),
          500: coded('Server error; retryable'),
        },
      },
    },
    async (request) => {
      const session = (tokenHash: string) => linkSessionId(request, tokenHash);
      const token = request.params.token.toLowerCase();
      if (!CLIENT_TOKEN_PATTERN.test(token)) return unknownLink();
      const tokenHash = hashClientToken(token);
      const { rows } = await context.pool.query<{ onboarding_id: string; newest: boolean }>(
        `select l.onboarding_id,
                l.send_number = (select max(send_number) from onboarding_links n
                                 where n.onboarding_id = l.onboarding_id) as newest
         from onboarding_links l where l.token_hash = $1`,
        [tokenHash],
      );
      const link = rows[0];
      if (!link) return unknownLink();
      const { state } = await readOnboarding(context.eventStore, link.onboarding_id);
      if (state.status === 'absent') return unknownLink();
      const [team, client] = await Promise.all([
        teamFace(context.pool, state.team_id),
        clientFace(context.pool, state.team_id, state.client_id),
      ]);
      return {
        link: {
          ...linkState({
            state,
            tokenHash,
            newest: link.newest,
            clientErased: client.erased,
            // While the lock's counters cannot be read (Redis down), the page still shows the
            // PIN screen; the PIN itself is then refused with 503 until they can.
            pinLockedFor: await access.pinLockedFor(tokenHash).catch((error: unknown) => {
              if (error instanceof RateLimitUnavailableError) return null;
              throw error;
            }),
            now: context.clock.now(),
          }),
          session:
            state.pin !== null && (await access.sessionLive(tokenHash, state.pin, { sessionId: session })),
        },
        team,
        client: client.client,
      };
    },
  );
}
