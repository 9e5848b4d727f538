import { readFile, writeFile } from 'node:fs/promises';
import { figuresTable, type RunContext } from './report.ts';
import type { Figure } from './figures.ts';

/** Cells of a markdown table row (escaped pipes stay inside their cell). */
const cells = (row: string) =>
  row
    .trim()
    .replace(/^\||\|$/g, '')
    .split(/(?<!\\)\|/)
    .map((cell) => cell.trim());

/**
 * A run of some parts only (BENCH_PARTS) updates bench/RESULTS.md in place: the rows of
 * those parts are replaced (or added at the end of the table), their "How the figures
 * were made" lines too, the summary is counted again from the table, and a line under
 * the machine says when and under which load those parts were measured. The other parts'
 * figures stay as the last full run wrote them.
 */
export async function mergeResults(file: URL, figures: Figure[], context: RunContext): Promise<void> {
  const lines = (await readFile(file, 'utf8')).split('\n');
  const parts = new Set(figures.map((figure) => figure.part));
  const partNames = context.load.map((entry) => entry.part);

  const header = lines.findIndex((line) => line.startsWith('| Part | Figure |'));
  if (header < 0) throw new Error(`${file.pathname} has no figures table to merge into`);
  let end = header + 2;
  while (end < lines.length && lines[end]!.startsWith('|')) end++;
  const kept = lines.slice(header + 2, end).filter((row) => !parts.has(cells(row)[0]!));
  const added = figuresTable(figures).split('\n').slice(2);
  const rows = [...kept, ...added];
  lines.splice(header + 2, end - header - 2, ...rows);

  const results = rows.map((row) => cells(row)[4] ?? '');
  const count = (mark: string) => results.filter((result) => result.includes(mark)).length;
  const measured = results.filter((result) => result !== '').length;
  const summary = lines.findIndex((line) => line.startsWith('Summary: '));
  if (summary >= 0) {
    lines[summary] =
      `Summary: ${count('pass')} pass, ${count('miss')} miss, ${count('n/a')} not measured ` +
      `(of ${measured} figures with a target).`;
  }

  const separately = (name: string) => `- ${name}: measured on its own (BENCH_PARTS)`;
  const loadLine = lines.findIndex((line) => line.startsWith('- Load average'));
  for (const name of partNames) {
    const existing = lines.findIndex((line) => line.startsWith(separately(name)));
    if (existing >= 0) lines.splice(existing, 1);
  }
  lines.splice(
    loadLine + 1,
    0,
    ...context.load.map(
      (entry) =>
        `${separately(entry.part)} on ${context.startedAt.toISOString()}, BENCH_SCALE=${context.scale}, ` +
        `load average ${entry.before.toFixed(1)}/${entry.after.toFixed(1)} (${Math.round(entry.seconds)} s)`,
    ),
  );

  const notesHeader = lines.findIndex((line) => line === '## How the figures were made');
  if (notesHeader >= 0) {
    let notesEnd = notesHeader + 2;
    while (notesEnd < lines.length && lines[notesEnd]!.startsWith('- ')) notesEnd++;
    const prefixes = context.notes.map((note) => note.slice(0, note.indexOf(':') + 1));
    const keptNotes = lines
      .slice(notesHeader + 2, notesEnd)
      .filter((line) => !prefixes.some((prefix) => prefix && line.startsWith(`- ${prefix}`)));
    lines.splice(
      notesHeader + 2,
      notesEnd - notesHeader - 2,
      ...keptNotes,
      ...context.notes.map((n) => `- ${n}`),
    );
  }
  await writeFile(file, lines.join('\n'));
}
