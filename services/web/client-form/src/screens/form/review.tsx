/** The last screen: every answer by step, each step with Edit, and the final Submit. */
import type { PortalOnboarding } from '../../api.ts';
import { displayAnswer } from '../../display.ts';
import type { LocalizedField } from '../../fields/field-props.ts';
import type { FormStep } from '../../form-model.ts';
import type { Formats, Translate } from '../../i18n.ts';
import { pageTitle, ScreenHeading } from '../heading.tsx';

export function Review({
  steps,
  answers,
  onboarding,
  team,
  submitting,
  submitError,
  onEdit,
  onBack,
  onSubmit,
  t,
  formats,
  locale,
}: {
  steps: FormStep[];
  answers: Map<string, unknown>;
  onboarding: PortalOnboarding;
  team: string;
  submitting: boolean;
  submitError: string | null;
  onEdit(index: number): void;
  onBack(): void;
  onSubmit(): void;
  t: Translate;
  formats: Formats;
  locale: string;
}) {
  const title = t('review.title');
  return (
    <section class="card review" aria-labelledby="screen-title">
      <ScreenHeading documentTitle={pageTitle(t, title, team)} focusKey="review">
        <span id="screen-title">{title}</span>
      </ScreenHeading>
      <p>{t('review.intro')}</p>
      {steps.map((step, at) => {
        const headingId = `review-step-${at}`;
        const rows = step.fields
          .map(
            (field) =>
              [
                field,
                displayAnswer(field, answers.get(field.id), onboarding, { t, formats, locale }),
              ] as const,
          )
          .filter((row): row is readonly [LocalizedField, string] => row[1] !== null);
        return (
          <section key={step.id} class="review-step" aria-labelledby={headingId}>
            <div class="review-step-head">
              <h2 id={headingId}>
                {step.title}
                {step.is_optional ? <span class="muted"> ({t('steps.optional')})</span> : null}
              </h2>
              <button type="button" class="button link" onClick={() => onEdit(at)}>
                {t('nav.editStep', { step: step.title })}
              </button>
            </div>
            {rows.length > 0 ? (
              <dl class="answers">
                {rows.map(([field, text]) => (
                  <div key={field.id} class="answer-row">
                    <dt>{field.label}</dt>
                    <dd class={text === t('review.noAnswer') ? 'muted' : undefined}>{text}</dd>
                  </div>
                ))}
              </dl>
            ) : null}
          </section>
        );
      })}
      <p class="error submit-error" role="alert">
        {submitError ?? ''}
      </p>
      <div class="actions">
        <button type="button" class="button secondary" onClick={onBack}>
          {t('nav.back')}
        </button>
        <button
          type="button"
          class="button primary"
          onClick={onSubmit}
          aria-disabled={submitting}
          disabled={submitting}
        >
          {submitting ? t('review.submitting') : t('review.submit')}
        </button>
      </div>
    </section>
  );
}
