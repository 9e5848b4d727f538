import { randomUUID } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import type { CommandMetadata } from '../commands/handle-command.ts';

/**
 * The metadata of a command made by an HTTP request: a new command id, the request's id
 * as request and correlation id, no causation. A public API request names its API key
 * and, when it sent one, its Idempotency-Key; operator and portal commands carry neither
 * (the operator acts as the service itself, the client through its link).
 */
export function requestMetadata(
  request: Pick<FastifyRequest, 'id'>,
  {
    apiKeyId = null,
    idempotencyKey = null,
  }: { apiKeyId?: string | null; idempotencyKey?: string | null } = {},
): CommandMetadata {
  return {
    command_id: randomUUID(),
    request_id: request.id,
    idempotency_key: idempotencyKey,
    api_key_id: apiKeyId,
    causation_id: null,
    correlation_id: request.id,
  };
}
