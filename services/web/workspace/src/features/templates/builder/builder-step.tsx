import { useState } from 'preact/hooks';
import { FIELD_TYPES, type FieldType } from '../../../../../../templates/contract/field-catalogue.ts';
import { t } from '../../../i18n.ts';
import {
  duplicateField,
  insertField,
  newField,
  type BuilderField,
  type BuilderStep,
  type BuilderTemplate,
} from '../template-model.ts';
import { Field, Select } from '../../../ui/index.ts';
import { DragHandle, FieldCard, MoveButtons, type MoveControls } from './builder-field.tsx';
import { Check, Problems } from './builder-inputs.tsx';
import { typeName } from './builder-moves.ts';
import { RuleEditor, type RuleCandidate } from './builder-rule.tsx';
import { TranslationInputs } from './builder-translations.tsx';
import type { BuilderState } from './use-builder-template.ts';

/** The fields a show-when rule may name (all but display-only ones and the excluded), by step and label. */
export function ruleCandidates(
  template: BuilderTemplate,
  except: (field: BuilderField) => boolean,
): RuleCandidate[] {
  return template.steps
    .flatMap((step) => step.fields.map((field) => ({ step, field })))
    .filter(({ field }) => !except(field) && field.type !== 'heading' && field.type !== 'paragraph')
    .map(({ step, field }) => ({
      field,
      name: `${step.title || t('builder.untitledStep')}: ${field.label || typeName(field.type)}`,
    }));
}

/** The heading's name of a step: its title, numbered once ("Step 2" stays "Step 2", not "Step 2: Step 2"). */
export function stepHeading(title: string, number: number): string {
  const own = title.trim();
  const plain = t('builder.newStepTitle', { number });
  if (own === '' || own.toLowerCase() === plain.toLowerCase()) return plain;
  return t('builder.stepHeading', { number, name: own });
}

/**
 * One step of the builder: its heading (a toggle for the step's own settings: title, optional,
 * show-when rule, translations, moves), its field cards (one open at a time, `openId`), and
 * the palette that adds a field after the open card or at the end.
 */
export function StepCard({
  step,
  stepIndex,
  state,
  template,
  locale,
  moves,
  fieldMoves,
  announce,
  openId,
  setOpenId,
}: {
  step: BuilderStep;
  stepIndex: number;
  state: BuilderState;
  template: BuilderTemplate;
  locale: string;
  moves: MoveControls;
  fieldMoves: (step: BuilderStep, field: BuilderField, index: number) => MoveControls;
  announce: (text: string) => void;
  openId: string | null;
  setOpenId: (id: string | null) => void;
}) {
  const { changeStep, changeField, shownProblems } = state;
  const problems = state.problems!;
  const stepName = step.title || t('builder.untitledStep');
  const settingsKey = `step:${step.id}`;
  const settingsOpen = openId === settingsKey;
  const toggle = (key: string) => setOpenId(openId === key ? null : key);
  const openField = step.fields.some((field) => field.id === openId) ? openId : null;
  const added = (field: BuilderField) => {
    setOpenId(field.id);
    setTimeout(() => document.getElementById(`f-${field.id}-label`)?.focus(), 0);
  };
  return (
    <li
      id={`step-${step.id}`}
      class={`builder-step${shownProblems(step.id, problems.steps[step.id]).length ? ' builder-invalid' : ''}`}
      onDragOver={(event) => event.preventDefault()}
      onDrop={moves.onDrop}
    >
      <section aria-labelledby={`step-heading-${step.id}`}>
        <div class="builder-card-top">
          <DragHandle id={step.id} moves={moves} />
          <h2 id={`step-heading-${step.id}`} class="builder-card-title">
            <button
              type="button"
              class="builder-toggle"
              id={`toggle-step-${step.id}`}
              aria-expanded={settingsOpen}
              aria-controls={settingsOpen ? `step-body-${step.id}` : undefined}
              onClick={() => toggle(settingsKey)}
            >
              {stepHeading(step.title, stepIndex + 1)}
            </button>
          </h2>
        </div>
        <Problems id={`problems-${step.id}`} messages={shownProblems(step.id, problems.steps[step.id])} />
        {settingsOpen ? (
          <StepSettings
            step={step}
            stepName={stepName}
            state={state}
            template={template}
            locale={locale}
            moves={moves}
            announce={announce}
          />
        ) : null}
        {step.fields.length === 0 ? <p class="hint">{t('builder.noFields')}</p> : null}
        <ol class="builder-fields" aria-label={t('builder.fieldsOf', { step: stepName })}>
          {step.fields.map((field, fieldIndex) => (
            <FieldCard
              key={field.id}
              field={field}
              typeName={typeName(field.type)}
              problems={shownProblems(field.id, problems.fields[field.id])}
              locale={locale}
              candidates={ruleCandidates(template, (other) => other.id === field.id)}
              moves={fieldMoves(step, field, fieldIndex)}
              open={openId === field.id}
              onToggle={() => toggle(field.id)}
              onChange={(change) => changeField(step.id, field.id, change)}
              onDuplicate={() => {
                const copy = duplicateField(
                  field,
                  crypto.randomUUID(),
                  t('builder.copyOf', { name: field.label || typeName(field.type) }),
                );
                changeStep(step.id, (draft) => insertField(draft, copy, field.id));
                announce(t('builder.duplicated', { name: field.label || typeName(field.type) }));
                added(copy);
              }}
              onRemove={() => {
                changeStep(
                  step.id,
                  (draft) => (draft.fields = draft.fields.filter((f) => f.id !== field.id)),
                );
                announce(t('builder.removed', { name: field.label || typeName(field.type) }));
                document.getElementById(`add-type-${step.id}`)?.focus();
              }}
            />
          ))}
        </ol>
        <AddField
          stepId={step.id}
          onAdd={(type) => {
            const field = newField(type, crypto.randomUUID(), typeName(type));
            changeStep(step.id, (draft) => insertField(draft, field, openField));
            announce(t('builder.added', { name: typeName(type), step: stepName }));
            added(field);
          }}
        />
      </section>
    </li>
  );
}

/** A step's own settings (its open card): title, optional, show-when rule, translations, moves, remove. */
function StepSettings({
  step,
  stepName,
  state,
  template,
  locale,
  moves,
  announce,
}: {
  step: BuilderStep;
  stepName: string;
  state: BuilderState;
  template: BuilderTemplate;
  locale: string;
  moves: MoveControls;
  announce: (text: string) => void;
}) {
  const { update, changeStep } = state;
  return (
    <div id={`step-body-${step.id}`} class="builder-step-body">
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
        candidates={ruleCandidates(template, (field) => step.fields.some((own) => own.id === field.id))}
        onChange={(rules) => changeStep(step.id, (draft) => (draft.conditional_rules = rules))}
      />
      {locale ? (
        <TranslationInputs
          idPrefix={`s-${step.id}`}
          locale={locale}
          translations={step.translations}
          keys={[{ key: 'title', label: t('builder.stepTitle'), original: step.title }]}
          onChange={(translations) => changeStep(step.id, (draft) => (draft.translations = translations))}
        />
      ) : null}
      <div class="actions">
        <MoveButtons id={step.id} name={stepName} moves={moves} />
        <button
          type="button"
          class="button-danger"
          aria-label={t('builder.removeStep', { name: stepName })}
          onClick={() => {
            update((draft) => (draft.steps = draft.steps.filter((candidate) => candidate.id !== step.id)));
            announce(t('builder.removed', { name: stepName }));
            document.getElementById('steps-heading')?.focus();
          }}
        >
          {t('builder.removeStepShort')}
        </button>
      </div>
    </div>
  );
}

/** The field palette of a step: a type, then Add field (after the open card, else at the end). */
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
