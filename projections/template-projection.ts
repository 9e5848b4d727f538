import type { PoolClient } from '../shared/db/pool.ts';
import type { RecordedEvent } from '../shared/event-store/event-store.ts';
import type { TemplateContent, TemplateEvent } from '../shared/domain/template/template-events.ts';
import type { Projection } from './projection.ts';

/** JSON value for a jsonb column; JSON null becomes SQL null. */
const jsonb = (value: unknown) => (value === null || value === undefined ? null : JSON.stringify(value));

export function templateSnapshot(content: TemplateContent): TemplateContent {
  const { name, description, vertical, settings, translations, steps } = content;
  return { name, description, vertical, settings, translations, steps };
}

/**
 * Read models `templates`, `template_steps`, `template_fields`
 * (infra/migrations/011_templates.sql).
 */
export const templateProjection: Projection = {
  name: 'templates',
  tables: ['templates', 'template_steps', 'template_fields'],
  async apply(client: PoolClient, events: RecordedEvent[], table: (name: string) => string) {
    for (const recorded of events) {
      const event = { type: recorded.type, data: recorded.data } as TemplateEvent;
      switch (event.type) {
        case 'template.created': {
          const data = event.data;
          await client.query(
            `insert into ${table('templates')}
               (id, team_id, gallery, name, description, vertical, settings, translations, snapshot, created_at)
             values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) on conflict (id) do nothing`,
            [
              data.template_id,
              data.team_id,
              data.gallery,
              data.name,
              data.description,
              data.vertical,
              JSON.stringify(data.settings),
              jsonb(data.translations),
              JSON.stringify(templateSnapshot(data)),
              data.created_at,
            ],
          );
          for (const [stepPosition, step] of data.steps.entries()) {
            await client.query(
              `insert into ${table('template_steps')}
                 (id, template_id, position, title, sort_order, is_optional, conditional_rules, translations)
               values ($1, $2, $3, $4, $5, $6, $7, $8) on conflict (id) do nothing`,
              [
                step.id,
                data.template_id,
                stepPosition,
                step.title,
                step.sort_order,
                step.is_optional,
                jsonb(step.conditional_rules),
                jsonb(step.translations),
              ],
            );
            for (const [fieldPosition, field] of step.fields.entries()) {
              await client.query(
                `insert into ${table('template_fields')}
                   (id, template_id, step_id, position, type, label, sort_order, is_required, config,
                    conditional_rules, translations)
                 values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11) on conflict (id) do nothing`,
                [
                  field.id,
                  data.template_id,
                  step.id,
                  fieldPosition,
                  field.type,
                  field.label,
                  field.sort_order,
                  field.is_required,
                  JSON.stringify(field.config),
                  jsonb(field.conditional_rules),
                  jsonb(field.translations),
                ],
              );
            }
          }
          break;
        }
        case 'template.deleted':
          await client.query(
            `update ${table('templates')} set deleted_at = $2 where id = $1 and deleted_at is null`,
            [event.data.template_id, event.data.deleted_at],
          );
          break;
        default:
          break;
      }
    }
  },
};
