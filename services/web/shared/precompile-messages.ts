import { parse } from '@formatjs/icu-messageformat-parser';
import type { Alias, Plugin } from 'vite';

/**
 * The web apps' messages are parsed at build, not in the browser: each messages/**.json file
 * becomes the same keys with each ICU message's syntax tree (what intl-messageformat would
 * parse it into), and the browser build takes the parser's no-parser entry, which FormatJS
 * provides for exactly this. The parser is about 26 KB of each app's first script; the trees
 * cost a few hundred bytes more than the texts once compressed. A message that does not parse
 * fails the build, naming its file and key, instead of showing as its key on a page.
 *
 * Tests and the server read the same files as texts and parse them at run time
 * (../shared/i18n/translate.ts takes either).
 */
const MESSAGES_FILE = /[\\/]services[\\/]web[\\/][^?]*[\\/]messages[\\/][^?]*\.json$/;

export function precompileMessages(): Plugin {
  return {
    name: 'precompile-messages',
    apply: 'build',
    enforce: 'pre',
    transform(code, id) {
      if (!MESSAGES_FILE.test(id)) return null;
      const messages = JSON.parse(code) as Record<string, string>;
      const trees = Object.fromEntries(
        Object.entries(messages).map(([key, message]) => {
          try {
            return [key, parse(message)];
          } catch (error) {
            throw new Error(`${id}: the message ${key} does not parse: ${(error as Error).message}`, {
              cause: error,
            });
          }
        }),
      );
      // Still JSON: Vite's own JSON step makes it a module, as it did the texts.
      return { code: JSON.stringify(trees), map: null };
    },
  };
}

/** The browser build's parser: the no-parser entry, since every message comes parsed. */
export const NO_PARSER_ALIAS: Alias = {
  find: /^@formatjs\/icu-messageformat-parser$/,
  replacement: '@formatjs/icu-messageformat-parser/no-parser.js',
};
