/**
 * The answers of the form and their problems: what the client typed (autosaved, but not
 * files, payments and text blocks), the problems of the client-side checks and of a refused
 * step submit, and the problems the server found with a saved answer (autosave 400) until
 * the field is saved again. A reload of the onboarding brings answers saved elsewhere; what
 * the client changed here stays.
 */
import { useEffect, useMemo, useRef, useState } from 'preact/hooks';
import type { AnswerProblem } from '../../../../../templates/contract/field-catalogue.ts';
import type { ApiError, Portal, PortalOnboarding } from '../../api.ts';
import { Autosave, type SaveStatus } from '../../autosave.ts';
import type { LocalizedField } from '../../fields/field-props.ts';
import { latestAnswers } from '../../form-model.ts';
import type { Translate } from '../../i18n.ts';

const NOT_AUTOSAVED = ['file_upload', 'payment', 'heading', 'paragraph'];

export type Problems = Map<string, AnswerProblem>;

function without(fieldId: string) {
  return (current: Problems) => {
    if (!current.has(fieldId)) return current;
    const next = new Map(current);
    next.delete(fieldId);
    return next;
  };
}

function useAutosave(portal: Portal, t: Translate, onFatal: (error: ApiError) => void) {
  const [saveStatus, setSaveStatus] = useState<SaveStatus>('idle');
  const [saveProblems, setSaveProblems] = useState<Problems>(new Map());
  const fatal = useRef(onFatal);
  fatal.current = onFatal;
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
  return { autosave, saveStatus, saveProblems, setSaveProblems };
}

export function useAnswers(options: {
  portal: Portal;
  onboarding: PortalOnboarding;
  fieldsById: Map<string, LocalizedField>;
  t: Translate;
  onFatal(error: ApiError): void;
}) {
  const { portal, onboarding, fieldsById, t } = options;
  const [answers, setAnswers] = useState<Map<string, unknown>>(() => latestAnswers(onboarding.responses));
  const touched = useRef(new Set<string>());
  const [problems, setProblems] = useState<Problems>(new Map());
  const { autosave, saveStatus, saveProblems, setSaveProblems } = useAutosave(portal, t, options.onFatal);

  useEffect(() => {
    const saved = latestAnswers(onboarding.responses);
    setAnswers((current) => {
      const next = new Map(saved);
      for (const fieldId of touched.current) next.set(fieldId, current.get(fieldId));
      return next;
    });
  }, [onboarding.responses]);

  // The first open fills what the template prefills from the client record (the service sends
  // only fields not answered yet) and saves it like a typed answer: the client sees and may change it.
  useEffect(() => {
    for (const [fieldId, value] of Object.entries(onboarding.prefill ?? {})) change(fieldId, value);
  }, []);

  function change(fieldId: string, value: unknown) {
    touched.current.add(fieldId);
    setAnswers((current) => new Map(current).set(fieldId, value));
    setProblems(without(fieldId));
    setSaveProblems(without(fieldId));
    const field = fieldsById.get(fieldId);
    if (field && !NOT_AUTOSAVED.includes(field.type)) autosave.change(fieldId, value);
  }

  const shownProblems = useMemo(() => new Map([...saveProblems, ...problems]), [problems, saveProblems]);
  return { answers, change, setProblems, saveProblems, shownProblems, autosave, saveStatus };
}
