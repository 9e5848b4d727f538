import {
  ACCEPTABLE_FILE_TYPES,
  choiceOptions,
} from '../../../../../../templates/contract/field-catalogue.ts';
import { Field } from '../../../ui/index.ts';
import { t } from '../../../i18n.ts';
import { SAMPLE_AGREEMENT_TEXT, type BuilderField } from '../template-model.ts';
import { Check, NumberInput, TextArea } from './builder-inputs.tsx';
import { PaymentConfig } from './builder-payment.tsx';

/** Names people know for the file types a file field may accept. */
/** A file type's name as people know it (builder.fileType.<media type>); PDF reads the same everywhere. */
const fileTypeName = (type: string) => (type === 'application/pdf' ? 'PDF' : t(`builder.fileType.${type}`));

/**
 * The config of one field, by its type (services/templates/contract/field-catalogue.ts says what
 * each key means). `set(key, value)` changes one key; undefined removes it.
 */
type SetConfig = (key: string, value: unknown) => void;

/** The inputs of one field's config: ids inside the field's, strings and numbers by key, the help text. */
function configInputs(field: BuilderField, set: SetConfig) {
  const config = field.config;
  const id = (key: string) => `f-${field.id}-${key}`;
  const str = (key: string) => (typeof config[key] === 'string' ? (config[key] as string) : '');
  const text = (key: string, label: string) => (
    <Field id={id(key)} label={label} value={str(key)} onValue={(value) => set(key, value || undefined)} />
  );
  const number = (key: string, label: string, step?: string) => (
    <NumberInput
      id={id(key)}
      label={label}
      value={config[key]}
      step={step}
      onValue={(value) => set(key, value)}
    />
  );
  return { config, id, str, text, number, help: text('help_text', t('builder.helpText')) };
}

/**
 * The config of one field, by its type (services/templates/contract/field-catalogue.ts says what
 * each key means). `set(key, value)` changes one key; undefined removes it.
 */
export function FieldConfigEditor({ field, set }: { field: BuilderField; set: SetConfig }) {
  const { id, str, text, number, help } = configInputs(field, set);
  switch (field.type) {
    case 'short_text':
    case 'long_text':
      return (
        <div class="builder-config">
          {help}
          {text('placeholder', t('builder.placeholder'))}
          <div class="builder-pair">
            {number('min_length', t('builder.minLength'), '1')}
            {number('max_length', t('builder.maxLength'), '1')}
          </div>
        </div>
      );
    case 'email':
    case 'phone':
      return (
        <div class="builder-config">
          {help}
          {text('placeholder', t('builder.placeholder'))}
        </div>
      );
    case 'number':
      return (
        <div class="builder-config">
          {help}
          <div class="builder-pair">
            {number('min', t('builder.min'))}
            {number('max', t('builder.max'))}
          </div>
          <div class="builder-pair">
            {number('step', t('builder.step'))}
            {text('unit', t('builder.unit'))}
          </div>
        </div>
      );
    case 'date':
      return <DateConfig field={field} set={set} />;
    case 'single_choice':
    case 'dropdown':
    case 'multiple_choice':
      return (
        <div class="builder-config">
          {help}
          <OptionsEditor field={field} set={set} />
          {field.type === 'multiple_choice' ? (
            <div class="builder-pair">
              {number('min_selected', t('builder.minSelected'), '1')}
              {number('max_selected', t('builder.maxSelected'), '1')}
            </div>
          ) : null}
        </div>
      );
    case 'checkbox':
      return (
        <div class="builder-config">
          <TextArea
            id={id('statement')}
            label={t('builder.statement')}
            value={str('statement')}
            onValue={(v) => set('statement', v || undefined)}
          />
          {help}
        </div>
      );
    case 'file_upload':
      return <FileConfig field={field} set={set} />;
    case 'signature':
      return <SignatureConfig field={field} set={set} />;
    case 'payment':
      return <PaymentConfig field={field} set={set} />;
    case 'heading':
    case 'paragraph':
      return (
        <div class="builder-config">
          <TextArea
            id={id('text')}
            label={t('builder.displayText')}
            value={str('text')}
            onValue={(v) => set('text', v || undefined)}
          />
        </div>
      );
    default:
      return null;
  }
}

function DateConfig({ field, set }: { field: BuilderField; set: SetConfig }) {
  const { id, str, help } = configInputs(field, set);
  return (
    <div class="builder-config">
      {help}
      <div class="builder-pair">
        <Field
          id={id('min_date')}
          type="date"
          label={t('builder.minDate')}
          value={str('min_date')}
          onValue={(v) => set('min_date', v || undefined)}
        />
        <Field
          id={id('max_date')}
          type="date"
          label={t('builder.maxDate')}
          value={str('max_date')}
          onValue={(v) => set('max_date', v || undefined)}
        />
      </div>
    </div>
  );
}

function FileConfig({ field, set }: { field: BuilderField; set: SetConfig }) {
  const { config, id, number, help } = configInputs(field, set);
  const accept = Array.isArray(config.accept) ? (config.accept as string[]) : [];
  return (
    <div class="builder-config">
      {help}
      <fieldset class="field builder-types">
        <legend>{t('builder.acceptedTypes')}</legend>
        {ACCEPTABLE_FILE_TYPES.map((type) => (
          <Check
            key={type}
            id={`${id('accept')}-${type.replace(/[^a-z0-9]/gi, '-')}`}
            label={fileTypeName(type)}
            checked={accept.includes(type)}
            onChecked={(on) => set('accept', on ? [...accept, type] : accept.filter((item) => item !== type))}
          />
        ))}
      </fieldset>
      <div class="builder-pair">
        {number('max_files', t('builder.maxFiles'), '1')}
        {number('max_size_mb', t('builder.maxSizeMb'))}
      </div>
    </div>
  );
}

function SignatureConfig({ field, set }: { field: BuilderField; set: SetConfig }) {
  const { config, id, str } = configInputs(field, set);
  return (
    <div class="builder-config">
      {config.is_sample_text === true ? (
        <p class="warning builder-sample" id={`${id('agreement_text')}-hint`}>
          {t('builder.sampleTextWarning')}
        </p>
      ) : null}
      <div class="field">
        <label for={id('agreement_text')}>{t('builder.agreementText')}</label>
        <textarea
          id={id('agreement_text')}
          rows={5}
          value={str('agreement_text')}
          aria-describedby={config.is_sample_text === true ? `${id('agreement_text')}-hint` : undefined}
          onInput={(event) => {
            const value = (event.target as HTMLTextAreaElement).value;
            set('agreement_text', value);
            // Editing the text makes it the team's own; the sample alone blocks sends.
            set('is_sample_text', value === SAMPLE_AGREEMENT_TEXT);
          }}
        />
      </div>
      <Check
        id={id('allow_drawing')}
        label={t('builder.allowDrawing')}
        checked={config.allow_drawing === true}
        onChecked={(on) => set('allow_drawing', on || undefined)}
      />
    </div>
  );
}

/** The options of a choice field: each option's text is also its value (what rules compare with). */
function OptionsEditor({ field, set }: { field: BuilderField; set: SetConfig }) {
  const options = choiceOptions(field);
  const write = (next: Array<{ value: string; label: string }>) => set('options', next);
  return (
    <fieldset class="field builder-options">
      <legend>{t('builder.options')}</legend>
      <ol>
        {options.map((option, index) => (
          <li key={index} class="builder-option">
            <Field
              id={`f-${field.id}-option-${index}`}
              label={t('builder.option', { number: index + 1 })}
              value={option.label}
              onValue={(value) =>
                write(
                  options.map((item, at) =>
                    at === index ? { value: value.trim() || value, label: value } : item,
                  ),
                )
              }
            />
            <button
              type="button"
              class="button-quiet"
              aria-label={t('builder.removeOption', { number: index + 1 })}
              onClick={() => write(options.filter((_, at) => at !== index))}
            >
              {t('builder.remove')}
            </button>
          </li>
        ))}
      </ol>
      <button
        type="button"
        class="button-secondary"
        onClick={() => {
          const label = t('builder.option', { number: options.length + 1 });
          write([...options, { value: label, label }]);
        }}
      >
        {t('builder.addOption')}
      </button>
    </fieldset>
  );
}
