/**
 * Texts the field components share: a problem code in the client's words (with its
 * numbers, dates and sizes formatted for them), the help text, and the id lists that tie a
 * control to its descriptions.
 */
import type { AnswerProblem } from '../../../../templates/field-catalogue.ts';
import type { Formats, Translate } from '../i18n.ts';
import type { LocalizedField } from './field-props.ts';

/** Problem codes the page has words for (messages error.<code>). */
const KNOWN_PROBLEMS = new Set([
  'required',
  'must_be_checked',
  'wrong_type',
  'too_short',
  'too_long',
  'invalid_email',
  'invalid_phone',
  'not_a_number',
  'not_an_integer',
  'too_small',
  'too_large',
  'invalid_date',
  'too_early',
  'too_late',
  'not_an_option',
  'too_few_choices',
  'too_many_choices',
  'not_answerable',
  'file_type_not_accepted',
  'too_many_files',
  'file_too_large',
]);

/** The message for a problem, its parameters shown as the client reads numbers, dates and sizes. */
export function problemMessage(problem: AnswerProblem, t: Translate, formats: Formats): string {
  if (!KNOWN_PROBLEMS.has(problem.code)) return t('errors.generic');
  const params: Record<string, unknown> = { ...problem.params };
  switch (problem.code) {
    case 'too_small':
    case 'too_large':
      for (const key of ['min', 'max']) {
        if (typeof params[key] === 'number') params[key] = formats.number(params[key]);
      }
      break;
    case 'too_early':
    case 'too_late':
      for (const key of ['min', 'max']) {
        if (typeof params[key] === 'string') params[key] = formats.date(params[key]);
      }
      break;
    case 'invalid_date':
      params.format = formats.datePattern;
      break;
    case 'file_too_large':
      if (typeof params.size === 'number') params.size = formats.fileSize(params.size);
      break;
    default:
      break;
  }
  return t(`error.${problem.code}`, params);
}

export function configText(field: LocalizedField, key: string): string | null {
  const value = field.config?.[key];
  return typeof value === 'string' && value.trim() !== '' ? value : null;
}

export const helpText = (field: LocalizedField) => configText(field, 'help_text');

/** The ids of the elements that describe a control, or undefined when none. */
export function describedBy(...ids: (string | null | undefined | false)[]): string | undefined {
  const list = ids.filter((id): id is string => typeof id === 'string' && id !== '');
  return list.length > 0 ? list.join(' ') : undefined;
}

/**
 * The page's language, for list words ("PDF, PNG und JPEG"): the shell keeps the <html>
 * lang attribute on the chosen locale.
 */
export function pageLocale(): string {
  return (typeof document !== 'undefined' && document.documentElement.lang) || 'en-US';
}
