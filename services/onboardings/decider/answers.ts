import { DomainError } from '../../../shared/commands/decider.ts';
import type { OnboardingEvent } from '../onboarding-events.ts';
import { answerProblemText } from '../answer-problem-text.ts';
import { visibility, type Visibility } from '../../templates/contract/conditional-rules.ts';
import type { TemplateStep } from '../../templates/index.ts';
import { answerProblem, answerShapeProblem } from '../../templates/contract/field-catalogue.ts';
import { progressPct, requiredStepsSubmitted } from '../template-snapshot.ts';
import type { OpenLink, SaveAnswer, SubmitStep } from './commands.ts';
import {
  base,
  fail,
  iso,
  openFieldsOf,
  problemError,
  requireAnswering,
  requireChangeable,
  requireField,
  requireLink,
} from './rules.ts';
import { isOpenReview, type Onboarding, type OnboardingState } from './state.ts';

/** The client answers through the link: open it, save answers, submit steps. */
export function openLink(command: OpenLink, state: OnboardingState): OnboardingEvent[] {
  const onboarding = requireLink(state, command.data.token_hash, command.metadata.now);
  if (onboarding.started_since_send) return [];
  if (onboarding.status !== 'sent' && onboarding.status !== 'in_progress') return [];
  return [
    {
      type: 'onboarding.started',
      data: {
        ...base(onboarding),
        send_number: onboarding.send_count,
        from: onboarding.status,
        status: 'in_progress',
        started_at: iso(command.metadata.now),
      },
    },
  ];
}

export function saveAnswer(command: SaveAnswer, state: OnboardingState): OnboardingEvent[] {
  const { data, metadata } = command;
  const onboarding = requireLink(state, data.token_hash, metadata.now);
  const field = requireField(onboarding, data.field_id);
  requireChangeable(onboarding, field.field.id);
  const entered = 'entered_value' in data ? data.entered_value : data.value;
  const earlier = Object.hasOwn(onboarding.answers, field.field.id)
    ? onboarding.answers[field.field.id]
    : undefined;
  // The first change after a rejection or a request for changes is a new version with its
  // own response id: the reviewed version stays a response of its own (rejection_reason).
  // So is the first change after a reopen (its step open again): the version the team saw stays.
  const newVersion =
    earlier?.submitted === true &&
    (isOpenReview(onboarding.reviews[field.field.id]) || !onboarding.submitted_steps.includes(field.step_id));
  const shape = answerShapeProblem(field.field, entered);
  if (shape) throw problemError(answerProblemText(field.field.label, shape), field, shape);
  return [
    {
      type: 'answer_saved',
      data: {
        ...base(onboarding),
        step_id: field.step_id,
        field_id: field.field.id,
        response_id: newVersion ? data.response_id : (earlier?.response_id ?? data.response_id),
        value: data.value,
        saved_at: iso(metadata.now),
      },
    },
  ];
}

/**
 * Every field of the step keeps the catalogue's answer rules (required included); a file,
 * signature or payment field is answered by its own event. The first problem names the
 * refusal; details list them all.
 */
function stepProblems(
  onboarding: Onboarding,
  step: TemplateStep,
  values: SubmitStep['data']['values'],
  shown: Visibility,
) {
  const fulfilled = new Set(onboarding.fulfilled_fields);
  return step.fields.flatMap((field) => {
    if (!shown.fieldShown(field.id)) return [];
    const answer = Object.hasOwn(onboarding.answers, field.id) ? onboarding.answers[field.id] : undefined;
    const value = !answer
      ? null
      : values && Object.hasOwn(values, field.id)
        ? values[field.id]
        : answer.value;
    const problem = answerProblem(field, value, fulfilled.has(field.id));
    return problem ? [{ field, problem }] : [];
  });
}

/**
 * What the client sees (conditional rules): a hidden field is not required, a hidden step
 * not needed. Rules read the opened values the command carries, a file, signature or
 * payment field counts as answered once fulfilled.
 */
function shownFor(onboarding: Onboarding, values: SubmitStep['data']['values']): Visibility {
  const fulfilled = new Set(onboarding.fulfilled_fields);
  return visibility(onboarding.snapshot, (fieldId) => {
    if (fulfilled.has(fieldId)) return true;
    return values && Object.hasOwn(values, fieldId) ? values[fieldId] : null;
  });
}

export function submitStep(command: SubmitStep, state: OnboardingState): OnboardingEvent[] {
  const { data, metadata } = command;
  const onboarding = requireLink(state, data.token_hash, metadata.now);
  const step = onboarding.snapshot.steps.find((candidate) => candidate.id === data.step_id);
  if (onboarding.status === 'completed') {
    // A resubmission of the answers the team sent back; the onboarding stays completed.
    if (!step) throw fail('step_not_found');
    if (openFieldsOf(onboarding, step).length === 0)
      throw fail('invalid_state', { status: onboarding.status });
  } else {
    requireAnswering(onboarding);
  }
  if (!step) throw fail('step_not_found');
  const shown = shownFor(onboarding, data.values);
  const problems = stepProblems(onboarding, step, data.values, shown);
  const first = problems[0];
  if (first) {
    throw new DomainError('invalid_body', answerProblemText(first.field.label, first.problem), {
      field_id: first.field.id,
      step_id: step.id,
      problem: first.problem,
      problems: problems.map(({ field, problem }) => ({ field_id: field.id, problem })),
    });
  }
  const submitted = new Set([...onboarding.submitted_steps, step.id]);
  const complete = requiredStepsSubmitted(onboarding.snapshot, submitted, shown.stepShown);
  const now = iso(metadata.now);
  const events: OnboardingEvent[] = [
    {
      type: 'response.submitted',
      data: {
        ...base(onboarding),
        step_id: step.id,
        // Approved answers stay approved: they are not submitted again.
        responses: step.fields.flatMap((field) => {
          const answer = onboarding.answers[field.id];
          if (onboarding.reviews[field.id]?.status === 'approved') return [];
          return answer ? [{ response_id: answer.response_id, field_id: field.id }] : [];
        }),
        progress_pct: complete ? 100 : progressPct(onboarding.snapshot, submitted, shown.stepShown),
        submitted_at: now,
      },
    },
  ];
  if (complete && onboarding.status !== 'completed') {
    events.push({
      type: 'onboarding.completed',
      data: { ...base(onboarding), progress_pct: 100, completed_at: now },
    });
  }
  return events;
}
