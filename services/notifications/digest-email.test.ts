import { describe, expect, it } from 'vitest';
import { LOCALES } from '../../shared/i18n/locales.ts';
import { NOTIFICATION_KINDS } from './contract/notifications.ts';
import { digestEmail } from './digest-email.ts';
import { DIGEST_MESSAGES } from './digest-messages.ts';

const input = {
  memberName: 'Ada <Admin>',
  team: { name: 'Acme', logoUrl: null, accentColor: '#0f766e' },
  workspaceUrl: 'https://forms.example.com/workspace',
  items: [
    { kind: 'completed' as const, templateName: 'Tax intake', onboardingId: 'o1' },
    { kind: 'overdue' as const, templateName: 'KYC', onboardingId: 'o2' },
  ],
};

describe('digestEmail', () => {
  it('lists every notification with its link, in text and HTML, branded and escaped', () => {
    const email = digestEmail({ ...input, locale: 'en-US' });
    expect(email.subject).toBe('[Acme] 2 onboardings need your attention');
    expect(email.text).toContain(
      '- Completed: Tax intake\nhttps://forms.example.com/workspace/onboardings/o1',
    );
    expect(email.text).toContain('- Overdue: KYC');
    expect(email.html).toContain('#0f766e');
    expect(email.html).toContain('Ada &lt;Admin&gt;');
    expect(email.html).toContain('lang="en-US"');
  });

  it('counts onboardings in the subject: a client who signs and completes is one', () => {
    const items = [
      { kind: 'signed' as const, templateName: 'Tax intake', onboardingId: 'o1' },
      { kind: 'completed' as const, templateName: 'Tax intake', onboardingId: 'o1' },
    ];
    const email = digestEmail({ ...input, locale: 'en-US', items });
    expect(email.subject).toBe('[Acme] 1 onboarding needs your attention');
    expect(email.text).toContain('- Signed: Tax intake');
    expect(email.text).toContain('- Completed: Tax intake');
  });

  it("speaks the member's language, US English for an unknown one", () => {
    expect(digestEmail({ ...input, locale: 'de-DE', items: input.items.slice(0, 1) }).subject).toBe(
      '[Acme] 1 Onboarding braucht Ihre Aufmerksamkeit',
    );
    expect(digestEmail({ ...input, locale: 'xx' }).subject).toContain('need your attention');
  });

  it('has every text in the nine languages', () => {
    for (const locale of LOCALES) {
      const messages = DIGEST_MESSAGES[locale];
      for (const kind of NOTIFICATION_KINDS) expect(messages.kinds[kind], locale).toBeTruthy();
      expect(digestEmail({ ...input, locale }).text, locale).toContain('o2');
    }
  });
});
