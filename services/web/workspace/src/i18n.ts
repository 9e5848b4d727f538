/**
 * The workspace's texts: ICU messages (intl-messageformat) laid out per locale and feature,
 * messages/<locale>/<feature>.json (the app's frame in app.json, a feature's parts in a folder
 * of its name, e.g. access/members.json), so each feature's texts live beside each other and
 * another language is one more folder. The workspace speaks the nine languages of the client's
 * form: each member reads it in the language they chose, else their team's
 * (docs/decisions/0096-the-workspace-in-nine-languages.md).
 *
 * The page's first chunk carries only what a visitor reads before signing in: US English's
 * app.json and access.json (PUBLIC_FILES). The rest is loaded when needed: a visitor whose
 * browser reads another language loads that language's public files, and a member who signs
 * in loads every file of their language (once), with US English's as the fallback of a key
 * it lacks. A member downloads one language, not nine, and nobody downloads the workspace's
 * texts to sign in (docs/decisions/0101-first-screens-within-40-kb.md).
 */
import { createTranslate, pickLocale, type Messages, type Translate } from '../../shared/i18n/translate.ts';
import { LOCALES } from '../../../../shared/i18n/locales.ts';

export type { Messages, Translate };

/** The workspace's default language: its texts before sign-in and the fallback of a missing key. */
export const LOCALE = 'en-US';

/** A translate function over `messages` (the web apps' one translator): a missing key shows as the key; never throws. */
export function translator(messages: Messages, locale: string = LOCALE, fallback?: Messages): Translate {
  return createTranslate(locale, messages, fallback);
}

/** The files a signed-out visitor's screens read (the frame, sign-in and the other public screens). */
const PUBLIC_FILES = ['app.json', 'access.json'];

const bundled = import.meta.glob<Messages>(['../messages/en-US/app.json', '../messages/en-US/access.json'], {
  import: 'default',
  eager: true,
});
const loadable = import.meta.glob<Messages>(
  ['../messages/*/**/*.json', '!../messages/en-US/app.json', '!../messages/en-US/access.json'],
  { import: 'default' },
);

const merged = (files: Messages[]) => Object.assign({}, ...files) as Messages;

/** The bundled messages of a locale (US English's public files), merged. */
export function messagesOf(locale: string): Messages {
  const prefix = `../messages/${locale}/`;
  return merged(
    Object.entries(bundled).flatMap(([path, messages]) => (path.startsWith(prefix) ? [messages] : [])),
  );
}

/** What a page needs: the public screens' texts, or every text of the workspace. */
export type Part = 'public' | 'all';

/** A locale's messages of `part`: the bundled files as they are, the others loaded (once: modules are cached). */
async function load(locale: string, part: Part): Promise<Messages> {
  const prefix = `../messages/${locale}/`;
  const wanted = (path: string) =>
    path.startsWith(prefix) && (part === 'all' || PUBLIC_FILES.includes(path.slice(prefix.length)));
  const loaded = await Promise.all(
    Object.entries(loadable)
      .filter(([path]) => wanted(path))
      .map(([, loadFile]) => loadFile()),
  );
  return merged([
    ...Object.entries(bundled).flatMap(([path, messages]) => (wanted(path) ? [messages] : [])),
    ...loaded,
  ]);
}

let current: { locale: string; part: Part; translate: Translate } = {
  locale: LOCALE,
  part: 'public',
  translate: translator(messagesOf(LOCALE)),
};

/** The language the workspace speaks now (for Intl formats of dates, numbers and amounts). */
export function currentLocale(): string {
  return current.locale;
}

/** Translates in the current language; a key it lacks reads in US English. */
export const t: Translate = (key, values) => current.translate(key, values);

/** The supported locale of a wanted one (a member's choice or their team's), US English otherwise. */
export function workspaceLocale(wanted: string | null | undefined): string {
  return wanted ? pickLocale(wanted, LOCALES, LOCALE) : LOCALE;
}

/**
 * Speaks `wanted` from now on, with the texts of `part` (every text once a member is signed
 * in): loads what is missing and swaps the translator. Resolves with the locale spoken; a
 * language whose files fail to load leaves the one spoken before.
 */
export async function speak(wanted: string | null | undefined, part: Part = 'all'): Promise<string> {
  const locale = workspaceLocale(wanted);
  if (locale === current.locale && (current.part === 'all' || part === 'public')) return locale;
  try {
    const [messages, fallback] = await Promise.all([
      load(locale, part),
      locale === LOCALE ? undefined : load(LOCALE, part),
    ]);
    current = { locale, part, translate: translator(messages, locale, fallback) };
  } catch {
    return current.locale;
  }
  // The page's language for screen readers and spelling (absent where tests run without a page).
  if (globalThis.document) document.documentElement.lang = locale;
  return locale;
}
