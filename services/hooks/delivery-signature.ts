import type { PipelineDeps } from '../../shared/commands/handle-command.ts';
import type { DeliveryTargetKind } from './delivery-log-decider.ts';
import { endpointSecret, ensureTeamSecret } from './signing-secrets.ts';
import { liveSecrets, signatureHeader, webhookTimestamp } from './signing.ts';

/**
 * The headers that identify and sign one attempt of a delivery (./signing.ts):
 * webhook-id (the delivery's id), webhook-timestamp (this attempt), and the signature over
 * both and the body: `webhook-signature` with the team's hook signing secret for a hook
 * subscription, `x-service-signature` with the endpoint's own secret for a signed webhook
 * endpoint. Signed afresh at each attempt, so a retry or replay carries its own time.
 */

export type SigningDeps = PipelineDeps;

export interface SignedDelivery {
  id: string;
  team_id: string;
  subscription_id: string;
  target_kind: DeliveryTargetKind;
  body: string;
}

export const SIGNATURE_HEADER: Record<DeliveryTargetKind, string> = {
  hook: 'webhook-signature',
  endpoint: 'x-service-signature',
};

export async function signedHeaders(
  context: SigningDeps,
  delivery: SignedDelivery,
  at: Date,
): Promise<Record<string, string>> {
  const stored =
    delivery.target_kind === 'hook'
      ? await ensureTeamSecret(context, delivery.team_id, at)
      : await endpointSecret(context.pool, delivery.subscription_id);
  if (!stored) throw new Error('no signing secret for the webhook endpoint');
  return {
    'webhook-id': delivery.id,
    'webhook-timestamp': webhookTimestamp(at),
    [SIGNATURE_HEADER[delivery.target_kind]]: signatureHeader(
      liveSecrets(stored, at),
      delivery.id,
      at,
      delivery.body,
    ),
  };
}
