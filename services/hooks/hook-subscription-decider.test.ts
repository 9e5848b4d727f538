import { describe, it } from 'vitest';
import { hookSubscriptionDecider, type HookSubscriptionCommand } from './hook-subscription-decider.ts';
import type { HookSubscriptionEvent } from './hook-subscription-events.ts';
import { DeciderSpecification } from '../../test/helpers/decider-spec.ts';

const now = new Date('2025-03-01T10:00:00.000Z');
const later = new Date('2025-03-02T10:00:00.000Z');
const id = '44444444-4444-4444-8444-444444444444';
const teamId = '22222222-2222-4222-8222-222222222222';
const otherTeam = '55555555-5555-4555-8555-555555555555';

const given = DeciderSpecification.for(hookSubscriptionDecider);

const create = (event = 'onboarding.completed'): HookSubscriptionCommand => ({
  type: 'CreateHookSubscription',
  data: {
    subscription_id: id,
    team_id: teamId,
    event,
    target_url: 'https://hooks.example.com/a',
    api_key_id: null,
  },
  metadata: { now },
});
const remove = (team = teamId): HookSubscriptionCommand => ({
  type: 'DeleteHookSubscription',
  data: { subscription_id: id, team_id: team },
  metadata: { now: later },
});
const created: HookSubscriptionEvent = {
  type: 'hook_subscription.created',
  data: {
    subscription_id: id,
    team_id: teamId,
    event: 'onboarding.completed',
    target_url: 'https://hooks.example.com/a',
    api_key_id: null,
    created_at: now.toISOString(),
  },
};
const deleted: HookSubscriptionEvent = {
  type: 'hook_subscription.deleted',
  data: { subscription_id: id, team_id: teamId, deleted_at: later.toISOString() },
};

describe('hook subscription decider', () => {
  it('given nothing, when created, then hook_subscription.created', () => {
    given([]).when(create()).then([created]);
  });

  it('given nothing, when created for an unknown event name, then invalid_event', () => {
    given([]).when(create('client.created')).thenThrows('invalid_event');
    given([]).when(create('onboarding_created')).thenThrows('invalid_event');
  });

  it('given it exists, when created again with the same id, then subscription_exists', () => {
    given([created]).when(create()).thenThrows('subscription_exists');
  });

  it('given an active subscription, when deleted by its team, then hook_subscription.deleted', () => {
    given([created]).when(remove()).then([deleted]);
  });

  it('given an active subscription, when deleted by another team, then not found', () => {
    given([created]).when(remove(otherTeam)).thenThrows('subscription_not_found');
  });

  it('given nothing or a deleted subscription, when deleted, then not found', () => {
    given([]).when(remove()).thenThrows('subscription_not_found');
    given([created, deleted]).when(remove()).thenThrows('subscription_not_found');
  });
});
