import { operatorErrorResponses } from './operator-schemas.ts';
import { publicErrorResponses } from './public-errors.ts';
import { workspaceErrorResponses } from './workspace-request.ts';

/**
 * A route's schema as every face writes it: its operation, tag and summary first, then its
 * parts (description, params, querystring, body, in that order), then its answers over the
 * refusals of the face. A route's own answer for a status (a 404 of its own) wins over the
 * face's.
 */
function faceSchema<E extends object>(tag: string, refusals: (takesBody: boolean) => E) {
  return <S extends object, A extends object>(
    operationId: string,
    summary: string,
    parts: S,
    answers: A,
  ) => ({
    operationId,
    tags: [tag],
    summary,
    ...parts,
    response: { ...refusals('body' in parts), ...answers },
  });
}

/** An operator route's schema: the operator refusals (413 too when it takes a body). */
export const operatorSchema = faceSchema('operator', (body) => operatorErrorResponses({ body }));

/** A workspace route's schema: the workspace face's refusals. */
export const workspaceSchema = faceSchema('workspace', () => workspaceErrorResponses());

/** A public API route's operation: its id, summary and the spec's description. */
export interface PublicOperation {
  operationId: string;
  summary: string;
  description: string;
}

/**
 * A public API route's schema under its tag: the operation, its parts, then its answers
 * over the public refusals (`refusals`: the options of publicErrorResponses).
 */
export function publicSchema<S extends object, A extends object>(
  tag: string,
  operation: PublicOperation,
  parts: S,
  answers: A,
  refusals: Parameters<typeof publicErrorResponses>[0] = {},
) {
  return {
    operationId: operation.operationId,
    tags: [tag],
    summary: operation.summary,
    description: operation.description,
    ...parts,
    response: { ...publicErrorResponses(refusals), ...answers },
  };
}
