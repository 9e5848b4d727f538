import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { format, resolveConfig } from 'prettier';
import { buildAsyncApiDocument } from './asyncapi-document.ts';
import { toYaml } from './yaml.ts';

/**
 * Writes infra/asyncapi/onboarding-events.yaml from the event catalog.
 *   npx tsx infra/asyncapi/generate-asyncapi.ts          write it
 *   npx tsx infra/asyncapi/generate-asyncapi.ts --check  exit 1 when it is out of date
 */
export const DOCUMENT_PATH = path.join(
  path.dirname(fileURLToPath(import.meta.url)),
  'onboarding-events.yaml',
);

/** The document as written: our YAML, formatted by the repository's prettier settings. */
export async function renderAsyncApiDocument(): Promise<string> {
  const options = (await resolveConfig(DOCUMENT_PATH)) ?? {};
  return format(toYaml(buildAsyncApiDocument()), { ...options, parser: 'yaml' });
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const rendered = await renderAsyncApiDocument();
  if (process.argv.includes('--check')) {
    const current = await readFile(DOCUMENT_PATH, 'utf8').catch(() => '');
    if (current !== rendered) {
      console.error(`${DOCUMENT_PATH} is out of date: run npx tsx infra/asyncapi/generate-asyncapi.ts`);
      process.exit(1);
    }
  } else {
    await writeFile(DOCUMENT_PATH, rendered);
    console.error(`wrote ${DOCUMENT_PATH}`);
  }
}
