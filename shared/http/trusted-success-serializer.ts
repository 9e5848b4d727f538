import type { FastifyRouteSchemaDef } from 'fastify/types/schema.js';
import { serializerCompiler } from 'fastify-type-provider-zod';

/**
 * A route's serializer that writes its 200 answer with JSON.stringify alone, skipping the
 * zod parse of the answer (every other status keeps the zod serializer). For hot reads
 * whose handler builds the answer key by key in its schema's order from typed rows: the
 * zod parse would copy the same object (a page of 50 items, a template snapshot) only to
 * give the same bytes. The schema still documents the answer (OpenAPI).
 */
export function trustedSuccessSerializer<Schema>(
  route: FastifyRouteSchemaDef<Schema>,
): (data: unknown) => string {
  if (String(route.httpStatus) === '200') return (data) => JSON.stringify(data);
  return serializerCompiler(route as Parameters<typeof serializerCompiler>[0]);
}
