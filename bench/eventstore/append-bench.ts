import { randomUUID } from 'node:crypto';
import type { BenchConfig } from '../lib/config.ts';
import type { Figure } from '../lib/figures.ts';
import type { Progress } from '../lib/progress.ts';
import { sampleEvent } from '../lib/sample-event.ts';
import { median, perSecond, runConcurrently } from '../lib/stats.ts';
import type { Contender, ContenderFactory } from './contender.ts';

export interface AppendRates {
  /** events per second, by concurrency, contender key, round. */
  rates: Record<number, Record<string, number[]>>;
}

/** Unmeasured appends at the start of every turn: the turn's connections are opened then. */
const warmUp = (concurrency: number) => Math.max(50, 2 * concurrency);

/**
 * Single-event appends to distinct (new) streams, the way a create command appends.
 * At each concurrency every contender runs the same number of appends per round; rounds
 * alternate the contenders in rotating order (ours, emmett, raw / emmett, raw, ours / ...)
 * so that drift of a shared machine hits all of them alike. Ratios are taken per round
 * (paired) and the median of those is reported. Every turn opens the contender with a pool
 * of the turn's concurrency, warms it up unmeasured, measures, and closes it.
 */
export async function runAppendBench(
  contenders: ContenderFactory[],
  config: BenchConfig,
  progress: Progress,
): Promise<AppendRates> {
  const rates: AppendRates['rates'] = {};
  for (const concurrency of config.concurrencies) {
    const perRound = config.appendsPerRound[concurrency]!;
    rates[concurrency] = Object.fromEntries(contenders.map((contender) => [contender.key, []]));
    const total = contenders.length * (warmUp(concurrency) + perRound) * config.appendRounds;
    const phase = progress.phase(`append c=${concurrency}`, total);
    let finished = 0;
    const run = (contender: Contender, count: number) =>
      runConcurrently(
        count,
        concurrency,
        () => contender.appendOne(`onboarding-${randomUUID()}`, sampleEvent(randomUUID(), 0)),
        () => phase.update(++finished),
      );
    for (let round = 0; round < config.appendRounds; round++) {
      const order = contenders.map((_, i) => contenders[(i + round) % contenders.length]!);
      for (const factory of order) {
        const contender = await factory.open(concurrency);
        try {
          await run(contender, warmUp(concurrency));
          const ms = await run(contender, perRound);
          rates[concurrency]![factory.key]!.push(perSecond(perRound, ms));
        } finally {
          await contender.close();
        }
      }
    }
    const summary = contenders
      .map((contender) => `${contender.key} ${Math.round(median(rates[concurrency]![contender.key]!))}/s`)
      .join(', ');
    phase.done(summary);
  }
  return { rates };
}

/** Diagnostic contenders (proposed changes to the adapter) and their labels in the table. */
const DIAGNOSTICS: [string, string, string][] = [];

/** Median of the per-round ratios a/b. */
export function pairedRatio(a: number[], b: number[]): number {
  return median(a.map((value, round) => value / b[round]!));
}

export function appendFigures({ rates }: AppendRates, config: BenchConfig): Figure[] {
  const figures: Figure[] = [];
  for (const concurrency of config.concurrencies) {
    const at = rates[concurrency]!;
    const part = '1 append';
    const n = config.appendsPerRound[concurrency]!.toLocaleString('en-US');
    const note = `median of ${config.appendRounds} rounds × ${n} appends`;
    const paired = 'median of per-round ratios';
    figures.push(
      { part, name: `ours, c=${concurrency}`, value: median(at.ours!), unit: 'events/s', note },
      { part, name: `Emmett, c=${concurrency}`, value: median(at.emmett!), unit: 'events/s', note },
      {
        part,
        name: `ours / Emmett, c=${concurrency}`,
        value: pairedRatio(at.ours!, at.emmett!),
        unit: '×',
        digits: 2,
        target: concurrency === 16 ? { op: '>=', value: 2 } : undefined,
        note: paired,
      },
      {
        part: '2 raw ceiling',
        name: `raw INSERT, c=${concurrency}`,
        value: median(at.raw!),
        unit: 'rows/s',
        note,
      },
      {
        part: '2 raw ceiling',
        name: `ours / raw INSERT, c=${concurrency}`,
        value: pairedRatio(at.ours!, at.raw!),
        unit: '×',
        digits: 2,
        target: concurrency === 16 ? { op: '>=', value: 0.6 } : undefined,
        note: paired,
      },
    );
    for (const [key, label, what] of DIAGNOSTICS) {
      const rates = at[key];
      if (!rates) continue;
      const part = '1 diagnostic';
      figures.push(
        {
          part,
          name: `${label}, c=${concurrency}`,
          value: median(rates),
          unit: 'events/s',
          note: `diagnostic: ${what}`,
        },
        {
          part,
          name: `${label} / Emmett, c=${concurrency}`,
          value: pairedRatio(rates, at.emmett!),
          unit: '×',
          digits: 2,
          note: paired,
        },
        {
          part,
          name: `${label} / raw, c=${concurrency}`,
          value: pairedRatio(rates, at.raw!),
          unit: '×',
          digits: 2,
          note: paired,
        },
      );
    }
  }
  return figures;
}
