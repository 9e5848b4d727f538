import type { FastifyInstance } from 'fastify';
import { latestOnboardingSchema, latestOnboardings } from '../../projections/clients/latest-onboarding.ts';
import { IANAZone } from 'luxon';
import { type ZodApp, zodApp } from '../../shared/http/zod-app.ts';
import { z } from 'zod';
import { DomainError } from '../../shared/commands/decider.ts';
import { awaitReadModels, readModelsLagging } from '../../shared/commands/read-your-writes.ts';
import { codedError } from '../../shared/http/api-error.ts';
import { coded } from '../../shared/http/error-schemas.ts';
import { cappedTotal, offsetPaginationQuery } from '../../shared/http/pagination.ts';
import type { WorkspaceDeps } from '../../shared/http/workspace-request.ts';
import { memberMetadata } from '../../shared/http/workspace-request.ts';
import { signedIn } from '../../shared/http/workspace-request.ts';
import type { ClientChanges } from './client-decider.ts';
import type { ClientSettingsChange } from './client-events.ts';
import { DATE_FORMATS, LOCALES } from '../../shared/i18n/locales.ts';
import { teamById } from '../../projections/teams/queries.ts';
import { LIST_COUNT_CAP } from '../../projections/read-client.ts';
import { eraseClientData } from './client-erasure.ts';
import { clientsKit, createClientBody, type ClientsKit } from './clients-routes.ts';
import {
  clientSchema,
  clientSettings,
  clientSettingsSchema,
  listClients,
  type ClientResource,
  type ClientSettings,
} from '../../projections/clients/queries.ts';
import { clientInput, createClient } from './create-client.ts';
import { queryTokens } from './client-search-index.ts';
import { EMAIL_TAKEN, updateClient } from './update-client.ts';
import { workspaceSchema } from '../../shared/http/route-schema.ts';

/*
 * The team's clients in the workspace (every role; the member is the actor):
 *
 *   GET   /clients?q=&limit=&offset=   search in name, email and company; newest first
 *   POST  /clients                     create (an email already used in the team: 409 email_taken)
 *   GET   /clients/:id
 *   PATCH /clients/:id                 change name, email, company, phone, notes, custom_fields,
 *                                      locale, date_format, timezone (null: the team's, not chosen)
 *   POST  /clients/:id/erase           the operator's erasure (client-erasure.ts)
 *
 * The same commands as POST /api/v1/clients and the operator's erase. A client here also
 * shows its language, date format and time zone, and whether it chose the first two
 * (docs/decisions/0078); the public API's client keeps them input-only.
 */

const NOT_FOUND = 'Client not found';
const notFound = () => codedError(404, 'client_not_found', NOT_FOUND);

/** A workspace refusal in the standard error body. */
function refusal(error: unknown): unknown {
  if (!(error instanceof DomainError)) return error;
  switch (error.code) {
    case 'client_not_found':
      return notFound();
    case 'email_taken':
      return codedError(409, 'email_taken', EMAIL_TAKEN);
    case 'client_changed':
      return codedError(409, 'client_changed', error.message);
    case 'link_blocked':
      return codedError(422, 'link_blocked', 'Short links are not allowed in client details', error.details);
    case 'invalid_body':
      return codedError(400, 'invalid_body', error.message);
    default:
      return error;
  }
}

async function refusing<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    throw refusal(error);
  }
}

const EDITABLE = [
  'name',
  'email',
  'company',
  'phone',
  'notes',
  'custom_fields',
  'locale',
  'date_format',
  'timezone',
] as const;

const patchBody = createClientBody
  .pick({ name: true, email: true, company: true, phone: true, notes: true, custom_fields: true })
  .partial()
  .extend({
    locale: z
      .enum(LOCALES)
      .nullable()
      .optional()
      .describe("the client's language; null: none chosen (the browser's language, else the team's)"),
    date_format: z
      .enum(DATE_FORMATS)
      .nullable()
      .optional()
      .describe("the client's date format; null: none chosen (the form's language's usual one)"),
    timezone: z
      .string()
      .refine((value) => IANAZone.isValidZone(value), {
        message: 'timezone must be a valid IANA time zone name',
      })
      .optional()
      .describe('an IANA time zone name such as Europe/Berlin'),
  })
  .refine((body) => EDITABLE.some((field) => body[field] !== undefined), {
    message: `at least one of ${EDITABLE.join(', ')} is required`,
  });

/** A client as the workspace shows it: the public client with its settings. */
const workspaceClientSchema = clientSchema.merge(clientSettingsSchema);

const listQuery = offsetPaginationQuery.extend({
  q: z.string().max(200).optional().describe('words found in the name, email or company (case-insensitive)'),
});

const idParams = z.object({ id: z.string().uuid().describe('client id (uuid)') });

/**
 * The language, date format and time zone of `body` that differ from the client's now; a
 * cleared locale or date format is the team's again (`team`), not chosen.
 */
function changedSettings(
  current: ClientSettings,
  team: { locale: string; date_format: string },
  body: z.output<typeof patchBody>,
): ClientSettingsChange | undefined {
  const change: ClientSettingsChange = {};
  if (body.locale !== undefined) {
    const [locale, chosen] = body.locale === null ? [team.locale, false] : [body.locale, true];
    if (locale !== current.locale) change.locale = locale;
    if (chosen !== current.locale_chosen) change.locale_chosen = chosen;
  }
  if (body.date_format !== undefined) {
    const [format, chosen] = body.date_format === null ? [team.date_format, false] : [body.date_format, true];
    if (format !== current.date_format) change.date_format = format;
    if (chosen !== current.date_format_chosen) change.date_format_chosen = chosen;
  }
  if (body.timezone !== undefined && body.timezone !== current.timezone) change.timezone = body.timezone;
  return Object.keys(change).length > 0 ? change : undefined;
}

/** The fields of `body` whose value differs from the client's now (only those are changed). */
function changedFields(current: ClientResource, body: z.output<typeof patchBody>): ClientChanges {
  const changes: ClientChanges = {};
  if (body.name !== undefined && body.name !== current.name) changes.name = body.name;
  if (body.email !== undefined && body.email !== current.email) changes.email = body.email;
  const nullable = ['company', 'phone', 'notes'] as const;
  for (const field of nullable) {
    const value = body[field];
    if (value === undefined) continue;
    const next = value === null || value.trim() === '' ? null : value;
    if (next !== current[field]) changes[field] = next;
  }
  if (
    body.custom_fields !== undefined &&
    JSON.stringify(body.custom_fields ?? {}) !== JSON.stringify(current.custom_fields)
  ) {
    changes.custom_fields = body.custom_fields ?? {};
  }
  return changes;
}

/** The workspace face's clients kit (clients-routes.ts): its deps and a team's client by id. */
type WorkspaceClientsKit = ClientsKit<WorkspaceDeps>;

/** A team's client with its settings, as the workspace shows it; undefined when not found. */
async function workspaceClient(kit: WorkspaceClientsKit, teamId: string, id: string) {
  const [client, settings] = await Promise.all([
    kit.findClient(teamId, id),
    clientSettings(kit.context.readPool, teamId, id),
  ]);
  return client && settings ? { ...client, ...settings } : undefined;
}

/** GET /clients */
function getClientsRoute(app: ZodApp, kit: WorkspaceClientsKit) {
  const { context } = kit;
  app.get(
    '/clients',
    {
      config: { workspace: { action: 'clients.read' } },
      schema: workspaceSchema(
        'workspaceListClients',
        "Search the team's clients (name, email, company), newest first, each with their latest onboarding",
        { querystring: listQuery },
        {
          200: z.object({
            data: z.array(clientSchema.extend({ latest_onboarding: latestOnboardingSchema.optional() })),
            ...cappedTotal,
          }),
        },
      ),
    },
    async (request) => {
      const { teamId } = signedIn(request);
      const { limit, offset, q } = request.query;
      const searching = (q ?? '').trim() !== '';
      // The blind index of words (client-search-index.ts): no client is opened to search.
      const tokens = searching ? await queryTokens(context.vault, teamId, q!) : [];
      if (searching && tokens.length === 0) return { data: [], total: 0, total_capped: false };
      const match = searching ? { searchTokens: tokens } : undefined;
      const page = await listClients(context.readPool, context.vault, teamId, {
        limit,
        offset,
        match,
        countUpTo: LIST_COUNT_CAP,
      });
      const latest = await latestOnboardings(
        context.readPool,
        teamId,
        page.clients.map((client) => client.id),
      );
      return {
        data: page.clients.map((client) => ({ ...client, latest_onboarding: latest.get(client.id) ?? null })),
        total: page.total,
        total_capped: page.total_capped,
      };
    },
  );
}

/** POST /clients */
function postClientsRoute(app: ZodApp, kit: WorkspaceClientsKit) {
  const { context } = kit;
  app.post(
    '/clients',
    {
      config: { workspace: { action: 'clients.manage' } },
      schema: workspaceSchema(
        'workspaceCreateClient',
        'Create a client (the rules of POST /api/v1/clients; a used email is refused)',
        { body: createClientBody },
        {
          201: z.object({ client: workspaceClientSchema }),
          409: coded('Another client of the team has this email (code email_taken)'),
          422: coded('A short link in client-facing text (code link_blocked)'),
        },
      ),
    },
    async (request, reply) => {
      const session = signedIn(request);
      const body = request.body;
      const input = await clientInput(context.readPool, session.teamId, body);
      const outcome = await refusing(() =>
        createClient(context, input, context.clock.now(), memberMetadata(request, session.memberId)),
      );
      if (!outcome.created) throw codedError(409, 'email_taken', EMAIL_TAKEN);
      await awaitReadModels(context, outcome.position);
      const client = await workspaceClient(kit, session.teamId, outcome.clientId);
      if (!client) throw readModelsLagging();
      return reply.status(201).send({ client });
    },
  );
}

/** GET /clients/:id */
function getClientsByIdRoute(app: ZodApp, kit: WorkspaceClientsKit) {
  app.get(
    '/clients/:id',
    {
      config: { workspace: { action: 'clients.read' } },
      schema: workspaceSchema(
        'workspaceGetClient',
        'A client of the team',
        { params: idParams },
        {
          200: z.object({ client: workspaceClientSchema }),
          404: coded('Unknown, erased or another team’s'),
        },
      ),
    },
    async (request) => {
      const client = await workspaceClient(kit, signedIn(request).teamId, request.params.id);
      if (!client) throw notFound();
      return { client };
    },
  );
}

/** PATCH /clients/:id */
function patchClientsByIdRoute(app: ZodApp, kit: WorkspaceClientsKit) {
  const { context } = kit;
  app.patch(
    '/clients/:id',
    {
      config: { workspace: { action: 'clients.manage' } },
      schema: workspaceSchema(
        'workspaceUpdateClient',
        "Change a client's details (only the fields given; an email another client has is refused)",
        { params: idParams, body: patchBody },
        {
          200: z.object({ client: workspaceClientSchema }),
          404: coded('Unknown, erased or another team’s (code client_not_found)'),
          409: coded(
            'Another client has this email (email_taken), or a simultaneous change won (client_changed)',
          ),
          422: coded('A short link in client-facing text (code link_blocked)'),
        },
      ),
    },
    async (request) => {
      const session = signedIn(request);
      const current = await workspaceClient(kit, session.teamId, request.params.id);
      if (!current) throw notFound();
      const team = (await teamById(context.readPool, session.teamId)) ?? current;
      const settings = changedSettings(current, team, request.body);
      const outcome = await refusing(() =>
        updateClient(
          context,
          { team_id: session.teamId, client_id: current.id },
          { ...changedFields(current, request.body), ...(settings ? { settings } : {}) },
          context.clock.now(),
          memberMetadata(request, session.memberId),
        ),
      );
      await awaitReadModels(context, outcome.position);
      const client = await workspaceClient(kit, session.teamId, current.id);
      if (!client) throw notFound();
      return { client };
    },
  );
}

/** POST /clients/:id/erase */
function postClientsByIdEraseRoute(app: ZodApp, kit: WorkspaceClientsKit) {
  const { context, findClient } = kit;
  app.post(
    '/clients/:id/erase',
    {
      config: { workspace: { action: 'clients.manage' } },
      schema: workspaceSchema(
        'workspaceEraseClient',
        "Erase a client's personal data (as the operator's erase): its onboardings leave every list and their links stop working",
        { params: idParams },
        {
          200: z.object({
            client_id: z.string().uuid(),
            erased_at: z.string(),
            onboardings: z.number().int(),
          }),
          404: coded('Unknown, already erased or another team’s (code client_not_found)'),
        },
      ),
    },
    async (request) => {
      const session = signedIn(request);
      const current = await findClient(session.teamId, request.params.id);
      if (!current) throw notFound();
      const outcome = await refusing(() =>
        eraseClientData(context, session.teamId, current.id, memberMetadata(request, session.memberId)),
      );
      await awaitReadModels(context, outcome.position);
      return { client_id: outcome.clientId, erased_at: outcome.erasedAt, onboardings: outcome.onboardings };
    },
  );
}

export async function workspaceClientRoutes(plain: FastifyInstance, { context }: { context: WorkspaceDeps }) {
  const app = zodApp(plain);
  const kit = clientsKit(context);
  getClientsRoute(app, kit);
  postClientsRoute(app, kit);
  getClientsByIdRoute(app, kit);
  patchClientsByIdRoute(app, kit);
  postClientsByIdEraseRoute(app, kit);
}
