import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { ROOT } from './npm-process.ts';

const BUILT_PAGES = ['services/web/client-form/dist/index.html', 'services/web/workspace/dist/index.html'];

/**
 * Global setup of the end-to-end run: the web apps, built once. `npm test` builds them before
 * any test (its `pretest`), so this only builds when they are missing (a first
 * `npm run test:e2e` on a fresh checkout). Most starts then skip `prestart`
 * (START_WITHOUT_BUILD in ./npm-process.ts) instead of building the same files again.
 */
export default function buildWebOnce() {
  if (BUILT_PAGES.every((page) => existsSync(path.join(ROOT, page)))) return;
  execFileSync('npm', ['run', 'build:web'], { cwd: ROOT, stdio: 'inherit' });
}
