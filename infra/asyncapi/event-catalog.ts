import { ACCESS_EVENTS } from './event-catalog/access-events.ts';
import { AUTOMATION_EVENTS } from './event-catalog/automation-events.ts';
import { CLIENT_EVENTS } from './event-catalog/client-events.ts';
import { HOOK_EVENTS } from './event-catalog/hook-events.ts';
import { ONBOARDING_EVENTS } from './event-catalog/onboarding-events.ts';
import { TEMPLATE_EVENTS } from './event-catalog/template-events.ts';
import type { EventCatalogPart } from './event-catalog/types.ts';

export type { DocumentedEventType, EventTypeDoc } from './event-catalog/types.ts';
export { SHARED_SCHEMAS } from './event-catalog/shared-schemas.ts';

/**
 * Every documented event type (the AsyncAPI document lists them sorted): one part per
 * feature in ./event-catalog/, the shared schemas in ./event-catalog/shared-schemas.ts.
 */
export const EVENT_CATALOG: EventCatalogPart = {
  ...ACCESS_EVENTS,
  ...CLIENT_EVENTS,
  ...TEMPLATE_EVENTS,
  ...HOOK_EVENTS,
  ...AUTOMATION_EVENTS,
  ...ONBOARDING_EVENTS,
};
