/**
 * The final Submit: every unsaved answer saved first, then the steps in order (in the
 * review state only the steps holding an answer sent back), each checked here before it is
 * sent; a refusal is shown beside its fields, or ends the form when the link no longer works.
 * A reopened form always has a step to send, so it can always be finished (decision 0077).
 */
import type { AnswerProblem } from '../../../../../templates/contract/field-catalogue.ts';
import { ApiError, type Portal, type PortalOnboarding } from '../../api.ts';
import type { Autosave } from '../../autosave.ts';
import { stepHasAnswer, stepProblems, submitOrder, type FormStep } from '../../form-model.ts';
import type { Translate } from '../../i18n.ts';
import { stepsToResubmit } from '../../sent-back.ts';
import type { Problems } from './use-answers.ts';

export interface Submission {
  steps: FormStep[];
  answers: Map<string, unknown>;
  onboarding: PortalOnboarding;
  saveProblems: Problems;
  reviewState: boolean;
  autosave: Autosave;
  portal: Portal;
  t: Translate;
  /** Shows a step's problems beside its fields and in a summary. */
  showProblems(stepIndex: number, found: Problems): void;
  setError(text: string | null): void;
  refresh(): Promise<void>;
  onDone(at: string): void;
  onFatal(error: ApiError): void;
}

function problemsFromDetails(error: ApiError): Problems {
  const problems = new Map<string, AnswerProblem>();
  for (const item of error.details?.problems ?? []) problems.set(item.field_id, item.problem);
  if (error.details?.field_id && error.details.problem && !problems.has(error.details.field_id)) {
    problems.set(error.details.field_id, error.details.problem);
  }
  return problems;
}

/** The steps to submit, in order; null when a problem is shown instead. */
function stepsToSubmit(submission: Submission): string[] | null {
  const { steps, answers, onboarding, saveProblems } = submission;
  // An answer the server refused on save is not the one it holds: fix it first.
  const refused = steps.findIndex((step) => step.fields.some((field) => saveProblems.has(field.id)));
  if (refused >= 0) {
    const found = new Map(
      steps[refused]!.fields.flatMap((field) => {
        const problem = saveProblems.get(field.id);
        return problem ? [[field.id, problem] as const] : [];
      }),
    );
    submission.showProblems(refused, found);
    return null;
  }
  // In the review state only the steps holding an answer sent back are submitted again.
  const order = submission.reviewState
    ? stepsToResubmit(steps, onboarding)
    : submitOrder(
        steps,
        (stepId) => {
          const step = steps.find((candidate) => candidate.id === stepId);
          return step ? stepHasAnswer(step, answers, onboarding) : false;
        },
        onboarding.submitted_step_ids ?? [],
      );
  for (const stepId of order) {
    const at = steps.findIndex((step) => step.id === stepId);
    const found = stepProblems(steps[at]!, answers, onboarding);
    if (found.size > 0) {
      submission.showProblems(at, found);
      return null;
    }
  }
  // Every step already in (a reopen recorded before steps opened again, or only optional
  // steps left empty): the last step goes again as it is, so the service can complete it.
  const last = steps.at(-1);
  if (order.length === 0 && !submission.reviewState && last) return [last.id];
  return order;
}

/** What a refused step submit shows: its problems, the end of the form, or a message. */
function refused(submission: Submission, error: ApiError, stepId: string): void {
  const { steps, t } = submission;
  if (error.status === 400 && error.code === 'invalid_body') {
    const at = steps.findIndex((step) => step.id === (error.details?.step_id ?? stepId));
    const found = problemsFromDetails(error);
    if (found.size === 0 || at < 0) submission.setError(t('review.fixFirst'));
    else submission.showProblems(at, found);
    void submission.refresh();
    return;
  }
  if ([401, 404, 409].includes(error.status)) {
    submission.onFatal(error);
    return;
  }
  submission.setError(
    error.status === 0
      ? t('errors.network')
      : error.status === 429
        ? t('errors.busy', { seconds: error.retryAfterSeconds ?? 30 })
        : t('errors.generic'),
  );
  void submission.refresh();
}

export async function submitForm(submission: Submission): Promise<void> {
  if (!(await submission.autosave.flushAll())) {
    submission.setError(submission.t('save.unsaved'));
    return;
  }
  const order = stepsToSubmit(submission);
  if (!order) return;
  let latest = submission.onboarding;
  for (const stepId of order) {
    try {
      latest = (await submission.portal.submitStep(stepId)).onboarding;
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      refused(submission, error, stepId);
      return;
    }
  }
  if (latest.status === 'completed') submission.onDone(new Date().toISOString());
  else {
    // Something is still needed (a step the form did not show before): say so and show it.
    submission.setError(submission.t('review.fixFirst'));
    void submission.refresh();
  }
}
