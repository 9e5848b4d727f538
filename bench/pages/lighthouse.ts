import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

/**
 * Lighthouse (mobile, its defaults: a mid-range phone on slow 4G, simulated) on one page, in
 * Debian's Chromium: the performance and best-practices scores, and what each loses points
 * on. Lighthouse is fetched by npm at its pinned version when the bench runs, not installed
 * with the project: it is a large tool that only this part uses, and 12.2.3 is the release
 * that runs on the machine's Node.js and Chromium.
 */
export const LIGHTHOUSE_VERSION = '12.2.3';
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const run = promisify(execFile);

export interface LighthouseScores {
  performance: number;
  bestPractices: number;
  /** Audits under 100 that weigh in either score, worst first ("id 0.42"). */
  losses: string[];
}

interface Report {
  categories: Record<string, { score: number | null; auditRefs: { id: string; weight: number }[] }>;
  audits: Record<string, { score: number | null; scoreDisplayMode: string; displayValue?: string }>;
}

/** Runs Lighthouse on `url` and keeps its whole report at `reportPath` (for the analysis). */
export async function lighthouse(url: string, reportPath: string): Promise<LighthouseScores> {
  const dir = await mkdtemp(path.join(tmpdir(), 'lighthouse-'));
  const output = path.join(dir, 'report.json');
  try {
    await run(
      'npm',
      [
        'exec',
        '--yes',
        `--package=lighthouse@${LIGHTHOUSE_VERSION}`,
        '--',
        'lighthouse',
        url,
        '--quiet',
        '--output=json',
        `--output-path=${output}`,
        '--only-categories=performance,best-practices',
        '--chrome-flags=--headless=new --no-sandbox --disable-gpu',
      ],
      { env: { ...process.env, CHROME_PATH: CHROMIUM }, timeout: 180_000, maxBuffer: 16 * 1024 * 1024 },
    );
    const text = await readFile(output, 'utf8');
    await writeFile(reportPath, text);
    const report = JSON.parse(text) as Report;
    const score = (category: string) => Math.round((report.categories[category]?.score ?? 0) * 100);
    const losses = ['performance', 'best-practices']
      .flatMap((category) => report.categories[category]?.auditRefs.filter((ref) => ref.weight > 0) ?? [])
      .map((ref) => ({ id: ref.id, audit: report.audits[ref.id] }))
      .filter(({ audit }) => audit && audit.scoreDisplayMode !== 'notApplicable' && (audit.score ?? 1) < 1)
      .sort((a, b) => (a.audit!.score ?? 0) - (b.audit!.score ?? 0))
      .map(
        ({ id, audit }) =>
          `${id} ${(audit!.score ?? 0).toFixed(2)}${audit!.displayValue ? ` (${audit!.displayValue})` : ''}`,
      );
    return { performance: score('performance'), bestPractices: score('best-practices'), losses };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
