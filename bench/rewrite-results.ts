import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { Figure } from './lib/figures.ts';
import { writeResults, type RunContext } from './lib/report.ts';
import { ANALYSIS_FILE, LAST_RUN, RESULTS_FILE } from './lib/results-files.ts';
import { WORK_DIR } from './lib/server.ts';

/**
 * Writes bench/RESULTS.md again from the last run's figures (bench/.work/last-run.json),
 * e.g. after editing bench/analysis.md:  npx tsx bench/rewrite-results.ts
 */
const saved = JSON.parse(await readFile(path.join(WORK_DIR, LAST_RUN), 'utf8')) as {
  figures: Figure[];
  context: RunContext & { startedAt: string };
};
await writeResults(RESULTS_FILE, ANALYSIS_FILE, saved.figures, {
  ...saved.context,
  startedAt: new Date(saved.context.startedAt),
});
process.stderr.write('bench/RESULTS.md written from bench/.work/last-run.json\n');
