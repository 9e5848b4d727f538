import { choiceOptions, isDisplayOnly } from '../../../../../../templates/contract/field-catalogue.ts';
import { t } from '../../../i18n.ts';
import type { BuilderField, BuilderTemplate } from '../template-model.ts';
import { stepHeading } from './builder-step.tsx';

/**
 * The live preview: the template as the builder holds it now (unsaved edits included), drawn
 * the way the client form lays it out (step by step, label, help text, the control), read
 * only. The client form's own field components belong to another app (its texts, autosave and
 * uploads come with them), so this is a faithful sketch of them; "Open the preview" shows the
 * real form over the saved version.
 */
export function LivePreview({ template }: { template: BuilderTemplate }) {
  return (
    <div class="builder-live">
      <p class="builder-live-name">{template.name}</p>
      {template.description ? <p class="hint">{template.description}</p> : null}
      {template.steps.map((step, index) => (
        <div key={step.id} class="builder-live-step">
          <h3 id={`pv-step-${step.id}`}>{stepHeading(step.title, index + 1)}</h3>
          {step.fields.map((field) => (
            <PreviewField key={field.id} field={field} />
          ))}
        </div>
      ))}
    </div>
  );
}

const str = (value: unknown) => (typeof value === 'string' ? value : '');

function PreviewField({ field }: { field: BuilderField }) {
  const id = `pv-${field.id}`;
  const help = str(field.config.help_text);
  const label = (
    <>
      {field.label}
      {isDisplayOnly(field.type) || field.is_required ? null : (
        <span class="hint"> ({t('builder.previewOptional')})</span>
      )}
    </>
  );
  if (field.type === 'heading') return <h4 class="builder-live-heading">{field.label}</h4>;
  if (field.type === 'paragraph') {
    return (
      <div class="builder-live-field">
        {field.label ? <p class="builder-live-label">{field.label}</p> : null}
        <p>{str(field.config.text)}</p>
      </div>
    );
  }
  const helpText = help ? <p class="hint">{help}</p> : null;
  if (field.type === 'single_choice' || field.type === 'multiple_choice') {
    const kind = field.type === 'single_choice' ? 'radio' : 'checkbox';
    return (
      <fieldset class="builder-live-field">
        <legend>{label}</legend>
        {helpText}
        {choiceOptions(field).map((option, index) => (
          <div class="check" key={`${option.value}-${index}`}>
            <input type={kind} id={`${id}-${index}`} name={id} disabled />
            <label for={`${id}-${index}`}>{option.label}</label>
          </div>
        ))}
      </fieldset>
    );
  }
  const control = (() => {
    switch (field.type) {
      case 'long_text':
        return <textarea id={id} rows={2} disabled />;
      case 'dropdown':
        return (
          <select id={id} disabled>
            {choiceOptions(field).map((option, index) => (
              <option key={index}>{option.label}</option>
            ))}
          </select>
        );
      case 'checkbox':
        return (
          <div class="check">
            <input type="checkbox" id={id} disabled />
            <label for={id}>{str(field.config.statement) || field.label}</label>
          </div>
        );
      case 'file_upload':
      case 'signature':
      case 'payment':
        return <p class="builder-live-box">{t(`fieldType.${field.type}`)}</p>;
      default:
        return (
          <input
            id={id}
            type={field.type === 'email' ? 'email' : field.type === 'date' ? 'date' : 'text'}
            placeholder={str(field.config.placeholder) || undefined}
            disabled
          />
        );
    }
  })();
  const labelled = !['checkbox', 'file_upload', 'signature', 'payment'].includes(field.type);
  return (
    <div class="builder-live-field">
      {labelled ? (
        <label for={id} class="builder-live-label">
          {label}
        </label>
      ) : (
        <p class="builder-live-label">{label}</p>
      )}
      {helpText}
      {control}
    </div>
  );
}
