import { apiKeyProjection } from '../../projections/api-keys/projection.ts';
import { automationRulesProjection } from '../../projections/automation-rules/projection.ts';
import { auditEventsProjection } from '../../projections/audit-events/projection.ts';
import { clientsProjection } from '../../projections/clients/projection.ts';
import { hookSubscriptionsProjection } from '../../projections/hook-subscriptions/projection.ts';
import { onboardingsProjection } from '../../projections/onboardings/projection.ts';
import type { Projection } from '../../shared/projections/projection.ts';
import { responsesProjection } from '../../projections/responses/projection.ts';
import { teamProjection } from '../../projections/teams/projection.ts';
import { teamActivityProjection } from '../../projections/team-activity/projection.ts';
import { templateProjection } from '../../projections/templates/projection.ts';
import { webhookEndpointsProjection } from '../../projections/webhook-endpoints/projection.ts';

/** Every read model the service keeps, in the order they are applied. */
export const allProjections: Projection[] = [
  teamProjection,
  apiKeyProjection,
  templateProjection,
  clientsProjection,
  hookSubscriptionsProjection,
  webhookEndpointsProjection,
  automationRulesProjection,
  onboardingsProjection,
  responsesProjection,
  auditEventsProjection,
  teamActivityProjection,
];

/**
 * The read models a command's next read needs, written in the command's own transaction
 * with the PostgreSQL store (shared/projections/inline-projections.ts): an onboarding
 * command's answer and the next GET of the onboarding wait for no runner. They stay in
 * allProjections, which EventStoreDB and a rebuild go through.
 */
export const inlineProjections: Projection[] = [onboardingsProjection];
