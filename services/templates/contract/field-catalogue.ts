/**
 * The field types a template may hold, what each one's config means, and what counts as a
 * good answer. One module, pure and free of Node imports, because the client's form (in the
 * browser) and the service (the template checks of the operator API and the portal's
 * answer and step checks) must apply the same rules: a message shown beside a field in the
 * browser is the one the server would give.
 *
 * Answers are checked twice: `answerShapeProblem` on every autosave (the JSON type, length
 * caps, known options: what no half-typed answer can break), `answerProblem` when a step is
 * submitted (every rule, required included). Problems are codes with parameters; the page
 * turns them into the client's language.
 */

import { AMOUNT_RULE_TEXT, paymentProblem } from './payment-amount.ts';

export const FIELD_TYPES = [
  'short_text',
  'long_text',
  'email',
  'phone',
  'number',
  'date',
  'single_choice',
  'multiple_choice',
  'dropdown',
  'checkbox',
  'file_upload',
  'signature',
  'payment',
  'heading',
  'paragraph',
] as const;

export type FieldType = (typeof FIELD_TYPES)[number];

export interface CatalogueField {
  id: string;
  type: string;
  label: string;
  is_required: boolean;
  config: Record<string, unknown> | null;
  translations?: unknown;
}

export interface AnswerProblem {
  code: string;
  params?: Record<string, string | number>;
}

export interface ChoiceOption {
  value: string;
  label: string;
}

/** MIME types a file field may accept; the default when config.accept is absent. */
export const ACCEPTABLE_FILE_TYPES = [
  'application/pdf',
  'image/png',
  'image/jpeg',
  'image/webp',
  'image/heic',
  'image/gif',
  'text/plain',
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
] as const;

export const DEFAULT_FILE_TYPES: readonly string[] = [
  'application/pdf',
  'image/png',
  'image/jpeg',
  'image/webp',
  'image/heic',
];

export const MAX_FILE_SIZE_BYTES = 10 * 1024 * 1024;
export const DEFAULT_MAX_FILES = 5;
export const MAX_FILES_LIMIT = 10;
export const SHORT_TEXT_MAX = 500;
export const LONG_TEXT_MAX = 5000;
const TEXT_CAP = 20_000;
const OPTIONS_LIMIT = 100;
const DRAWING_MAX = 50_000;

const EMAIL = /^[^\s@]+@[^\s@.]+(\.[^\s@.]+)+$/;
const PHONE_CHARACTERS = /^\+?[\d\s().-]+$/;
const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
/** An ISO 4217 code in either case (Stripe writes them lower-case). */
const CURRENCY = /^[A-Za-z]{3}$/;
const DRAWING = /^[MLml\d\s.,-]*$/;

const isCurrencyCode = (value: unknown) => typeof value === 'string' && CURRENCY.test(value);

export function isFieldType(type: string): type is FieldType {
  return (FIELD_TYPES as readonly string[]).includes(type);
}

/** Types the client answers through PUT answers; the others are fulfilled by their own events or show text only. */
export function isAnswerable(type: string): boolean {
  return !['heading', 'paragraph', 'payment', 'file_upload', 'signature'].includes(type);
}

/** Heading and paragraph show text and take no answer. */
export function isDisplayOnly(type: string): boolean {
  return type === 'heading' || type === 'paragraph';
}

const configOf = (field: { config: Record<string, unknown> | null }) => field.config ?? {};

/**
 * Where a field's answer may start from the client record (`config.prefill`): the client's
 * name into a short text, the client's email into a short text or an email field. The
 * portal fills it in the first time the form opens, when the field has no answer yet.
 */
export const PREFILL_SOURCES: Readonly<Record<string, readonly string[]>> = {
  short_text: ['client_name', 'client_email'],
  email: ['client_email'],
};

export type PrefillSource = 'client_name' | 'client_email';

/** The client-record value a field starts from, or null (no config.prefill, or not one its type takes). */
export function prefillSource(field: {
  type: string;
  config: Record<string, unknown> | null;
}): PrefillSource | null {
  const source = configOf(field).prefill;
  return typeof source === 'string' && (PREFILL_SOURCES[field.type] ?? []).includes(source)
    ? (source as PrefillSource)
    : null;
}

function prefillProblems(type: string, config: Record<string, unknown>, problems: string[]) {
  if (config.prefill === undefined) return;
  const allowed = PREFILL_SOURCES[type] ?? [];
  if (allowed.length === 0) problems.push(`config.prefill is not taken by a ${type} field`);
  else if (typeof config.prefill !== 'string' || !allowed.includes(config.prefill)) {
    problems.push(`config.prefill must be one of ${allowed.join(', ')}`);
  }
}

const text = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);
const num = (value: unknown): number | undefined =>
  typeof value === 'number' && Number.isFinite(value) ? value : undefined;

/** The options of a choice field: `config.options` as {value, label} objects or plain strings. */
export function choiceOptions(field: { config: Record<string, unknown> | null }): ChoiceOption[] {
  const options = configOf(field).options;
  if (!Array.isArray(options)) return [];
  return options.flatMap((option): ChoiceOption[] => {
    if (typeof option === 'string') return [{ value: option, label: option }];
    if (option && typeof option === 'object') {
      const { value, label } = option as { value?: unknown; label?: unknown };
      if (typeof value === 'string') return [{ value, label: typeof label === 'string' ? label : value }];
    }
    return [];
  });
}

export function textLimit(field: CatalogueField): number {
  const fallback = field.type === 'long_text' ? LONG_TEXT_MAX : SHORT_TEXT_MAX;
  return num(configOf(field).max_length) ?? fallback;
}

export function fileConfig(field: { config: Record<string, unknown> | null }): {
  accept: string[];
  max_files: number;
  max_size_bytes: number;
} {
  const config = configOf(field);
  const accept = Array.isArray(config.accept)
    ? config.accept.filter((type): type is string => typeof type === 'string')
    : [...DEFAULT_FILE_TYPES];
  const maxSizeMb = num(config.max_size_mb);
  return {
    accept,
    max_files: num(config.max_files) ?? DEFAULT_MAX_FILES,
    max_size_bytes: maxSizeMb === undefined ? MAX_FILE_SIZE_BYTES : Math.round(maxSizeMb * 1024 * 1024),
  };
}

/** A calendar date YYYY-MM-DD that exists. */
export function isCalendarDate(value: string): boolean {
  const match = DATE.exec(value);
  if (!match) return false;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  if (year < 1 || month < 1 || month > 12 || day < 1) return false;
  const daysInMonth = new Date(Date.UTC(year, month, 0)).getUTCDate();
  return day <= daysInMonth;
}

// ---------------------------------------------------------------------------------------
// Template checks (the operator API, later the template builder)
// ---------------------------------------------------------------------------------------

function optionalString(config: Record<string, unknown>, key: string, max: number, problems: string[]) {
  const value = config[key];
  if (value === undefined || value === null) return;
  if (typeof value !== 'string') problems.push(`config.${key} must be a string`);
  else if (value.length > max) problems.push(`config.${key} must be at most ${max} characters`);
}

function optionalNumber(
  config: Record<string, unknown>,
  key: string,
  problems: string[],
  { min, max, integer }: { min?: number; max?: number; integer?: boolean } = {},
) {
  const value = config[key];
  if (value === undefined || value === null) return;
  if (typeof value !== 'number' || !Number.isFinite(value)) {
    problems.push(`config.${key} must be a number`);
    return;
  }
  if (integer && !Number.isInteger(value)) problems.push(`config.${key} must be a whole number`);
  if (min !== undefined && value < min) problems.push(`config.${key} must be at least ${min}`);
  if (max !== undefined && value > max) problems.push(`config.${key} must be at most ${max}`);
}

function optionsProblems(config: Record<string, unknown>, problems: string[]) {
  const options = config.options;
  if (!Array.isArray(options) || options.length === 0) {
    problems.push('config.options needs at least one option');
    return;
  }
  if (options.length > OPTIONS_LIMIT)
    problems.push(`config.options may hold at most ${OPTIONS_LIMIT} options`);
  const seen = new Set<string>();
  options.forEach((option, index) => {
    const value = typeof option === 'string' ? option : (option as { value?: unknown } | null)?.value;
    const label = typeof option === 'string' ? option : (option as { label?: unknown } | null)?.label;
    if (typeof value !== 'string' || value.trim() === '' || value.length > 200) {
      problems.push(`config.options[${index}] needs a value of 1 to 200 characters`);
    } else if (seen.has(value)) {
      problems.push(`config.options[${index}] repeats the value "${value}"`);
    } else seen.add(value);
    if (label !== undefined && (typeof label !== 'string' || label.length > 500)) {
      problems.push(`config.options[${index}].label must be a string of at most 500 characters`);
    }
  });
}

/** What is wrong with a field of a template, as messages for the template's author; empty when nothing. */
export function fieldConfigProblems(field: {
  type: string;
  label: string;
  is_required: boolean;
  config: Record<string, unknown> | null | undefined;
}): string[] {
  const problems: string[] = [];
  if (!isFieldType(field.type)) {
    return [`type "${field.type}" is not a field type (one of ${FIELD_TYPES.join(', ')})`];
  }
  const config = field.config ?? {};
  if (typeof config !== 'object' || Array.isArray(config)) return ['config must be an object'];
  optionalString(config, 'help_text', 1000, problems);
  optionalString(config, 'placeholder', 200, problems);
  prefillProblems(field.type, config, problems);
  if (isDisplayOnly(field.type) || field.type === 'payment') {
    if (field.is_required && isDisplayOnly(field.type)) problems.push(`a ${field.type} cannot be required`);
  }
  switch (field.type) {
    case 'short_text':
    case 'long_text': {
      const cap = field.type === 'short_text' ? 1000 : TEXT_CAP;
      optionalNumber(config, 'min_length', problems, { min: 0, max: cap, integer: true });
      optionalNumber(config, 'max_length', problems, { min: 1, max: cap, integer: true });
      const [min, max] = [num(config.min_length), num(config.max_length)];
      if (min !== undefined && max !== undefined && min > max) {
        problems.push('config.min_length must not exceed config.max_length');
      }
      break;
    }
    case 'number': {
      optionalNumber(config, 'min', problems);
      optionalNumber(config, 'max', problems);
      optionalNumber(config, 'step', problems, { min: Number.MIN_VALUE });
      optionalString(config, 'unit', 20, problems);
      const [min, max] = [num(config.min), num(config.max)];
      if (min !== undefined && max !== undefined && min > max)
        problems.push('config.min must not exceed config.max');
      break;
    }
    case 'date':
      for (const key of ['min_date', 'max_date']) {
        const value = config[key];
        if (value !== undefined && value !== null && !(typeof value === 'string' && isCalendarDate(value))) {
          problems.push(`config.${key} must be a date YYYY-MM-DD`);
        }
      }
      break;
    case 'single_choice':
    case 'dropdown':
      optionsProblems(config, problems);
      break;
    case 'multiple_choice':
      optionsProblems(config, problems);
      optionalNumber(config, 'min_selected', problems, { min: 0, max: OPTIONS_LIMIT, integer: true });
      optionalNumber(config, 'max_selected', problems, { min: 1, max: OPTIONS_LIMIT, integer: true });
      break;
    case 'checkbox':
      optionalString(config, 'statement', 2000, problems);
      break;
    case 'file_upload': {
      if (config.accept !== undefined) {
        const accept = config.accept;
        if (!Array.isArray(accept) || accept.length === 0) {
          problems.push('config.accept must be a non-empty list of file types');
        } else {
          for (const type of accept) {
            if (!(ACCEPTABLE_FILE_TYPES as readonly unknown[]).includes(type)) {
              problems.push(
                `config.accept: "${String(type)}" is not one of ${ACCEPTABLE_FILE_TYPES.join(', ')}`,
              );
            }
          }
        }
      }
      optionalNumber(config, 'max_files', problems, { min: 1, max: MAX_FILES_LIMIT, integer: true });
      optionalNumber(config, 'max_size_mb', problems, { min: 0.1, max: MAX_FILE_SIZE_BYTES / 1024 / 1024 });
      break;
    }
    case 'signature':
      optionalString(config, 'agreement_text', TEXT_CAP, problems);
      if (config.is_sample_text !== undefined && typeof config.is_sample_text !== 'boolean') {
        problems.push('config.is_sample_text must be true or false');
      }
      if (config.allow_drawing !== undefined && typeof config.allow_drawing !== 'boolean') {
        problems.push('config.allow_drawing must be true or false');
      }
      break;
    case 'payment': {
      // The amount in its currency is the send's rule (./payment-amount.ts); a template of the
      // operator API keeps an amount to be set later (the template decider's withoutSendRules).
      const currencyFormatted = config.currency === undefined || isCurrencyCode(config.currency);
      if (!currencyFormatted) {
        problems.push('config.currency must be a three-letter ISO 4217 code such as USD');
      }
      if (config.amount_cents !== undefined) {
        const found = paymentProblem(currencyFormatted ? config : { ...config, currency: undefined });
        if (found?.code === 'amount') problems.push(`config.amount_cents must be ${AMOUNT_RULE_TEXT}`);
        else if (found) problems.push(found.message);
      }
      optionalString(config, 'description', 1000, problems);
      break;
    }
    case 'heading':
    case 'paragraph':
      optionalString(config, 'text', TEXT_CAP, problems);
      break;
    default:
      break;
  }
  return problems;
}

// ---------------------------------------------------------------------------------------
// Answer checks (the client's form and the portal API)
// ---------------------------------------------------------------------------------------

/** An answer that says nothing: null, blank text, no choices, an unticked box. */
export function isEmptyAnswer(value: unknown): boolean {
  if (value === null || value === undefined || value === false) return true;
  if (typeof value === 'string') return value.trim() === '';
  if (Array.isArray(value)) return value.length === 0;
  if (typeof value === 'object') return Object.keys(value).length === 0;
  return false;
}

const problem = (code: string, params?: Record<string, string | number>): AnswerProblem =>
  params ? { code, params } : { code };

/**
 * The autosave check: an answer of the wrong JSON type, over its length cap or naming an
 * option the field does not have is refused; a half-typed email or an empty required field
 * is a draft and passes.
 */
export function answerShapeProblem(field: CatalogueField, value: unknown): AnswerProblem | null {
  if (!isAnswerable(field.type)) {
    return field.type === 'signature' ? signatureDrawingProblem(value) : problem('not_answerable');
  }
  if (value === null) return null;
  switch (field.type) {
    case 'short_text':
    case 'long_text':
    case 'email':
    case 'phone':
    case 'date': {
      if (typeof value !== 'string') return problem('wrong_type', { expected: 'text' });
      const max = field.type === 'short_text' || field.type === 'long_text' ? textLimit(field) : 254;
      return value.length > max ? problem('too_long', { max }) : null;
    }
    case 'number':
      if (typeof value === 'string' && value.trim() === '') return null;
      return typeof value === 'number' && Number.isFinite(value) ? null : problem('not_a_number');
    case 'single_choice':
    case 'dropdown': {
      if (typeof value !== 'string') return problem('wrong_type', { expected: 'option' });
      if (value === '') return null;
      return choiceOptions(field).some((option) => option.value === value) ? null : problem('not_an_option');
    }
    case 'multiple_choice': {
      if (!Array.isArray(value) || value.some((item) => typeof item !== 'string')) {
        return problem('wrong_type', { expected: 'options' });
      }
      const values = new Set(choiceOptions(field).map((option) => option.value));
      if (value.some((item) => !values.has(item as string))) return problem('not_an_option');
      return new Set(value).size === value.length ? null : problem('not_an_option');
    }
    case 'checkbox':
      return typeof value === 'boolean' ? null : problem('wrong_type', { expected: 'yes_no' });
    default:
      return problem('not_answerable');
  }
}

/** A signature field may keep the client's drawing as its draft answer: {drawing: SVG path data}. */
function signatureDrawingProblem(value: unknown): AnswerProblem | null {
  if (value === null) return null;
  if (!value || typeof value !== 'object' || Array.isArray(value))
    return problem('wrong_type', { expected: 'drawing' });
  const keys = Object.keys(value);
  const drawing = (value as { drawing?: unknown }).drawing;
  if (keys.some((key) => key !== 'drawing') || typeof drawing !== 'string' || !DRAWING.test(drawing)) {
    return problem('wrong_type', { expected: 'drawing' });
  }
  return drawing.length > DRAWING_MAX ? problem('too_long', { max: DRAWING_MAX }) : null;
}

/**
 * The full check when a step is submitted. `fulfilled` says whether the field's own event
 * happened (a file uploaded, a signature signed, a payment made) for the types that have one.
 */
export function answerProblem(
  field: CatalogueField,
  value: unknown,
  fulfilled = false,
): AnswerProblem | null {
  if (isDisplayOnly(field.type)) return null;
  if (!isAnswerable(field.type)) {
    return field.is_required && !fulfilled ? problem('required') : null;
  }
  const shape = answerShapeProblem(field, value);
  if (shape) return shape;
  if (isEmptyAnswer(value)) {
    if (!field.is_required) return null;
    return field.type === 'checkbox' ? problem('must_be_checked') : problem('required');
  }
  const config = configOf(field);
  switch (field.type) {
    case 'short_text':
    case 'long_text': {
      const min = num(config.min_length);
      return min !== undefined && (value as string).trim().length < min
        ? problem('too_short', { min })
        : null;
    }
    case 'email':
      return EMAIL.test((value as string).trim()) ? null : problem('invalid_email');
    case 'phone': {
      const phone = (value as string).trim();
      const digits = phone.replace(/\D/g, '').length;
      return PHONE_CHARACTERS.test(phone) && digits >= 6 && digits <= 15 ? null : problem('invalid_phone');
    }
    case 'number': {
      if (typeof value !== 'number') return field.is_required ? problem('required') : null;
      const [min, max, step] = [num(config.min), num(config.max), num(config.step)];
      if (min !== undefined && value < min) return problem('too_small', { min });
      if (max !== undefined && value > max) return problem('too_large', { max });
      if (step !== undefined && Number.isInteger(step) && !Number.isInteger(value))
        return problem('not_an_integer');
      return null;
    }
    case 'date': {
      const date = (value as string).trim();
      if (!isCalendarDate(date)) return problem('invalid_date');
      const [min, max] = [text(config.min_date), text(config.max_date)];
      if (min && date < min) return problem('too_early', { min });
      if (max && date > max) return problem('too_late', { max });
      return null;
    }
    case 'multiple_choice': {
      const count = (value as string[]).length;
      const [min, max] = [num(config.min_selected), num(config.max_selected)];
      if (min !== undefined && count < min) return problem('too_few_choices', { min });
      if (max !== undefined && count > max) return problem('too_many_choices', { max });
      return null;
    }
    default:
      return null;
  }
}

// ---------------------------------------------------------------------------------------
// Translations
// ---------------------------------------------------------------------------------------

/**
 * Template translations, keyed by locale: a template `{name, description}`, a step
 * `{title}`, a field `{label, help_text, placeholder, statement, agreement_text, text,
 * options: {<option value>: label}}`. What a translation leaves out stays in the
 * template's own language.
 */
export function translationFor(translations: unknown, locale: string): Record<string, unknown> {
  if (!translations || typeof translations !== 'object') return {};
  const entry = (translations as Record<string, unknown>)[locale];
  return entry && typeof entry === 'object' && !Array.isArray(entry)
    ? (entry as Record<string, unknown>)
    : {};
}

/** A field with its texts in `locale` where the template translates them. */
export function localizeField<F extends CatalogueField>(field: F, locale: string): F {
  const translation = translationFor(field.translations, locale);
  const config = { ...configOf(field) };
  for (const key of ['help_text', 'placeholder', 'statement', 'agreement_text', 'text', 'description']) {
    const value = text(translation[key]);
    if (value) config[key] = value;
  }
  const optionLabels = translation.options;
  if (optionLabels && typeof optionLabels === 'object' && Array.isArray(config.options)) {
    config.options = choiceOptions(field).map((option) => ({
      value: option.value,
      label: text((optionLabels as Record<string, unknown>)[option.value]) ?? option.label,
    }));
  }
  return { ...field, label: text(translation.label) ?? field.label, config };
}
