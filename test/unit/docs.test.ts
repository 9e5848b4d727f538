import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * The README and docs/ stay true: the README stays a first screen (at most 300 lines), every
 * relative link points to a file (and heading) that exists, every repository path written in
 * backticks exists, and the decisions' index lists every decision.
 */
const root = resolve(import.meta.dirname, '../..');
const docs = readdirSync(join(root, 'docs'), { recursive: true, encoding: 'utf8' })
  .filter((file) => file.endsWith('.md'))
  .map((file) => join('docs', file));
const markdownFiles = ['README.md', ...docs];

const read = (file: string) => readFileSync(join(root, file), 'utf8');

/** The text without fenced code blocks: links and paths inside them are examples. */
function withoutCodeBlocks(text: string): string {
  return text.replace(/^```[\s\S]*?^```/gm, '');
}

/** GitHub's anchor of a heading: lower case, punctuation dropped, spaces as hyphens. */
function anchorOf(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');
}

function anchorsOf(file: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  for (const [, heading = ''] of withoutCodeBlocks(read(file)).matchAll(/^#{1,6} (.+)$/gm)) {
    const anchor = anchorOf(heading);
    const count = seen.get(anchor) ?? 0;
    anchors.add(count === 0 ? anchor : `${anchor}-${count}`);
    seen.set(anchor, count + 1);
  }
  return anchors;
}

function relativeLinks(file: string): string[] {
  const text = withoutCodeBlocks(read(file)).replace(/`[^`\n]*`/g, '');
  return [...text.matchAll(/\]\(([^)\s]+)\)/g)]
    .map(([, target = '']) => target)
    .filter((target) => !/^[a-z]+:/i.test(target));
}

describe('README.md and docs/', () => {
  it('keeps the README at most 300 lines', () => {
    expect(read('README.md').trimEnd().split('\n').length).toBeLessThanOrEqual(300);
  });

  it('links only to files and headings that exist', () => {
    const broken: string[] = [];
    for (const file of markdownFiles) {
      for (const target of relativeLinks(file)) {
        const [path = '', anchor] = target.split('#');
        const linked = path ? relative(root, resolve(root, dirname(file), path)) : file;
        if (!existsSync(join(root, linked))) broken.push(`${file}: ${target} (no file)`);
        else if (anchor && linked.endsWith('.md') && !anchorsOf(linked).has(anchor)) {
          broken.push(`${file}: ${target} (no heading)`);
        }
      }
    }
    expect(broken).toEqual([]);
  });

  it("names only repository paths that exist (a decision's context may name what was)", () => {
    const missing: string[] = [];
    const pathPattern = /`((?:services|shared|projections|infra|test|bench|docs)\/[^`\s*<>]+)`/g;
    for (const file of markdownFiles) {
      const text = withoutCodeBlocks(read(file)).replace(/^## Context\n[\s\S]*?(?=^## )/m, '');
      for (const [, path = ''] of text.matchAll(pathPattern)) {
        if (!existsSync(join(root, path))) missing.push(`${file}: ${path}`);
      }
    }
    expect(missing).toEqual([]);
  });

  it('lists every decision in the decisions index', () => {
    const index = read('docs/decisions/README.md');
    const decisions = readdirSync(join(root, 'docs/decisions')).filter((file) => /^\d{4}-.+\.md$/.test(file));
    expect(decisions.filter((file) => !index.includes(`](${file})`))).toEqual([]);
  });
});
