import { readdir, readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import type { Plugin } from 'vite';

/**
 * A build step of the web apps: every text file of the output (scripts, styles, the page,
 * messages, icons) gets a brotli (.br) and a gzip (.gz) sibling at the highest quality, which
 * the service sends as they are to a browser that accepts them (services/web/web-routes.ts,
 * @fastify/static's preCompressed), so no request pays for compressing.
 *
 * Written here rather than taken from a plugin package: it is two zlib calls over the output
 * folder. The output folder is not emptied between builds (vite-config.ts), so a file whose
 * siblings are newer than itself is left as it is.
 */
const TEXT_FILE = /\.(?:js|mjs|css|html|svg|json|webmanifest|txt)$/;
/** Smaller files are sent as they are: a compressed body would hardly be smaller than its headers. */
const SMALLEST = 256;

const brotli = promisify(brotliCompress);
const gzipped = promisify(gzip);

export function precompress(): Plugin {
  let outDir = '';
  return {
    name: 'precompress',
    apply: 'build',
    configResolved(config) {
      outDir = join(config.root, config.build.outDir);
    },
    async closeBundle() {
      await Promise.all((await textFiles(outDir)).map(compressFile));
    },
  };
}

async function textFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true, recursive: true });
  return entries
    .filter((entry) => entry.isFile() && TEXT_FILE.test(entry.name) && !entry.parentPath.includes('.vite'))
    .map((entry) => join(entry.parentPath, entry.name));
}

async function compressFile(path: string): Promise<void> {
  const source = await stat(path);
  if (source.size < SMALLEST) return;
  const sibling = await stat(`${path}.br`).catch(() => null);
  if (sibling && sibling.mtimeMs >= source.mtimeMs) return;
  const body = await readFile(path);
  const [br, gz] = await Promise.all([
    brotli(body, {
      params: {
        [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
        [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
        [constants.BROTLI_PARAM_SIZE_HINT]: body.length,
      },
    }),
    gzipped(body, { level: constants.Z_BEST_COMPRESSION }),
  ]);
  // The .br last: a .br newer than its file says both siblings are written.
  await writeFile(`${path}.gz`, gz);
  await writeFile(`${path}.br`, br);
}
