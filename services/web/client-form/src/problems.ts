import type { AnswerProblem } from '../../../templates/contract/field-catalogue.ts';
import type { Refusal } from './fields/file-rules.ts';
import type { Formats, Translate } from './i18n.ts';

const DATE = /^\d{4}-\d{2}-\d{2}$/;

/** A field's problem in the page's language, its parameters formatted (dates, numbers, sizes). */
export function problemText(problem: AnswerProblem, t: Translate, formats: Formats): string {
  const params: Record<string, unknown> = { ...problem.params };
  if (problem.code === 'invalid_date') params.format = formats.datePattern;
  for (const key of ['min', 'max']) {
    const value = params[key];
    if (typeof value === 'string' && DATE.test(value)) params[key] = formats.date(value);
    else if (typeof value === 'number' && (problem.code === 'too_small' || problem.code === 'too_large')) {
      params[key] = formats.number(value);
    }
  }
  if (typeof params.size === 'number') params.size = formats.fileSize(params.size);
  if (typeof params.max_size_bytes === 'number') params.size = formats.fileSize(params.max_size_bytes);
  const key = `error.${problem.code}`;
  const text = t(key, params);
  return text === key ? t('error.wrong_type') : text;
}

/** A refused upload, removal or signature in the page's language (./fields/file-rules.ts). */
export function refusalText(refusal: Refusal, t: Translate, formats: Formats): string {
  if ('problem' in refusal) return problemText(refusal.problem, t, formats);
  return refusal.message === 'errors.busy'
    ? t(refusal.message, { seconds: refusal.seconds })
    : t(refusal.message);
}
