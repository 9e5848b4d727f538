import { IntlMessageFormat } from 'intl-messageformat';
import { DEFAULT_LOCALE, isLocale, type Locale } from '../../shared/i18n/locales.ts';
// The client emails' layout (team logo, accent colour, text and HTML parts) serves the digest too.
import { renderHtml, renderText, type EmailDocument } from '../onboardings/client-emails/layout.ts';
import type { NotificationKind } from './contract/notifications.ts';
import { DIGEST_MESSAGES } from './digest-messages.ts';

export interface DigestInput {
  /** The member's locale, else the team's. */
  locale: string | null;
  memberName: string;
  team: { name: string; logoUrl: string | null; accentColor: string | null };
  /** The workspace's address (PUBLIC_URL + /workspace). */
  workspaceUrl: string;
  items: { kind: NotificationKind; templateName: string; onboardingId: string }[];
}

/**
 * One member's digest: every pending notification listed by kind with its onboarding's
 * template and link, in the member's language. Pure. It names no client: a digest often
 * spans several clients and could not be sealed with one client's key, so an erasure
 * leaves nothing behind in the outbox (docs/decisions/0084-notification-digests.md).
 */
export function digestEmail(input: DigestInput): { subject: string; text: string; html: string } {
  const locale: Locale = isLocale(input.locale) ? input.locale : DEFAULT_LOCALE;
  const messages = DIGEST_MESSAGES[locale];
  const t = (message: string, values: Record<string, string | number>) =>
    String(new IntlMessageFormat(message, locale, undefined, { ignoreTag: true }).format(values));
  const team = input.team.name;
  const url = input.workspaceUrl.replace(/\/$/, '');
  // The subject counts onboardings, not news: a client who signs and completes is one onboarding.
  const onboardings = new Set(input.items.map((item) => item.onboardingId)).size;
  const subject = t(messages.subject, { team, count: onboardings });
  const document: EmailDocument = {
    lang: locale,
    subject,
    greeting: t(messages.greeting, { name: input.memberName }),
    blocks: [
      { kind: 'paragraph', text: t(messages.intro, { team }) },
      {
        kind: 'list',
        items: input.items.map((item) => ({
          label: messages.kinds[item.kind],
          text: `${t(messages.item, { template: item.templateName })}\n${url}/onboardings/${item.onboardingId}`,
        })),
      },
      { kind: 'link', label: messages.open, text: t(messages.openText, { url }), url },
    ],
    notes: [],
    footer: [messages.footer],
    team: input.team,
  };
  return { subject, text: renderText(document), html: renderHtml(document) };
}
