/**
 * The form as the page works with it: steps and fields in sort_order, the latest answer of
 * each field, the client-side checks (the catalogue's answerProblem, the rules the server
 * applies when a step is submitted) and the order the final Submit sends the steps in.
 */
import {
  answerProblem,
  isDisplayOnly,
  isEmptyAnswer,
  localizeField,
  translationFor,
  type AnswerProblem,
} from '../../../templates/contract/field-catalogue.ts';
import { visibility } from '../../../templates/contract/conditional-rules.ts';
import type { PortalOnboarding, PortalResponse, PortalStep } from './api.ts';
import type { LocalizedField } from './fields/field-props.ts';

export interface FormStep {
  id: string;
  title: string;
  is_optional: boolean;
  conditional_rules?: unknown;
  fields: LocalizedField[];
}

const bySortOrder = <T extends { sort_order: number }>(items: readonly T[]) =>
  [...items].sort((a, b) => a.sort_order - b.sort_order);

/** The steps in sort_order with their fields in sort_order, texts in `locale` where translated. */
export function formSteps(steps: readonly PortalStep[], locale: string): FormStep[] {
  return bySortOrder(steps).map((step) => {
    const title = translationFor(step.translations, locale).title;
    return {
      id: step.id,
      title: typeof title === 'string' && title ? title : step.title,
      is_optional: step.is_optional,
      conditional_rules: step.conditional_rules,
      fields: bySortOrder(step.fields ?? []).map((field) => ({
        ...localizeField({ ...field, config: field.config ?? {} }, locale),
        step_id: step.id,
      })),
    };
  });
}

/** The latest saved value of each field. */
export function latestAnswers(responses: readonly PortalResponse[]): Map<string, unknown> {
  const latest = new Map<string, PortalResponse>();
  for (const response of responses) {
    const known = latest.get(response.field_id);
    if (!known || known.created_at <= response.created_at) latest.set(response.field_id, response);
  }
  return new Map([...latest].map(([fieldId, response]) => [fieldId, response.value]));
}

/** Whether a field's own event happened: a file uploaded, a signature signed. */
export function isFulfilled(field: { id: string; type: string }, onboarding: PortalOnboarding): boolean {
  switch (field.type) {
    case 'file_upload':
      return (onboarding.files ?? []).some((file) => file.field_id === field.id);
    case 'signature':
      return (onboarding.signatures ?? []).some((signature) => signature.field_id === field.id);
    case 'payment':
      // Paid through Checkout (the webhook's payment.succeeded) or marked paid by the team.
      return onboarding.paid_field_ids.includes(field.id);
    default:
      return false;
  }
}

/** The client-side check of one field, as the server applies it when the step is submitted. */
export function fieldProblem(
  field: LocalizedField,
  value: unknown,
  onboarding: PortalOnboarding,
): AnswerProblem | null {
  const found = answerProblem(field, value === undefined ? null : value, isFulfilled(field, onboarding));
  // A required payment not paid yet asks for the payment, not for an answer.
  return field.type === 'payment' && found?.code === 'required' ? { code: 'payment_required' } : found;
}

export function stepProblems(
  step: FormStep,
  answers: ReadonlyMap<string, unknown>,
  onboarding: PortalOnboarding,
): Map<string, AnswerProblem> {
  const problems = new Map<string, AnswerProblem>();
  for (const field of step.fields) {
    const found = fieldProblem(field, answers.get(field.id), onboarding);
    if (found) problems.set(field.id, found);
  }
  return problems;
}

/**
 * Where a returning client picks up: the first step with a field that still needs them (a
 * required answer missing or refused), else the first step they have not touched yet, else the
 * Review (index `steps.length`). A form with nothing in it yet opens at its first step.
 */
export function resumeStep(
  steps: readonly FormStep[],
  answers: ReadonlyMap<string, unknown>,
  onboarding: PortalOnboarding,
): number {
  const touched = (step: FormStep) =>
    stepHasAnswer(step, answers, onboarding) || onboarding.submitted_step_ids.includes(step.id);
  if (!steps.some(touched)) return 0;
  const needed = steps.findIndex((step) => stepProblems(step, answers, onboarding).size > 0);
  if (needed >= 0) return needed;
  const untouched = steps.findIndex((step) => !touched(step));
  return untouched >= 0 ? untouched : steps.length;
}

/** Whether the client gave anything in a step: an answer, a file or a signature. */
export function stepHasAnswer(
  step: FormStep,
  answers: ReadonlyMap<string, unknown>,
  onboarding: PortalOnboarding,
): boolean {
  return step.fields.some((field) => {
    if (isDisplayOnly(field.type) || field.type === 'payment') return false;
    if (field.type === 'file_upload' || field.type === 'signature') return isFulfilled(field, onboarding);
    return !isEmptyAnswer(answers.get(field.id));
  });
}

/**
 * The steps the final Submit sends, in order: optional steps with any answer first (so
 * they are in before the last required step completes the onboarding), then the required
 * steps in sort_order; steps already submitted are left out.
 */
export function submitOrder(
  steps: readonly { id: string; is_optional: boolean }[],
  hasAnswer: (stepId: string) => boolean,
  submittedStepIds: readonly string[],
): string[] {
  const submitted = new Set(submittedStepIds);
  const open = steps.filter((step) => !submitted.has(step.id));
  return [
    ...open.filter((step) => step.is_optional && hasAnswer(step.id)),
    ...open.filter((step) => !step.is_optional),
  ].map((step) => step.id);
}

/**
 * The steps and fields the client sees for the answers so far: the conditional rules
 * (../../../templates/contract/conditional-rules.ts), read as the server reads them when a step is
 * submitted. A hidden field is not shown and not required, a hidden step not needed; a
 * file or signature field counts as answered once fulfilled.
 */
export function visibleSteps(
  steps: readonly FormStep[],
  answers: ReadonlyMap<string, unknown>,
  onboarding: PortalOnboarding,
): FormStep[] {
  const fields = new Map(steps.flatMap((step) => step.fields.map((field) => [field.id, field] as const)));
  const shown = visibility({ steps }, (fieldId) => {
    const field = fields.get(fieldId);
    if (field && ['file_upload', 'signature'].includes(field.type) && isFulfilled(field, onboarding))
      return true;
    return answers.get(fieldId) ?? null;
  });
  return steps
    .filter((step) => shown.stepShown(step.id))
    .map((step) => ({ ...step, fields: step.fields.filter((field) => shown.fieldShown(field.id)) }));
}
