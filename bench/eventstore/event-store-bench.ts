import type { BenchConfig } from '../lib/config.ts';
import type { Figure } from '../lib/figures.ts';
import { saveGlobalTypes } from '../lib/pg-types.ts';
import type { Progress } from '../lib/progress.ts';
import type { BenchServer } from '../lib/server.ts';
import { appendFigures, runAppendBench } from './append-bench.ts';
import type { Contender, ContenderFactory } from './contender.ts';
import { emmettContender } from './emmett-contender.ts';
import { explainReads, type ReadPlans } from './explain-read.ts';
import { ourContender } from './ours-contender.ts';
import { rawContender } from './raw-contender.ts';
import { readFigures, runReadBench } from './read-bench.ts';

/** Pool of the read part's stores (filling uses 8 connections, reading one). */
const READ_POOL = 8;

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
  const ourUrl = await server.createDatabase('bench_ours', { migrated: true });
  const emmettUrl = await server.createDatabase('bench_emmett');
  const rawUrl = await server.createDatabase('bench_raw');
  const globalTypes = saveGlobalTypes();
  const contenders: Contender[] = [];
  try {
    const factories: ContenderFactory[] = [
      { key: 'ours', open: async (poolSize) => ourContender(ourUrl, poolSize) },
      { key: 'emmett', open: (poolSize) => emmettContender(emmettUrl, poolSize) },
      { key: 'raw', open: (poolSize) => rawContender(rawUrl, poolSize) },
    ];
    const appends = await runAppendBench(factories, config, progress);

    contenders.push(ourContender(ourUrl, READ_POOL), await emmettContender(emmettUrl, READ_POOL));
    const reads = await runReadBench(contenders, config, progress);
    const plans = await explainReads(ourUrl, emmettUrl, config.readBatch);
    return { figures: [...appendFigures(appends, config), ...readFigures(reads, config)], plans };
  } finally {
    for (const contender of contenders) await contender.close().catch(() => undefined);
    // Emmett's dumbo replaced pg's global type parsers; later parts run the project's code.
    globalTypes.restore();
  }
}
