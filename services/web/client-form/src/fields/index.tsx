import type { FieldProps } from './field-props.ts';

/** A labelled text input for every field type until the field components take over. */
export function Field({ field, value, onChange, problem, ids, t }: FieldProps) {
  const help = typeof field.config?.help_text === 'string' ? field.config.help_text : null;
  const described = [help ? ids.help : null, problem ? ids.error : null].filter(Boolean).join(' ');
  return (
    <div class="field">
      <label for={ids.input}>
        {field.label}
        {field.is_required ? <span class="required-marker"> ({t('field.required')})</span> : null}
      </label>
      {help ? (
        <p id={ids.help} class="help">
          {help}
        </p>
      ) : null}
      <input
        id={ids.input}
        type="text"
        value={typeof value === 'string' ? value : ''}
        aria-invalid={problem ? 'true' : undefined}
        aria-describedby={described || undefined}
        onInput={(event) => onChange(event.currentTarget.value)}
      />
      {problem ? (
        <p id={ids.error} class="error">
          {t(`error.${problem.code}`, problem.params)}
        </p>
      ) : null}
    </div>
  );
}
