import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import { INT4_MAX, INT4_MIN } from '../../shared/validation/safe-text.ts';
import { showWhenOf } from './contract/conditional-rules.ts';
import { FIELD_TYPES } from './contract/field-catalogue.ts';
import type { Json, TemplateContent } from './template-events.ts';
import { TEMPLATE_LIMITS } from './template-limits.ts';

/**
 * A template's whole definition as the workspace builder sends it (POST and PUT
 * /workspace/v1/templates): the spec's snapshot shape, with the builder's own step and
 * field ids (kept across saves; a step or field without one gets a new id). The field
 * configs are checked by the decider against the catalogue (./contract/field-catalogue.ts), the
 * conditional rules against ./contract/conditional-rules.ts.
 */

const sortOrder = z.number().int().min(INT4_MIN).max(INT4_MAX);
const json = z.unknown().describe('any JSON value');

/** Per locale (en-US, de-DE, ...) the texts of a template, step or field (field-catalogue.ts translationFor). */
const translations = z
  .record(z.string().min(2).max(10), z.record(z.unknown()))
  .nullable()
  .optional()
  .describe('per locale, e.g. {"de-DE": {"label": "Name"}}');

const conditionalRules = json
  .nullable()
  .optional()
  .describe(
    '{"show_when": {"field_id", "operator": equals | contains | is_empty | is_not_empty, "value"}} or null',
  );

export const fieldDefinition = z.object({
  id: z.string().uuid().optional(),
  type: z
    .string()
    .trim()
    .min(1)
    .max(100)
    .describe(`one of ${FIELD_TYPES.join(', ')}`),
  label: z.string().max(1000),
  sort_order: sortOrder,
  is_required: z.boolean().optional(),
  config: z.record(z.unknown()).optional(),
  conditional_rules: conditionalRules,
  translations,
});

export const stepDefinition = z.object({
  id: z.string().uuid().optional(),
  title: z.string().max(1000),
  sort_order: sortOrder,
  is_optional: z.boolean().optional(),
  conditional_rules: conditionalRules,
  translations,
  fields: z.array(fieldDefinition).max(TEMPLATE_LIMITS.fieldsPerStep).optional(),
});

export const templateDefinition = z.object({
  name: z.string().trim().min(1, 'Give the template a name').max(200),
  description: z.string().max(10_000).nullable().optional(),
  vertical: z.string().max(200).nullable().optional(),
  settings: z.record(z.unknown()).optional(),
  translations,
  steps: z.array(stepDefinition).max(TEMPLATE_LIMITS.steps).optional(),
});

export type TemplateDefinition = z.infer<typeof templateDefinition>;

/** What a template's content is made of: a builder's definition, or an operator API body (no step or field ids). */
export interface ContentInput {
  name: string;
  description?: string | null;
  vertical?: string | null;
  settings?: Record<string, unknown>;
  translations?: unknown;
  steps?: {
    id?: string;
    title: string;
    sort_order: number;
    is_optional?: boolean;
    conditional_rules?: unknown;
    translations?: unknown;
    fields?: {
      id?: string;
      type: string;
      label: string;
      sort_order: number;
      is_required?: boolean;
      config?: Record<string, unknown>;
      conditional_rules?: unknown;
      translations?: unknown;
    }[];
  }[];
}

/** The content of a template, with new ids for the steps and fields that have none and the defaults filled in. */
export function contentOf(body: ContentInput): TemplateContent {
  return {
    name: body.name,
    description: body.description ?? null,
    vertical: body.vertical ?? null,
    settings: (body.settings ?? {}) as Record<string, Json>,
    translations: (body.translations ?? null) as Json,
    steps: (body.steps ?? []).map((step) => ({
      id: step.id ?? randomUUID(),
      title: step.title,
      sort_order: step.sort_order,
      is_optional: step.is_optional ?? false,
      conditional_rules: (step.conditional_rules ?? null) as Json,
      translations: (step.translations ?? null) as Json,
      fields: (step.fields ?? []).map((field) => ({
        id: field.id ?? randomUUID(),
        type: field.type,
        label: field.label,
        sort_order: field.sort_order,
        is_required: field.is_required ?? false,
        config: (field.config ?? {}) as Record<string, Json>,
        conditional_rules: (field.conditional_rules ?? null) as Json,
        translations: (field.translations ?? null) as Json,
      })),
    })),
  };
}

/**
 * A copy of `content` with new ids for every step and field (a duplicate, or a gallery
 * template copied into a team), its conditional rules renamed to the new field ids.
 */
export function withFreshIds(content: TemplateContent, name = content.name): TemplateContent {
  const renamed = new Map<string, string>();
  for (const step of content.steps) {
    renamed.set(step.id, randomUUID());
    for (const field of step.fields) renamed.set(field.id, randomUUID());
  }
  const rules = (value: Json): Json => {
    const rule = showWhenOf(value);
    if (!rule || !renamed.has(rule.field_id)) return value;
    const show = (value as { show_when: Record<string, Json> }).show_when;
    return { ...(value as object), show_when: { ...show, field_id: renamed.get(rule.field_id)! } } as Json;
  };
  return {
    ...structuredClone(content),
    name,
    steps: content.steps.map((step) => ({
      ...structuredClone(step),
      id: renamed.get(step.id)!,
      conditional_rules: rules(step.conditional_rules),
      fields: step.fields.map((field) => ({
        ...structuredClone(field),
        id: renamed.get(field.id)!,
        conditional_rules: rules(field.conditional_rules),
      })),
    })),
  };
}

/** Signature fields that block a send: sample agreement text (is_sample_text) or none. */
export function agreementTextBlockers(
  content: TemplateContent,
): Array<{ step_id: string; field_id: string }> {
  return content.steps.flatMap((step) =>
    step.fields
      .filter((field) => {
        if (field.type !== 'signature') return false;
        const text = field.config['agreement_text'];
        return field.config['is_sample_text'] === true || typeof text !== 'string' || text.trim() === '';
      })
      .map((field) => ({ step_id: step.id, field_id: field.id })),
  );
}
