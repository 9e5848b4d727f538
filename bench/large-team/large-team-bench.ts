import { randomBytes } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { allProjections } from '../../services/app/projections.ts';
import type { RunningService } from '../../services/app/runtime.ts';
import { createPool } from '../../shared/db/pool.ts';
import { PostgresEventStore } from '../../shared/event-store/postgres-event-store.ts';
import { rebuildProjections } from '../../shared/projections/rebuild.ts';
import { runChildUntil } from '../lib/child.ts';
import type { BenchConfig } from '../lib/config.ts';
import type { Figure } from '../lib/figures.ts';
import type { Progress } from '../lib/progress.ts';
import { WORK_DIR, type BenchServer } from '../lib/server.ts';
import { percentile } from '../lib/stats.ts';
import { fillTeam, indexClients } from './fill-team.ts';
import { captureStatements, planOf, plansMarkdown, scansOf, type StatementPlan } from './query-plans.ts';
import type { ReadersInput, ReadersOutput } from './readers-child.ts';
import { FIGURE_HEADER, recordServerTimes, type ServerTime } from './server-timing.ts';
import { TeamHistory } from './team-history.ts';
import { setUpTeam, signIn, startOn, type TeamSetup } from './team-setup.ts';
import { exportViews, workspaceViews, type View, type ViewKind } from './views.ts';

export const LARGE_TEAM_PART = '12 large team';

/** The team at BENCH_SCALE=1, and the small team beside it. */
const LARGE = { onboardings: 100_000, clients: 50_000, events: 1_000_000 };
const SMALL = { onboardings: 300, clients: 150, events: 3_000 };
const TARGET_MS = 50;
/** Rounds of every view (p99 of fewer than 100 samples is the slowest), and of the exports. */
const ROUNDS = 50;
const EXPORT_ROUNDS = 8;
/** The large team's concurrent readers while the small team is measured, and for how long. */
const READERS = 8;
const LOAD_SECONDS = 30;
const PLANS_FILE = path.join(WORK_DIR, 'large-team-plans.md');

interface Team extends TeamSetup {
  label: 'large' | 'small';
  cookie: string;
  history: TeamHistory;
}

type Timings = ReturnType<typeof recordServerTimes>;

/**
 * Part 12: a workspace with a large history. One team of 100,000 onboardings, 50,000
 * clients and 1,000,000 events (BENCH_SCALE scales them) and a small team of a few hundred
 * onboardings beside it, on one database:
 *
 * 1. the service signs both teams up, makes each a template and one real onboarding (its
 *    template snapshot is what the history carries), and stops;
 * 2. the history is written set-based into the log (team-history.ts, fill-team.ts), with the
 *    rows commands write beside it; the read models come from the projections' own rebuild
 *    (shared/projections/rebuild.ts), the search index from the service's own tokens;
 * 3. the service starts again on it; every view (views.ts) is read in rounds, one request at
 *    a time, and timed on the server (server-timing.ts); the plans of each view's statements
 *    on the large team are kept (query-plans.ts);
 * 4. the small team is read alone, then while READERS closed loops (another process) read the
 *    large team.
 */
export async function runLargeTeamBench(
  server: BenchServer,
  config: BenchConfig,
  progress: Progress,
): Promise<{ figures: Figure[]; note: string }> {
  const scale = config.scale;
  const size = {
    onboardings: Math.max(2000, Math.round(LARGE.onboardings * scale)),
    clients: Math.max(1000, Math.round(LARGE.clients * scale)),
    events: Math.max(20_000, Math.round(LARGE.events * scale)),
  };
  const rounds = Math.max(10, Math.round(ROUNDS * Math.min(1, scale * 2)));
  const exportRounds = Math.max(3, Math.round(EXPORT_ROUNDS * Math.min(1, scale * 2)));
  const loadSeconds = Math.max(8, Math.round(LOAD_SECONDS * Math.min(1, scale * 2)));
  const url = await server.createDatabase('bench_large_team', { migrated: true });
  const adminToken = randomBytes(24).toString('hex');

  // 1. Two teams as their owners make them.
  let service = await startOn(url, adminToken);
  let setups: [TeamSetup, TeamSetup];
  try {
    setups = [
      await setUpTeam(service, adminToken, 'Large history'),
      await setUpTeam(service, adminToken, 'Small team'),
    ];
  } finally {
    await service.stop();
  }

  // 2. The history, then the read models by the rebuild.
  const now = new Date();
  const histories = setups.map(
    (setup, index) =>
      new TeamHistory({
        teamId: setup.teamId,
        ownerId: setup.memberId,
        templateId: setup.templateId,
        snapshot: setup.snapshot,
        timezone: setup.timezone,
        ...(index === 0 ? size : SMALL),
        emailDomain: index === 0 ? 'large.example' : 'small.example',
        now,
        seed: index + 1,
      }),
  );
  const pool = createPool(url, 6);
  const fill = { seconds: 0, rebuildSeconds: 0, indexSeconds: 0, events: 0, rebuilt: 0, tokens: 0 };
  try {
    const total = histories.reduce((sum, history) => sum + history.totalEvents, 0);
    const filling = progress.phase('history into the log', total, 'events');
    let started = performance.now();
    let before = 0;
    for (const history of histories) {
      const written = await fillTeam(pool, history, {
        update: (done) => filling.update(before + done),
        done: () => undefined,
      });
      before += written;
    }
    fill.events = before;
    fill.seconds = (performance.now() - started) / 1000;
    filling.done(`${before.toLocaleString('en-US')} events in ${fill.seconds.toFixed(0)} s`);
    await pool.query('vacuum analyze events, event_streams');

    const rebuilding = progress.phase('read models by the rebuild', total, 'events');
    started = performance.now();
    const store = new PostgresEventStore(pool, url);
    try {
      const result = await rebuildProjections(pool, store, allProjections, (p) =>
        rebuilding.update(p.events),
      );
      fill.rebuilt = result.events;
    } finally {
      await store.close();
    }
    fill.rebuildSeconds = (performance.now() - started) / 1000;
    rebuilding.done(
      `${fill.rebuilt.toLocaleString('en-US')} events replayed in ${fill.rebuildSeconds.toFixed(0)} s`,
    );
    // The consumers (notifications, hooks, automation) would have followed the log as it
    // was written: they start from its head, so they do not work through it while reading.
    await pool.query(
      `update checkpoints set position = greatest(position, (select max(position) from events))
       where name like 'consumer:%'`,
    );
    // Likewise the documents pass would have made each completion's signed PDF within seconds:
    // the history's completions count as documented, so the pass does not work through them
    // while the views are read (a team's steady state).
    await pool.query(`update onboardings set documented_send = send_count where status = 'completed'`);
    started = performance.now();
    for (const history of histories) fill.tokens += await indexClients(pool, history);
    fill.indexSeconds = (performance.now() - started) / 1000;
    // Steady state: statistics and visibility maps as autovacuum leaves them.
    await pool.query('vacuum analyze');
  } finally {
    await pool.end();
  }

  // 3. The service on the team's history.
  service = await startOn(url, adminToken);
  const timings = recordServerTimes();
  try {
    const teams: Team[] = [];
    for (const [index, setup] of setups.entries()) {
      const { cookie } = await signIn(service.url, setup.email, setup.password);
      teams.push({ ...setup, label: index === 0 ? 'large' : 'small', cookie, history: histories[index]! });
    }
    const [large, small] = teams as [Team, Team];
    const viewsOf = async (team: Team) => workspaceViews(team.memberId, await timelineIds(service, team));
    const largeViews = await viewsOf(large);
    const smallViews = await viewsOf(small);

    // Warm-up (unmeasured): key caches, plans, the pages' buffers.
    for (const [team, views] of [
      [large, largeViews],
      [small, smallViews],
    ] as const) {
      for (const view of views) for (const route of view.paths) await get(service.url, team.cookie, route);
    }

    const plans = await explainViews(service, large, [...largeViews, ...exportViews()], progress);

    const largeAlone = await measure(
      service.url,
      large,
      largeViews,
      rounds,
      timings,
      progress,
      'large team alone',
    );
    const largeExports = await measure(
      service.url,
      large,
      exportViews(),
      exportRounds,
      timings,
      progress,
      'large team exports',
    );
    const smallAlone = await measure(
      service.url,
      small,
      [...smallViews, ...exportViews()],
      rounds,
      timings,
      progress,
      'small team alone',
    );

    // 4. The small team while the large team is read by others.
    const loadPaths = largeViews.flatMap((view) => view.paths);
    const readers = runChildUntil<ReadersInput, { requests: number }, ReadersOutput>(
      new URL('./readers-child.ts', import.meta.url),
      { url: service.url, cookie: large.cookie, paths: loadPaths, readers: READERS, seconds: loadSeconds },
      () => undefined,
      (loadSeconds + 30) * 1000,
    );
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const smallLoaded = await measureFor(
      service.url,
      small,
      [...smallViews, ...exportViews()],
      (loadSeconds - 2) * 1000,
      timings,
      progress,
      'small team, large team read by 8',
    );
    const load = await readers;
    const loadTimes = timings.take('load');

    const figures = [
      ...largeFigures(largeAlone, largeExports),
      ...smallFigures(smallAlone, smallLoaded),
      {
        part: LARGE_TEAM_PART,
        name: 'large team read by 8 at once: server time p99',
        value: percentile(
          loadTimes.map((time) => time.totalMs),
          99,
        ),
        unit: 'ms',
        digits: 1,
        note: `${load?.requests ?? loadTimes.length} requests in ${loadSeconds} s (${load?.failed ?? 0} not 200), every view but the export`,
      },
    ];
    await mkdir(WORK_DIR, { recursive: true });
    await writeFile(PLANS_FILE, `# Part 12: plans on the large team\n\n${plansMarkdown(plans)}`);
    progress.log(`\n${plansMarkdown(plans)}\n  plans written to ${PLANS_FILE}`);
    const note =
      `Part 12: one database, two teams signed up through the service (each with a template of one step and three fields, ` +
      `and one onboarding made through the API, whose template snapshot the history carries). The large team's history: ` +
      `${size.onboardings.toLocaleString('en-US')} onboardings, ${size.clients.toLocaleString('en-US')} clients, ` +
      `${histories[0]!.totalEvents.toLocaleString('en-US')} events over two years (bench/large-team/team-history.ts: ` +
      `drafts, sent, in progress, completed and reviewed or waiting for review, changes requested, cancelled, expired, ` +
      `archived; due dates, a third assigned), the small team's ${SMALL.onboardings} onboardings; client fields and answers ` +
      `sealed with each client's own key. Written set-based into the log in the adapter's format (${fill.seconds.toFixed(0)} s), ` +
      `with the rows commands write beside it (data keys, the month's counts, the last 30 days' invites); the read models ` +
      `by shared/projections/rebuild.ts (${fill.rebuildSeconds.toFixed(0)} s), the search index from the service's ` +
      `clientTokens (${fill.tokens.toLocaleString('en-US')} tokens, ${fill.indexSeconds.toFixed(0)} s), then VACUUM ANALYZE. ` +
      `Server time: request parsed → last byte handed to the socket (Node's http.server diagnostics channels, the span of ` +
      `fastify's onResponse elapsedTime; the export's first body byte too), one request at a time, ${rounds} rounds of every ` +
      `view (${exportRounds} of each export); p99 of fewer than 100 samples is the slowest. Noisy neighbour: the small ` +
      `team's views in rounds for ${loadSeconds - 2} s while ${READERS} closed loops in another process read every view ` +
      `of the large team but the export. Plans (EXPLAIN ANALYZE of each view's slowest statement on the large team): ` +
      plans
        .map((plan) => `${plan.figure} ${plan.executionMs.toFixed(1)} ms (${scansOf(plan.plan)})`)
        .join('; ') +
      '.';
    return { figures, note };
  } finally {
    timings.stop();
    await service.stop();
  }
}

/** Twenty onboardings of the team whose timelines are read: old and new, every state. */
async function timelineIds(service: RunningService, team: TeamSetup): Promise<string[]> {
  const { rows } = await service.context.pool.query<{ id: string }>(
    `select id from onboardings where team_id = $1 and client_erased_at is null order by md5(id::text) limit 20`,
    [team.teamId],
  );
  return rows.map((row) => row.id);
}

async function get(url: string, cookie: string, route: string, figure?: string): Promise<number> {
  const response = await fetch(`${url}${route}`, {
    headers: { cookie, ...(figure ? { [FIGURE_HEADER]: figure } : {}) },
  });
  const body = await response.arrayBuffer();
  if (response.status !== 200)
    throw new Error(`GET ${route}: ${response.status} ${Buffer.from(body).toString()}`);
  return body.byteLength;
}

const tag = (team: Team, view: View, phase: string) =>
  encodeURIComponent(`${team.label}|${phase}|${view.name}`);

interface Measured {
  view: View;
  times: ServerTime[];
}

/** `rounds` rounds of every view, one request at a time, timed on the server. */
async function measure(
  url: string,
  team: Team,
  views: View[],
  rounds: number,
  timings: Timings,
  progress: Progress,
  label: string,
): Promise<Measured[]> {
  const bar = progress.phase(label, rounds, 'rounds');
  for (let round = 0; round < rounds; round++) {
    for (const view of views) {
      await get(url, team.cookie, view.paths[round % view.paths.length]!, tag(team, view, label));
    }
    bar.update(round + 1);
  }
  bar.done();
  return views.map((view) => ({ view, times: timings.take(tag(team, view, label)) }));
}

/** Rounds of every view for `ms`, one request at a time. */
async function measureFor(
  url: string,
  team: Team,
  views: View[],
  ms: number,
  timings: Timings,
  progress: Progress,
  label: string,
): Promise<Measured[]> {
  const bar = progress.phase(label, Math.round(ms / 1000), 's');
  const until = performance.now() + ms;
  for (let round = 0; performance.now() < until; round++) {
    for (const view of views) {
      await get(url, team.cookie, view.paths[round % view.paths.length]!, tag(team, view, label));
    }
    bar.update(Math.round((ms - (until - performance.now())) / 1000));
  }
  bar.done();
  return views.map((view) => ({ view, times: timings.take(tag(team, view, label)) }));
}

/** The plan of each view's statements on the large team, one request of each captured. */
async function explainViews(
  service: RunningService,
  team: Team,
  views: View[],
  progress: Progress,
): Promise<StatementPlan[]> {
  const bar = progress.phase('EXPLAIN ANALYZE per view', views.length, 'views');
  const plans: StatementPlan[] = [];
  for (const [index, view] of views.entries()) {
    const statements = await captureStatements(async () => {
      await get(service.url, team.cookie, view.paths[0]!);
    });
    plans.push(await planOf(service.context.pool, view.name, statements));
    bar.update(index + 1);
  }
  bar.done();
  return plans;
}

const p99 = (values: number[]) => percentile(values, 99);
const p50 = (values: number[]) => percentile(values, 50);

function largeFigures(alone: Measured[], exports: Measured[]): Figure[] {
  const figures: Figure[] = alone.map(({ view, times }) => {
    const totals = times.map((time) => time.totalMs);
    return {
      part: LARGE_TEAM_PART,
      name: `large: ${view.name} p99`,
      value: p99(totals),
      unit: 'ms',
      digits: 1,
      target: { op: '<=', value: TARGET_MS },
      note: `p50 ${p50(totals).toFixed(1)} ms, ${times.length} requests`,
    };
  });
  for (const { view, times } of exports) {
    const firstBytes = times.map((time) => time.firstByteMs);
    const totals = times.map((time) => time.totalMs);
    const bytes = times[0]?.bytes ?? 0;
    figures.push(
      {
        part: LARGE_TEAM_PART,
        name: `large: ${view.name}, first rows p99`,
        value: p99(firstBytes),
        unit: 'ms',
        digits: 1,
        target: { op: '<=', value: TARGET_MS },
        note: `server time to the first CSV bytes; ${times.length} exports`,
      },
      {
        part: LARGE_TEAM_PART,
        name: `large: ${view.name}, whole file p99`,
        value: p99(totals),
        unit: 'ms',
        digits: 0,
        note: `${(bytes / 1024 / 1024).toFixed(1)} MiB; p50 ${p50(totals).toFixed(0)} ms`,
      },
    );
  }
  return figures;
}

const KINDS: { kind: ViewKind; name: string }[] = [
  { kind: 'home', name: 'home' },
  { kind: 'list', name: 'onboardings list, every sort and filter' },
  { kind: 'clients', name: 'clients list' },
  { kind: 'search', name: 'client search' },
  { kind: 'timeline', name: 'timeline' },
  { kind: 'export', name: 'CSV export (whole file)' },
];

function smallFigures(alone: Measured[], loaded: Measured[]): Figure[] {
  const of = (measured: Measured[], kind: ViewKind) =>
    measured
      .filter(({ view }) => view.kind === kind)
      .flatMap(({ times }) => times.map((time) => time.totalMs));
  return KINDS.flatMap(({ kind, name }) => {
    const before = of(alone, kind);
    const during = of(loaded, kind);
    return [
      {
        part: LARGE_TEAM_PART,
        name: `small: ${name} p99, alone`,
        value: p99(before),
        unit: 'ms',
        digits: 1,
        note: `${before.length} requests`,
      },
      {
        part: LARGE_TEAM_PART,
        name: `small: ${name} p99, large team read by ${READERS}`,
        value: p99(during),
        unit: 'ms',
        digits: 1,
        target: { op: '<=', value: TARGET_MS },
        note: `${during.length} requests`,
      },
      {
        part: LARGE_TEAM_PART,
        name: `small: ${name} p99, read by ${READERS} / alone`,
        value: p99(during) / p99(before),
        unit: '×',
        digits: 2,
        note: 'same run',
      },
    ];
  });
}
