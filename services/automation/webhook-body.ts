import type { Onboarding } from '../onboardings/index.ts';
import type { OnboardingOverdue, PaymentSucceeded, SignatureSigned } from '../onboardings/index.ts';
import type { RecordedEvent } from '../../shared/event-store/event-store.ts';
import type { PersonalDataVault, SealedValue } from '../../shared/privacy/personal-data-vault.ts';
import { openJsonValues } from '../../shared/privacy/sealed-columns.ts';
import { isoMicros } from '../hooks/index.ts';

/**
 * The Send webhook body (client-onboarding-api.md, Send webhook request), built when the
 * trigger event is handled, from the values of that moment, and sent unchanged on every
 * retry:
 *
 *   id            the run's id (also X-Service-Event-Id and Idempotency-Key)
 *   event         the trigger's event name
 *   timestamp     when the event occurred: UTC, microseconds, offset (2026-11-21T10:15:00.123000+00:00)
 *   data          onboarding_id, client_id, template_id, client_name, client_email,
 *                 template_name, status, progress_pct, created_at (the onboarding's
 *                 creation, same format), then the trigger's extras:
 *     payment.succeeded, one-time:   payment_id, field_id, payment_intent_id, amount_cents
 *     payment.succeeded, recurring:  subscription_id (the service's id of the subscription
 *                                    payment), field_id, payment_intent_id (the processor's
 *                                    subscription ID), amount_cents, recurring (true), interval
 *     signature.signed:              signature_id, field_id, signer_name, signer_email, signer_role
 *     onboarding.overdue:            due_date, due_on, due_timezone
 *     onboarding.completed:          none
 *
 * client_name and client_email are null when the client was erased by then; signer_name
 * and signer_email are null when the signer's client was erased. A run still pending when
 * its client is erased keeps its body with those four values null (`withoutPersonalData`).
 *
 * At rest (automation_runs.request_body) the four personal values stay the sealed envelopes
 * of the client's key (shared/privacy/sealed-columns.ts) and are opened when the body is sent
 * (`openedBody`): once the key is erased they open as null, as a body built then would hold.
 */
export interface WebhookClient {
  name: SealedValue | string | null;
  email: SealedValue | string | null;
}

export async function webhookBody(
  runId: string,
  event: RecordedEvent,
  onboarding: Onboarding,
  client: WebhookClient,
  occurredAt: string,
): Promise<Record<string, unknown>> {
  return {
    id: runId,
    event: event.type,
    timestamp: isoMicros(occurredAt),
    data: {
      onboarding_id: onboarding.id,
      client_id: onboarding.client_id,
      template_id: onboarding.template_id,
      client_name: client.name,
      client_email: client.email,
      template_name: onboarding.snapshot.name,
      status: onboarding.status,
      progress_pct: onboarding.progress_pct,
      created_at: isoMicros(onboarding.created_at),
      ...extras(event),
    },
  };
}

function extras(event: RecordedEvent): Record<string, unknown> {
  switch (event.type) {
    case 'payment.succeeded': {
      const data = event.data as PaymentSucceeded['data'];
      if (data.recurring || data.subscription_id !== null) {
        return {
          subscription_id: data.payment_id,
          field_id: data.field_id,
          payment_intent_id: data.subscription_id ?? data.payment_intent_id,
          amount_cents: data.amount_cents,
          recurring: true,
          interval: data.interval,
        };
      }
      return {
        payment_id: data.payment_id,
        field_id: data.field_id,
        payment_intent_id: data.payment_intent_id,
        amount_cents: data.amount_cents,
      };
    }
    case 'signature.signed': {
      const data = event.data as SignatureSigned['data'];
      return {
        signature_id: data.signature_id,
        field_id: data.field_id,
        signer_name: data.signer_name ?? null,
        signer_email: data.signer_email ?? null,
        signer_role: data.signer_role,
      };
    }
    case 'onboarding.overdue': {
      const data = event.data as OnboardingOverdue['data'];
      return { due_date: data.due_date, due_on: data.due_on, due_timezone: data.due_timezone };
    }
    default:
      return {};
  }
}

/** The body's personal values: the client's, and the signer's (entered in the client's portal). */
const PERSONAL_DATA_FIELDS = ['client_name', 'client_email', 'signer_name', 'signer_email'] as const;

/**
 * A stored body with its personal values null (the client was erased while the run was
 * pending): what a body built after the erasure holds. Keys and their order are kept.
 */
export function withoutPersonalData(body: string): string {
  const parsed = JSON.parse(body) as { data?: Record<string, unknown> };
  const data = parsed.data;
  if (data) for (const field of PERSONAL_DATA_FIELDS) if (field in data) data[field] = null;
  return JSON.stringify(parsed);
}

/** The stored body as it is sent: its sealed personal values opened (null once erased). */
export async function openedBody(vault: Pick<PersonalDataVault, 'openAll'>, stored: string): Promise<string> {
  const [body] = await openJsonValues(vault, [JSON.parse(stored) as unknown]);
  return JSON.stringify(body);
}
