import { describe, expect, it } from 'vitest';
import { foldApiKey } from './api-key-fold.ts';
import { recorded } from './fold-test-events.ts';
import { foldHookSubscription } from './hook-subscriptions-fold.ts';
import { foldTeam, settingColumns } from './team-fold.ts';
import { foldTemplate } from './templates/fold.ts';

describe('folds into row changes', () => {
  it('api keys: created, then revoked, in log order', () => {
    const changes = [
      recorded('api_key.created', {
        api_key_id: 'k',
        team_id: 't',
        name: 'n',
        scopes: [],
        key_hash: 'h',
        expires_at: null,
        created_at: 'c',
      }),
      recorded('api_key.revoked', { api_key_id: 'k', team_id: 't', revoked_at: 'r' }, 2n),
    ].reduce(foldApiKey, []);
    expect(changes.map((change) => change.kind)).toEqual(['created', 'revoked']);
  });

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

  it('teams: the monthly limit takes two columns, unknown settings none', () => {
    expect(
      settingColumns({
        accent_color: '#1d4ed8',
        logo: { sha256: 'c'.repeat(64), content_type: 'image/png', size_bytes: 68 },
      }),
    ).toEqual({ accent_color: '#1d4ed8', logo_sha256: 'c'.repeat(64), logo_content_type: 'image/png' });
    expect(settingColumns({ logo: null })).toEqual({ logo_sha256: null, logo_content_type: null });
    expect(settingColumns({ monthly_onboarding_limit: 'unlimited' })).toEqual({
      monthly_onboarding_limit: null,
      monthly_onboarding_unlimited: true,
    });
    const [change] = foldTeam(
      [],
      recorded('team.updated', { team_id: 't', changes: { name: 'N' }, updated_at: 'u' }),
    );
    expect(change).toEqual({ kind: 'team_updated', teamId: 't', columns: { name: 'N', updated_at: 'u' } });
  });

  it('templates: each step with its own fields, in order', () => {
    const step = (id: string, fields: string[]) => ({
      id,
      title: id,
      sort_order: 0,
      is_optional: false,
      fields: fields.map((field) => ({
        id: field,
        type: 'text',
        label: field,
        sort_order: 0,
        is_required: false,
        config: {},
      })),
    });
    const [change] = foldTemplate(
      [],
      recorded('template.created', {
        template_id: 'tpl',
        team_id: 't',
        gallery: false,
        name: 'n',
        description: null,
        vertical: null,
        settings: {},
        steps: [step('s1', ['f1', 'f2']), step('s2', ['f3'])],
        created_at: 'c',
      }),
    );
    if (change?.kind !== 'created') throw new Error('expected a created template');
    expect(change.steps.map((s) => [s.values[0], s.fields.map((field) => field[0])])).toEqual([
      ['s1', ['f1', 'f2']],
      ['s2', ['f3']],
    ]);
  });
});
