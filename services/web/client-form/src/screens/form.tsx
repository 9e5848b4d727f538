/**
 * The form: one screen per step in sort_order (./form/step-card.tsx), then Review with the
 * final Submit (./form/review.tsx, ./form/submit.ts); the answers, their problems and the
 * autosave in ./form/use-answers.ts.
 */
import { useEffect, useMemo, useRef, useState } from 'preact/hooks';
import { translationFor } from '../../../../templates/contract/field-catalogue.ts';
import type { ApiError, PortalOnboarding } from '../api.ts';
import type { FormContext } from '../fields/field-props.ts';
import type { SaveStatus } from '../autosave.ts';
import {
  formSteps,
  resumeStep,
  stepHasAnswer,
  stepProblems,
  visibleSteps,
  type FormStep,
} from '../form-model.ts';
import type { CheckoutReturn } from '../checkout-return.ts';
import { inReviewState, linkedField, linkedStep, sentBack } from '../sent-back.ts';
import { focusLinkedField } from './sent-back-field.tsx';
import { Review } from './form/review.tsx';
import { StepCard, type Summary } from './form/step-card.tsx';
import { StepNav } from './form/step-nav.tsx';
import { submitForm } from './form/submit.ts';
import { useAnswers, type Problems } from './form/use-answers.ts';

export interface FormScreenProps extends FormContext {
  locale: string;
  /** The last required step was submitted: the form is complete. */
  onDone(at: string): void;
  /** A refusal the form cannot fix (the PIN or the link no longer works). */
  onFatal(error: ApiError): void;
}

const SAVE_TEXT: Record<SaveStatus, string> = {
  idle: '',
  saving: 'save.saving',
  saved: 'save.saved',
  offline: 'save.offline',
  retrying: 'save.retrying',
};

function templateName(onboarding: PortalOnboarding, locale: string): string | undefined {
  const translated = translationFor(onboarding.template_snapshot.translations, locale).name;
  return typeof translated === 'string' && translated ? translated : onboarding.template_snapshot.name;
}

/** The form's name, its due date and how the autosave is doing. */
function FormTop(props: FormScreenProps & { name: string | undefined; saveStatus: SaveStatus }) {
  const { name, onboarding, saveStatus, t, formats } = props;
  return (
    <div class="form-top">
      {name ? <p class="form-name">{name}</p> : null}
      {onboarding.due_date ? (
        <p class="muted due">{t('due.on', { date: formats.date(onboarding.due_date) })}</p>
      ) : null}
      <p class={`save-status save-${saveStatus}`} role="status" aria-live="polite">
        {SAVE_TEXT[saveStatus] ? t(SAVE_TEXT[saveStatus]) : ''}
      </p>
    </div>
  );
}

/**
 * The step the form opens at: back from Checkout, the payment's step; a link to an answer
 * (?field=, the changes-requested email), that answer's step; with answers the team sent
 * back, the first step holding one; else where the client left off (resumeStep).
 */
function openingStep(
  steps: readonly FormStep[],
  answers: ReadonlyMap<string, unknown>,
  onboarding: PortalOnboarding,
  checkoutReturn: CheckoutReturn | null | undefined,
  linked: string | null = null,
): number {
  const at = (has: (fieldId: string) => boolean) =>
    steps.findIndex((step) => step.fields.some((field) => has(field.id)));
  const paying = checkoutReturn?.fieldId;
  const back = paying ? at((fieldId) => fieldId === paying) : -1;
  if (back >= 0) return back;
  const linkedAt = linkedStep(steps, onboarding, linked);
  if (linkedAt >= 0) return linkedAt;
  const sentBackAt = at((fieldId) => sentBack(onboarding).has(fieldId));
  return sentBackAt >= 0 ? sentBackAt : resumeStep(steps, answers, onboarding);
}

/** The form: one screen per step in sort_order, then Review with the final Submit. */
export function FormScreen(props: FormScreenProps) {
  const { portal, onboarding, locale, t, formats, team } = props;
  const allSteps = useMemo(
    () => formSteps(onboarding.template_snapshot.steps ?? [], locale),
    [onboarding.template_snapshot, locale],
  );
  const fieldsById = useMemo(
    () => new Map(allSteps.flatMap((step) => step.fields.map((field) => [field.id, field] as const))),
    [allSteps],
  );
  const form = useAnswers({ portal, onboarding, fieldsById, t, onFatal: props.onFatal });
  const { answers, shownProblems } = form;
  // Only what the conditional rules show: hidden steps and fields are neither shown nor required.
  const steps = useMemo(() => visibleSteps(allSteps, answers, onboarding), [allSteps, answers, onboarding]);
  const linked = useMemo(() => linkedField(window.location.search), []);
  const [index, setIndex] = useState(() =>
    openingStep(steps, answers, onboarding, props.checkoutReturn, linked),
  );
  useEffect(() => focusLinkedField(linked), []);
  const reviewState = inReviewState(onboarding);
  const [summary, setSummary] = useState<Summary | null>(null);
  const [submitting, setSubmitting] = useState(false);
  const [submitError, setSubmitError] = useState<string | null>(null);

  const summaryRef = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (summary) summaryRef.current?.focus();
  }, [summary?.key]);

  function go(next: number) {
    setSummary(null);
    setSubmitError(null);
    setIndex(Math.max(0, Math.min(steps.length, next)));
    window.scrollTo?.(0, 0);
  }

  /** Shows a step's problems beside its fields and in a summary; true when there are none. */
  function showProblems(stepIndex: number, found: Problems): boolean {
    const step = steps[stepIndex];
    if (!step) return true;
    form.setProblems((current) => {
      const next = new Map(current);
      for (const field of step.fields) next.delete(field.id);
      for (const [fieldId, problem] of found) next.set(fieldId, problem);
      return next;
    });
    if (found.size === 0) return true;
    setIndex(stepIndex);
    setSummary({ key: Date.now(), fieldIds: [...found.keys()] });
    return false;
  }

  function next(event?: Event) {
    event?.preventDefault();
    const step = steps[index];
    const skipped = step?.is_optional && !stepHasAnswer(step, answers, onboarding);
    const found = !step || skipped ? new Map() : stepProblems(step, answers, onboarding);
    if (showProblems(index, found)) go(index + 1);
  }

  async function submit() {
    if (submitting) return;
    setSubmitError(null);
    setSubmitting(true);
    try {
      const { saveProblems, autosave } = form;
      const setError = setSubmitError;
      await submitForm({
        ...props,
        steps,
        answers,
        reviewState,
        showProblems,
        setError,
        saveProblems,
        autosave,
      });
    } finally {
      setSubmitting(false);
    }
  }

  const step = steps[index];
  const common = { steps, answers, onboarding, t };
  return (
    <div class="form-screen">
      <FormTop {...props} name={templateName(onboarding, locale)} saveStatus={form.saveStatus} />
      <StepNav {...common} index={index} problems={shownProblems} onGo={go} />
      {index >= steps.length || !step ? (
        <Review
          {...common}
          {...{ team, submitting, submitError, formats, locale }}
          onEdit={go}
          onBack={() => go(steps.length - 1)}
          onSubmit={submit}
        />
      ) : (
        <StepCard
          {...{ step, index, summary, summaryRef, fieldsById, reviewState, answers, portal, onboarding }}
          {...{ t, formats, team }}
          checkoutReturn={props.checkoutReturn ?? null}
          last={index === steps.length - 1}
          problems={shownProblems}
          onChange={form.change}
          saveAnswers={() => form.autosave.flushAll()}
          onBack={() => go(index - 1)}
          onNext={next}
          refresh={props.refresh}
        />
      )}
    </div>
  );
}
