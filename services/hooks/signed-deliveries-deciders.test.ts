import { describe, expect, it } from 'vitest';
import { DomainError, fold } from '../../shared/commands/decider.ts';
import { deliveryLogDecider } from './delivery-log-decider.ts';
import { hookSigningDecider, type HookSigningEvent } from './hook-signing-decider.ts';
import {
  webhookEndpointDecider,
  type WebhookEndpointCommand,
  type WebhookEndpointEvent,
} from './webhook-endpoint-decider.ts';

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

const endpointAfter = (events: WebhookEndpointEvent[]) => fold(webhookEndpointDecider, events);
const refusal = (run: () => unknown) => {
  try {
    run();
  } catch (error) {
    return error instanceof DomainError ? error.code : error;
  }
  return undefined;
};

describe('webhook endpoint decider', () => {
  it('creates with the event types once each; the secret is no part of the event', () => {
    const events = webhookEndpointDecider.decide(create(), endpointAfter([]));
    expect(events).toEqual([
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
    expect(
      refusal(() => webhookEndpointDecider.decide(create({ plan_allows: false }), endpointAfter([]))),
    ).toBe('webhooks_plan_required');
    expect(refusal(() => webhookEndpointDecider.decide(create({ event_types: [] }), endpointAfter([])))).toBe(
      'invalid_event_types',
    );
    expect(
      refusal(() =>
        webhookEndpointDecider.decide(create({ event_types: ['client.created'] }), endpointAfter([])),
      ),
    ).toBe('invalid_event_types');
    const created = webhookEndpointDecider.decide(create(), endpointAfter([]));
    expect(refusal(() => webhookEndpointDecider.decide(create(), endpointAfter(created)))).toBe(
      'webhook_endpoint_exists',
    );
  });

  it("another team's or a deleted endpoint is not found for delete and rotate", () => {
    const created = webhookEndpointDecider.decide(create(), endpointAfter([]));
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
    expect(webhookEndpointDecider.decide(rotate(teamId), endpointAfter(created))[0]!.data).toEqual({
      endpoint_id: endpointId,
      team_id: teamId,
      rotated_at: now.toISOString(),
      previous_valid_until: until.toISOString(),
    });
    expect(refusal(() => webhookEndpointDecider.decide(rotate(otherTeam), endpointAfter(created)))).toBe(
      'webhook_endpoint_not_found',
    );
    const deleted = [...created, ...webhookEndpointDecider.decide(remove, endpointAfter(created))];
    expect(refusal(() => webhookEndpointDecider.decide(rotate(teamId), endpointAfter(deleted)))).toBe(
      'webhook_endpoint_not_found',
    );
    expect(refusal(() => webhookEndpointDecider.decide(remove, endpointAfter(deleted)))).toBe(
      'webhook_endpoint_not_found',
    );
  });
});

describe('hook signing decider', () => {
  const ensure = { type: 'EnsureHookSigningSecret' as const, data: { team_id: teamId }, metadata: { now } };
  it('makes the secret once; a rotation before any secret makes the first', () => {
    const made = hookSigningDecider.decide(ensure, fold(hookSigningDecider, []));
    expect(made).toEqual([
      { type: 'hook_signing_secret.created', data: { team_id: teamId, created_at: now.toISOString() } },
    ]);
    expect(hookSigningDecider.decide(ensure, fold(hookSigningDecider, made as HookSigningEvent[]))).toEqual(
      [],
    );
    const rotate = {
      type: 'RotateHookSigningSecret' as const,
      data: { team_id: teamId, previous_valid_until: until },
      metadata: { now },
    };
    expect(hookSigningDecider.decide(rotate, fold(hookSigningDecider, []))[0]!.type).toBe(
      'hook_signing_secret.created',
    );
    expect(hookSigningDecider.decide(rotate, fold(hookSigningDecider, made))).toEqual([
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
    expect(
      deliveryLogDecider.decide(
        { type: 'ReplayDeliveries', data: { ...target, delivery_ids: [] }, metadata: { now } },
        null,
      ),
    ).toEqual([]);
    expect(
      deliveryLogDecider.decide(
        { type: 'ReplayDeliveries', data: { ...target, delivery_ids: [endpointId] }, metadata: { now } },
        null,
      ),
    ).toEqual([
      {
        type: 'hook_delivery.replayed',
        data: { ...target, delivery_ids: [endpointId], replayed_at: now.toISOString() },
      },
    ]);
  });
});
