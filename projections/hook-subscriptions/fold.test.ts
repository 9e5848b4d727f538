import { describe, expect, it } from 'vitest';
import { recorded } from '../fold-test-events.ts';
import { foldHookSubscription } from './fold.ts';

describe('the hook_subscriptions fold', () => {
  it('hook subscriptions: a created row carries its log position', () => {
    const [change] = foldHookSubscription(
      [],
      recorded(
        'hook_subscription.created',
        {
          subscription_id: 's',
          team_id: 't',
          event: 'e',
          target_url: 'u',
          api_key_id: null,
          created_at: 'c',
        },
        7n,
      ),
    );
    expect(change).toMatchObject({ kind: 'created', row: { id: 's', position: '7' } });
  });
});
