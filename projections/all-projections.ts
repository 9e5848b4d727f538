import { apiKeyProjection } from './api-key-projection.ts';
import { auditEventsProjection } from './audit-events-projection.ts';
import { clientsProjection } from './clients-projection.ts';
import { hookSubscriptionsProjection } from './hook-subscriptions-projection.ts';
import { onboardingsProjection } from './onboardings-projection.ts';
import type { Projection } from './projection.ts';
import { responsesProjection } from './responses-projection.ts';
import { teamProjection } from './team-projection.ts';
import { templateProjection } from './template-projection.ts';

/** Every read model the service keeps, in the order they are applied. */
export const allProjections: Projection[] = [
  teamProjection,
  apiKeyProjection,
  templateProjection,
  clientsProjection,
  hookSubscriptionsProjection,
  onboardingsProjection,
  responsesProjection,
  auditEventsProjection,
];
