import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { createTranslate, type Messages } from './i18n/translate.ts';
import { precompileMessages } from './precompile-messages.ts';

/**
 * The build's parse of the messages: every messages file of both apps, in every locale,
 * becomes trees that translate exactly as its texts do; a message that does not parse fails
 * the build; other JSON is left alone.
 */

const web = fileURLToPath(new URL('..', import.meta.url));
const messageFiles = ['client-form/messages', 'workspace/messages'].flatMap((folder) =>
  readdirSync(join(web, folder), { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.json'))
    .map((file) => join(web, folder, file)),
);

function precompile(code: string, id: string): Messages | null {
  const transform = precompileMessages().transform as (code: string, id: string) => { code: string } | null;
  const result = transform(code, id);
  return result && (JSON.parse(result.code) as Messages);
}

/** Sample values for every placeholder a message may have. */
const VALUES = new Proxy({} as Record<string, unknown>, {
  get: (_target, name) =>
    typeof name === 'string' && /count|total|n$|number|minutes|days/i.test(name) ? 2 : 'x',
  has: () => true,
});

describe('precompileMessages', () => {
  it('turns every messages file into trees that translate as its texts', () => {
    expect(messageFiles.length).toBeGreaterThan(100);
    for (const file of messageFiles) {
      const texts = JSON.parse(readFileSync(file, 'utf8')) as Record<string, string>;
      const trees = precompile(readFileSync(file, 'utf8'), file)!;
      expect(Object.keys(trees), file).toEqual(Object.keys(texts));
      const locale = /([a-z]{2}-[A-Z]{2})/.exec(file)?.[1] ?? 'en-US';
      const fromTexts = createTranslate(locale, texts);
      const fromTrees = createTranslate(locale, trees);
      for (const key of Object.keys(texts)) {
        expect(Array.isArray(trees[key]), `${file} ${key}`).toBe(true);
        const translated = fromTrees(key, VALUES);
        expect(translated, `${file} ${key} formats`).not.toBe(key);
        expect(translated, `${file} ${key}`).toBe(fromTexts(key, VALUES));
      }
    }
  });

  it('fails on a message that does not parse, naming the file and key', () => {
    const id = '/repo/services/web/workspace/messages/en-US/app.json';
    expect(() => precompile(JSON.stringify({ 'app.name': '{oops' }), id)).toThrow(
      /app\.json: the message app\.name/,
    );
  });

  it('leaves other JSON alone', () => {
    expect(precompile('{"a":1}', '/repo/services/web/workspace/src/data.json')).toBeNull();
    expect(precompile('{"a":1}', '/repo/node_modules/x/messages/en.json')).toBeNull();
  });
});
