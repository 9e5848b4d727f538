import { mkdir, mkdtemp, readFile, rm, stat, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import type { ResolvedConfig } from 'vite';
import { precompress } from './precompress.ts';

/** The build step that writes each text file's .br and .gz siblings, run on a temporary output folder. */

let root: string | undefined;
afterEach(async () => {
  if (root) await rm(root, { recursive: true, force: true });
});

async function run(dir: string) {
  const plugin = precompress();
  (plugin.configResolved as (config: ResolvedConfig) => void)({
    root: dir,
    build: { outDir: 'dist' },
  } as ResolvedConfig);
  await (plugin.closeBundle as () => Promise<void>)();
}

describe('precompress', () => {
  it('writes brotli and gzip siblings of every text file that decode to it, and leaves the rest', async () => {
    root = await mkdtemp(join(tmpdir(), 'precompress-'));
    const dist = join(root, 'dist');
    await mkdir(join(dist, 'assets'), { recursive: true });
    await mkdir(join(dist, '.vite'));
    const script = `export const text = ${JSON.stringify('words '.repeat(500))};`;
    await writeFile(join(dist, 'assets', 'app-1a2b.js'), script);
    await writeFile(join(dist, 'assets', 'app-1a2b.css'), `.a{color:red}\n`.repeat(100));
    await writeFile(join(dist, 'index.html'), `<!doctype html>${'<p>page</p>'.repeat(100)}`);
    await writeFile(join(dist, 'tiny.svg'), '<svg/>');
    await writeFile(join(dist, 'photo.png'), Buffer.alloc(4096, 7));
    await writeFile(join(dist, '.vite', 'manifest.json'), JSON.stringify({ padding: 'x'.repeat(2000) }));
    await run(root);

    for (const file of ['assets/app-1a2b.js', 'assets/app-1a2b.css', 'index.html']) {
      const original = await readFile(join(dist, file));
      const brotli = await readFile(join(dist, `${file}.br`));
      const gzip = await readFile(join(dist, `${file}.gz`));
      expect(brotliDecompressSync(brotli).equals(original), file).toBe(true);
      expect(gunzipSync(gzip).equals(original), file).toBe(true);
      expect(brotli.length, file).toBeLessThan(original.length / 4);
    }
    for (const file of ['tiny.svg', 'photo.png', '.vite/manifest.json']) {
      await expect(stat(join(dist, `${file}.br`)), file).rejects.toThrow();
    }
  });

  it('compresses again a file rebuilt after its siblings, and leaves an unchanged one', async () => {
    root = await mkdtemp(join(tmpdir(), 'precompress-'));
    const dist = join(root, 'dist');
    await mkdir(dist, { recursive: true });
    const page = join(dist, 'index.html');
    await writeFile(page, `<!doctype html>${'<p>one</p>'.repeat(100)}`);
    await run(root);
    const first = await stat(`${page}.br`);

    await run(root);
    expect((await stat(`${page}.br`)).mtimeMs).toBe(first.mtimeMs);

    const rebuilt = `<!doctype html>${'<p>two</p>'.repeat(100)}`;
    await writeFile(page, rebuilt);
    const later = new Date(first.mtimeMs + 10_000);
    await utimes(page, later, later);
    await run(root);
    expect(brotliDecompressSync(await readFile(`${page}.br`)).toString()).toBe(rebuilt);
    expect(gunzipSync(await readFile(`${page}.gz`)).toString()).toBe(rebuilt);
  });
});
