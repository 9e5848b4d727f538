import type { PoolClient } from '../../shared/db/pool.ts';
import { readModelProjection } from '../../shared/projections/projection.ts';
import { foldTemplate, TEMPLATE_EVENT_TYPES, type TemplateChange } from './fold.ts';

/**
 * Read models `templates`, `template_steps`, `template_fields`
 * (infra/migrations/011_templates.sql, 109_template_versions.sql). The SQL half;
 * fold.ts folds the events into row changes, written here in log order (a
 * template's steps after it, its fields after their step). An update replaces the
 * template's columns and all of its steps and fields.
 */
export const templateProjection = readModelProjection<TemplateChange[]>({
  name: 'templates',
  tables: ['templates', 'template_steps', 'template_fields'],
  replayIndexes: ['template_steps_template_idx', 'template_fields_template_idx'],
  canHandle: TEMPLATE_EVENT_TYPES,
  load: async () => [],
  fold: foldTemplate,
  async persist(client, changes, table) {
    for (const change of changes) {
      if (change.kind === 'deleted') {
        await client.query(
          `update ${table('templates')} set deleted_at = $2 where id = $1 and deleted_at is null`,
          [change.id, change.deleted_at],
        );
        continue;
      }
      if (change.kind === 'updated') {
        await client.query(
          `update ${table('templates')} set name = $2, description = $3, vertical = $4, settings = $5,
             translations = $6, snapshot = $7, version = $8, updated_at = $9 where id = $1`,
          [change.id, ...change.template],
        );
        await client.query(`delete from ${table('template_fields')} where template_id = $1`, [change.id]);
        await client.query(`delete from ${table('template_steps')} where template_id = $1`, [change.id]);
        await insertSteps(client, table, change.steps);
        continue;
      }
      await client.query(
        `insert into ${table('templates')}
           (id, team_id, gallery, name, description, vertical, settings, translations, snapshot, created_at)
         values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) on conflict (id) do nothing`,
        change.template,
      );
      await insertSteps(client, table, change.steps);
    }
  },
});

async function insertSteps(
  client: PoolClient,
  table: (name: string) => string,
  steps: Extract<TemplateChange, { kind: 'created' }>['steps'],
) {
  for (const step of steps) {
    await client.query(
      `insert into ${table('template_steps')}
             (id, template_id, position, title, sort_order, is_optional, conditional_rules, translations)
           values ($1, $2, $3, $4, $5, $6, $7, $8) on conflict (id) do nothing`,
      step.values,
    );
    for (const field of step.fields) {
      await client.query(
        `insert into ${table('template_fields')}
               (id, template_id, step_id, position, type, label, sort_order, is_required, config,
                conditional_rules, translations)
             values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11) on conflict (id) do nothing`,
        field,
      );
    }
  }
}
