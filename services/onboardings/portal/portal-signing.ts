import type { FastifyRequest } from 'fastify';
import { findClient } from '../../../projections/clients/queries.ts';
import { signedAnswersOf, signedAnswersSha256, SIGNED_ANSWERS_VERSION } from '../signed-answers.ts';
import { findField } from '../template-snapshot.ts';
import { linkInactive, type PortalLink } from './portal-access.ts';
import { opaque, type PortalRequests } from './portal-requests.ts';

/**
 * A client's signature stands for the invitee (docs/decisions/0079): the email it records is
 * the client's own, whatever the request typed, and it carries its evidence: the IP address
 * and user agent (sealed with the client's key, as personal data) and the SHA-256 of the
 * canonical bytes of the answers on the form when it was signed.
 */

/** The invitee's email: the client's record (an erased client's link is inactive). */
export async function inviteeEmail({ context }: PortalRequests, link: PortalLink): Promise<string> {
  const { team_id: teamId, client_id: clientId } = link.state;
  const client = await findClient(context.readPool, context.vault, teamId, clientId);
  if (!client) throw linkInactive();
  return client.email;
}

/** The request's user agent, as sent (at most 1000 characters); empty when none was sent. */
export const userAgentOf = (request: FastifyRequest) => (request.headers['user-agent'] ?? '').slice(0, 1000);

/** The evidence of a client's signature, its personal parts sealed. */
export async function signingEvidence(
  { seal, enteredValues }: PortalRequests,
  request: FastifyRequest,
  link: PortalLink,
) {
  const { state } = link;
  const isSignature = (fieldId: string) => findField(state.snapshot, fieldId)?.field.type === 'signature';
  const signed = signedAnswersOf(state.id, await enteredValues(state), state.files, isSignature);
  return {
    ip: opaque(await seal(link, request.ip)),
    user_agent: opaque(await seal(link, userAgentOf(request))),
    answers_sha256: signedAnswersSha256(signed),
    answers_version: SIGNED_ANSWERS_VERSION,
  };
}
