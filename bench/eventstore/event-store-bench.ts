import type { BenchConfig } from '../lib/config.ts';
import type { Figure } from '../lib/figures.ts';
import { saveGlobalTypes } from '../lib/pg-types.ts';
import type { Progress } from '../lib/progress.ts';
import type { BenchServer } from '../lib/server.ts';
import { appendFigures, runAppendBench } from './append-bench.ts';
import type { Contender } from './contender.ts';
import { emmettContender } from './emmett-contender.ts';
import { explainReads, type ReadPlans } from './explain-read.ts';
import { ourContender } from './ours-contender.ts';
import { oursInnerLimitReader } from './ours-inner-limit-reader.ts';
import { oursWithoutNotifyContender } from './ours-without-notify-contender.ts';
import { rawContender } from './raw-contender.ts';
import { readFigures, runReadBench } from './read-bench.ts';

export interface EventStoreBenchResult {
  figures: Figure[];
  plans: ReadPlans;
}

/**
 * Parts 1 and 2: the project's adapter, Emmett's PostgreSQL store and raw INSERTs, each in
 * its own database of the one bench server, measured in the same run, interleaved.
 */
export async function runEventStoreBench(
  server: BenchServer,
  config: BenchConfig,
  progress: Progress,
): Promise<EventStoreBenchResult> {
  const poolSize = Math.max(...config.concurrencies);
  const ourUrl = await server.createDatabase('bench_ours', { migrated: true });
  const emmettUrl = await server.createDatabase('bench_emmett');
  const rawUrl = await server.createDatabase('bench_raw');
  const globalTypes = saveGlobalTypes();
  const contenders: Contender[] = [];
  try {
    contenders.push(ourContender(ourUrl, poolSize));
    contenders.push(await emmettContender(emmettUrl, poolSize));
    contenders.push(await rawContender(rawUrl, poolSize));
    const diagnostic = await oursWithoutNotifyContender(
      await server.createDatabase('bench_ours_no_notify', { migrated: true }),
      poolSize,
    );
    if (diagnostic) contenders.push(diagnostic);
    else progress.log('  (diagnostic without NOTIFY left out: the adapter statement changed shape)');
    const appends = await runAppendBench(contenders, config, progress);
    const innerLimit = await oursInnerLimitReader(ourUrl);
    if (innerLimit) contenders.push(innerLimit);
    else progress.log('  (diagnostic read with inner LIMIT left out: the adapter statement changed shape)');
    const stores = contenders.filter((contender) => contender.readAll);
    const reads = await runReadBench(stores, config, progress);
    const plans = await explainReads(ourUrl, emmettUrl, config.readBatch);
    return { figures: [...appendFigures(appends, config), ...readFigures(reads, config)], plans };
  } finally {
    for (const contender of contenders) await contender.close().catch(() => undefined);
    // Emmett's dumbo replaced pg's global type parsers; later parts run the project's code.
    globalTypes.restore();
  }
}
