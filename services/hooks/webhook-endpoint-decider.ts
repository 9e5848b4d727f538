import {
  DomainError,
  type Decider,
  type DomainEvent,
  unhandledEvent,
  unknownCommand,
} from '../../shared/commands/decider.ts';
import { assertStorable } from '../../shared/validation/safe-text.ts';
import { isWebhookEventType, type WebhookEventType } from './contract/webhook-event-types.ts';

/**
 * A signed webhook endpoint (client-onboarding-api.md, Hook subscriptions, last
 * paragraph): a URL, one or more of the nine webhook event types, its own secret,
 * enabled or not; on every plan except Free. The secret lives in
 * webhook_endpoint_secrets (written by the command's writeRows), never in these events.
 * Another team's endpoint is "not found", exactly like an unknown or deleted one.
 */

/** Stream of one endpoint: `webhook_endpoint-<endpoint_id>`. */
export const webhookEndpointStream = (endpointId: string) => `webhook_endpoint-${endpointId}`;

export type WebhookEndpointCreated = DomainEvent<
  'webhook_endpoint.created',
  {
    endpoint_id: string;
    team_id: string;
    url: string;
    event_types: WebhookEventType[];
    enabled: boolean;
    created_at: string;
  }
>;
export type WebhookEndpointDeleted = DomainEvent<
  'webhook_endpoint.deleted',
  { endpoint_id: string; team_id: string; deleted_at: string }
>;
export type WebhookEndpointSecretRotated = DomainEvent<
  'webhook_endpoint.secret_rotated',
  { endpoint_id: string; team_id: string; rotated_at: string; previous_valid_until: string }
>;
export type WebhookEndpointEvent =
  WebhookEndpointCreated | WebhookEndpointDeleted | WebhookEndpointSecretRotated;

export type WebhookEndpointState =
  | { status: 'absent' }
  | {
      status: 'active' | 'deleted';
      teamId: string;
      url: string;
      eventTypes: WebhookEventType[];
      enabled: boolean;
      createdAt: string;
    };

export type WebhookEndpointCommand =
  | {
      type: 'CreateWebhookEndpoint';
      data: {
        endpoint_id: string;
        team_id: string;
        url: string;
        event_types: string[];
        enabled: boolean;
        /** The team's plan allows signed webhooks (every plan except Free). */
        plan_allows: boolean;
      };
      metadata: { now: Date };
    }
  | { type: 'DeleteWebhookEndpoint'; data: { endpoint_id: string; team_id: string }; metadata: { now: Date } }
  | {
      type: 'RotateWebhookEndpointSecret';
      data: { endpoint_id: string; team_id: string; previous_valid_until: Date };
      metadata: { now: Date };
    };

export const WEBHOOK_ENDPOINT_ERRORS = {
  webhook_endpoint_not_found: 'Webhook endpoint not found',
  webhooks_plan_required: 'Signed webhooks are available on every plan except Free',
  webhook_endpoint_exists: 'Webhook endpoint exists',
  invalid_event_types: 'event_types must name one or more webhook event types',
} as const;

const refuse = (code: keyof typeof WEBHOOK_ENDPOINT_ERRORS) =>
  new DomainError(code, WEBHOOK_ENDPOINT_ERRORS[code]);

function ownActive(state: WebhookEndpointState, teamId: string) {
  if (state.status !== 'active' || state.teamId !== teamId) throw refuse('webhook_endpoint_not_found');
  return state;
}

export const webhookEndpointDecider: Decider<
  WebhookEndpointState,
  WebhookEndpointCommand,
  WebhookEndpointEvent
> = {
  initialState: () => ({ status: 'absent' }),
  evolve(state, event) {
    switch (event.type) {
      case 'webhook_endpoint.created':
        return {
          status: 'active',
          teamId: event.data.team_id,
          url: event.data.url,
          eventTypes: event.data.event_types,
          enabled: event.data.enabled,
          createdAt: event.data.created_at,
        };
      case 'webhook_endpoint.deleted':
        return state.status === 'absent' ? state : { ...state, status: 'deleted' };
      case 'webhook_endpoint.secret_rotated':
        return state;
      default:
        return unhandledEvent(event, state);
    }
  },
  decide(command, state) {
    assertStorable(command.data);
    const now = command.metadata.now.toISOString();
    switch (command.type) {
      case 'CreateWebhookEndpoint': {
        const { plan_allows: planAllows, event_types: eventTypes, ...rest } = command.data;
        if (!planAllows) throw refuse('webhooks_plan_required');
        if (state.status !== 'absent') throw refuse('webhook_endpoint_exists');
        if (eventTypes.length === 0 || !eventTypes.every(isWebhookEventType))
          throw refuse('invalid_event_types');
        const unique = [...new Set(eventTypes)] as WebhookEventType[];
        return [
          { type: 'webhook_endpoint.created', data: { ...rest, event_types: unique, created_at: now } },
        ];
      }
      case 'DeleteWebhookEndpoint':
        ownActive(state, command.data.team_id);
        return [{ type: 'webhook_endpoint.deleted', data: { ...command.data, deleted_at: now } }];
      case 'RotateWebhookEndpointSecret':
        ownActive(state, command.data.team_id);
        return [
          {
            type: 'webhook_endpoint.secret_rotated',
            data: {
              endpoint_id: command.data.endpoint_id,
              team_id: command.data.team_id,
              rotated_at: now,
              previous_valid_until: command.data.previous_valid_until.toISOString(),
            },
          },
        ];
      default:
        throw unknownCommand(command);
    }
  },
};
