import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

/**
 * Every text a member reads goes through `t()`, so a member who chose German reads German
 * (docs/decisions/0096-the-workspace-in-nine-languages.md). This reads the workspace's TSX
 * with the TypeScript compiler and fails on JSX text with letters in it and on string
 * literals in the attributes a person reads or hears (aria-label, title, placeholder, alt):
 * one of them is English that no translation reaches.
 */
const root = fileURLToPath(new URL('./src/', import.meta.url));

/** Attributes whose value a person reads or a screen reader speaks. */
const SPOKEN = new Set(['aria-label', 'title', 'placeholder', 'alt', 'aria-description', 'aria-placeholder']);

/** Texts that are no words of any language: product names, symbols, sample formats. */
const ALLOWED = new Set(['Stripe', 'PIN', 'CSV', 'JSON', 'URL', 'HTTPS', 'OK', 'API', 'ID']);

/** Letters of any script: a text with none (·, —, →, numbers) needs no translation. */
const LETTER = /\p{L}/u;

function sources(folder: string): string[] {
  return readdirSync(folder).flatMap((name) => {
    const path = join(folder, name);
    if (statSync(path).isDirectory()) return sources(path);
    return name.endsWith('.tsx') && !name.endsWith('.test.tsx') ? [path] : [];
  });
}

type Finding = { where: string; text: string };

/** The untranslated texts of one TSX file. */
export function literalTexts(file: string, source: string): Finding[] {
  const tree = ts.createSourceFile(file, source, ts.ScriptTarget.Latest, true, ts.ScriptKind.TSX);
  const found: Finding[] = [];
  const report = (node: ts.Node, raw: string) => {
    const text = raw.replace(/\s+/g, ' ').trim();
    if (!LETTER.test(text) || ALLOWED.has(text)) return;
    const { line } = tree.getLineAndCharacterOfPosition(node.getStart(tree));
    found.push({ where: `${file}:${line + 1}`, text });
  };
  const visit = (node: ts.Node) => {
    if (ts.isJsxText(node)) report(node, node.text);
    if (ts.isJsxAttribute(node) && SPOKEN.has(node.name.getText(tree)) && node.initializer) {
      const value = node.initializer;
      if (ts.isStringLiteral(value)) report(value, value.text);
      if (ts.isJsxExpression(value) && value.expression) {
        const inner = value.expression;
        if (ts.isStringLiteral(inner) || ts.isNoSubstitutionTemplateLiteral(inner)) report(inner, inner.text);
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(tree);
  return found;
}

describe('the workspace’s texts', () => {
  it('reads every visible and spoken text from the catalogs, none written in the code', () => {
    const found = sources(root).flatMap((path) =>
      literalTexts(relative(root, path), readFileSync(path, 'utf8')),
    );
    expect(found).toEqual([]);
  });

  it('finds JSX text and spoken attributes written in the code', () => {
    const tsx = `const A = () => <p title="Close it" aria-label={'Open'} alt="·">Hello {t('x')} — </p>;`;
    expect(literalTexts('a.tsx', tsx).map((f) => f.text)).toEqual(['Close it', 'Open', 'Hello']);
  });
});
