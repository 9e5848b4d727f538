import '../lib/bench-kek.ts';
import { resourceUsage } from 'node:process';
import { allProjections } from '../../services/app/projections.ts';
import { rebuildProjections } from '../../shared/projections/rebuild.ts';
import { createPool } from '../../shared/db/pool.ts';
import { PostgresEventStore } from '../../shared/event-store/postgres-event-store.ts';
import { serveChild } from '../lib/child.ts';
import { postgresCpuMs } from '../lib/server-cpu.ts';
import { projectionsUnderTest, standInProjection } from '../lib/stand-in-projection.ts';

export interface RebuildInput {
  url: string;
  /** Diagnostic: replay into the set-based stand-in projection only (bench/lib/stand-in-projection.ts). */
  standInOnly?: boolean;
}

/** Sent after every replayed batch. */
export interface RebuildTick {
  events: number;
  /** events per second of the replay so far (shared/projections/rebuild.ts) */
  eventsPerSecond: number;
  peakRssBytes: number;
  maxRssBytes: number;
  baselineRssBytes: number;
}

export interface RebuildOutput {
  events: number;
  ms: number;
  /** Highest RSS sampled every 50 ms during the rebuild, and the kernel's peak (maxRSS). */
  peakRssBytes: number;
  maxRssBytes: number;
  /** RSS before the rebuild started (the loaded program). */
  baselineRssBytes: number;
  description: string;
  /** CPU the rebuild used: this process's, and PostgreSQL's (every backend of the machine). */
  cpu: { nodeMs: number; postgresMs: number };
}

/**
 * Runs `rebuildProjections` (shared/projections/rebuild.ts) in its own process, so that its peak
 * memory is the rebuild's alone and not the bench's.
 */
serveChild<RebuildInput, RebuildTick, RebuildOutput>(async ({ url, standInOnly }, progress) => {
  const { projections, description } = standInOnly
    ? { projections: [standInProjection], description: 'bench stand-in only' }
    : projectionsUnderTest(allProjections);
  const pool = createPool(url, 10);
  const store = new PostgresEventStore(pool, url);
  const baselineRssBytes = process.memoryUsage().rss;
  let peakRssBytes = baselineRssBytes;
  const sampler = setInterval(() => {
    peakRssBytes = Math.max(peakRssBytes, process.memoryUsage().rss);
  }, 50);
  try {
    const started = performance.now();
    const nodeBefore = process.cpuUsage();
    const postgresBefore = await postgresCpuMs();
    const { events } = await rebuildProjections(pool, store, projections, (p) =>
      progress({
        events: p.events,
        eventsPerSecond: p.eventsPerSecond,
        peakRssBytes,
        maxRssBytes: resourceUsage().maxRSS * 1024,
        baselineRssBytes,
      }),
    );
    const ms = performance.now() - started;
    const node = process.cpuUsage(nodeBefore);
    const cpu = {
      nodeMs: (node.user + node.system) / 1000,
      postgresMs: (await postgresCpuMs()) - postgresBefore,
    };
    peakRssBytes = Math.max(peakRssBytes, process.memoryUsage().rss);
    return {
      events,
      ms,
      peakRssBytes,
      maxRssBytes: resourceUsage().maxRSS * 1024,
      baselineRssBytes,
      description,
      cpu,
    };
  } finally {
    clearInterval(sampler);
    await store.close();
    await pool.end();
  }
});
