import type { FastifyInstance, FastifyRequest, FastifySchemaCompiler } from 'fastify';
import { validatorCompiler } from 'fastify-type-provider-zod';
import type { ZodTypeAny } from 'zod';
import { DomainError } from '../commands/decider.ts';
import { findUnstorable, unstorableMessage, type UnstorableValue } from '../validation/safe-text.ts';

/*
 * Refuses, at the edge, every input that PostgreSQL could not store (NUL characters,
 * unpaired surrogates, non-finite numbers, nesting deeper than MAX_NESTING_DEPTH) in
 * the body, query, path parameters and headers, at any depth, keys included.
 *
 * A refusal is a schema validation failure, so every API answers it in the 400 form it
 * already gives a malformed request: the public API `{ error }` or invalid_body as the
 * route declares, the operator API invalid_body with `details.issues`, the portal
 * invalid_body. Parts with a schema are checked inside validation (before the zod
 * schema runs); parts without one are checked by a preHandler hook.
 *
 * Reads (GET, HEAD) store nothing: their path parameters are left to the route, so an
 * id holding NUL is "not found" exactly like any other unknown id, and the parts they
 * give no schema are never read. Their validated query strings are still checked (a
 * query value reaches SQL, and PostgreSQL refuses NUL there).
 */

const isRead = (method: string | string[] | undefined) =>
  [method ?? []].flat().every((name) => name === 'GET' || name === 'HEAD');

type HttpPart = 'body' | 'querystring' | 'params' | 'headers';

const PART_LABEL: Record<HttpPart, string> = {
  body: 'body',
  querystring: 'query',
  params: 'path',
  headers: 'header',
};

/** One issue in the format of fastify's validation errors (instancePath, message). */
function validationIssue(found: UnstorableValue, part: HttpPart) {
  return {
    keyword: 'storable',
    instancePath: found.path.length === 0 ? '' : `/${found.path.join('/')}`,
    schemaPath: '#/storable',
    params: { problem: found.problem },
    message: unstorableMessage(found, PART_LABEL[part]),
  };
}

/** The zod validator compiler, preceded by the storable check of the same part. */
export const guardedValidatorCompiler: FastifySchemaCompiler<ZodTypeAny> = (route) => {
  const validate = validatorCompiler(route);
  const part = (route.httpPart ?? 'body') as HttpPart;
  if (part === 'params' && isRead(route.method)) return validate;
  return (data: unknown) => {
    const found = findUnstorable(data);
    if (found) return { error: [validationIssue(found, part)] as never };
    return validate(data);
  };
};

/** An error each API's error handler treats as a failed schema validation of `part`. */
export function validationFailure(part: HttpPart, issues: ReturnType<typeof validationIssue>[]): Error {
  return Object.assign(new Error(issues[0]?.message ?? 'Invalid request'), {
    statusCode: 400,
    validation: issues,
    validationContext: part,
  });
}

const PARTS: [HttpPart, (request: FastifyRequest) => unknown][] = [
  ['params', (request) => request.params],
  ['querystring', (request) => request.query],
  ['body', (request) => request.body],
  ['headers', (request) => request.headers],
];

/** Checks the parts a route gives no schema (and so no validation) before its handler runs. */
async function guardUnvalidatedParts(request: FastifyRequest): Promise<void> {
  if (isRead(request.method)) return;
  const schema = (request.routeOptions.schema ?? {}) as Partial<Record<HttpPart, unknown>>;
  for (const [part, read] of PARTS) {
    if (schema[part] !== undefined) continue;
    const found = findUnstorable(read(request));
    if (found) throw validationFailure(part, [validationIssue(found, part)]);
  }
}

/** Registers the guard on the root app: before any route plugin, so every route inherits it. */
export function guardInput(app: FastifyInstance): void {
  app.setValidatorCompiler(guardedValidatorCompiler);
  app.addHook('preHandler', guardUnvalidatedParts);
}

/**
 * A decider's refusal of an unstorable value (code invalid_body with `details.issues`,
 * shared/validation/safe-text.ts) as a failed validation of the body, for the error handlers
 * of APIs whose routes do not map that code themselves; undefined for any other error.
 */
export function unstorableAsValidation(error: unknown): Error | undefined {
  if (!(error instanceof DomainError) || error.code !== 'invalid_body') return undefined;
  const issues = (error.details as { issues?: { path: string; message: string }[] } | undefined)?.issues;
  if (!issues?.length) return undefined;
  return validationFailure(
    'body',
    issues.map((issue) => ({
      keyword: 'storable',
      instancePath: `/${issue.path.replace(/[.[\]]+/g, '/').replace(/\/$/, '')}`,
      schemaPath: '#/storable',
      params: { problem: 'text' as const },
      message: issue.message,
    })),
  );
}
