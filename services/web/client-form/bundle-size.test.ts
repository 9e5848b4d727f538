import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';

/*
 * The first screen of the client's form (index.html, the entry script with everything it
 * imports statically, its CSS and the en-US messages) stays at most 100 KB gzip-compressed:
 * clients open it on phones over slow networks. It measures the build `npm run build:web`
 * leaves in dist (pretest runs it); it builds nothing itself.
 */

const LIMIT_BYTES = 100 * 1024;
const dist = path.join(path.dirname(fileURLToPath(import.meta.url)), 'dist');
const manifestPath = path.join(dist, '.vite', 'manifest.json');

interface ManifestChunk {
  file: string;
  src?: string;
  isEntry?: boolean;
  imports?: string[];
  css?: string[];
}

function firstScreenFiles(manifest: Record<string, ManifestChunk>): string[] {
  const files = new Set<string>(['index.html']);
  const visit = (key: string) => {
    const chunk = manifest[key];
    if (!chunk || files.has(chunk.file)) return;
    files.add(chunk.file);
    for (const css of chunk.css ?? []) files.add(css);
    for (const imported of chunk.imports ?? []) visit(imported);
  };
  const entries = Object.keys(manifest).filter((key) => manifest[key]!.isEntry);
  entries.forEach(visit);
  const messages = Object.keys(manifest).find((key) => key.endsWith('messages/en-US.json'));
  if (messages) visit(messages);
  return [...files];
}

describe('the client form bundle', () => {
  it('keeps the first screen at most 100 KB gzip-compressed', () => {
    if (!existsSync(manifestPath)) {
      throw new Error(
        `No build of the client form in ${dist}: run \`npm run build:web\` first (npm test runs it in pretest).`,
      );
    }
    const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as Record<string, ManifestChunk>;
    expect(
      Object.keys(manifest).some((key) => key.endsWith('messages/en-US.json')),
      'the en-US messages are their own chunk',
    ).toBe(true);
    const sizes = firstScreenFiles(manifest).map((file) => ({
      file,
      gzip: gzipSync(readFileSync(path.join(dist, file)), { level: 9 }).length,
    }));
    const total = sizes.reduce((sum, { gzip }) => sum + gzip, 0);
    const listing = sizes.map(({ file, gzip }) => `${file}: ${(gzip / 1024).toFixed(1)} KB`).join(', ');
    expect(
      total,
      `first screen ${(total / 1024).toFixed(1)} KB gzip over ${LIMIT_BYTES / 1024} KB (${listing})`,
    ).toBeLessThanOrEqual(LIMIT_BYTES);
    expect(sizes.some(({ file }) => file.endsWith('.js'))).toBe(true);
  });

  it('has no inline script or style in index.html (the CSP forbids them)', () => {
    if (!existsSync(manifestPath)) throw new Error(`No build of the client form in ${dist}`);
    const html = readFileSync(path.join(dist, 'index.html'), 'utf8');
    expect(html).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/i);
    expect(html).not.toMatch(/<style\b/i);
    expect(html).not.toMatch(/\sstyle=/i);
  });
});
