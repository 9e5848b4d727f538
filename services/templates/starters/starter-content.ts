import { randomUUID } from 'node:crypto';
import { isLocale, LOCALES, DEFAULT_LOCALE, type Locale } from '../../../shared/i18n/locales.ts';
import type { Json, TemplateContent, TemplateField } from '../template-events.ts';
import type { Starter, StarterField, Texts } from './starter-types.ts';

/**
 * A starter as a team's template: its own texts in the team's language, the other eight
 * locales as the template's translations (../contract/field-catalogue.ts translationFor:
 * a template {name, description}, a step {title}, a field {label, help_text, placeholder,
 * statement, text, options}). The team's own language is left out of the translations, so
 * what the team edits in the builder is what its clients read.
 */

/** The starter's language for a team or member: theirs when it is one of the nine, else en-US. */
export function starterLocale(locale: string | null | undefined): Locale {
  return isLocale(locale) ? locale : DEFAULT_LOCALE;
}

const otherLocales = (locale: Locale) => LOCALES.filter((other) => other !== locale);

/** Per other locale, the object `pick` makes of it. */
function perLocale(locale: Locale, pick: (other: Locale) => Record<string, Json>): Json {
  return Object.fromEntries(otherLocales(locale).map((other) => [other, pick(other)]));
}

const TEXT_KEYS = ['help_text', 'placeholder', 'statement', 'text'] as const;

function fieldTexts(field: StarterField, locale: Locale): Record<string, Json> {
  const texts: Record<string, Json> = { label: field.label[locale] };
  for (const key of TEXT_KEYS) {
    const value: Texts | undefined = field[key];
    if (value) texts[key] = value[locale];
  }
  if (field.options) {
    texts['options'] = Object.fromEntries(
      field.options.map((option) => [option.value, option.label[locale]]),
    );
  }
  return texts;
}

function fieldOf(field: StarterField, sortOrder: number, locale: Locale): TemplateField {
  const config: Record<string, Json> = { ...(field.config ?? {}) };
  for (const key of TEXT_KEYS) {
    const value: Texts | undefined = field[key];
    if (value) config[key] = value[locale];
  }
  if (field.options) {
    config['options'] = field.options.map((option) => ({ value: option.value, label: option.label[locale] }));
  }
  if (field.sample_agreement) {
    config['agreement_text'] = field.sample_agreement[locale];
    config['is_sample_text'] = true;
  }
  return {
    id: randomUUID(),
    type: field.type,
    label: field.label[locale],
    sort_order: sortOrder,
    is_required: field.required ?? false,
    config,
    conditional_rules: null,
    translations: perLocale(locale, (other) => fieldTexts(field, other)),
  };
}

/** The starter as a new template's content in `locale`, with fresh step and field ids. */
export function starterContent(starter: Starter, locale: Locale): TemplateContent {
  return {
    name: starter.name[locale],
    description: starter.description[locale],
    vertical: starter.vertical[locale],
    settings: {},
    translations: perLocale(locale, (other) => ({
      name: starter.name[other],
      description: starter.description[other],
    })),
    steps: starter.steps.map((step, stepIndex) => ({
      id: randomUUID(),
      title: step.title[locale],
      sort_order: stepIndex + 1,
      is_optional: step.optional ?? false,
      conditional_rules: null,
      translations: perLocale(locale, (other) => ({ title: step.title[other] })),
      fields: step.fields.map((field, fieldIndex) => fieldOf(field, fieldIndex + 1, locale)),
    })),
  };
}

/** The starter as a row of the gallery, in the reader's language. */
export function starterGalleryItem(starter: Starter, locale: Locale) {
  return {
    id: starter.id,
    name: starter.name[locale],
    description: starter.description[locale],
    vertical: starter.vertical[locale],
    step_count: starter.steps.length,
    field_count: starter.steps.reduce((sum, step) => sum + step.fields.length, 0),
    sample_agreement_text: starter.steps.some((step) => step.fields.some((field) => field.sample_agreement)),
  };
}
