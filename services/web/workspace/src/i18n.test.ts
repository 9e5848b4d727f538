import { describe, expect, it } from 'vitest';
import { LOCALE, messagesOf, speak, t } from './i18n.ts';

describe('the workspace’s texts', () => {
  it('bundles what a signed-out visitor reads, the roles an invitation offers among them', () => {
    const first = messagesOf(LOCALE);
    for (const key of [
      'title.sign-in',
      'signIn.title',
      'invitation.introNamed',
      'role.member',
      'role.owner',
    ]) {
      expect(first[key], key).toBeDefined();
    }
    // The signed-in screens' texts load with a member's language, not with the first chunk.
    expect(first['members.title']).toBeUndefined();
  });

  it('loads every text of a member’s language when they sign in', async () => {
    expect(await speak('de-DE', 'public')).toBe('de-DE');
    expect(t('members.title')).toBe('members.title');
    expect(await speak('de-DE')).toBe('de-DE');
    expect(t('members.title')).toBe('Mitglieder');
    expect(t('role.member')).toBe('Mitglied');
  });
});
