import { useEffect, useMemo, useRef, useState } from 'preact/hooks';
import { FIELD_TYPES, type FieldType } from '../../../../../../templates/contract/field-catalogue.ts';
import { call } from '../../../api.ts';
import { t } from '../../../i18n.ts';
import { problemMessage } from '../../../problems.ts';
import {
  fromView,
  locateMessage,
  moveItem,
  newField,
  newStep,
  problemsOf,
  sampleTextFields,
  toDefinition,
  type BuilderField,
  type BuilderStep,
  type BuilderTemplate,
} from '../template-model.ts';
import { Dialog, ErrorMessage, Field, Link, ScreenHeading, Select, Status } from '../../../ui/index.ts';
import { DragHandle, FieldCard, MoveButtons, type MoveControls } from './builder-field.tsx';
import { Check, Problems, TextArea } from './builder-inputs.tsx';
import { RuleEditor, type RuleCandidate } from './builder-rule.tsx';
import { LOCALE_NAMES, TRANSLATION_LOCALES, TranslationInputs } from './builder-translations.tsx';
import './template-builder.css';

type View = Parameters<typeof fromView>[0] & { send_blockers: unknown[] };

/** What is being dragged: a step, or a field of a step. */
type Dragged = { kind: 'step'; stepId: string } | { kind: 'field'; stepId: string; fieldId: string };

const typeName = (type: string) => t(`fieldType.${type}`);

/**
 * The template builder: the template's details, its steps and their fields (added,
 * edited, removed, moved by keyboard or by drag), each field's config, required or
 * optional, show-when rules, translations per locale, the send blockers (sample agreement
 * text), save with the version opened, and the preview (the real client form, in a new
 * tab, over the saved template).
 */
export function TemplateBuilderScreen({ id, navigate }: { id: string; navigate: (path: string) => void }) {
  const [template, setTemplate] = useState<BuilderTemplate | null>(null);
  const [savedDefinition, setSavedDefinition] = useState('');
  const [loadError, setLoadError] = useState<string | null>(null);
  const [status, setStatus] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [conflict, setConflict] = useState(false);
  const [checked, setChecked] = useState(false);
  const [serverProblem, setServerProblem] = useState<ReturnType<typeof locateMessage> | null>(null);
  const [locale, setLocale] = useState('');
  const [previewLocale, setPreviewLocale] = useState('en-US');
  const [announcement, setAnnouncement] = useState('');
  const [focusId, setFocusId] = useState<string | null>(null);
  const [leaving, setLeaving] = useState(false);
  const [busy, setBusy] = useState(false);
  const dragged = useRef<Dragged | null>(null);

  const load = async () => {
    const answer = await call<{ template: View }>('GET', `/templates/${id}`);
    if (!answer.ok) {
      setLoadError(problemMessage(answer.problem, t));
      return;
    }
    const model = fromView(answer.data.template);
    setTemplate(model);
    setSavedDefinition(JSON.stringify(toDefinition(model)));
    setConflict(false);
    setServerProblem(null);
  };
  useEffect(() => {
    void load();
  }, [id]);

  const dirty = template !== null && JSON.stringify(toDefinition(template)) !== savedDefinition;
  useEffect(() => {
    if (!dirty) return;
    const warn = (event: BeforeUnloadEvent) => {
      event.preventDefault();
      event.returnValue = t('builder.unsavedWarning');
    };
    window.addEventListener('beforeunload', warn);
    return () => window.removeEventListener('beforeunload', warn);
  }, [dirty]);

  // After a move, focus stays on the moved item's button (or its other one at an edge).
  useEffect(() => {
    if (!focusId) return;
    const wanted = document.getElementById(focusId) as HTMLButtonElement | null;
    const other = focusId.startsWith('move-up-')
      ? focusId.replace('move-up-', 'move-down-')
      : focusId.replace('move-down-', 'move-up-');
    const target = wanted && !wanted.disabled ? wanted : (document.getElementById(other) ?? wanted);
    target?.focus();
    setFocusId(null);
  }, [focusId, template]);

  const problems = useMemo(() => (template ? problemsOf(template) : null), [template]);

  if (loadError) {
    return (
      <>
        <ScreenHeading>{t('title.template')}</ScreenHeading>
        <ErrorMessage text={loadError} />
        <Link href="/workspace/templates" navigate={navigate}>
          {t('builder.back')}
        </Link>
      </>
    );
  }
  if (!template || !problems) return <p class="loading">{t('app.loading')}</p>;

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

  const allFields = template.steps.flatMap((step) => step.fields.map((field) => ({ step, field })));
  const candidatesFor = (except: (field: BuilderField) => boolean): RuleCandidate[] =>
    allFields
      .filter(({ field }) => !except(field) && field.type !== 'heading' && field.type !== 'paragraph')
      .map(({ step, field }) => ({
        field,
        name: `${step.title || t('builder.untitledStep')}: ${field.label || typeName(field.type)}`,
      }));

  const moveStep = (from: number, to: number, viaKeyboard: boolean) => {
    const step = template.steps[from];
    if (!step || to < 0 || to >= template.steps.length) return;
    update((draft) => (draft.steps = moveItem(draft.steps, from, to)));
    setAnnouncement(
      t('builder.movedStep', {
        name: step.title || t('builder.untitledStep'),
        position: to + 1,
        count: template.steps.length,
      }),
    );
    if (viaKeyboard) setFocusId(`${to < from ? 'move-up' : 'move-down'}-${step.id}`);
  };
  const moveField = (stepId: string, from: number, toStepId: string, to: number, viaKeyboard: boolean) => {
    const source = template.steps.find((step) => step.id === stepId);
    const target = template.steps.find((step) => step.id === toStepId);
    const field = source?.fields[from];
    if (!source || !target || !field) return;
    if (stepId === toStepId && (to < 0 || to >= source.fields.length)) return;
    update((draft) => {
      const s = draft.steps.find((step) => step.id === stepId)!;
      const d = draft.steps.find((step) => step.id === toStepId)!;
      if (s === d) s.fields = moveItem(s.fields, from, to);
      else {
        const [moved] = s.fields.splice(from, 1);
        d.fields.splice(Math.min(to, d.fields.length), 0, moved!);
      }
    });
    const count = stepId === toStepId ? source.fields.length : target.fields.length + 1;
    setAnnouncement(
      t('builder.movedField', {
        name: field.label || typeName(field.type),
        position: Math.min(to, count - 1) + 1,
        count,
        step: target.title || t('builder.untitledStep'),
      }),
    );
    if (viaKeyboard) setFocusId(`${to < from ? 'move-up' : 'move-down'}-${field.id}`);
  };

  const stepMoves = (step: BuilderStep, index: number): MoveControls => ({
    position: index,
    count: template.steps.length,
    onMove: (delta) => moveStep(index, index + delta, true),
    onDragStart: (event) => {
      dragged.current = { kind: 'step', stepId: step.id };
      event.dataTransfer?.setData('text/plain', step.id);
      if (event.dataTransfer) event.dataTransfer.effectAllowed = 'move';
    },
    onDrop: (event) => {
      event.preventDefault();
      const from = dragged.current;
      dragged.current = null;
      if (from?.kind === 'step') {
        moveStep(
          template.steps.findIndex((s) => s.id === from.stepId),
          index,
          false,
        );
      } else if (from?.kind === 'field') {
        const source = template.steps.find((s) => s.id === from.stepId);
        const at = source?.fields.findIndex((f) => f.id === from.fieldId) ?? -1;
        if (from.stepId !== step.id) moveField(from.stepId, at, step.id, step.fields.length, false);
      }
    },
  });
  const fieldMoves = (step: BuilderStep, field: BuilderField, index: number): MoveControls => ({
    position: index,
    count: step.fields.length,
    onMove: (delta) => moveField(step.id, index, step.id, index + delta, true),
    onDragStart: (event) => {
      event.stopPropagation();
      dragged.current = { kind: 'field', stepId: step.id, fieldId: field.id };
      event.dataTransfer?.setData('text/plain', field.id);
      if (event.dataTransfer) event.dataTransfer.effectAllowed = 'move';
    },
    onDrop: (event) => {
      event.preventDefault();
      event.stopPropagation();
      const from = dragged.current;
      dragged.current = null;
      if (from?.kind !== 'field') return;
      const source = template.steps.find((s) => s.id === from.stepId);
      const at = source?.fields.findIndex((f) => f.id === from.fieldId) ?? -1;
      if (at >= 0) moveField(from.stepId, at, step.id, index, false);
    },
  });

  const save = async () => {
    setChecked(true);
    setServerProblem(null);
    setStatus(null);
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
    const answer = await call<{ template: View }>('PUT', `/templates/${id}`, {
      body: { ...toDefinition(template), version: template.version },
    });
    setBusy(false);
    if (answer.ok) {
      const model = fromView(answer.data.template);
      setTemplate(model);
      setSavedDefinition(JSON.stringify(toDefinition(model)));
      setError(null);
      setChecked(false);
      setStatus(t('builder.saved', { version: model.version }));
      return;
    }
    if (answer.problem.code === 'template_changed') {
      setConflict(true);
      setError(t('builder.conflict'));
      return;
    }
    if (answer.problem.code === 'invalid_body') {
      const located = locateMessage(template, answer.problem.message);
      setServerProblem(located);
      setError(t('builder.serverRefused', { problem: located.text }));
      return;
    }
    setError(problemMessage(answer.problem, t));
  };

  const shownProblems = (key: string, own: string[] | undefined) => {
    const server =
      serverProblem && (serverProblem.fieldId === key || serverProblem.stepId === key)
        ? [serverProblem.text]
        : [];
    return [...(checked ? (own ?? []) : []), ...server];
  };
  const blockers = sampleTextFields(template);
  const previewHref = `/f/preview?template=${encodeURIComponent(id)}&locale=${encodeURIComponent(previewLocale)}`;

  return (
    <div class="builder">
      <ScreenHeading>{t('builder.heading', { name: template.name || t('title.template') })}</ScreenHeading>
      <p>
        <a
          href="/workspace/templates"
          onClick={(event) => {
            event.preventDefault();
            if (dirty) setLeaving(true);
            else navigate('/workspace/templates');
          }}
        >
          {t('builder.back')}
        </a>
      </p>
      <p class="visually-hidden" role="status" aria-live="polite">
        {announcement}
      </p>

      {blockers.length > 0 ? (
        <div class="warning builder-blockers" role="note">
          <p>
            <strong>{t('builder.sendsBlocked')}</strong> {t('builder.sendsBlockedWhy')}
          </p>
          <ul>
            {blockers.map((field) => (
              <li key={field.id}>
                <a href={`#f-${field.id}-agreement_text`}>
                  {t('builder.replaceIn', { name: field.label || typeName(field.type) })}
                </a>
              </li>
            ))}
          </ul>
        </div>
      ) : null}

      <section class="section builder-card" aria-labelledby="details-heading">
        <h2 id="details-heading">{t('builder.details')}</h2>
        <Problems id="problems-template" messages={checked ? problems.template : undefined} />
        <Field
          id="template-name"
          label={t('builder.name')}
          value={template.name}
          maxLength={200}
          onValue={(value) => update((draft) => (draft.name = value))}
        />
        <TextArea
          id="template-description"
          label={t('builder.description')}
          value={template.description ?? ''}
          onValue={(value) => update((draft) => (draft.description = value || null))}
        />
        <Field
          id="template-vertical"
          label={t('builder.vertical')}
          value={template.vertical ?? ''}
          hint={t('builder.verticalHint')}
          maxLength={200}
          onValue={(value) => update((draft) => (draft.vertical = value || null))}
        />
        <Select
          id="translation-locale"
          label={t('builder.translateInto')}
          value={locale}
          onValue={setLocale}
          options={[
            { value: '', label: t('builder.noTranslation') },
            ...TRANSLATION_LOCALES.map((code) => ({ value: code, label: LOCALE_NAMES[code] ?? code })),
          ]}
        />
        <p class="hint">{t('builder.translateHint')}</p>
        {locale ? (
          <TranslationInputs
            idPrefix="template"
            locale={locale}
            translations={template.translations}
            keys={[
              { key: 'name', label: t('builder.name'), original: template.name },
              ...(template.description
                ? [{ key: 'description', label: t('builder.description'), original: template.description }]
                : []),
            ]}
            onChange={(translations) => update((draft) => (draft.translations = translations))}
          />
        ) : null}
      </section>

      <h2 id="steps-heading" class="section-title">
        {t('builder.steps')}
      </h2>
      <ol class="builder-steps" aria-labelledby="steps-heading">
        {template.steps.map((step, stepIndex) => {
          const moves = stepMoves(step, stepIndex);
          const stepName = step.title || t('builder.untitledStep');
          return (
            <li
              key={step.id}
              id={`step-${step.id}`}
              class={`builder-step${shownProblems(step.id, problems.steps[step.id]).length ? ' builder-invalid' : ''}`}
              onDragOver={(event) => event.preventDefault()}
              onDrop={moves.onDrop}
            >
              <section aria-labelledby={`step-heading-${step.id}`}>
                <div class="builder-card-top">
                  <DragHandle id={step.id} moves={moves} />
                  <h2 id={`step-heading-${step.id}`} class="builder-card-title">
                    {t('builder.stepHeading', { number: stepIndex + 1, name: stepName })}
                  </h2>
                </div>
                <Problems
                  id={`problems-${step.id}`}
                  messages={shownProblems(step.id, problems.steps[step.id])}
                />
                <Field
                  id={`s-${step.id}-title`}
                  label={t('builder.stepTitle')}
                  value={step.title}
                  maxLength={1000}
                  onValue={(value) => changeStep(step.id, (draft) => (draft.title = value))}
                />
                <Check
                  id={`s-${step.id}-optional`}
                  label={t('builder.stepOptional')}
                  checked={step.is_optional}
                  onChecked={(on) => changeStep(step.id, (draft) => (draft.is_optional = on))}
                />
                <RuleEditor
                  idPrefix={`s-${step.id}-rule`}
                  rules={step.conditional_rules}
                  candidates={candidatesFor((field) => step.fields.some((own) => own.id === field.id))}
                  onChange={(rules) => changeStep(step.id, (draft) => (draft.conditional_rules = rules))}
                />
                {locale ? (
                  <TranslationInputs
                    idPrefix={`s-${step.id}`}
                    locale={locale}
                    translations={step.translations}
                    keys={[{ key: 'title', label: t('builder.stepTitle'), original: step.title }]}
                    onChange={(translations) =>
                      changeStep(step.id, (draft) => (draft.translations = translations))
                    }
                  />
                ) : null}
                <div class="actions">
                  <MoveButtons id={step.id} name={stepName} moves={moves} />
                  <button
                    type="button"
                    class="button-danger"
                    aria-label={t('builder.removeStep', { name: stepName })}
                    onClick={() => {
                      update(
                        (draft) =>
                          (draft.steps = draft.steps.filter((candidate) => candidate.id !== step.id)),
                      );
                      setAnnouncement(t('builder.removed', { name: stepName }));
                      document.getElementById('steps-heading')?.focus();
                    }}
                  >
                    {t('builder.removeStepShort')}
                  </button>
                </div>
                <h3 class="builder-fields-title">{t('builder.fields')}</h3>
                {step.fields.length === 0 ? <p class="hint">{t('builder.noFields')}</p> : null}
                <ol class="builder-fields">
                  {step.fields.map((field, fieldIndex) => (
                    <FieldCard
                      key={field.id}
                      field={field}
                      typeName={typeName(field.type)}
                      problems={shownProblems(field.id, problems.fields[field.id])}
                      locale={locale}
                      candidates={candidatesFor((other) => other.id === field.id)}
                      moves={fieldMoves(step, field, fieldIndex)}
                      onChange={(change) => changeField(step.id, field.id, change)}
                      onRemove={() => {
                        changeStep(
                          step.id,
                          (draft) => (draft.fields = draft.fields.filter((f) => f.id !== field.id)),
                        );
                        setAnnouncement(t('builder.removed', { name: field.label || typeName(field.type) }));
                        document.getElementById(`add-type-${step.id}`)?.focus();
                      }}
                    />
                  ))}
                </ol>
                <AddField
                  stepId={step.id}
                  onAdd={(type) => {
                    const field = newField(type, crypto.randomUUID(), typeName(type));
                    changeStep(step.id, (draft) => draft.fields.push(field));
                    setAnnouncement(t('builder.added', { name: typeName(type), step: stepName }));
                    setTimeout(() => document.getElementById(`f-${field.id}-label`)?.focus(), 0);
                  }}
                />
              </section>
            </li>
          );
        })}
      </ol>
      <button
        type="button"
        class="button-secondary"
        onClick={() => {
          const step = newStep(
            crypto.randomUUID(),
            t('builder.newStepTitle', { number: template.steps.length + 1 }),
          );
          update((draft) => draft.steps.push(step));
          setAnnouncement(t('builder.addedStep'));
          setTimeout(() => document.getElementById(`s-${step.id}-title`)?.focus(), 0);
        }}
      >
        {t('builder.addStep')}
      </button>

      <section class="section builder-card" aria-labelledby="preview-heading">
        <h2 id="preview-heading">{t('builder.preview')}</h2>
        <p>{t('builder.previewIntro')}</p>
        {dirty ? <p class="notice">{t('builder.previewSaveFirst')}</p> : null}
        <Select
          id="preview-locale"
          label={t('builder.previewLanguage')}
          value={previewLocale}
          onValue={setPreviewLocale}
          options={['en-US', ...TRANSLATION_LOCALES].map((code) => ({
            value: code,
            label: LOCALE_NAMES[code] ?? code,
          }))}
        />
        <a class="button-secondary builder-preview-link" href={previewHref} target="_blank" rel="noopener">
          {t('builder.openPreview')}
        </a>
      </section>

      <div class="builder-savebar">
        <Status text={status} />
        <ErrorMessage text={error} />
        {dirty ? <p class="builder-unsaved">{t('builder.unsaved')}</p> : null}
        <div class="actions">
          <button type="button" class="button-primary" disabled={busy} onClick={() => void save()}>
            {t('builder.save')}
          </button>
          {conflict ? (
            <button
              type="button"
              class="button-secondary"
              onClick={() => void load().then(() => setError(null))}
            >
              {t('builder.reload')}
            </button>
          ) : null}
        </div>
      </div>

      {leaving ? (
        <Dialog title={t('builder.leaveTitle')} onClose={() => setLeaving(false)}>
          <p>{t('builder.leaveIntro')}</p>
          <div class="actions">
            <button type="button" class="button-secondary" onClick={() => setLeaving(false)}>
              {t('builder.stay')}
            </button>
            <button type="button" class="button-danger" onClick={() => navigate('/workspace/templates')}>
              {t('builder.leave')}
            </button>
          </div>
        </Dialog>
      ) : null}
    </div>
  );
}

function AddField({ stepId, onAdd }: { stepId: string; onAdd: (type: FieldType) => void }) {
  const [type, setType] = useState<FieldType>('short_text');
  return (
    <div class="builder-add">
      <Select
        id={`add-type-${stepId}`}
        label={t('builder.newFieldType')}
        value={type}
        onValue={(value) => setType(value as FieldType)}
        options={FIELD_TYPES.map((candidate) => ({ value: candidate, label: typeName(candidate) }))}
      />
      <button type="button" class="button-secondary" id={`add-field-${stepId}`} onClick={() => onAdd(type)}>
        {t('builder.addField')}
      </button>
    </div>
  );
}
