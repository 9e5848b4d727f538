import type { FastifyInstance } from 'fastify';
import { publicSchema } from '../../shared/http/route-schema.ts';
import { type ZodApp, zodApp } from '../../shared/http/zod-app.ts';
import { IANAZone } from 'luxon';
import { z } from 'zod';
import { clientInput, createClient } from './create-client.ts';
import { awaitReadModels, readModelsLagging } from '../../shared/commands/read-your-writes.ts';
import { DATE_FORMATS, LOCALES } from '../../shared/i18n/locales.ts';
import { ApiError, textError } from '../../shared/http/api-error.ts';
import { answeringRefusals, registerDomainErrors } from '../../shared/http/domain-errors.ts';
import { offsetPaginationQuery } from '../../shared/http/pagination.ts';
import { isUuid } from '../../shared/ids/uuid.ts';
import type { Platform } from '../../shared/app-deps.ts';
import { coded, text } from '../../shared/http/error-schemas.ts';
import { requestMetadata } from '../../shared/http/request-metadata.ts';
import { emptyBodyAnswers, firstMessage } from '../../shared/http/body-errors.ts';
import { emailBlindIndex } from '../../shared/privacy/sealed-columns.ts';
import { clientSchema, findClient as readClient, listClients } from '../../projections/clients/queries.ts';

export type ClientsRouteDeps = Pick<
  Platform,
  'readPool' | 'pool' | 'eventStore' | 'vault' | 'clock' | 'projections' | 'logger'
>;

/*
 * Clients (client-onboarding-api.md: Client; GET /api/v1/clients, GET /api/v1/clients/:id,
 * POST /api/v1/clients). Every query is scoped by the key's team: another team's client
 * is "Client not found", exactly like an unknown id.
 */

const REQUIRED = 'name and email are required';
const INVALID_EMAIL = 'Invalid email address';
const NOT_FOUND = 'Client not found';
const LINK_BLOCKED = 'Short links are not allowed in client details';

/** The clients' table: details with a short link (an unstorable value answers as validation). */
const clientErrors = registerDomainErrors('clients', {
  statuses: { link_blocked: 422 },
  form: (error, status) => new ApiError(status, LINK_BLOCKED, { code: error.code, shape: 'code_only' }),
});

/** Length in characters (Unicode code points, so an emoji counts once). */
const characters = (value: string) => [...value].length;
const tooLong = (field: string, max: number) => `${field} must be ${max} characters or fewer`;

/**
 * A pragmatic address check: a local part without spaces or @, a domain of at least two
 * DNS labels whose last label has a letter; at most 254 characters in all.
 */
export const EMAIL_PATTERN =
  /^[^\s@"(),:;<>[\\\]]{1,64}@(?=.{1,253}$)(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+(?=[a-z0-9-]*[a-z])[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;
export const normalizeEmail = (email: string) => email.trim().toLowerCase();

const requiredText = z
  .string({ required_error: REQUIRED, invalid_type_error: REQUIRED })
  .refine((value) => value.trim() !== '', REQUIRED);

/** A string or null; a wrong type answers `<field> must be a string or null`. */
const optionalText = (field: string, max: number) =>
  z
    .string({ invalid_type_error: `${field} must be a string or null` })
    .refine((value) => characters(value) <= max, tooLong(field, max))
    .nullable()
    .optional();

/** A string (null or empty: the team's setting); a wrong type answers `<field> must be a string`. */
const setting = (field: string) =>
  z
    .string({ invalid_type_error: `${field} must be a string` })
    .nullable()
    .optional()
    .transform((value) => (value === null || value === undefined || value.trim() === '' ? undefined : value));

export const createClientBody = z
  .object(
    {
      name: requiredText.refine((value) => characters(value) <= 200, tooLong('name', 200)),
      email: requiredText
        .transform(normalizeEmail)
        .refine((value) => value.length <= 254 && EMAIL_PATTERN.test(value), INVALID_EMAIL),
      company: optionalText('company', 200),
      phone: optionalText('phone', 50),
      notes: z
        .string({ invalid_type_error: 'notes must be a string or null' })
        .transform((value) => value.trim())
        .refine((value) => characters(value) <= 2000, tooLong('notes', 2000))
        .nullable()
        .optional(),
      locale: setting('locale').describe(
        `default: the team's locale. Not validated: an unsupported value is stored and the client form shows en-US. Locales: ${LOCALES.join(', ')}`,
      ),
      date_format: setting('date_format')
        .refine((value) => value === undefined || (DATE_FORMATS as readonly string[]).includes(value), {
          message: `date_format must be one of ${DATE_FORMATS.join(', ')}`,
        })
        .describe(`default: the team's date format. One of ${DATE_FORMATS.join(', ')}`),
      timezone: setting('timezone')
        .refine((value) => value === undefined || IANAZone.isValidZone(value), {
          message: 'timezone must be a valid IANA time zone name',
        })
        .describe("default: the team's time zone. An IANA name such as Europe/Paris"),
      custom_fields: z
        .record(z.unknown(), { invalid_type_error: 'custom_fields must be an object' })
        .nullable()
        .optional(),
    },
    { required_error: REQUIRED, invalid_type_error: REQUIRED },
  )
  .describe('Unknown keys are ignored.');

type CreateClientBody = z.output<typeof createClientBody>;

/**
 * What the clients routes of both faces share: their deps and a team's client by id (none
 * for an id that is no uuid, so the public path answers 404 for it).
 */
export function clientsKit<Deps extends Pick<ClientsRouteDeps, 'readPool' | 'vault'>>(context: Deps) {
  const findClient = (teamId: string, id: string) =>
    isUuid(id) ? readClient(context.readPool, context.vault, teamId, id) : Promise.resolve(undefined);

  return { context, findClient };
}

export type ClientsKit<Deps extends Pick<ClientsRouteDeps, 'readPool' | 'vault'> = ClientsRouteDeps> =
  ReturnType<typeof clientsKit<Deps>>;

/** GET /clients */
function getClientsRoute(app: ZodApp, kit: ClientsKit) {
  const { context } = kit;
  app.get(
    '/clients',
    {
      config: { scope: 'clients:read' },
      schema: publicSchema(
        'clients',
        {
          operationId: 'listClients',
          summary: 'List clients, newest first',
          description:
            'Scope clients:read. Query: limit, offset, email (exact match, case-insensitive). Sorted newest first. Response 200: `clients` (array of client objects) and `total`.',
        },
        {
          querystring: offsetPaginationQuery.extend({
            email: z.string().optional().describe('exact match, case-insensitive'),
          }),
        },
        { 200: z.object({ clients: z.array(clientSchema), total: z.number().int() }) },
      ),
    },
    async (request) => {
      const { limit, offset, email } = request.query;
      const teamId = request.principal.teamId;
      const match =
        email === undefined
          ? undefined
          : { emailHash: emailBlindIndex(await context.vault.teamIndexKey(teamId), normalizeEmail(email)) };
      const { clients, total } = await listClients(context.readPool, context.vault, teamId, {
        limit,
        offset,
        match,
      });
      return { clients, total };
    },
  );
}

/** GET /clients/:id */
function getClientsByIdRoute(app: ZodApp, kit: ClientsKit) {
  const { findClient } = kit;
  app.get(
    '/clients/:id',
    {
      config: { scope: 'clients:read' },
      schema: publicSchema(
        'clients',
        {
          operationId: 'getClient',
          summary: 'Get a client',
          description:
            "Scope clients:read. Response 200: `client`. Unknown ID or another team's client: 404, error text Client not found.",
        },
        { params: z.object({ id: z.string().describe('client id (uuid)') }) },
        {
          200: z.object({ client: clientSchema }),
          404: text("Client not found (unknown id, another team's client, or not a UUID)"),
        },
        { validation: false },
      ),
    },
    async (request) => {
      const client = await findClient(request.principal.teamId, request.params.id);
      if (!client) throw textError(404, NOT_FOUND);
      return { client };
    },
  );
}

/** POST /clients */
function postClientsRoute(app: ZodApp, kit: ClientsKit) {
  const { context, findClient } = kit;
  app.post(
    '/clients',
    {
      config: { scope: 'clients:write' },
      attachValidation: true,
      schema: publicSchema(
        'clients',
        {
          operationId: 'createClient',
          summary: 'Create a client (or answer the existing client with the same email)',
          description:
            'Scope clients:write. Body: `name` (string, required), `email` (string, required), `company`, `phone`, `notes`, `locale`, `date_format`, `timezone`, `custom_fields` (object). Unknown keys are ignored. A wrong type for `locale`, `date_format`, `timezone` or `custom_fields` returns 400; `company` must be a string or null. Created: 201 with `client`. A client with the same email already exists in the team: 200 with the existing `client`; nothing is created. Errors: 400 name and email are required; 400 Invalid email address; 400 company must be a string or null; 400 a length message for name, company or phone; 422 with code link_blocked when client-facing text contains a short link.',
        },
        { body: createClientBody },
        {
          200: z
            .object({ client: clientSchema })
            .describe('A client with this email already exists; nothing created'),
          201: z.object({ client: clientSchema }).describe('Created'),
          400: text(
            'name and email are required | Invalid email address | company must be a string or null | name must be 200 characters or fewer | ...',
          ),
          422: z
            .object({ error: z.string(), code: z.literal('link_blocked') })
            .describe('A short link in client-facing text (name, company, notes, custom_fields)'),
          503: coded('The client is stored but not readable yet; retry (code read_models_lagging)'),
        },
        { body: true },
      ),
      // An empty JSON body is a body without name and email.
      errorHandler: emptyBodyAnswers(REQUIRED),
    },
    async (request, reply) => {
      if (request.validationError) {
        throw textError(400, firstMessage(request.validationError.validation, REQUIRED));
      }
      const body = request.body as CreateClientBody;
      const teamId = request.principal.teamId;
      const input = await clientInput(context.readPool, teamId, body);
      const outcome = await answeringRefusals(clientErrors, () =>
        createClient(
          { pool: context.pool, eventStore: context.eventStore, vault: context.vault },
          input,
          context.clock.now(),
          requestMetadata(request, { apiKeyId: request.principal.apiKeyId }),
        ),
      );
      await awaitReadModels(context, outcome.position);
      const client = await findClient(teamId, outcome.clientId);
      if (!client) throw readModelsLagging();
      return reply.status(outcome.created ? 201 : 200).send({ client });
    },
  );
}

export async function clientsRoutes(plain: FastifyInstance, { context }: { context: ClientsRouteDeps }) {
  const app = zodApp(plain);
  const kit = clientsKit(context);
  getClientsRoute(app, kit);
  getClientsByIdRoute(app, kit);
  postClientsRoute(app, kit);
}
