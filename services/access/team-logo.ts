import type { Pool } from '../../shared/db/pool.ts';
import type { LogoUpload } from './team-branding.ts';

/**
 * Logo bytes of teams (table team_logos, infra/migrations/083_team_branding.sql), by
 * team and SHA-256. The teams read model says which logo is the team's current one
 * (currentTeamLogo, projections/teams/queries.ts).
 */

type Queryable = Pick<Pool, 'query'>;

/** Stores a logo's bytes (once per team and content). */
export async function saveTeamLogo(db: Queryable, teamId: string, logo: LogoUpload, now: Date) {
  await db.query(
    `insert into team_logos (team_id, sha256, content_type, content, created_at)
     values ($1, $2, $3, $4, $5) on conflict (team_id, sha256) do nothing`,
    [teamId, logo.sha256, logo.content_type, logo.content, now],
  );
}
