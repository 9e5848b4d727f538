import { describe, expect, it } from 'vitest';
import { translator } from '../../i18n.ts';
import messages from '../../../messages/en-US/events.json' with { type: 'json' };
import gb from '../../../messages/en-GB/events.json' with { type: 'json' };
import { activitySentence } from './activity-sentence.ts';

const entry = (type: string, more: Record<string, unknown> = {}) => ({
  type,
  actor_member_id: 'm',
  actor_name: 'Ada Lovelace',
  object_name: 'Zapier cos_ab12cd34…',
  data: {},
  ...more,
});

describe('activitySentence', () => {
  it('names the actor and the object', () => {
    const t = translator(messages, 'en-US');
    expect(activitySentence(entry('api_key_revoked'), t)).toBe(
      'Ada Lovelace revoked API key Zapier cos_ab12cd34…',
    );
  });

  it('names the settings changed, in British English for en-GB', () => {
    const t = translator(gb, 'en-GB');
    const changed = entry('team_settings_changed', {
      object_name: null,
      data: { settings: ['accent_color'] },
    });
    expect(activitySentence(changed, t)).toBe("Ada Lovelace changed the team's accent colour");
  });

  it('a former member and the system stand in for an actor without a name', () => {
    const t = translator(messages, 'en-US');
    expect(activitySentence(entry('signed_in', { actor_name: null }), t)).toBe('Former member signed in');
    expect(activitySentence(entry('unknown_thing'), t)).toBe('Unknown thing');
  });
});
