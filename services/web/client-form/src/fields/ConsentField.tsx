/**
 * A consent box: the statement to agree to, then one checkbox named by the field's label.
 * The answer is true or false.
 */
import type { FieldProps } from './field-props.ts';
import { ErrorText, HelpText, RequiredMarker, controlAria } from './FieldFrame.tsx';
import { configText, helpText } from './field-text.ts';

export function ConsentField({ field, value, onChange, problem, ids, t, formats }: FieldProps) {
  const statement = configText(field, 'statement');
  const help = helpText(field);
  const statementId = `${ids.input}-statement`;
  return (
    <div class={`field field--${field.type}`}>
      {statement ? (
        <p id={statementId} class="field__statement">
          {statement}
        </p>
      ) : null}
      <div class="field__choice field__choice--consent">
        <input
          class="field__choice-input"
          type="checkbox"
          name={field.id}
          checked={value === true}
          onChange={(event) => onChange(event.currentTarget.checked)}
          {...controlAria(field, ids, problem, statement && statementId)}
        />
        <label class="field__choice-label" for={ids.input}>
          {field.label}
        </label>
        {field.is_required ? <RequiredMarker t={t} /> : null}
      </div>
      <HelpText id={ids.help} text={help} />
      <ErrorText id={ids.error} problem={problem} t={t} formats={formats} />
    </div>
  );
}
