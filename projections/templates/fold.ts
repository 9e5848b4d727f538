import type { RecordedEvent } from '../../shared/event-store/event-store.ts';
import type {
  TemplateContent,
  TemplateEvent,
  TemplateStep,
} from '../../services/templates/template-events.ts';

/**
 * The pure half of the templates read model (projection.ts holds its SQL): each
 * event becomes the row change it makes, in log order. jsonb columns travel as JSON text.
 */

export const TEMPLATE_EVENT_TYPES = ['template.created', 'template.updated', 'template.deleted'] as const;

/** JSON value for a jsonb column; JSON null becomes SQL null. */
const jsonb = (value: unknown) => (value === null || value === undefined ? null : JSON.stringify(value));

export function templateSnapshot(content: TemplateContent): TemplateContent {
  const { name, description, vertical, settings, translations, steps } = content;
  return { name, description, vertical, settings, translations, steps };
}

/** The content's columns, the same on insert and update: name to the snapshot. */
const contentColumns = (content: TemplateContent): unknown[] => [
  content.name,
  content.description,
  content.vertical,
  JSON.stringify(content.settings),
  jsonb(content.translations),
  JSON.stringify(templateSnapshot(content)),
];

type StepRows = Array<{ values: unknown[]; fields: unknown[][] }>;

/** Column values in the order of the insert and update statements of projection.ts. */
export type TemplateChange =
  | { kind: 'created'; template: unknown[]; steps: StepRows }
  | { kind: 'updated'; id: string; template: unknown[]; steps: StepRows }
  | { kind: 'deleted'; id: string; deleted_at: string };

/** The rows of a template's steps and their fields, in the order given. */
function stepRows(templateId: string, templateSteps: readonly TemplateStep[]): StepRows {
  const data = { template_id: templateId };
  const steps: StepRows = [];
  for (const [stepPosition, step] of templateSteps.entries()) {
    const fields: unknown[][] = [];
    steps.push({
      values: [
        step.id,
        data.template_id,
        stepPosition,
        step.title,
        step.sort_order,
        step.is_optional,
        jsonb(step.conditional_rules),
        jsonb(step.translations),
      ],
      fields,
    });
    for (const [fieldPosition, field] of step.fields.entries()) {
      fields.push([
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
      ]);
    }
  }
  return steps;
}

export function foldTemplate(changes: TemplateChange[], recorded: RecordedEvent): TemplateChange[] {
  const event = { type: recorded.type, data: recorded.data } as TemplateEvent;
  switch (event.type) {
    case 'template.created': {
      const data = event.data;
      const steps = stepRows(data.template_id, data.steps);
      changes.push({
        kind: 'created',
        template: [data.template_id, data.team_id, data.gallery, ...contentColumns(data), data.created_at],
        steps,
      });
      break;
    }
    case 'template.updated': {
      const data = event.data;
      changes.push({
        kind: 'updated',
        id: data.template_id,
        template: [...contentColumns(data), data.version, data.updated_at],
        steps: stepRows(data.template_id, data.steps),
      });
      break;
    }
    case 'template.deleted':
      changes.push({ kind: 'deleted', id: event.data.template_id, deleted_at: event.data.deleted_at });
      break;
    default:
      break;
  }
  return changes;
}
