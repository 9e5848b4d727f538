import { useEffect, useMemo, useRef, useState } from 'preact/hooks';
import type { AnswerProblem } from '../../../../templates/contract/field-catalogue.ts';
import { translationFor } from '../../../../templates/contract/field-catalogue.ts';
import { ApiError, type Portal, type PortalOnboarding } from '../api.ts';
import { Autosave, type SaveStatus } from '../autosave.ts';
import { displayAnswer } from '../display.ts';
import type { FieldIds, LocalizedField } from '../fields/field-props.ts';
import { Field } from '../fields/index.tsx';
import {
  formSteps,
  visibleSteps,
  latestAnswers,
  stepHasAnswer,
  stepProblems,
  submitOrder,
  type FormStep,
} from '../form-model.ts';
import type { Formats, Translate } from '../i18n.ts';
import { problemText } from '../problems.ts';
import { pageTitle, ScreenHeading } from './heading.tsx';
import { changeable, inReviewState, sentBack, stepsToResubmit } from '../sent-back.ts';
import { SentBackField } from './sent-back-field.tsx';

export interface FormScreenProps {
  portal: Portal;
  onboarding: PortalOnboarding;
  locale: string;
  t: Translate;
  formats: Formats;
  team: string;
  /** Reloads the onboarding (files, signatures, submitted steps). */
  refresh(): Promise<void>;
  /** The last required step was submitted: the form is complete. */
  onDone(at: string): void;
  /** A refusal the form cannot fix (the PIN or the link no longer works). */
  onFatal(error: ApiError): void;
}

interface Summary {
  /** Changes each time a summary is shown, so focus moves to it again. */
  key: number;
  fieldIds: string[];
}

const SAVE_TEXT: Record<SaveStatus, string> = {
  idle: '',
  saving: 'save.saving',
  saved: 'save.saved',
  offline: 'save.offline',
  retrying: 'save.retrying',
};

export function fieldIds(fieldId: string): FieldIds {
  const safe = fieldId.replace(/[^A-Za-z0-9_-]/g, '_');
  return { input: `field-${safe}`, help: `field-${safe}-help`, error: `field-${safe}-error` };
}

function problemsFromDetails(error: ApiError): Map<string, AnswerProblem> {
  const problems = new Map<string, AnswerProblem>();
  for (const item of error.details?.problems ?? []) problems.set(item.field_id, item.problem);
  if (error.details?.field_id && error.details.problem && !problems.has(error.details.field_id)) {
    problems.set(error.details.field_id, error.details.problem);
  }
  return problems;
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
  const [answers, setAnswers] = useState<Map<string, unknown>>(() => latestAnswers(onboarding.responses));
  // Only what the conditional rules show: hidden steps and fields are neither shown nor required.
  const steps = useMemo(() => visibleSteps(allSteps, answers, onboarding), [allSteps, answers, onboarding]);
  const touched = useRef(new Set<string>());
  /** Problems of the client-side checks and of a refused step submit. */
  const [problems, setProblems] = useState<Map<string, AnswerProblem>>(new Map());
  /** Problems the server found with a saved answer (autosave 400), until the next save of the field. */
  const [saveProblems, setSaveProblems] = useState<Map<string, AnswerProblem>>(new Map());
  // A form the team sent answers of back opens at the first step holding one.
  const [index, setIndex] = useState(() =>
    Math.max(
      0,
      steps.findIndex((step) => step.fields.some((field) => sentBack(onboarding).has(field.id))),
    ),
  );
  const reviewState = inReviewState(onboarding);
  const [summary, setSummary] = useState<Summary | null>(null);
  const [saveStatus, setSaveStatus] = useState<SaveStatus>('idle');
  const [submitting, setSubmitting] = useState(false);
  const [submitError, setSubmitError] = useState<string | null>(null);
  const fatal = useRef(props.onFatal);
  fatal.current = props.onFatal;

  const autosave = useMemo(
    () =>
      new Autosave({
        save: (fieldId, value) => portal.saveAnswer(fieldId, value),
        onStatus: setSaveStatus,
        onProblem: (fieldId, problem) =>
          setSaveProblems((current) => {
            if (!problem && !current.has(fieldId)) return current;
            const next = new Map(current);
            if (problem) next.set(fieldId, problem);
            else next.delete(fieldId);
            return next;
          }),
        onFatal: (error) => fatal.current(error as ApiError),
        isOnline: () => navigator.onLine,
      }),
    [portal],
  );

  useEffect(() => {
    const online = () => autosave.retryNow();
    const beforeUnload = (event: BeforeUnloadEvent) => {
      if (!autosave.hasUnsaved()) return;
      event.preventDefault();
      event.returnValue = t('save.unsaved');
    };
    window.addEventListener('online', online);
    window.addEventListener('beforeunload', beforeUnload);
    return () => {
      window.removeEventListener('online', online);
      window.removeEventListener('beforeunload', beforeUnload);
    };
  }, [autosave, t]);

  useEffect(() => () => autosave.stop(), [autosave]);

  // A reload of the onboarding (after an upload or signature) brings answers saved elsewhere;
  // what the client changed here stays.
  useEffect(() => {
    const saved = latestAnswers(onboarding.responses);
    setAnswers((current) => {
      const next = new Map(saved);
      for (const fieldId of touched.current) next.set(fieldId, current.get(fieldId));
      return next;
    });
  }, [onboarding.responses]);

  const summaryRef = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (summary) summaryRef.current?.focus();
  }, [summary?.key]);

  function change(fieldId: string, value: unknown) {
    touched.current.add(fieldId);
    setAnswers((current) => new Map(current).set(fieldId, value));
    const without = (current: Map<string, AnswerProblem>) => {
      if (!current.has(fieldId)) return current;
      const next = new Map(current);
      next.delete(fieldId);
      return next;
    };
    setProblems(without);
    setSaveProblems(without);
    const field = fieldsById.get(fieldId);
    if (field && !['file_upload', 'payment', 'heading', 'paragraph'].includes(field.type)) {
      autosave.change(fieldId, value);
    }
  }

  function go(next: number) {
    setSummary(null);
    setSubmitError(null);
    setIndex(Math.max(0, Math.min(steps.length, next)));
    window.scrollTo?.(0, 0);
  }

  /** Shows a step's problems beside its fields and in a summary; true when there are none. */
  function showProblems(stepIndex: number, found: Map<string, AnswerProblem>): boolean {
    const step = steps[stepIndex];
    if (!step) return true;
    setProblems((current) => {
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

  function checkStep(stepIndex: number): boolean {
    const step = steps[stepIndex];
    if (!step) return true;
    if (step.is_optional && !stepHasAnswer(step, answers, onboarding))
      return showProblems(stepIndex, new Map());
    return showProblems(stepIndex, stepProblems(step, answers, onboarding));
  }

  function next(event?: Event) {
    event?.preventDefault();
    if (checkStep(index)) go(index + 1);
  }

  async function submit() {
    if (submitting) return;
    setSubmitError(null);
    setSubmitting(true);
    try {
      if (!(await autosave.flushAll())) {
        setSubmitError(t('save.unsaved'));
        return;
      }
      // An answer the server refused on save is not the one it holds: fix it first.
      const refused = steps.findIndex((step) => step.fields.some((field) => saveProblems.has(field.id)));
      if (refused >= 0) {
        const found = new Map(
          steps[refused]!.fields.flatMap((field) => {
            const problem = saveProblems.get(field.id);
            return problem ? [[field.id, problem] as const] : [];
          }),
        );
        showProblems(refused, found);
        return;
      }
      // In the review state only the steps holding an answer sent back are submitted again.
      const order = reviewState
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
          showProblems(at, found);
          return;
        }
      }
      let latest = onboarding;
      for (const stepId of order) {
        try {
          latest = (await portal.submitStep(stepId)).onboarding;
        } catch (error) {
          if (!(error instanceof ApiError)) throw error;
          if (error.status === 400 && error.code === 'invalid_body') {
            const at = steps.findIndex((step) => step.id === (error.details?.step_id ?? stepId));
            const found = problemsFromDetails(error);
            if (found.size === 0 || at < 0) setSubmitError(t('review.fixFirst'));
            else showProblems(at, found);
            void props.refresh();
            return;
          }
          if ([401, 404, 409].includes(error.status)) {
            props.onFatal(error);
            return;
          }
          setSubmitError(
            error.status === 0
              ? t('errors.network')
              : error.status === 429
                ? t('errors.busy', { seconds: error.retryAfterSeconds ?? 30 })
                : t('errors.generic'),
          );
          void props.refresh();
          return;
        }
      }
      if (latest.status === 'completed') props.onDone(new Date().toISOString());
      else {
        setSubmitError(t('errors.generic'));
        void props.refresh();
      }
    } finally {
      setSubmitting(false);
    }
  }

  const templateName = (() => {
    const translated = translationFor(onboarding.template_snapshot.translations, locale).name;
    return typeof translated === 'string' && translated ? translated : onboarding.template_snapshot.name;
  })();
  const onReview = index >= steps.length;
  const step = steps[index];

  const common = { t, formats, locale };
  const shownProblems = useMemo(() => new Map([...saveProblems, ...problems]), [problems, saveProblems]);

  return (
    <div class="form-screen">
      <div class="form-top">
        {templateName ? <p class="form-name">{templateName}</p> : null}
        {onboarding.due_date ? (
          <p class="muted due">{t('due.on', { date: formats.date(onboarding.due_date) })}</p>
        ) : null}
        <p class={`save-status save-${saveStatus}`} role="status" aria-live="polite">
          {SAVE_TEXT[saveStatus] ? t(SAVE_TEXT[saveStatus]) : ''}
        </p>
      </div>
      <StepNav
        steps={steps}
        index={index}
        answers={answers}
        problems={shownProblems}
        onboarding={onboarding}
        t={t}
        onGo={go}
      />
      {onReview || !step ? (
        <Review
          steps={steps}
          answers={answers}
          onboarding={onboarding}
          team={team}
          submitting={submitting}
          submitError={submitError}
          onEdit={go}
          onBack={() => go(steps.length - 1)}
          onSubmit={submit}
          {...common}
        />
      ) : (
        <section class="card step" aria-labelledby="screen-title">
          <ScreenHeading documentTitle={pageTitle(t, step.title, team)} focusKey={`step-${index}`}>
            <span id="screen-title">{step.title}</span>
            {step.is_optional ? <span class="optional-tag"> ({t('steps.optional')})</span> : null}
          </ScreenHeading>
          {summary ? (
            <ErrorSummary
              key={summary.key}
              refEl={summaryRef}
              fields={summary.fieldIds
                .map((fieldId) => fieldsById.get(fieldId))
                .filter((field): field is LocalizedField => !!field && shownProblems.has(field.id))}
              problems={shownProblems}
              t={t}
              formats={formats}
            />
          ) : null}
          {reviewState ? <p class="sent-back__intro">{t('sentBack.intro')}</p> : null}
          <form class="step-form" onSubmit={next} noValidate>
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
                  value={answers.get(field.id)}
                  onChange={(value) => change(field.id, value)}
                  problem={shownProblems.get(field.id) ?? null}
                  ids={fieldIds(field.id)}
                  portal={portal}
                  onboarding={onboarding}
                  refresh={props.refresh}
                  t={t}
                  formats={formats}
                  team={team}
                />
              </SentBackField>
            ))}
            <div class="actions">
              {index > 0 ? (
                <button type="button" class="button secondary" onClick={() => go(index - 1)}>
                  {t('nav.back')}
                </button>
              ) : null}
              <button type="submit" class="button primary">
                {index === steps.length - 1 ? t('nav.toReview') : t('nav.next')}
              </button>
            </div>
          </form>
        </section>
      )}
    </div>
  );
}

function StepNav({
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

function ErrorSummary({
  fields,
  problems,
  t,
  formats,
  refEl,
}: {
  fields: LocalizedField[];
  problems: Map<string, AnswerProblem>;
  t: Translate;
  formats: Formats;
  refEl: { current: HTMLDivElement | null };
}) {
  if (fields.length === 0) return null;
  return (
    <div class="error-summary" ref={refEl} tabIndex={-1} role="alert" aria-labelledby="error-summary-title">
      <h2 id="error-summary-title">{t('error.summary', { count: fields.length })}</h2>
      <ul>
        {fields.map((field) => {
          const ids = fieldIds(field.id);
          return (
            <li key={field.id}>
              <a
                href={`#${ids.input}`}
                onClick={(event) => {
                  event.preventDefault();
                  const target =
                    document.getElementById(ids.input) ??
                    document.querySelector<HTMLElement>(`[id^="${ids.input}"]`);
                  target?.focus();
                  target?.scrollIntoView?.({ block: 'center' });
                }}
              >
                {field.label}: {problemText(problems.get(field.id)!, t, formats)}
              </a>
            </li>
          );
        })}
      </ul>
    </div>
  );
}

function Review({
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
