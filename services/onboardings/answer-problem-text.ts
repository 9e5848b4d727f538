import type { AnswerProblem } from '../templates/contract/field-catalogue.ts';

/**
 * The API's English message for a problem of the field catalogue
 * (services/templates/contract/field-catalogue.ts) with the field's label; the client's form shows
 * its own translated text from the problem's code and params.
 */
export function answerProblemText(label: string, problem: AnswerProblem): string {
  const params = problem.params ?? {};
  const field = `Field "${label}"`;
  switch (problem.code) {
    case 'required':
      return `Required field "${label}" has no answer`;
    case 'must_be_checked':
      return `${field} must be checked`;
    case 'not_answerable':
      return `${field} takes no answer`;
    case 'wrong_type':
      return `${field} needs an answer of type ${String(params['expected'] ?? 'value')}`;
    case 'too_long':
      return `${field} takes at most ${params['max']} characters`;
    case 'too_short':
      return `${field} needs at least ${params['min']} characters`;
    case 'not_a_number':
      return `${field} needs a number`;
    case 'not_an_integer':
      return `${field} needs a whole number`;
    case 'too_small':
      return `${field} needs a number of at least ${params['min']}`;
    case 'too_large':
      return `${field} needs a number of at most ${params['max']}`;
    case 'not_an_option':
      return `${field} takes only its own options`;
    case 'too_few_choices':
      return `${field} needs at least ${params['min']} choices`;
    case 'too_many_choices':
      return `${field} takes at most ${params['max']} choices`;
    case 'invalid_email':
      return `${field} needs a valid email address`;
    case 'invalid_phone':
      return `${field} needs a valid phone number`;
    case 'invalid_date':
      return `${field} needs a date YYYY-MM-DD`;
    case 'too_early':
      return `${field} needs a date on or after ${params['min']}`;
    case 'too_late':
      return `${field} needs a date on or before ${params['max']}`;
    default:
      return `${field} has an answer that is not accepted (${problem.code})`;
  }
}
