import { randomUUID } from 'node:crypto';
import type { BenchConfig } from '../lib/config.ts';
import type { Figure } from '../lib/figures.ts';
import type { Progress } from '../lib/progress.ts';
import { sampleEvent } from '../lib/sample-event.ts';
import { median, perSecond, runConcurrently } from '../lib/stats.ts';
import type { Contender } from './contender.ts';

const EVENTS_PER_STREAM = 100;
const FILL_CONCURRENCY = 8;

export interface ReadRates {
  /** rows in each store's log */
  rows: number;
  /** events a full read returned, by contender */
  returned: Record<string, number>;
  rates: Record<string, number[]>;
}

/**
 * Fills each store's log to the same size with its own append (100 events per append, so
 * filling is fast), then reads the whole global log from the start in batches of
 * `readBatch`, alternating the stores round by round after one unmeasured warm-up scan.
 */
export async function runReadBench(
  contenders: Contender[],
  config: BenchConfig,
  progress: Progress,
): Promise<ReadRates> {
  const appends = Math.ceil(config.readEvents / EVENTS_PER_STREAM);
  const writers = contenders.filter((contender) => contender.appendMany);
  const fill = progress.phase('fill logs for the read', appends * writers.length);
  let filled = 0;
  const events = Array.from({ length: EVENTS_PER_STREAM }, (_, i) => sampleEvent(randomUUID(), i));
  for (const contender of writers) {
    await runConcurrently(
      appends,
      FILL_CONCURRENCY,
      () => contender.appendMany!(`onboarding-${randomUUID()}`, events),
      () => fill.update(++filled),
    );
  }
  fill.done();

  const rates: Record<string, number[]> = Object.fromEntries(contenders.map((c) => [c.key, []]));
  const scans = contenders.length * (config.readRounds + 1);
  const phase = progress.phase(`read global log, batch ${config.readBatch}`, scans);
  let done = 0;
  const sizes = await Promise.all(contenders.map((contender) => contender.logSize!()));
  if (new Set(sizes).size !== 1) throw new Error(`The logs differ in size: ${sizes.join(' vs ')}`);
  const returned: Record<string, number> = {};
  for (const contender of contenders) {
    returned[contender.key] = await contender.readAll!(config.readBatch);
    phase.update(++done);
  }
  for (let round = 0; round < config.readRounds; round++) {
    const order = contenders.map((_, i) => contenders[(i + round) % contenders.length]!);
    for (const contender of order) {
      const started = performance.now();
      const count = await contender.readAll!(config.readBatch);
      rates[contender.key]!.push(perSecond(count, performance.now() - started));
      phase.update(++done);
    }
  }
  phase.done(contenders.map((c) => `${c.key} ${Math.round(median(rates[c.key]!))}/s`).join(', '));
  return { rows: sizes[0]!, returned, rates };
}

export function readFigures({ rows, returned, rates }: ReadRates, config: BenchConfig): Figure[] {
  const part = '1 read';
  const note = `${rows.toLocaleString('en-US')} events, batches of ${config.readBatch}, median of ${config.readRounds}`;
  const shortfall = (key: string) =>
    returned[key] === rows
      ? ''
      : `; a full read returned ${returned[key]!.toLocaleString('en-US')} events for ${rows.toLocaleString('en-US')} in the log`;
  const ratio = (a: string, b: string) => median(rates[a]!.map((value, round) => value / rates[b]![round]!));
  const figures: Figure[] = [
    {
      part,
      name: 'ours, global log',
      value: median(rates.ours!),
      unit: 'events/s',
      target: { op: '>=', value: 100_000 },
      note: note + shortfall('ours'),
    },
    {
      part,
      name: 'Emmett, global log',
      value: median(rates.emmett!),
      unit: 'events/s',
      note: note + shortfall('emmett'),
    },
    {
      part,
      name: 'ours / Emmett, global log',
      value: ratio('ours', 'emmett'),
      unit: '×',
      digits: 2,
      note: 'median of per-round ratios',
    },
  ];
  return figures;
}
