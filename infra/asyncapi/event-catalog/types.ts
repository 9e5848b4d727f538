import type { ApiKeyEvent } from '../../../services/access/api-key-events.ts';
import type { AccountEvent } from '../../../services/access/workspace/account-events.ts';
import type { AutomationRuleEvent } from '../../../services/automation/automation-rule-events.ts';
import type { ClientEmailEvent } from '../../../services/clients/client-email-index.ts';
import type { ClientEvent } from '../../../services/clients/client-events.ts';
import type { HookSubscriptionEvent } from '../../../services/hooks/hook-subscription-events.ts';
import type { HookSigningEvent } from '../../../services/hooks/hook-signing-decider.ts';
import type { WebhookEndpointEvent } from '../../../services/hooks/webhook-endpoint-decider.ts';
import type { DeliveryLogEvent } from '../../../services/hooks/delivery-log-decider.ts';
import type { OnboardingEvent } from '../../../services/onboardings/onboarding-events.ts';
import type { TeamEvent } from '../../../services/access/team-events.ts';
import type { TemplateEvent } from '../../../services/templates/template-events.ts';
import type { JsonSchema } from '../json-schema.ts';

/**
 * The registry infra/asyncapi/onboarding-events.yaml is generated from
 * (`npx tsx infra/asyncapi/generate-asyncapi.ts`): the JSON Schema of the `data` of every
 * documented event type, and the shared schemas they use.
 *
 * Keys are typed against the domain's event unions, so a misspelt or removed type fails
 * type-checking. A type that is not listed yet still travels (the document's message
 * accepts any ce_type with data of the common shape, `EventData`); list it here and
 * regenerate to document its data.
 */
export type DocumentedEventType =
  | TeamEvent['type']
  | ApiKeyEvent['type']
  | AccountEvent['type']
  | ClientEvent['type']
  | ClientEmailEvent['type']
  | TemplateEvent['type']
  | HookSubscriptionEvent['type']
  | HookSigningEvent['type']
  | WebhookEndpointEvent['type']
  | DeliveryLogEvent['type']
  | AutomationRuleEvent['type']
  | OnboardingEvent['type'];

export interface EventTypeDoc {
  /** One line: what happened. */
  summary: string;
  /** The stream it is appended to (ce_subject / Kafka key), as a pattern for readers. */
  stream: string;
  data: JsonSchema;
}

/** A part of the catalog: some documented event types and their docs. */
export type EventCatalogPart = { [Type in DocumentedEventType]?: EventTypeDoc };
