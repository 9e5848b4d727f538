import { existsSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import os from 'node:os';
import type { ReadPlans } from '../eventstore/explain-read.ts';
import { formatNumber, formatTarget, verdict, type Figure } from './figures.ts';

export interface RunContext {
  startedAt: Date;
  seconds: number;
  scale: number;
  server: Record<string, string>;
  /** One-minute load average at the start and end of each part. */
  load: { part: string; before: number; after: number; seconds: number }[];
  /** Free-form lines: which projections ran, how the data was made, what was skipped. */
  notes: string[];
  plans?: ReadPlans;
}

const escape = (text: string) => text.replace(/\|/g, '\\|');

/** The table of every figure next to its target. */
export function figuresTable(figures: Figure[]): string {
  const lines = ['| Part | Figure | Value | Target | Result | Notes |', '|---|---|---:|---|---|---|'];
  for (const figure of figures) {
    const result = verdict(figure);
    const value = `${formatNumber(figure.value, figure.digits ?? 0)}${figure.unit && figure.value !== null ? ` ${figure.unit}` : ''}`;
    const shown = result === 'pass' ? '✅ pass' : result === 'miss' ? '❌ miss' : result;
    lines.push(
      `| ${figure.part} | ${escape(figure.name)} | ${value} | ${formatTarget(figure)} | ${shown} | ${escape(figure.note ?? '')} |`,
    );
  }
  return lines.join('\n');
}

export function summary(figures: Figure[]): string {
  const verdicts = figures.map(verdict);
  const count = (wanted: string) => verdicts.filter((v) => v === wanted).length;
  return `${count('pass')} pass, ${count('miss')} miss, ${count('n/a')} not measured (of ${verdicts.filter((v) => v !== '').length} figures with a target)`;
}

function machine(context: RunContext): string {
  const cpus = os.cpus();
  const gib = (bytes: number) => (bytes / 1024 ** 3).toFixed(1);
  const server = Object.entries(context.server)
    .map(([name, value]) => `${name}=${value}`)
    .join(', ');
  return [
    `- Date: ${context.startedAt.toISOString()} (run took ${Math.round(context.seconds)} s, BENCH_SCALE=${context.scale})`,
    `- Machine: ${cpus.length} cores (${cpus[0]?.model.trim() ?? 'unknown CPU'}), ${gib(os.totalmem())} GiB memory, ${os.platform()} ${os.release()}`,
    `- Node.js ${process.version}; PostgreSQL (embedded, one server for every part, default durability): ${server}`,
    `- Load average (1 min) at the start/end of each part — the machine is shared, so absolute figures drift; ` +
      `figures that matter are paired against a peer in the same run: ` +
      context.load
        .map((l) => `${l.part} ${l.before.toFixed(1)}/${l.after.toFixed(1)} (${Math.round(l.seconds)} s)`)
        .join(', '),
  ].join('\n');
}

function plans(context: RunContext): string {
  if (!context.plans) return '';
  const block = (title: string, plan: ReadPlans['ours']) =>
    [
      `**${title}** — one batch from the middle of the log: server ${plan.serverMs.toFixed(1)} ms (EXPLAIN ANALYZE), ` +
        `wall time through pg with rows decoded ${plan.clientMs.toFixed(1)} ms.`,
      '',
      '```sql',
      plan.sql,
      '```',
      '',
      '```',
      ...plan.plan,
      '```',
    ].join('\n');
  return [
    '## Global log read: query plans',
    '',
    block('Project adapter (readAll)', context.plans.ours),
    '',
    block('Emmett (readMessagesBatch)', context.plans.emmett),
  ].join('\n');
}

/** bench/RESULTS.md: context, the table, the plans, and the analysis kept in bench/analysis.md. */
export async function writeResults(
  file: URL,
  analysisFile: URL,
  figures: Figure[],
  context: RunContext,
): Promise<void> {
  const analysis = existsSync(analysisFile) ? (await readFile(analysisFile, 'utf8')).trim() : '';
  const text = [
    '# Benchmark results',
    '',
    'Written by `npm run bench` (bench/run.ts). Targets are the performance targets, on 2 cores; the bench reports them and',
    'does not fail on a miss.',
    '',
    machine(context),
    '',
    '## Figures',
    '',
    figuresTable(figures),
    '',
    `Summary: ${summary(figures)}.`,
    '',
    ...(context.notes.length > 0
      ? ['## How the figures were made', '', ...context.notes.map((n) => `- ${n}`), '']
      : []),
    plans(context),
    '',
    ...(analysis ? [analysis.replace(/^# /m, '## '), ''] : []),
  ].join('\n');
  await writeFile(file, text);
}
