import { readModelProjection } from '../shared/projections/projection.ts';
import { foldTemplate, TEMPLATE_EVENT_TYPES, type TemplateChange } from './template-fold.ts';

/**
 * Read models `templates`, `template_steps`, `template_fields`
 * (infra/migrations/011_templates.sql). The SQL half; template-fold.ts folds the events
 * into row changes, written here in log order (a template's steps after it, its fields
 * after their step).
 */
export const templateProjection = readModelProjection<TemplateChange[]>({
  name: 'templates',
  tables: ['templates', 'template_steps', 'template_fields'],
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
      await client.query(
        `insert into ${table('templates')}
           (id, team_id, gallery, name, description, vertical, settings, translations, snapshot, created_at)
         values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) on conflict (id) do nothing`,
        change.template,
      );
      for (const step of change.steps) {
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
  },
});
