import type { Pool } from '../../shared/db/pool.ts';
import type { RecordedEvent } from '../../shared/event-store/event-store.ts';
import type { Projection } from '../../shared/projections/projection.ts';

/**
 * A stand-in for the onboardings read model while services/app/projections.ts has no
 * projection of onboarding events: one row per onboarding with its status, progress and
 * counters. It folds a batch in memory and writes it with one multi-row upsert, the way
 * a projection should be written to replay fast.
 */
export const STAND_IN_TABLE = 'bench_onboardings';

export async function createStandInTable(pool: Pool): Promise<void> {
  await pool.query(`
    create table if not exists ${STAND_IN_TABLE} (
      id uuid primary key,
      team_id uuid,
      client_id uuid,
      status text,
      progress_pct integer not null default 0,
      answers integer not null default 0,
      sends integer not null default 0,
      created_at timestamptz,
      position bigint not null
    )`);
}

interface Delta {
  id: string;
  teamId: string | null;
  clientId: string | null;
  status: string | null;
  progress: number | null;
  answers: number;
  sends: number;
  createdAt: string | null;
  position: bigint;
}

const STATUS_BY_TYPE: Record<string, string> = {
  onboarding_created: 'draft',
  'onboarding.sent': 'sent',
  'onboarding.started': 'in_progress',
  'onboarding.completed': 'completed',
  onboarding_cancelled: 'cancelled',
  onboarding_expired: 'expired',
};

function fold(events: RecordedEvent[]): Delta[] {
  const deltas = new Map<string, Delta>();
  for (const event of events) {
    const data = event.data as Record<string, unknown> | null;
    const id = typeof data?.onboarding_id === 'string' ? data.onboarding_id : undefined;
    if (!id || !event.streamId.startsWith('onboarding-')) continue;
    let delta = deltas.get(id);
    if (!delta) {
      delta = {
        id,
        teamId: null,
        clientId: null,
        status: null,
        progress: null,
        answers: 0,
        sends: 0,
        createdAt: null,
        position: event.position,
      };
      deltas.set(id, delta);
    }
    delta.position = event.position;
    delta.status = STATUS_BY_TYPE[event.type] ?? delta.status;
    if (event.type === 'onboarding_created') {
      delta.teamId = String(data!.team_id);
      delta.clientId = String(data!.client_id);
      delta.createdAt = String(data!.created_at);
    }
    if (event.type === 'onboarding.sent') delta.sends++;
    if (event.type === 'answer_saved') delta.answers++;
    if (typeof data!.progress_pct === 'number') delta.progress = data!.progress_pct;
  }
  return [...deltas.values()];
}

export const standInProjection: Projection = {
  name: 'bench_onboardings',
  tables: [STAND_IN_TABLE],
  async apply(client, events, table) {
    const deltas = fold(events);
    if (deltas.length === 0) return;
    const t = table(STAND_IN_TABLE);
    await client.query(
      `insert into ${t} as o (id, team_id, client_id, status, progress_pct, answers, sends, created_at, position)
       select id, team_id, client_id, status, coalesce(progress, 0), answers, sends, created_at, position
       from unnest($1::uuid[], $2::uuid[], $3::uuid[], $4::text[], $5::int[], $6::int[], $7::int[],
                   $8::timestamptz[], $9::bigint[])
            as d(id, team_id, client_id, status, progress, answers, sends, created_at, position)
       on conflict (id) do update set
         team_id = coalesce(excluded.team_id, o.team_id),
         client_id = coalesce(excluded.client_id, o.client_id),
         status = coalesce(excluded.status, o.status),
         progress_pct = greatest(excluded.progress_pct, o.progress_pct),
         answers = o.answers + excluded.answers,
         sends = o.sends + excluded.sends,
         created_at = coalesce(excluded.created_at, o.created_at),
         position = excluded.position`,
      [
        deltas.map((d) => d.id),
        deltas.map((d) => d.teamId),
        deltas.map((d) => d.clientId),
        deltas.map((d) => d.status),
        deltas.map((d) => d.progress),
        deltas.map((d) => d.answers),
        deltas.map((d) => d.sends),
        deltas.map((d) => d.createdAt),
        deltas.map((d) => String(d.position)),
      ],
    );
  },
};

/**
 * The projections a part runs: every one in allProjections, plus the stand-in while none
 * of them is named after onboardings. Returns the list and a line for the report.
 */
export function projectionsUnderTest(all: Projection[]): { projections: Projection[]; description: string } {
  const hasOnboardings = all.some((projection) => /onboarding/i.test(projection.name));
  const projections = hasOnboardings ? all : [...all, standInProjection];
  const names = projections.map((projection) => projection.name).join(', ');
  return {
    projections,
    description: hasOnboardings
      ? `allProjections (${names})`
      : `allProjections + bench stand-in for the onboardings read model (${names})`,
  };
}
