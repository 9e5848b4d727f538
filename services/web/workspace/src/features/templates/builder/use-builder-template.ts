import { useEffect, useMemo, useState } from 'preact/hooks';
import { t } from '../../../i18n.ts';
import type { Problem } from '../../../../../shared/api/client.ts';
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
  const [serverProblems, setServerProblems] = useState<Located[]>([]);
  // Bumped by each refused save: the screen opens the first problem's card and focuses it.
  const [refusals, setRefusals] = useState(0);
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
    setServerProblems([]);
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
    setServerProblems([]);
    setStatus(null);
    setNotice(null);
    if (problems.count > 0) {
      setError(null);
      setRefusals((count) => count + 1);
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
    } else if (answer.problem.code === 'invalid_body' || answer.problem.status === 422) {
      const located = locateProblem(template, answer.problem);
      if (located.some((one) => one.fieldId || one.stepId)) {
        setServerProblems(located);
        setError(null);
        setRefusals((count) => count + 1);
      } else setError(t('builder.serverRefused', { problem: located[0]?.text ?? answer.problem.message }));
    } else setError(problemMessage(answer.problem, t));
  };

  const shownProblems = problemsShown(serverProblems, checked);
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
    serverProblems,
    refusals,
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

type Located = ReturnType<typeof locateMessage>;

/** A step's or field's problems as shown: its own once a save was tried, and the server's. */
const problemsShown =
  (serverProblems: Located[], checked: boolean) => (key: string, own: string[] | undefined) => [
    ...(checked ? (own ?? []) : []),
    ...serverProblems
      .filter((one) => one.fieldId === key || (!one.fieldId && one.stepId === key))
      .map((one) => one.text),
  ];

/**
 * Where a refused save's problems are: every field problem the service lists
 * (details.field_problems, "steps[i].fields[j]"), else the request issues' paths, else the
 * message itself.
 */
function locateProblem(template: BuilderTemplate, problem: Problem): Located[] {
  const details = (problem.details ?? {}) as {
    field_problems?: { path?: unknown; message?: unknown }[];
    issues?: { path?: unknown; message?: unknown }[];
  };
  const listed = (details.field_problems ?? [])
    .filter((one) => typeof one.path === 'string' && typeof one.message === 'string')
    .map((one) => locateMessage(template, `${String(one.path)}: ${String(one.message)}`));
  if (listed.length) return listed;
  const issues = (details.issues ?? [])
    .filter((one) => Array.isArray(one.path) && typeof one.message === 'string')
    .map((one) => {
      const path = one.path as (string | number)[];
      const at =
        path[0] === 'steps' && typeof path[1] === 'number'
          ? `steps[${path[1]}]` +
            (path[2] === 'fields' && typeof path[3] === 'number' ? `.fields[${path[3]}]` : '')
          : '';
      const rest = path.slice(at.includes('fields') ? 4 : at ? 2 : 0).join('.');
      return at
        ? locateMessage(template, `${at}: ${rest ? `${rest} ` : ''}${String(one.message)}`)
        : { text: String(one.message) };
    });
  return issues.length ? issues : [locateMessage(template, problem.message)];
}

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
