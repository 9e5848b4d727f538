import { describe, expect, it } from 'vitest';
import { recorded } from '../fold-test-events.ts';
import { foldApiKey } from './fold.ts';

describe('the api_keys fold', () => {
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

  it('a key keeps its prefix and the member who created it (the metadata actor)', () => {
    const event = {
      ...recorded('api_key.created', {
        api_key_id: 'k',
        team_id: 't',
        name: 'n',
        scopes: [],
        key_hash: 'h',
        expires_at: null,
        created_at: 'c',
        key_prefix: 'cos_ab12cd34',
      }),
      metadata: { actor_member_id: 'm' },
    };
    const [change] = foldApiKey([], event);
    expect(change).toMatchObject({ row: { key_prefix: 'cos_ab12cd34', created_by_member_id: 'm' } });
  });
});
