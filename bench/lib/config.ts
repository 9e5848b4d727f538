/**
 * Sizes of every benchmark, scaled by BENCH_SCALE (default 1; 0.1 for a quick run).
 * Counts never drop below a floor that still gives a meaningful figure.
 */
export interface BenchConfig {
  scale: number;
  /** Single-event appends per contender and round, by concurrency. */
  appendsPerRound: Record<number, number>;
  appendRounds: number;
  concurrencies: number[];
  /** Events in each store for the global-log read, and the batch size of a read. */
  readEvents: number;
  readBatch: number;
  readRounds: number;
  /** API load: seconds per scenario and the fixed request rates. */
  apiSeconds: number;
  apiRates: { create: number; send: number; list: number; get: number };
  /** Read-your-writes: appends measured, sequentially and with concurrent writers. */
  lagAppends: number;
  lagWriters: number;
  rebuildEvents: number;
  /** The rebuild is stopped after this many seconds (0: never); its rate is that of the part replayed. */
  rebuildSeconds: number;
}

function scaled(value: number, scale: number, floor: number): number {
  return Math.max(floor, Math.round(value * scale));
}

function seconds(value: string | undefined, fallback: number): number {
  if (value === undefined || value === '') return fallback;
  const parsed = Number(value);
  if (!Number.isInteger(parsed) || parsed < 0) {
    throw new Error(`BENCH_REBUILD_SECONDS=${JSON.stringify(value)}: expected whole seconds, 0 for no limit`);
  }
  return parsed;
}

export function loadBenchConfig(env: NodeJS.ProcessEnv = process.env): BenchConfig {
  const scale = env.BENCH_SCALE === undefined || env.BENCH_SCALE === '' ? 1 : Number(env.BENCH_SCALE);
  if (!Number.isFinite(scale) || scale <= 0 || scale > 10) {
    throw new Error(`BENCH_SCALE=${JSON.stringify(env.BENCH_SCALE)}: expected a number above 0, at most 10`);
  }
  return {
    scale,
    concurrencies: [1, 16, 64],
    appendsPerRound: {
      1: scaled(400, scale, 100),
      16: scaled(1500, scale, 300),
      64: scaled(1500, scale, 300),
    },
    appendRounds: 5,
    readEvents: scaled(100_000, scale, 20_000),
    readBatch: 1000,
    readRounds: 3,
    apiSeconds: scaled(10, scale, 3),
    apiRates: { create: 300, send: 300, list: 1000, get: 1000 },
    lagAppends: scaled(1500, scale, 300),
    lagWriters: 16,
    rebuildEvents: scaled(1_000_000, scale, 50_000),
    rebuildSeconds: seconds(env.BENCH_REBUILD_SECONDS, 150),
  };
}
