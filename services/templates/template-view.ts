import { z } from 'zod';
import type { TemplateContent } from './template-events.ts';

/**
 * A template as GET /api/v1/templates/:id answers it (client-onboarding-api.md,
 * Template): the list item fields (id, name, vertical, created_at), description, and
 * `template_steps` with `template_fields`, in the order given (clients sort by
 * sort_order). Built from a template's content, e.g. the `snapshot` column of the
 * `templates` read model.
 */
export const templateFieldSchema = z.object({
  id: z.string().uuid(),
  type: z.string(),
  label: z.string(),
  is_required: z.boolean(),
  sort_order: z.number().int(),
  config: z.record(z.unknown()),
  conditional_rules: z.unknown().nullable(),
});

export const templateStepSchema = z.object({
  id: z.string().uuid(),
  title: z.string(),
  sort_order: z.number().int(),
  is_optional: z.boolean(),
  conditional_rules: z.unknown().nullable(),
  template_fields: z.array(templateFieldSchema),
});

export const templateSchema = z.object({
  id: z.string().uuid(),
  name: z.string(),
  description: z.string().nullable(),
  vertical: z.string().nullable(),
  created_at: z.string(),
  template_steps: z.array(templateStepSchema),
});

export type TemplateView = z.infer<typeof templateSchema>;

export function templateView(
  template: { id: string; created_at: string | Date },
  content: TemplateContent,
): TemplateView {
  return {
    id: template.id,
    name: content.name,
    description: content.description,
    vertical: content.vertical,
    created_at: new Date(template.created_at).toISOString(),
    template_steps: content.steps.map((step) => ({
      id: step.id,
      title: step.title,
      sort_order: step.sort_order,
      is_optional: step.is_optional,
      conditional_rules: step.conditional_rules ?? null,
      template_fields: step.fields.map((field) => ({
        id: field.id,
        type: field.type,
        label: field.label,
        is_required: field.is_required,
        sort_order: field.sort_order,
        config: field.config,
        conditional_rules: field.conditional_rules ?? null,
      })),
    })),
  };
}
