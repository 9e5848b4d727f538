import { isDisplayOnly } from '../../../../../../templates/contract/field-catalogue.ts';
import { t } from '../../../i18n.ts';
import type { BuilderField, Translations } from '../template-model.ts';
import { Field } from '../../../ui/index.ts';
import { FieldConfigEditor } from './builder-field-config.tsx';
import { Check, Problems } from './builder-inputs.tsx';
import { RuleEditor, type RuleCandidate } from './builder-rule.tsx';
import { fieldTranslationKeys, OptionTranslations, TranslationInputs } from './builder-translations.tsx';

/** Moves of a step or field: by keyboard (buttons) and by dragging its handle. */
export interface MoveControls {
  position: number;
  count: number;
  onMove: (delta: -1 | 1) => void;
  onDragStart: (event: DragEvent) => void;
  onDrop: (event: DragEvent) => void;
}

export function MoveButtons({ id, name, moves }: { id: string; name: string; moves: MoveControls }) {
  return (
    <>
      <button
        type="button"
        id={`move-up-${id}`}
        class="button-secondary"
        disabled={moves.position === 0}
        aria-label={t('builder.moveUp', { name })}
        onClick={() => moves.onMove(-1)}
      >
        {t('builder.moveUpShort')}
      </button>
      <button
        type="button"
        id={`move-down-${id}`}
        class="button-secondary"
        disabled={moves.position === moves.count - 1}
        aria-label={t('builder.moveDown', { name })}
        onClick={() => moves.onMove(1)}
      >
        {t('builder.moveDownShort')}
      </button>
    </>
  );
}

/** The drag handle: mouse and touch users drag it; keyboard users have the Move buttons. */
export function DragHandle({ id, moves }: { id: string; moves: MoveControls }) {
  return (
    <span
      class="drag-handle"
      id={`drag-${id}`}
      draggable
      title={t('builder.dragHint')}
      aria-hidden="true"
      onDragStart={moves.onDragStart}
    >
      ⠿
    </span>
  );
}

export function FieldCard({
  field,
  typeName,
  problems,
  locale,
  candidates,
  moves,
  onChange,
  onRemove,
}: {
  field: BuilderField;
  typeName: string;
  problems: string[] | undefined;
  locale: string;
  candidates: RuleCandidate[];
  moves: MoveControls;
  onChange: (change: (field: BuilderField) => void) => void;
  onRemove: () => void;
}) {
  const name = field.label || typeName;
  const headingId = `field-heading-${field.id}`;
  return (
    <li
      class={`builder-field${problems?.length ? ' builder-invalid' : ''}`}
      id={`field-${field.id}`}
      onDragOver={(event) => event.preventDefault()}
      onDrop={moves.onDrop}
    >
      <div class="builder-card-top">
        <DragHandle id={field.id} moves={moves} />
        <h3 id={headingId} class="builder-card-title">
          {name} <span class="builder-type">({typeName})</span>
        </h3>
      </div>
      <Problems id={`problems-${field.id}`} messages={problems} />
      <Field
        id={`f-${field.id}-label`}
        label={isDisplayOnly(field.type) ? t('builder.title') : t('builder.label')}
        value={field.label}
        onValue={(value) => onChange((draft) => (draft.label = value))}
        maxLength={1000}
      />
      {isDisplayOnly(field.type) ? null : (
        <Check
          id={`f-${field.id}-required`}
          label={t('builder.required')}
          checked={field.is_required}
          onChecked={(on) => onChange((draft) => (draft.is_required = on))}
        />
      )}
      <FieldConfigEditor
        field={field}
        set={(key, value) =>
          onChange((draft) => {
            if (value === undefined) delete draft.config[key];
            else draft.config[key] = value;
          })
        }
      />
      <RuleEditor
        idPrefix={`f-${field.id}-rule`}
        rules={field.conditional_rules}
        candidates={candidates}
        onChange={(rules) => onChange((draft) => (draft.conditional_rules = rules))}
      />
      {locale ? (
        <>
          <TranslationInputs
            idPrefix={`f-${field.id}`}
            locale={locale}
            translations={field.translations}
            keys={fieldTranslationKeys(field)}
            onChange={(translations: Translations | null) =>
              onChange((draft) => (draft.translations = translations))
            }
          />
          <OptionTranslations
            idPrefix={`f-${field.id}`}
            locale={locale}
            field={field}
            onChange={(translations) => onChange((draft) => (draft.translations = translations))}
          />
        </>
      ) : null}
      <div class="actions">
        <MoveButtons id={field.id} name={name} moves={moves} />
        <button
          type="button"
          class="button-danger"
          aria-label={t('builder.removeField', { name })}
          onClick={onRemove}
        >
          {t('builder.remove')}
        </button>
      </div>
    </li>
  );
}
