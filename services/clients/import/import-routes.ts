import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { awaitReadModels } from '../../../shared/commands/read-your-writes.ts';
import { codedError } from '../../../shared/http/api-error.ts';
import { MIB } from '../../../shared/http/body-limits.ts';
import { coded } from '../../../shared/http/error-schemas.ts';
import { workspaceSchema } from '../../../shared/http/route-schema.ts';
import type { WorkspaceDeps } from '../../../shared/http/workspace-request.ts';
import { memberMetadata, signedIn } from '../../../shared/http/workspace-request.ts';
import { type ZodApp, zodApp } from '../../../shared/http/zod-app.ts';
import { guessMapping, IMPORT_FIELDS, type ColumnMapping } from './column-mapping.ts';
import { CsvProblem, MAX_CSV_CHARS, readCsv } from './csv-table.ts';
import { existingClients, importClients } from './import-clients.ts';
import { planImport } from './import-plan.ts';

/*
 * Importing clients from a CSV file in the workspace (docs/decisions/0087-client-import.md):
 *
 *   POST /clients/import/preview   { csv, mapping? }  the columns, the guessed (or given)
 *                                  mapping, the clients it gives, each row's problem, the merges
 *   POST /clients/import           { csv, mapping }   creates them all or none; rows with a
 *                                  problem are skipped (the member saw them in the preview)
 *
 * The file travels as the text of a JSON body (the browser reads it): at most 300,000 characters
 * (csv-table.ts), inside the 1 MiB body every route keeps.
 */

const column = z.number().int().min(0).nullable();
const mappingSchema = z
  .object(
    Object.fromEntries(IMPORT_FIELDS.map((field) => [field, column])) as Record<
      (typeof IMPORT_FIELDS)[number],
      typeof column
    >,
  )
  .describe('column index (0-based) per detail; null: none');

const csv = z
  .string()
  .min(1)
  .max(MAX_CSV_CHARS, `csv must be at most ${MAX_CSV_CHARS} characters`)
  .describe('the file as text (UTF-8; comma or semicolon separated; a header line)');

const previewBody = z.object({ csv, mapping: mappingSchema.optional() });
const importBody = z.object({ csv, mapping: mappingSchema });

const problem = z.object({
  row: z.number().int(),
  code: z.string(),
  value: z.string(),
  text: z.string().describe('in words, e.g. "Row 7: the email \'bob@\' is not an email address"'),
});
const merge = z.object({ row: z.number().int(), into: z.number().int(), email: z.string() });
const plannedClient = z.object({
  row: z.number().int(),
  name: z.string(),
  email: z.string(),
  company: z.string().nullable(),
  phone: z.string().nullable(),
  locale: z.string().nullable(),
  existing: z.boolean().describe('the team already has a client with this email: kept as it is'),
});
const previewAnswer = z.object({
  headers: z.array(z.string()),
  mapping: mappingSchema,
  rows: z.number().int().describe('data rows in the file'),
  clients: z.array(plannedClient),
  problems: z.array(problem),
  merges: z.array(merge),
});
const importAnswer = z.object({
  clients: z.array(
    z.object({
      client_id: z.string().uuid(),
      row: z.number().int(),
      name: z.string(),
      email: z.string(),
      outcome: z.enum(['created', 'kept']),
    }),
  ),
  created: z.number().int(),
  kept: z.number().int(),
  problems: z.array(problem),
  merges: z.array(merge),
});

const refusals = {
  400: coded(
    'csv_too_large, csv_too_many_rows, csv_empty, csv_unreadable, mapping_incomplete (name and email need a column) or mapping_invalid',
  ),
};

/** The file's table and the mapping to use, refusals in words. */
function tableAndMapping(body: { csv: string; mapping?: ColumnMapping }) {
  let table;
  try {
    table = readCsv(body.csv);
  } catch (error) {
    if (error instanceof CsvProblem) throw codedError(400, error.code, error.message);
    throw error;
  }
  const mapping = body.mapping ?? guessMapping(table.headers);
  const used = IMPORT_FIELDS.map((field) => mapping[field]).filter((index) => index !== null);
  if (used.some((index) => index >= table.headers.length) || new Set(used).size !== used.length) {
    throw codedError(
      400,
      'mapping_invalid',
      'Each detail needs a column of the file, and each column one detail at most',
    );
  }
  return { table, mapping };
}

function previewRoute(app: ZodApp, context: WorkspaceDeps) {
  app.post(
    '/clients/import/preview',
    {
      bodyLimit: MIB,
      config: { workspace: { action: 'clients.manage' } },
      schema: workspaceSchema(
        'workspacePreviewClientImport',
        'Read a CSV of clients: the columns, the mapping (guessed from the header line unless given), the clients it would import, each bad row in words and each merge of a repeated email; writes nothing',
        { body: previewBody },
        { 200: previewAnswer, ...refusals },
      ),
    },
    async (request) => {
      const { teamId } = signedIn(request);
      const { table, mapping } = tableAndMapping(request.body);
      const missing = mapping.name === null || mapping.email === null;
      const plan = missing ? { clients: [], problems: [], merges: [] } : planImport(table, mapping);
      const existing = await existingClients(
        context,
        teamId,
        plan.clients.map((client) => client.email),
      );
      return {
        headers: table.headers,
        mapping,
        rows: table.rows.length,
        clients: plan.clients.map((client) => ({
          ...client,
          locale: client.locale ?? null,
          existing: existing.has(client.email),
        })),
        problems: plan.problems,
        merges: plan.merges,
      };
    },
  );
}

function importRoute(app: ZodApp, context: WorkspaceDeps) {
  app.post(
    '/clients/import',
    {
      bodyLimit: MIB,
      config: { workspace: { action: 'clients.manage' } },
      schema: workspaceSchema(
        'workspaceImportClients',
        'Import the clients of a CSV: every good row lands or none (a failure part-way erases those created); rows with a problem are skipped and named; an email the team already has keeps its client unchanged',
        { body: importBody },
        { 200: importAnswer, ...refusals },
      ),
    },
    async (request) => {
      const session = signedIn(request);
      const { table, mapping } = tableAndMapping(request.body);
      if (mapping.name === null || mapping.email === null) {
        throw codedError(400, 'mapping_incomplete', 'Choose the columns of the name and the email');
      }
      const plan = planImport(table, mapping);
      const { clients, position } = await importClients(context, session.teamId, plan, () =>
        memberMetadata(request, session.memberId),
      );
      await awaitReadModels(context, position);
      return {
        clients,
        created: clients.filter((client) => client.outcome === 'created').length,
        kept: clients.filter((client) => client.outcome === 'kept').length,
        problems: plan.problems,
        merges: plan.merges,
      };
    },
  );
}

export async function clientImportRoutes(plain: FastifyInstance, { context }: { context: WorkspaceDeps }) {
  const app = zodApp(plain);
  previewRoute(app, context);
  importRoute(app, context);
}
