/**
 * The template builder's model, pure: a template as the builder edits it (steps and
 * fields in order, each with its own id), new steps and fields with their starting
 * config, moves, translations, and the checks the service applies to a save (the field
 * catalogue's config rules and the conditional rules' format, the same modules), turned
 * into sentences shown beside the step or field.
 */
import type { ApiAnswer } from '../../api.ts';
import { t } from '../../i18n.ts';
import { ruleProblems } from '../../../../../templates/contract/conditional-rules.ts';
import {
  DEFAULT_FILE_TYPES,
  fieldConfigProblems,
  isDisplayOnly,
  type FieldType,
} from '../../../../../templates/contract/field-catalogue.ts';
import {
  AMOUNT_RULE_TEXT,
  MAX_AMOUNT_CENTS,
  minimumCharge,
  paymentCurrency,
} from '../../../../../templates/contract/payment-amount.ts';
import { currencyDecimals } from '../../../../../templates/contract/stripe-currencies.ts';

export type Translations = Record<string, Record<string, unknown>>;

export interface BuilderField {
  id: string;
  type: string;
  label: string;
  is_required: boolean;
  config: Record<string, unknown>;
  conditional_rules: unknown;
  translations: Translations | null;
}

export interface BuilderStep {
  id: string;
  title: string;
  is_optional: boolean;
  conditional_rules: unknown;
  translations: Translations | null;
  fields: BuilderField[];
}

export interface BuilderTemplate {
  id: string;
  version: number;
  name: string;
  description: string | null;
  vertical: string | null;
  settings: Record<string, unknown>;
  translations: Translations | null;
  steps: BuilderStep[];
}

/** The builder's sample agreement: a new signature field starts with it (is_sample_text true). */
export const SAMPLE_AGREEMENT_TEXT =
  'SAMPLE TEXT – replace it with your own agreement. By signing, I confirm that the information I gave is true and complete and I agree to the terms of our engagement.';

type Sortable = { sort_order?: number };
const bySortOrder = <T extends Sortable>(items: readonly T[]) =>
  [...items].sort((a, b) => (a.sort_order ?? 0) - (b.sort_order ?? 0));

const translationsOf = (value: unknown): Translations | null =>
  value && typeof value === 'object' && !Array.isArray(value) ? (value as Translations) : null;

/** A template as GET /workspace/v1/templates/{id} answers it (the generated OpenAPI type). */
export type TemplateView = ApiAnswer<'/workspace/v1/templates/{id}', 'get'>['template'];

/** The builder's template from GET /workspace/v1/templates/:id, steps and fields in sort_order. */
export function fromView(
  view: Pick<TemplateView, keyof BuilderTemplate | 'translations' | 'steps'>,
): BuilderTemplate {
  return {
    id: view.id,
    version: view.version,
    name: view.name,
    description: view.description,
    vertical: view.vertical,
    settings: view.settings ?? {},
    translations: translationsOf(view.translations),
    steps: bySortOrder(view.steps as Sortable[]).map((raw) => {
      const step = raw as Record<string, unknown>;
      return {
        id: String(step.id),
        title: String(step.title ?? ''),
        is_optional: step.is_optional === true,
        conditional_rules: step.conditional_rules ?? null,
        translations: translationsOf(step.translations),
        fields: bySortOrder((step.fields ?? []) as Sortable[]).map((rawField) => {
          const field = rawField as Record<string, unknown>;
          return {
            id: String(field.id),
            type: String(field.type),
            label: String(field.label ?? ''),
            is_required: field.is_required === true,
            config: (field.config ?? {}) as Record<string, unknown>,
            conditional_rules: field.conditional_rules ?? null,
            translations: translationsOf(field.translations),
          };
        }),
      };
    }),
  };
}

/** The body of PUT /workspace/v1/templates/:id: sort_order follows the builder's order. */
export function toDefinition(template: BuilderTemplate) {
  return {
    name: template.name,
    description: template.description,
    vertical: template.vertical,
    settings: template.settings,
    translations: template.translations,
    steps: template.steps.map((step, stepIndex) => ({
      id: step.id,
      title: step.title,
      sort_order: stepIndex,
      is_optional: step.is_optional,
      conditional_rules: step.conditional_rules,
      translations: step.translations,
      fields: step.fields.map((field, fieldIndex) => ({
        id: field.id,
        type: field.type,
        label: field.label,
        sort_order: fieldIndex,
        is_required: field.is_required,
        config: field.config,
        conditional_rules: field.conditional_rules,
        translations: field.translations,
      })),
    })),
  };
}

const options = (...labels: string[]) => labels.map((label) => ({ value: label, label }));

/** A new field of `type` with the config it starts with. */
export function newField(type: FieldType, id: string, label: string): BuilderField {
  const config: Record<string, unknown> = (() => {
    switch (type) {
      case 'single_choice':
      case 'dropdown':
      case 'multiple_choice':
        return { options: options('Option 1', 'Option 2') };
      case 'file_upload':
        return { accept: [...DEFAULT_FILE_TYPES], max_files: 5 };
      case 'signature':
        return { agreement_text: SAMPLE_AGREEMENT_TEXT, is_sample_text: true };
      case 'payment':
        return { amount_cents: 10000, currency: 'USD' };
      case 'heading':
      case 'paragraph':
        return { text: '' };
      case 'checkbox':
        return { statement: '' };
      default:
        return {};
    }
  })();
  return {
    id,
    type,
    label,
    // Optional until the author says otherwise: a new field asks, it does not demand.
    is_required: false,
    config,
    conditional_rules: null,
    translations: null,
  };
}

/** A copy of `field` with its own id and `label`, placed by the caller (after the original). */
export function duplicateField(field: BuilderField, id: string, label: string): BuilderField {
  return { ...structuredClone(field), id, label };
}

/**
 * `field` added to `step`: right after the open field when it is in this step, else at the end.
 * Returns the index it went to.
 */
export function insertField(step: BuilderStep, field: BuilderField, afterId: string | null): number {
  const after = afterId === null ? -1 : step.fields.findIndex((candidate) => candidate.id === afterId);
  const at = after >= 0 ? after + 1 : step.fields.length;
  step.fields.splice(at, 0, field);
  return at;
}

export function newStep(id: string, title: string): BuilderStep {
  return { id, title, is_optional: false, conditional_rules: null, translations: null, fields: [] };
}

/** `items` with the item at `from` moved to `to` (both within bounds; otherwise unchanged). */
export function moveItem<T>(items: readonly T[], from: number, to: number): T[] {
  if (from === to || from < 0 || to < 0 || from >= items.length || to >= items.length) return [...items];
  const next = [...items];
  const [moved] = next.splice(from, 1);
  next.splice(to, 0, moved as T);
  return next;
}

/** `translations` with `key` of `locale` set to `value`; an empty value removes it (and an empty locale). */
export function withTranslation(
  translations: Translations | null,
  locale: string,
  key: string,
  value: unknown,
): Translations | null {
  const next: Translations = { ...(translations ?? {}) };
  const entry = { ...(next[locale] ?? {}) };
  const empty =
    value === '' ||
    value === null ||
    value === undefined ||
    (typeof value === 'object' && Object.keys(value as object).length === 0);
  if (empty) delete entry[key];
  else entry[key] = value;
  if (Object.keys(entry).length === 0) delete next[locale];
  else next[locale] = entry;
  return Object.keys(next).length === 0 ? null : next;
}

export const translated = (translations: Translations | null, locale: string, key: string): string => {
  const value = translations?.[locale]?.[key];
  return typeof value === 'string' ? value : '';
};

/** A catalogue message ("config.max_files must be at most 10") as a sentence for the author. */
export function sentence(message: string): string {
  const text = message
    .replace(/^conditional_rules/, 'The show-when rule')
    .replace(/config\.options\[(\d+)\]/g, (_m, index: string) => `Option ${Number(index) + 1}`)
    .replace(/config\.([a-z_]+)/g, (_m, key: string) => key.replace(/_/g, ' '));
  return text.charAt(0).toUpperCase() + text.slice(1) + (/[.!?]$/.test(text) ? '' : '.');
}

const AMOUNT_WORDS = `config.amount_cents must be ${AMOUNT_RULE_TEXT}`;

/** A payment amount outside Stripe's limits, in the field's currency: "Enter an amount from 0.50 to 999,999.99 EUR." */
function amountRange(config: Record<string, unknown>): string {
  const currency = paymentCurrency(config);
  const decimals = currencyDecimals(currency);
  const units = (amount: number) =>
    new Intl.NumberFormat('en-US', {
      minimumFractionDigits: decimals,
      maximumFractionDigits: decimals,
    }).format(amount / 10 ** decimals);
  const min = minimumCharge(currency) ?? 1;
  return `Enter an amount from ${units(min)} to ${units(MAX_AMOUNT_CENTS)} ${currency.toUpperCase()}.`;
}

/** The catalogue's problems of a field as the builder words them. */
const fieldSentences = (field: BuilderField) =>
  fieldConfigProblems(field).map((message) =>
    field.type === 'payment' && message === AMOUNT_WORDS ? amountRange(field.config) : sentence(message),
  );

export interface Problems {
  template: string[];
  steps: Record<string, string[]>;
  fields: Record<string, string[]>;
  count: number;
}

/** Everything the service would refuse in a save, by step and field id. */
export function problemsOf(template: BuilderTemplate): Problems {
  const ids = new Set(template.steps.flatMap((step) => step.fields.map((field) => field.id)));
  const problems: Problems = { template: [], steps: {}, fields: {}, count: 0 };
  if (template.name.trim() === '') problems.template.push(t('builder.nameRequired'));
  for (const step of template.steps) {
    const found = ruleProblems(step.conditional_rules, ids).map(sentence);
    if (found.length) problems.steps[step.id] = found;
    for (const field of step.fields) {
      const fieldFound = [
        ...(field.label.trim() === '' && !isDisplayOnly(field.type) ? [t('builder.labelRequired')] : []),
        ...fieldSentences(field),
        ...ruleProblems(field.conditional_rules, ids, field.id).map(sentence),
      ];
      if (fieldFound.length) problems.fields[field.id] = fieldFound;
    }
  }
  problems.count =
    problems.template.length +
    Object.values(problems.steps).reduce((sum, list) => sum + list.length, 0) +
    Object.values(problems.fields).reduce((sum, list) => sum + list.length, 0);
  return problems;
}

/** Signature fields still holding the sample agreement (is_sample_text): sends are blocked until replaced. */
export function sampleTextFields(template: BuilderTemplate): BuilderField[] {
  return template.steps.flatMap((step) =>
    step.fields.filter((field) => field.type === 'signature' && field.config.is_sample_text === true),
  );
}

/** The step and field a server message names ("steps[1].fields[0]: ..."), for showing it beside them. */
export function locateMessage(
  template: BuilderTemplate,
  message: string,
): { stepId?: string; fieldId?: string; text: string } {
  const match = /^steps\[(\d+)\](?:\.fields\[(\d+)\])?: (.*)$/.exec(message);
  if (!match) return { text: message };
  const step = template.steps[Number(match[1])];
  const field = match[2] === undefined ? undefined : step?.fields[Number(match[2])];
  return { stepId: step?.id, fieldId: field?.id, text: sentence(match[3] ?? '') };
}
