import { isDisplayOnly, PREFILL_SOURCES } from '../../../../../../templates/contract/field-catalogue.ts';
import { t } from '../../../i18n.ts';
import type { BuilderField, Translations } from '../template-model.ts';
import { FieldFrame, Select } from '../../../ui/index.ts';
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

/**
 * One field as a card: collapsed it shows its label, type and whether it is required; the
 * builder keeps one card open at a time (`open`, `onToggle`). Problems show beside the label
 * input (aria-describedby) and, collapsed, under the card's heading.
 */
export function FieldCard({
  field,
  typeName,
  problems,
  locale,
  candidates,
  moves,
  open,
  onToggle,
  onChange,
  onDuplicate,
  onRemove,
}: {
  field: BuilderField;
  typeName: string;
  problems: string[] | undefined;
  locale: string;
  candidates: RuleCandidate[];
  moves: MoveControls;
  open: boolean;
  onToggle: () => void;
  onChange: (change: (field: BuilderField) => void) => void;
  onDuplicate: () => void;
  onRemove: () => void;
}) {
  const name = field.label || typeName;
  const headingId = `field-heading-${field.id}`;
  const bodyId = `field-body-${field.id}`;
  return (
    <li
      class={`builder-field${problems?.length ? ' builder-invalid' : ''}${open ? ' builder-open' : ''}`}
      id={`field-${field.id}`}
      onDragOver={(event) => event.preventDefault()}
      onDrop={moves.onDrop}
    >
      <div class="builder-card-top">
        <DragHandle id={field.id} moves={moves} />
        <h3 id={headingId} class="builder-card-title">
          <button
            type="button"
            class="builder-toggle"
            id={`toggle-${field.id}`}
            aria-expanded={open}
            aria-controls={open ? bodyId : undefined}
            onClick={onToggle}
          >
            {name} <span class="builder-type">({typeName})</span>
          </button>
        </h3>
        {isDisplayOnly(field.type) ? null : (
          <span class={`builder-badge${field.is_required ? ' builder-badge-required' : ''}`}>
            {field.is_required ? t('builder.badgeRequired') : t('builder.badgeOptional')}
          </span>
        )}
      </div>
      {open ? null : <Problems id={`problems-${field.id}`} messages={problems} />}
      {open ? (
        <FieldBody
          field={field}
          bodyId={bodyId}
          name={name}
          problems={problems}
          locale={locale}
          candidates={candidates}
          moves={moves}
          onChange={onChange}
          onDuplicate={onDuplicate}
          onRemove={onRemove}
        />
      ) : null}
    </li>
  );
}

/** The open card's inputs: label, required, prefill, config, show-when rule, translations, actions. */
function FieldBody({
  field,
  bodyId,
  name,
  problems,
  locale,
  candidates,
  moves,
  onChange,
  onDuplicate,
  onRemove,
}: {
  field: BuilderField;
  bodyId: string;
  name: string;
  problems: string[] | undefined;
  locale: string;
  candidates: RuleCandidate[];
  moves: MoveControls;
  onChange: (change: (field: BuilderField) => void) => void;
  onDuplicate: () => void;
  onRemove: () => void;
}) {
  return (
    <div id={bodyId} class="builder-field-body">
      <FieldFrame
        id={`f-${field.id}-label`}
        label={isDisplayOnly(field.type) ? t('builder.title') : t('builder.label')}
      >
        <Problems id={`problems-${field.id}`} messages={problems} />
        <input
          id={`f-${field.id}-label`}
          value={field.label}
          maxLength={1000}
          aria-invalid={problems?.length ? 'true' : undefined}
          aria-describedby={problems?.length ? `problems-${field.id}` : undefined}
          onInput={(event) => onChange((draft) => (draft.label = (event.target as HTMLInputElement).value))}
        />
      </FieldFrame>
      {isDisplayOnly(field.type) ? null : (
        <Check
          id={`f-${field.id}-required`}
          label={t('builder.required')}
          checked={field.is_required}
          onChecked={(on) => onChange((draft) => (draft.is_required = on))}
        />
      )}
      <PrefillChoice field={field} onChange={onChange} />
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
          class="button-secondary"
          aria-label={t('builder.duplicateField', { name })}
          onClick={onDuplicate}
        >
          {t('builder.duplicate')}
        </button>
        <button
          type="button"
          class="button-danger"
          aria-label={t('builder.removeField', { name })}
          onClick={onRemove}
        >
          {t('builder.remove')}
        </button>
      </div>
    </div>
  );
}

/** "Prefill from the client's name/email" for the fields that take it (config.prefill). */
function PrefillChoice({
  field,
  onChange,
}: {
  field: BuilderField;
  onChange: (change: (field: BuilderField) => void) => void;
}) {
  const sources = PREFILL_SOURCES[field.type];
  if (!sources) return null;
  const value = typeof field.config.prefill === 'string' ? field.config.prefill : '';
  return (
    <Select
      id={`f-${field.id}-prefill`}
      label={t('builder.prefill')}
      value={value}
      onValue={(next) =>
        onChange((draft) => {
          if (next) draft.config.prefill = next;
          else delete draft.config.prefill;
        })
      }
      options={[
        { value: '', label: t('builder.prefillNone') },
        ...sources.map((source) => ({ value: source, label: t(`builder.prefill.${source}`) })),
      ]}
    />
  );
}
