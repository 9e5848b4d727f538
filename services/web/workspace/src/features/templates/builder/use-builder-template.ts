import { useEffect, useMemo, useState } from 'preact/hooks';
import { t } from '../../../i18n.ts';
import { problemMessage } from '../../../problems.ts';
import { getTemplate, saveTemplate } from '../api.ts';
import {
  fromView,
  locateMessage,
  problemsOf,
  toDefinition,
  type BuilderField,
  type BuilderStep,
  type BuilderTemplate,
  type TemplateView,
} from '../template-model.ts';
import { noticeAfterSave, type PaymentNotice } from './payment-notice.tsx';

/**
 * The template being built: loaded from the API, changed as a draft, saved with the version
 * opened (a newer version is a conflict to reload), and its problems shown once a save was
 * tried or the server refused one. Leaving the page with unsaved changes asks first.
 */
export function useBuilderTemplate(id: string) {
  const [template, setTemplate] = useState<BuilderTemplate | null>(null);
  const [savedDefinition, setSavedDefinition] = useState('');
  const [loadError, setLoadError] = useState<string | null>(null);
  const [status, setStatus] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [conflict, setConflict] = useState(false);
  const [checked, setChecked] = useState(false);
  const [serverProblem, setServerProblem] = useState<ReturnType<typeof locateMessage> | null>(null);
  const [busy, setBusy] = useState(false);
  const [notice, setNotice] = useState<PaymentNotice>(null);

  const opened = (view: TemplateView) => {
    const model = fromView(view);
    setTemplate(model);
    setSavedDefinition(JSON.stringify(toDefinition(model)));
    return model;
  };
  const load = async () => {
    const answer = await getTemplate(id);
    if (!answer.ok) {
      setLoadError(problemMessage(answer.problem, t));
      return;
    }
    opened(answer.data.template);
    setConflict(false);
    setServerProblem(null);
  };
  useEffect(() => {
    void load();
  }, [id]);

  const dirty = template !== null && JSON.stringify(toDefinition(template)) !== savedDefinition;
  useUnsavedWarning(dirty);

  const problems = useMemo(() => (template ? problemsOf(template) : null), [template]);

  const update = (change: (draft: BuilderTemplate) => void) => {
    setTemplate((current) => {
      if (!current) return current;
      const draft = structuredClone(current);
      change(draft);
      return draft;
    });
    setStatus(null);
  };
  const changeStep = (stepId: string, change: (step: BuilderStep) => void) =>
    update((draft) => {
      const step = draft.steps.find((candidate) => candidate.id === stepId);
      if (step) change(step);
    });
  const changeField = (stepId: string, fieldId: string, change: (field: BuilderField) => void) =>
    changeStep(stepId, (step) => {
      const field = step.fields.find((candidate) => candidate.id === fieldId);
      if (field) change(field);
    });

  const save = async () => {
    if (!template || !problems) return;
    setChecked(true);
    setServerProblem(null);
    setStatus(null);
    setNotice(null);
    if (problems.count > 0) {
      setError(t('builder.fixProblems', { count: problems.count }));
      document
        .querySelector<HTMLElement>(
          '.builder-invalid input, .builder-invalid textarea, .builder-invalid select',
        )
        ?.focus();
      return;
    }
    setBusy(true);
    const answer = await saveTemplate(id, { ...toDefinition(template), version: template.version });
    setBusy(false);
    if (answer.ok) {
      const model = opened(answer.data.template);
      setError(null);
      setChecked(false);
      setStatus(t('builder.saved', { version: model.version }));
      setNotice(await noticeAfterSave(model));
    } else if (answer.problem.code === 'template_changed') {
      setConflict(true);
      setError(t('builder.conflict'));
    } else if (answer.problem.code === 'invalid_body') {
      const located = locateMessage(template, answer.problem.message);
      setServerProblem(located);
      setError(t('builder.serverRefused', { problem: located.text }));
    } else setError(problemMessage(answer.problem, t));
  };

  /** A step's or field's problems as shown: its own once a save was tried, and the server's. */
  const shownProblems = (key: string, own: string[] | undefined) => {
    const server =
      serverProblem && (serverProblem.fieldId === key || serverProblem.stepId === key)
        ? [serverProblem.text]
        : [];
    return [...(checked ? (own ?? []) : []), ...server];
  };
  const reload = () => void load().then(() => setError(null));

  return {
    template,
    problems,
    loadError,
    status,
    notice,
    error,
    conflict,
    checked,
    dirty,
    busy,
    update,
    changeStep,
    changeField,
    save,
    reload,
    shownProblems,
  };
}

export type BuilderState = ReturnType<typeof useBuilderTemplate>;

/** While there are unsaved changes, leaving or reloading the page asks first. */
function useUnsavedWarning(dirty: boolean) {
  useEffect(() => {
    if (!dirty) return;
    const warn = (event: BeforeUnloadEvent) => {
      event.preventDefault();
      event.returnValue = t('builder.unsavedWarning');
    };
    window.addEventListener('beforeunload', warn);
    return () => window.removeEventListener('beforeunload', warn);
  }, [dirty]);
}
