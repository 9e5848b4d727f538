import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, constants } from 'node:zlib';
import { describe, expect, it } from 'vitest';

/*
 * What each page's first load fetches stays at most 40 KB brotli-compressed, as the service
 * sends it (docs/decisions/0100 and 0101): the client's form (clients open it on phones over
 * slow networks) and the workspace's sign-in page. A first load is index.html, the entry
 * script with everything it imports statically, their CSS, and the messages read before
 * anything else (the form's en-US file; the workspace's are in its entry). The workspace's
 * first load holds none of the signed-in workspace (zod comes with its contracts), the form's
 * none of the field kinds it loads on demand nor the template builder's preview. It
 * measures the build `npm run build:web` leaves in dist (pretest runs it); it builds nothing.
 */

const BUDGET_BYTES = 40 * 1024;
const web = path.dirname(fileURLToPath(import.meta.url));

interface ManifestChunk {
  file: string;
  isEntry?: boolean;
  imports?: string[];
  css?: string[];
}

const apps = [
  {
    name: 'client form',
    dist: path.join(web, 'client-form', 'dist'),
    firstMessages: /messages\/en-US\.json$/,
  },
  { name: 'workspace sign-in', dist: path.join(web, 'workspace', 'dist'), firstMessages: null },
];

function firstLoad(dist: string, firstMessages: RegExp | null): string[] {
  const manifestPath = path.join(dist, '.vite', 'manifest.json');
  if (!existsSync(manifestPath)) {
    throw new Error(`No build in ${dist}: run \`npm run build:web\` first (npm test runs it in pretest).`);
  }
  const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as Record<string, ManifestChunk>;
  const files = new Set<string>(['index.html']);
  const visit = (key: string) => {
    const chunk = manifest[key];
    if (!chunk || files.has(chunk.file)) return;
    files.add(chunk.file);
    for (const css of chunk.css ?? []) files.add(css);
    for (const imported of chunk.imports ?? []) visit(imported);
  };
  Object.keys(manifest)
    .filter((key) => manifest[key]!.isEntry)
    .forEach(visit);
  if (firstMessages) {
    const messages = Object.keys(manifest).find((key) => firstMessages.test(key));
    expect(messages, 'the first messages are their own chunk').toBeDefined();
    visit(messages!);
  }
  return [...files];
}

const brotli = (file: string) =>
  brotliCompressSync(readFileSync(file), { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }).length;

describe('the first load of each page', () => {
  for (const app of apps) {
    it(`keeps the ${app.name} within 40 KB brotli`, () => {
      const sizes = firstLoad(app.dist, app.firstMessages).map((file) => ({
        file,
        brotli: brotli(path.join(app.dist, file)),
      }));
      const total = sizes.reduce((sum, { brotli: size }) => sum + size, 0);
      const listing = sizes
        .map(({ file, brotli: size }) => `${file}: ${(size / 1024).toFixed(1)} KB`)
        .join(', ');
      expect(sizes.some(({ file }) => file.endsWith('.js'))).toBe(true);
      expect(total, `${(total / 1024).toFixed(1)} KB brotli over 40 KB (${listing})`).toBeLessThanOrEqual(
        BUDGET_BYTES,
      );
    });

    it(`has no inline script or style in the ${app.name}'s index.html (the CSP forbids them)`, () => {
      const html = readFileSync(path.join(app.dist, 'index.html'), 'utf8');
      expect(html).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/i);
      expect(html).not.toMatch(/<style\b/i);
      expect(html).not.toMatch(/\sstyle=/i);
    });
  }

  it("leaves the signature, payment, file upload and preview out of the client form's first load", () => {
    const { dist, firstMessages } = apps[0]!;
    const code = firstLoad(dist, firstMessages)
      .filter((file) => file.endsWith('.js'))
      .map((file) => readFileSync(path.join(dist, file), 'utf8'))
      .join('\n');
    // A class name each one's markup uses (../client-form/src/fields/index.tsx loads them on demand).
    for (const marker of ['signature__pad', 'payment__status', 'files__rules', 'preview-banner']) {
      expect(code, marker).not.toContain(marker);
    }
  });

  it('leaves the signed-in workspace and zod out of the sign-in page', () => {
    const { dist } = apps[1]!;
    const scripts = firstLoad(dist, null).filter((file) => file.endsWith('.js'));
    for (const file of scripts) {
      const code = readFileSync(path.join(dist, file), 'utf8');
      expect(code, file).not.toContain('ZodError');
      expect(code, file).not.toMatch(/\/workspace\/v1\/(notifications|onboardings)/);
    }
  });
});
