import { describe, expect, it } from 'vitest';
import { DeciderSpecification } from '../../test/helpers/decider-spec.ts';
import { deliveryLogDecider } from './delivery-log-decider.ts';
import { hookSigningDecider, type HookSigningEvent } from './hook-signing-decider.ts';
import { webhookEndpointDecider, type WebhookEndpointCommand } from './webhook-endpoint-decider.ts';

const now = new Date('2026-11-21T10:00:00.000Z');
const until = new Date('2026-11-22T10:00:00.000Z');
const teamId = '22222222-2222-4222-8222-222222222222';
const otherTeam = '55555555-5555-4555-8555-555555555555';
const endpointId = '44444444-4444-4444-8444-444444444444';

const create = (
  overrides: Partial<Extract<WebhookEndpointCommand, { type: 'CreateWebhookEndpoint' }>['data']> = {},
) =>
  ({
    type: 'CreateWebhookEndpoint',
    data: {
      endpoint_id: endpointId,
      team_id: teamId,
      url: 'https://hooks.example.com/a',
      event_types: ['onboarding.sent', 'onboarding.cancelled', 'onboarding.sent'],
      enabled: true,
      plan_allows: true,
      ...overrides,
    },
    metadata: { now },
  }) satisfies WebhookEndpointCommand;

const endpoint = DeciderSpecification.for(webhookEndpointDecider);
const signing = DeciderSpecification.for(hookSigningDecider);
const deliveryLog = DeciderSpecification.for(deliveryLogDecider);

describe('webhook endpoint decider', () => {
  it('creates with the event types once each; the secret is no part of the event', () => {
    endpoint()
      .when(create())
      .then([
        {
          type: 'webhook_endpoint.created',
          data: {
            endpoint_id: endpointId,
            team_id: teamId,
            url: 'https://hooks.example.com/a',
            event_types: ['onboarding.sent', 'onboarding.cancelled'],
            enabled: true,
            created_at: now.toISOString(),
          },
        },
      ]);
  });

  it('refuses the Free plan, unknown event types and a second creation', () => {
    endpoint()
      .when(create({ plan_allows: false }))
      .thenThrows('webhooks_plan_required');
    endpoint()
      .when(create({ event_types: [] }))
      .thenThrows('invalid_event_types');
    endpoint()
      .when(create({ event_types: ['client.created'] }))
      .thenThrows('invalid_event_types');
    const created = endpoint().when(create()).events();
    endpoint(created).when(create()).thenThrows('webhook_endpoint_exists');
  });

  it("another team's or a deleted endpoint is not found for delete and rotate", () => {
    const created = endpoint().when(create()).events();
    const rotate = (team: string): WebhookEndpointCommand => ({
      type: 'RotateWebhookEndpointSecret',
      data: { endpoint_id: endpointId, team_id: team, previous_valid_until: until },
      metadata: { now },
    });
    const remove: WebhookEndpointCommand = {
      type: 'DeleteWebhookEndpoint',
      data: { endpoint_id: endpointId, team_id: teamId },
      metadata: { now },
    };
    expect(endpoint(created).when(rotate(teamId)).events()[0]!.data).toEqual({
      endpoint_id: endpointId,
      team_id: teamId,
      rotated_at: now.toISOString(),
      previous_valid_until: until.toISOString(),
    });
    endpoint(created).when(rotate(otherTeam)).thenThrows('webhook_endpoint_not_found');
    const deleted = [...created, ...endpoint(created).when(remove).events()];
    endpoint(deleted).when(rotate(teamId)).thenThrows('webhook_endpoint_not_found');
    endpoint(deleted).when(remove).thenThrows('webhook_endpoint_not_found');
  });
});

describe('hook signing decider', () => {
  const ensure = { type: 'EnsureHookSigningSecret' as const, data: { team_id: teamId }, metadata: { now } };
  it('makes the secret once; a rotation before any secret makes the first', () => {
    const made: HookSigningEvent[] = [
      { type: 'hook_signing_secret.created', data: { team_id: teamId, created_at: now.toISOString() } },
    ];
    signing().when(ensure).then(made);
    signing(made).when(ensure).thenNothingHappened();
    const rotate = {
      type: 'RotateHookSigningSecret' as const,
      data: { team_id: teamId, previous_valid_until: until },
      metadata: { now },
    };
    signing().when(rotate).thenTypes(['hook_signing_secret.created']);
    signing(made)
      .when(rotate)
      .then([
        {
          type: 'hook_signing_secret.rotated',
          data: { team_id: teamId, rotated_at: now.toISOString(), previous_valid_until: until.toISOString() },
        },
      ]);
  });
});

describe('delivery log decider', () => {
  it('a replay with nothing to queue decides nothing (a second replay at once)', () => {
    const target = { target_kind: 'endpoint' as const, target_id: endpointId, team_id: teamId };
    deliveryLog()
      .when({ type: 'ReplayDeliveries', data: { ...target, delivery_ids: [] }, metadata: { now } })
      .thenNothingHappened();
    deliveryLog()
      .when({ type: 'ReplayDeliveries', data: { ...target, delivery_ids: [endpointId] }, metadata: { now } })
      .then([
        {
          type: 'hook_delivery.replayed',
          data: { ...target, delivery_ids: [endpointId], replayed_at: now.toISOString() },
        },
      ]);
  });
});
