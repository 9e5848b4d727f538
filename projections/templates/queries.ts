import type { TemplateContent } from '../../services/templates/template-events.ts';
import type { ReadClient } from '../read-client.ts';

/**
 * Reads of the templates read model (projection.ts) for the public API and the workspace.
 * A team reads only its own live templates: gallery templates (except through the gallery
 * reads), deleted ones and other teams' read as unknown.
 */

/** A template in a list: the public API's list and the workspace's template choices. */
export interface TemplateListItem {
  id: string;
  name: string;
  vertical: string | null;
  created_at: string;
}

/** A template with its whole definition (the snapshot) and its version. */
export interface TemplateRow {
  id: string;
  version: number;
  created_at: Date;
  updated_at: Date | null;
  snapshot: TemplateContent;
}

interface ListRow {
  id: string;
  name: string;
  vertical: string | null;
  created_at: Date;
}

const toListItem = (row: ListRow): TemplateListItem => ({ ...row, created_at: row.created_at.toISOString() });

/** The team's own, live templates ($1 the team). */
const OWN = 'team_id = $1 and not gallery and deleted_at is null';
const COLUMNS = 'id, version, created_at, updated_at, snapshot';

/** One page of the team's own templates, newest first, with the total. */
export async function listOwnTemplates(
  db: ReadClient,
  teamId: string,
  { page, limit }: { page: number; limit: number },
): Promise<{ templates: TemplateListItem[]; total: number }> {
  const [rows, total] = await Promise.all([
    db.query<ListRow>(
      `select id, name, vertical, created_at from templates where ${OWN}
       order by created_at desc, id desc limit $2 offset $3`,
      [teamId, limit, (page - 1) * limit],
    ),
    db.query<{ count: number }>(`select count(*)::int as count from templates where ${OWN}`, [teamId]),
  ]);
  return { templates: rows.rows.map(toListItem), total: total.rows[0]!.count };
}

/** The team's own templates by name, to choose from (at most `limit`). */
export async function templateChoices(
  db: ReadClient,
  teamId: string,
  limit: number,
): Promise<TemplateListItem[]> {
  const { rows } = await db.query<ListRow>(
    `select id, name, vertical, created_at from templates where ${OWN}
     order by lower(name), created_at, id limit $2`,
    [teamId, limit],
  );
  return rows.map(toListItem);
}

/** One of the team's own live templates; undefined when unknown, another team's, gallery or deleted. */
export async function ownTemplate(
  db: ReadClient,
  teamId: string,
  id: string,
): Promise<TemplateRow | undefined> {
  const { rows } = await db.query<TemplateRow>(`select ${COLUMNS} from templates where ${OWN} and id = $2`, [
    teamId,
    id,
  ]);
  return rows[0];
}

/** One live gallery template. */
export async function galleryTemplate(db: ReadClient, id: string): Promise<TemplateRow | undefined> {
  const { rows } = await db.query<TemplateRow>(
    `select ${COLUMNS} from templates where id = $1 and gallery and deleted_at is null`,
    [id],
  );
  return rows[0];
}

/** The gallery's live templates by name (at most 200). */
export async function galleryTemplates(db: ReadClient): Promise<TemplateRow[]> {
  const { rows } = await db.query<TemplateRow>(
    `select ${COLUMNS} from templates where gallery and deleted_at is null
     order by lower(name), created_at, id limit 200`,
  );
  return rows;
}
