/**
 * One step of the form: its heading, the summary of its problems, the note on answers the
 * team sent back, its fields, and Back and Next (or Review on the last step).
 */
import type { Ref } from 'preact';
import type { FormContext, LocalizedField } from '../../fields/field-props.ts';
import { Field } from '../../fields/index.tsx';
import type { FormStep } from '../../form-model.ts';
import { changeable, sentBack } from '../../sent-back.ts';
import { pageTitle, ScreenHeading } from '../heading.tsx';
import { SentBackField } from '../sent-back-field.tsx';
import { ErrorSummary, fieldIds } from './error-summary.tsx';
import type { Problems } from './use-answers.ts';

export interface Summary {
  /** Changes each time a summary is shown, so focus moves to it again. */
  key: number;
  fieldIds: string[];
}

export interface StepCardProps extends FormContext {
  step: FormStep;
  index: number;
  last: boolean;
  summary: Summary | null;
  summaryRef: Ref<HTMLDivElement>;
  fieldsById: Map<string, LocalizedField>;
  problems: Problems;
  reviewState: boolean;
  answers: Map<string, unknown>;
  onChange(fieldId: string, value: unknown): void;
  /** Saves every typed answer now; false when some wait for the network. */
  saveAnswers(): Promise<boolean>;
  onBack(): void;
  onNext(event: Event): void;
}

export function StepCard(props: StepCardProps) {
  const { step, index, summary, problems, onboarding, t, formats, team } = props;
  return (
    <section class="card step" aria-labelledby="screen-title">
      <ScreenHeading documentTitle={pageTitle(t, step.title, team)} focusKey={`step-${index}`}>
        <span id="screen-title">{step.title}</span>
        {step.is_optional ? <span class="optional-tag"> ({t('steps.optional')})</span> : null}
      </ScreenHeading>
      {summary ? (
        <ErrorSummary
          key={summary.key}
          refEl={props.summaryRef as { current: HTMLDivElement | null }}
          fields={summary.fieldIds
            .map((fieldId) => props.fieldsById.get(fieldId))
            .filter((field): field is LocalizedField => !!field && problems.has(field.id))}
          problems={problems}
          t={t}
          formats={formats}
        />
      ) : null}
      {props.reviewState ? <p class="sent-back__intro">{t('sentBack.intro')}</p> : null}
      <form class="step-form" onSubmit={props.onNext} noValidate>
        {step.fields.map((field) => (
          <SentBackField
            key={field.id}
            review={sentBack(onboarding).get(field.id) ?? null}
            approved={(onboarding.reviews ?? []).some(
              (one) => one.field_id === field.id && one.status === 'approved',
            )}
            locked={!changeable(onboarding, field.id)}
            t={t}
          >
            <Field
              key={field.id}
              field={field}
              value={props.answers.get(field.id)}
              onChange={(value) => props.onChange(field.id, value)}
              problem={problems.get(field.id) ?? null}
              ids={fieldIds(field.id)}
              portal={props.portal}
              onboarding={onboarding}
              refresh={props.refresh}
              t={t}
              formats={formats}
              team={team}
              checkoutReturn={props.checkoutReturn ?? null}
              saveAnswers={props.saveAnswers}
            />
          </SentBackField>
        ))}
        <div class="actions">
          {index > 0 ? (
            <button type="button" class="button secondary" onClick={props.onBack}>
              {t('nav.back')}
            </button>
          ) : null}
          <button type="submit" class="button primary">
            {props.last ? t('nav.toReview') : t('nav.next')}
          </button>
        </div>
      </form>
    </section>
  );
}
