import { IntlMessageFormat } from 'intl-messageformat';
import { describe, expect, it } from 'vitest';
import { humanDate } from '../../../shared/i18n/human-date.ts';
import { LOCALES } from '../../../shared/i18n/locales.ts';
import { EMAIL_CATALOGS } from './catalog.ts';
import { clientEmailDocument, composeClientEmail } from './compose.ts';
import type { ClientEmailInput } from './email-input.ts';
import { CLIENT_EMAIL_KINDS, type ClientEmailExtras, type ClientEmailKind } from './kinds.ts';
import { EN_US } from './messages/en-US.ts';

/*
 * Every client email kind is written as text and HTML in each of the nine languages, from
 * that language's own catalog: a missing key, an untranslated text or a placeholder left
 * in the output fails here.
 */

const token = 'ab'.repeat(32);
const base: ClientEmailInput = {
  publicUrl: 'https://forms.example.com/',
  fromName: 'Acme & Co',
  clientName: 'Ada <Lovelace>',
  templateName: 'Tax intake',
  dueDate: '2026-12-05T23:59:59.999-05:00',
  dueOn: '2026-12-05',
  pinRequired: true,
  brand: { logoUrl: 'https://forms.example.com/brand/t1/logo?v=abc123', accentColor: '#7c2d12' },
};

const EXTRAS: { [K in ClientEmailKind]: ClientEmailExtras[K] } = {
  invite: { token },
  reopened: { token, reason: 'The passport scan was unreadable' },
  reminder: { token, message: 'Just the ID left,\nthank you!' },
  changes_requested: {
    token,
    fieldId: 'tax id',
    answers: [
      { label: 'Tax ID', decision: 'rejected', reason: 'Eleven digits, please' },
      { label: 'Address', decision: 'changes_requested', reason: 'Add the flat number' },
    ],
  },
  completed: {
    token,
    steps: [{ title: 'About you', answers: [{ label: 'Name', text: 'Ada Lovelace' }] }],
  },
};

const placeholders = (message: string) =>
  [...message.matchAll(/\{\s*([a-zA-Z_]+)\s*[,}]/g)].map((match) => match[1]).sort();

describe('the client emails’ catalogs', () => {
  it.each(LOCALES)(
    '%s has every key of en-US, each parsing with the same placeholders, translated',
    (locale) => {
      const catalog = EMAIL_CATALOGS[locale] as Record<string, string>;
      expect(Object.keys(catalog).sort()).toEqual(Object.keys(EN_US).sort());
      for (const [key, message] of Object.entries(catalog)) {
        expect(() => new IntlMessageFormat(message, locale), key).not.toThrow();
        expect(placeholders(message), key).toEqual(placeholders(EN_US[key as keyof typeof EN_US]));
        if (!locale.startsWith('en-') && message.replace(/\{[^}]*\}/g, '').length > 12) {
          expect(message, `${locale} ${key} is not translated`).not.toBe(EN_US[key as keyof typeof EN_US]);
        }
      }
    },
  );
});

describe.each(CLIENT_EMAIL_KINDS)('the %s email', (kind) => {
  it.each(LOCALES)('renders as text and HTML in %s from its own catalog', (locale) => {
    const input = { ...base, locale, ...EXTRAS[kind] };
    const { fallbacks } = clientEmailDocument(kind, input);
    expect(fallbacks, `${kind} in ${locale} uses US English for`).toEqual([]);
    const email = composeClientEmail(kind, input);
    const due = humanDate('2026-12-05', locale);
    for (const part of [email.subject, email.text, email.html]) {
      expect(part).not.toMatch(
        /\{[a-z_]+\}|\b(?:invite|reminder|reopened|changes|completed|open)\.[a-z_]+\b/,
      );
    }
    expect(email.text).toContain(due);
    expect(email.text).toContain('Ada <Lovelace>');
    expect(email.text).toContain(`https://forms.example.com/f/${token}`);
    expect(email.html).toContain(`<html lang="${locale}"`);
    expect(email.html).toContain(due);
    expect(email.html).toContain('Ada &lt;Lovelace&gt;');
    expect(email.html).not.toContain('<Lovelace>');
    expect(email.html).toContain(`href="https://forms.example.com/f/${token}`);
    expect(email.html).toContain(
      'src="https://forms.example.com/brand/t1/logo?v=abc123" alt="Acme &amp; Co"',
    );
    expect(email.html).toContain('background:#7c2d12');
    if (locale !== 'en-US' && locale !== 'en-GB') {
      const english = composeClientEmail(kind, { ...input, locale: 'en-US' });
      expect(email.subject).not.toBe(english.subject);
      // Lines of the catalog only: people's own words (a reason, a message) stay as written.
      const ownWords = JSON.stringify(EXTRAS[kind]);
      const written = english.text.split('\n').filter((line) => line.length > 20 && !ownWords.includes(line));
      for (const line of written.filter((line) => !line.includes(token))) {
        expect(email.text, `${locale} repeats "${line}"`).not.toContain(line);
      }
    }
  });
});

describe('what each email says', () => {
  it('the invite in US English: greeting, link, due day, the PIN comes another way, personal link', () => {
    const email = composeClientEmail('invite', { ...base, ...EXTRAS.invite, clientName: 'Ada' });
    expect(email.subject).toBe('Acme & Co invited you to fill in Tax intake');
    expect(email.text).toBe(
      [
        'Hello Ada,',
        '',
        'Acme & Co has invited you to fill in "Tax intake".',
        '',
        `Open your form: https://forms.example.com/f/${token}`,
        '',
        'Please complete it by December 5, 2026.',
        'The form asks for the PIN that Acme & Co gives you separately: it is never in an email with your link.',
        '',
        'This link is personal: please do not forward this email.',
        'Acme & Co sent you this email about "Tax intake".',
      ].join('\n'),
    );
  });

  it('a German reopen says why; a Japanese due date reads as in Japan', () => {
    const reopened = composeClientEmail('reopened', { ...base, ...EXTRAS.reopened, locale: 'de-DE' });
    expect(reopened.text).toContain(
      'Warum Acme & Co es wieder geöffnet hat:\nThe passport scan was unreadable',
    );
    expect(reopened.text).toContain('Bitte füllen Sie es bis zum 5. Dezember 2026 aus.');
    expect(reopened.html).toContain('<blockquote');
    const invite = composeClientEmail('invite', { ...base, ...EXTRAS.invite, locale: 'ja-JP' });
    expect(invite.text).toContain('2026年12月5日までにご記入ください。');
  });

  it('answers sent back: each with its decision and reason, the link opens the form at the first', () => {
    const email = composeClientEmail('changes_requested', { ...base, ...EXTRAS.changes_requested });
    expect(email.text).toContain('- Tax ID (not accepted): Eleven digits, please');
    expect(email.text).toContain('- Address (please change): Add the flat number');
    expect(email.text).toContain(`Change your answers: https://forms.example.com/f/${token}?field=tax%20id`);
    expect(email.html).toContain(`href="https://forms.example.com/f/${token}?field=tax%20id"`);
  });

  it('without a known link, without a PIN, a due date or branding', () => {
    const email = composeClientEmail('reminder', {
      ...base,
      token: undefined,
      pinRequired: false,
      dueDate: null,
      dueOn: null,
      brand: null,
      locale: 'xx-YY',
    });
    expect(email.text).toContain('Open your form with the link in the invite email you received.');
    expect(email.text).not.toMatch(/PIN|complete it by|https:/);
    expect(email.html).not.toContain('<img');
    expect(email.html).toContain('>Acme &amp; Co</h1>');
    expect(email.html).toContain('border-top:4px solid #1d4ed8');
  });
});
