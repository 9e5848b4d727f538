/** The steps of the form as links, each marked done or needing attention, and the progress bar. */
import type { AnswerProblem } from '../../../../../templates/contract/field-catalogue.ts';
import type { PortalOnboarding } from '../../api.ts';
import { stepHasAnswer, stepProblems, type FormStep } from '../../form-model.ts';
import type { Translate } from '../../i18n.ts';

export function StepNav({
  steps,
  index,
  answers,
  problems,
  onboarding,
  t,
  onGo,
}: {
  steps: FormStep[];
  index: number;
  answers: Map<string, unknown>;
  problems: Map<string, AnswerProblem>;
  onboarding: PortalOnboarding;
  t: Translate;
  onGo(index: number): void;
}) {
  const total = steps.length;
  const onReview = index >= total;
  const submitted = new Set(onboarding.submitted_step_ids ?? []);
  return (
    <nav class="progress" aria-label={t('steps.nav')}>
      <p class="progress-label" id="progress-label">
        {onReview ? t('progress.review') : t('progress.label', { current: index + 1, total })}
      </p>
      <progress
        class="progress-bar"
        max={Math.max(total, 1)}
        value={Math.min(index + 1, total)}
        aria-labelledby="progress-label"
      />
      <ol class="step-list">
        {steps.map((step, at) => {
          const shown = step.fields.some((field) => problems.has(field.id));
          const complete =
            !shown &&
            (submitted.has(step.id) ||
              (stepHasAnswer(step, answers, onboarding) &&
                stepProblems(step, answers, onboarding).size === 0));
          return (
            <li key={step.id} class={at === index ? 'current' : undefined}>
              <button
                type="button"
                class={`step-link${shown ? ' attention' : ''}${complete ? ' complete' : ''}`}
                aria-current={at === index ? 'step' : undefined}
                onClick={() => onGo(at)}
              >
                <span class="step-number" aria-hidden="true">
                  {at + 1}
                </span>
                <span class="step-title">
                  {step.title}
                  {step.is_optional ? <span class="muted"> ({t('steps.optional')})</span> : null}
                  {shown ? <span class="step-state attention"> – {t('steps.hasErrors')}</span> : null}
                  {complete ? <span class="step-state complete"> – {t('steps.done')}</span> : null}
                </span>
              </button>
            </li>
          );
        })}
        <li class={onReview ? 'current' : undefined}>
          <button
            type="button"
            class="step-link"
            aria-current={onReview ? 'step' : undefined}
            onClick={() => onGo(total)}
          >
            <span class="step-number" aria-hidden="true">
              ✓
            </span>
            <span class="step-title">{t('progress.review')}</span>
          </button>
        </li>
      </ol>
    </nav>
  );
}
