import { describe, expect, it } from 'vitest';
import { recorded } from '../fold-test-events.ts';
import { foldTeam, settingColumns } from './fold.ts';

describe('the teams fold', () => {
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
});
